"""Issue 33 item 4: the coach at the table. A person playing against bots in a room made with the
coach asks for a hint on their turn: the move the after-game analysis would call best, made from
their seat's view in the bot pool's worker, with its chance of winning; the game is never rated.
Every refusal says why and changes nothing; a seat's hints are bounded."""

from __future__ import annotations

import pytest
from hallkit import OPEN, Socket, bot, host, new_room
from test_players import seat_socket, sign_up

from parlour.bots.analysis import advise, move_seed
from parlour.games import all_games
from parlour.hall.errors import HallError
from parlour.hall.quotas import Limits
from parlour.hall.room.coach import AT_ONCE, PER_GAME, PER_MINUTE, Coaching, line


def coached(client, game: str = "patchwork", opponent: str = "easy", coach: bool = True,
            seats: list | None = None) -> tuple[str, str]:
    """A started room where Ana holds seat 0 against a bot: (code, Ana's seat token)."""
    room = new_room(client, game, seats or [OPEN, bot(opponent)], coach=coach, host_name="Ana", take_seat=0)
    answer = client.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"]))
    assert answer.status_code == 200, answer.text
    return room["code"], room["seat_token"]


def my_turn(socket: Socket) -> dict:
    """The state once it is the socket's seat's turn."""
    state = socket.sync()
    return state if state["legal"] else socket.until(lambda s: bool(s["legal"]))


def ask(client, code: str, token: str | None):
    return client.post(f"/api/rooms/{code}/hint", headers=host(token) if token else {})


def test_a_hint_is_the_analysis_best_move_from_the_seat_s_view_with_its_chance(client):
    code, token = coached(client)
    with seat_socket(client, code, token) as ana:
        state = my_turn(ana)
        answer = ask(client, code, token)
        assert answer.status_code == 200, answer.text
        hint = answer.json()
        assert hint["best"] in state["legal"]
        assert hint["seat"] == 0 and hint["turn"] == state["turn"] and hint["choices"] == len(state["legal"])
        assert 0.0 <= hint["win_chance"] <= 1.0 and hint["next_chance"] <= hint["win_chance"]
        assert hint["line"] == line(hint) and f"{round(100 * hint['win_chance'])}% chance of winning" in hint["line"]
        # what the analysis' search says from this seat's view, with the seed it judges this move by
        room = client.app.state.hall.rooms[code]
        game = room.game
        direct = advise(game, game.view(room.state, 0), 0, game.legal_actions(room.state, 0),
                        move_seed(room.seed, room.turn + 1))
        assert direct.to_json() == {k: hint[k] for k in ("best", "win_chance", "next_chance", "choices")}
        assert client.get(f"/api/rooms/{code}").json()["coach"] is True
        # asked again (an impatient click, an attacker): the same hint, not made again
        again = [ask(client, code, token).json() for _ in range(5)]
        assert all(a == hint for a in again)
        assert room.coaching.used == {0: 1}
        assert ana.act(hint["best"])["type"] == "ack"  # and it is a move the room takes


def test_the_coach_refuses_in_words_and_nothing_changes(client):
    plain, plain_token = coached(client, coach=False)
    answer = ask(client, plain, plain_token)
    assert answer.status_code == 409 and "this room has no coach" in answer.json()["detail"]

    code, token = coached(client)
    room = client.app.state.hall.rooms[code]
    before = (room.turn, client.get(f"/api/rooms/{code}").json())
    for who, status, words in ((None, 403, "token"), ("not-a-token", 403, "token")):
        answer = ask(client, code, who)
        assert answer.status_code == status and words in answer.json()["detail"], answer.text
    assert (room.turn, client.get(f"/api/rooms/{code}").json()) == before
    assert room.coaching.used == {}
    assert ask(client, "NOSUCH", token).status_code == 404

    waiting = new_room(client, "patchwork", [OPEN, bot("easy")], coach=True, host_name="Ana", take_seat=0)
    answer = ask(client, waiting["code"], waiting["seat_token"])
    assert answer.status_code == 409 and "has not started" in answer.json()["detail"]

    # a second person at the table: the coach helps only against bots
    two = new_room(client, "patchwork", [OPEN, OPEN], coach=True, host_name="Ana", take_seat=0)
    client.post(f"/api/rooms/{two['code']}/join", json={"name": "Bo", "seat": 1})
    client.post(f"/api/rooms/{two['code']}/start", headers=host(two["host_token"]))
    answer = ask(client, two["code"], two["seat_token"])
    assert answer.status_code == 409 and "only in a game against bots, and Bo plays here too" in answer.json()["detail"]


def test_a_hint_is_only_for_the_seat_s_own_turn(client):
    code, token = coached(client, opponent="hard")  # the search bot takes its whole second to answer
    with seat_socket(client, code, token) as ana:
        my_turn(ana)
        while True:  # patchwork: skipping ahead of the other player hands them the turn
            assert ana.act({"type": "skip"})["type"] == "ack"
            if not ana.sync()["legal"]:
                break
        answer = ask(client, code, token)
        assert answer.status_code == 409 and "for your own turn" in answer.json()["detail"]
        assert client.app.state.hall.rooms[code].coaching.used == {}


def test_a_seat_s_hints_are_bounded_per_minute_per_game_and_in_the_whole_hall():
    coaching = Coaching()
    for i in range(PER_MINUTE):
        coaching.count(0, 100.0 + i)
    with pytest.raises(HallError, match=f"at most {PER_MINUTE} hints a minute: ask again in") as refused:
        coaching.count(0, 110.0)
    assert refused.value.code == "throttled"
    assert coaching.used == {0: PER_MINUTE}  # the refusal counted nothing
    coaching.count(1, 110.0)  # another seat has its own
    coaching.count(0, 161.0)  # a minute after the first, one more
    coaching.used[0] = PER_GAME
    with pytest.raises(HallError, match=f"at most {PER_GAME} hints a game"):
        coaching.count(0, 10_000.0)
    Coaching.making = AT_ONCE
    try:
        with pytest.raises(HallError, match="the coach is busy"):
            coaching.count(2, 10_000.0)
    finally:
        Coaching.making = 0


def test_an_attacker_asking_again_and_again_gets_one_hint_made_per_turn(make_client):
    client = make_client(Limits.lifted())  # no quota per address: the coach's own bound is what holds
    code, token = coached(client, "palace")
    with seat_socket(client, code, token) as ana:
        my_turn(ana)
        answers = [ask(client, code, token) for _ in range(60)]
    assert all(a.status_code == 200 for a in answers)
    assert len({a.text for a in answers}) == 1
    assert client.app.state.hall.rooms[code].coaching.used == {0: 1}


def test_a_coached_game_is_never_rated(client):
    def rating() -> list:
        return client.get("/api/players/Ana").json()["ratings"]

    sign_up(client, "Ana")
    plain, plain_token = coached(client, coach=False)
    assert client.post(f"/api/rooms/{plain}/resign", headers=host(plain_token)).status_code == 200
    rated = rating()
    assert [r["games"] for r in rated] == [1]  # the control: a game against a bot is rated
    code, token = coached(client)
    with Socket(client, code):
        assert client.post(f"/api/rooms/{code}/resign", headers=host(token)).status_code == 200
    assert client.get(f"/api/rooms/{code}").json()["status"] == "over"
    assert rating() == rated


def test_the_one_line_says_why_in_words():
    assert line({"win_chance": 0.62, "next_chance": 0.481, "choices": 9}) == (
        "The coach would play the highlighted move: a 62% chance of winning (the next best: 48%).")
    assert line({"win_chance": 0.8, "next_chance": None, "choices": 1}) == (
        "Only one move is possible here: an 80% chance of winning.")


@pytest.mark.parametrize("game_id", ["palace", "dinosaurs", "empire"])
def test_a_hint_does_not_change_when_what_the_seat_cannot_see_is_resampled(game_id: str) -> None:
    """The same view and seed give the same hint whether the hidden cards are the true ones or any
    others the seat could not tell apart (as tests/analysis does for the analysis)."""
    import random

    from parlour.bots import create
    from parlour.bots.analysis import Budget

    game = all_games()[game_id]
    state = game.start(2, {}, seed=21)
    bots = [create(game, "medium", seed=i) for i in range(2)]
    rng = random.Random(4)
    checked = differed = 0
    for turn in range(1, 40):
        if game.is_over(state):
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        if len(legal) > 1 and turn % 3 == 1:
            view = game.view(state, seat)
            other = game.sample(view, seat, rng)
            assert game.view(other, seat) == view
            differed += game.state_to_json(other) != game.state_to_json(state)
            seed = move_seed(21, turn)
            truth = advise(game, view, seat, legal, seed, Budget(6, 3))
            guess = advise(game, game.view(other, seat), seat, game.legal_actions(other, seat), seed, Budget(6, 3))
            assert guess == truth
            checked += 1
        state = game.apply(state, seat, bots[seat].choose(game.view(state, seat), seat, legal))
    assert checked >= 3 and differed >= 1  # the hidden cards really were other ones
