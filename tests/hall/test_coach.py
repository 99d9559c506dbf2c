"""Issue 33 item 4: the coach at the table. A person playing against bots in a room made with the
coach asks for a hint on their turn: the move the after-game analysis would call best, made from
their seat's view in the bot pool's worker, with its chance of winning; the game is never rated.
Every refusal says why and changes nothing; a seat's hints are bounded."""

from __future__ import annotations

import asyncio
import time

import pytest
from hallkit import OPEN, Socket, bot, host, new_room
from test_players import seat_socket, sign_up

from parlour.bots.analysis import LABELS, advise, judge, move_seed
from parlour.games import all_games, entry
from parlour.hall.errors import HallError
from parlour.hall.quotas import Limits
from parlour.hall.room import takeback
from parlour.hall.room.coach import (
    AT_ONCE,
    PER_GAME,
    PER_MINUTE,
    TAKE_BACKS_PER_GAME,
    TAKE_BACKS_PER_MINUTE,
    Coaching,
    line,
)
from parlour.hall.room.takeback import WRONG


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
        # and the move in words, as the seat would read it (its view only): the page shows them
        words = entry(game.id).describer(room.seats.names())
        assert words is not None and hint["best_words"] == words(hint["best"], game.view(room.state, 0), 0)
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
    before, Coaching.making = Coaching.making, AT_ONCE
    try:
        with pytest.raises(HallError, match="the coach is busy"):
            coaching.count(2, 10_000.0)
    finally:
        Coaching.making = before


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


# -- taking a move back -------------------------------------------------------------------------
def judged_move(client, code: str, wrong: bool) -> dict | None:
    """A legal move of seat 0 now that the coach will find wrong-looking (a mistake or a blunder),
    or not (None: there is none): judged here as the coach judges it, from the seat's view with
    the same seed. A move that ends the game is left out: nothing is left for the bots to answer."""
    room = client.app.state.hall.rooms[code]
    game, state = room.game, room.state
    legal = game.legal_actions(state, 0)
    for action in legal:
        if game.is_over(game.apply(state, 0, action)):
            continue
        judged = judge(game, game.view(state, 0), 0, legal, action, move_seed(room.seed, room.turn + 1))
        if (judged.label in WRONG) == wrong:
            return action
    return None


def wrong_move(client, code: str, socket: Socket) -> tuple[dict, dict]:
    """The state on a turn of seat 0 that has a wrong-looking move, and that move (good moves are
    played until such a turn comes)."""
    for _ in range(20):
        state = my_turn(socket)
        wrong = judged_move(client, code, wrong=True)
        if wrong is not None:
            return state, wrong
        assert socket.act(judged_move(client, code, wrong=False))["type"] == "ack"
        seen = state["turn"]
        socket.until(lambda s, seen=seen: s["turn"] > seen)
    raise AssertionError("no wrong-looking move in 20 turns")


def coach_says(client, code: str, token: str, judged: bool = True) -> dict:
    """The coach's hold of the seat's move, once it has been judged (``judged``)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        answer = client.get(f"/api/rooms/{code}/coach", headers=host(token))
        assert answer.status_code == 200, answer.text
        hold = answer.json()["hold"]
        if not judged or hold is None or hold["judged"] is not None:
            return hold
        time.sleep(0.2)  # 5 calls a second: the hall allows 20 a second and 600 a minute per address
    raise AssertionError("the coach did not judge the move in a minute")


def answered(client, code: str, turn: int) -> None:
    """Waits until the move of the room's ``turn`` stands and whoever is next has moved, or it is
    seat 0's turn again (a game where a seat may move twice)."""
    room = client.app.state.hall.rooms[code]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if room.coaching.hold is None and room.turn > turn and (room.turn > turn + 1 or 0 in room.to_act()):
            return
        time.sleep(0.05)
    raise AssertionError(f"the move of turn {turn} was still held, or nobody answered it, after a minute")


def take_back(client, code: str, token: str | None, keep: bool = False):
    return client.post(f"/api/rooms/{code}/takeback", json={"keep": keep}, headers=host(token) if token else {})


def test_a_wrong_looking_move_is_held_and_taken_back_as_if_never_made(make_client):
    client = make_client()
    code, token = coached(client, "empire")
    room = client.app.state.hall.rooms[code]
    with seat_socket(client, code, token) as ana:
        start, wrong = wrong_move(client, code, ana)
        turn = room.turn
        assert ana.act(wrong)["type"] == "ack"
        hold = coach_says(client, code, token)
        assert hold["seat"] == 0 and hold["turn"] == turn and hold["judged"]["label"] in WRONG and hold["until"] > 0
        assert hold["judged"]["action"] == wrong
        assert hold["judged"]["win_chance_after"] < hold["judged"]["win_chance_before"]
        assert f"That looks like a {hold['judged']['label']}" in hold["judged"]["line"]
        assert room.turn == turn + 1  # the move is the room's last (test_the_bots_wait_while_a_move_is_held)
        # everyone sees the move held; only its player is told why (the coach judged it from their view)
        assert client.get(f"/api/rooms/{code}").json()["coach_hold"] == {"seat": 0, "turn": turn,
                                                                          "until": hold["until"]}
        answer = take_back(client, code, token)
        assert answer.status_code == 200, answer.text
        assert answer.json()["coach_hold"] is None
        after = ana.sync()
        assert after["turn"] == start["turn"] and after["legal"] == start["legal"] and after["view"] == start["view"]
        assert room.turn == turn and len(room.records) == turn
        # nothing is held now: a second take-back is refused in words and changes nothing
        again = take_back(client, code, token)
        assert again.status_code == 409 and "no move of yours to take back" in again.json()["detail"]
        assert room.turn == turn
        # a good move stands at once and the bot answers
        good = judged_move(client, code, wrong=False)
        assert ana.act(good)["type"] == "ack"
        answered(client, code, turn)
    # the store no longer has the move taken back: a restart replays the game as played
    restarted = make_client()
    assert restarted.get(f"/api/rooms/{code}").json()["turn"] >= turn + 1
    assert restarted.app.state.hall.rooms[code].records[turn].action == good


def test_a_held_move_may_be_kept_and_the_bots_answer(client):
    code, token = coached(client, "empire")
    with seat_socket(client, code, token) as ana:
        _, wrong = wrong_move(client, code, ana)
        turn = client.app.state.hall.rooms[code].turn
        assert ana.act(wrong)["type"] == "ack"
        assert coach_says(client, code, token)["judged"]["label"] in WRONG
        answer = take_back(client, code, token, keep=True)
        assert answer.status_code == 200, answer.text
        answered(client, code, turn)
    assert coach_says(client, code, token, judged=False) is None
    refused = take_back(client, code, token)
    assert refused.status_code == 409 and "no move of yours to take back" in refused.json()["detail"]


def test_a_held_move_stands_after_a_while(client, monkeypatch):
    monkeypatch.setattr(takeback, "HOLD", 0.3)
    code, token = coached(client, "empire")
    with seat_socket(client, code, token) as ana:
        _, wrong = wrong_move(client, code, ana)
        turn = client.app.state.hall.rooms[code].turn
        assert ana.act(wrong)["type"] == "ack"
        answered(client, code, turn)  # held 0.3 s, then it stood
    refused = take_back(client, code, token)
    assert refused.status_code == 409


def test_take_backs_are_refused_in_words_where_the_coach_does_not_help(client):
    plain, plain_token = coached(client, "empire", coach=False)
    with seat_socket(client, plain, plain_token) as ana:
        _, wrong = wrong_move(client, plain, ana)
        turn = client.app.state.hall.rooms[plain].turn
        assert ana.act(wrong)["type"] == "ack"
        answered(client, plain, turn)  # not held
    answer = take_back(client, plain, plain_token)
    assert answer.status_code == 409 and "this room has no coach" in answer.json()["detail"]
    assert client.app.state.hall.rooms[plain].turn > turn
    code, token = coached(client, "empire")
    for who, status in ((None, 403), ("not-a-token", 403)):
        assert take_back(client, code, who).status_code == status
    bad = client.post(f"/api/rooms/{code}/takeback", json={"keep": "sometimes"}, headers=host(token))
    assert bad.status_code == 422
    turn_based = client.post("/api/rooms", json={"game": "empire", "seats": [OPEN, bot("easy")], "coach": True,
                                                 "pace": "turn-based", "turn_timer": 86400})
    assert turn_based.status_code == 422 and "the coach is for live games" in turn_based.json()["detail"]


def test_a_seat_s_take_backs_are_bounded():
    coaching = Coaching()
    for i in range(TAKE_BACKS_PER_MINUTE):
        coaching.count_take_back(0, float(i))
    with pytest.raises(HallError, match=f"at most {TAKE_BACKS_PER_MINUTE} take-backs a minute"):
        coaching.count_take_back(0, 30.0)
    coaching.taken_back[0] = TAKE_BACKS_PER_GAME
    with pytest.raises(HallError, match=f"at most {TAKE_BACKS_PER_GAME} take-backs a game"):
        coaching.count_take_back(0, 1000.0)


async def taken_back_apart(tmp_path, missed: bool) -> tuple[bool, int, int]:
    """A coached room applied by one hall and followed by another (a cluster's replica): a move
    taken back on the owner is taken back on the replica too; ``missed``: the replica misses the
    news of it, and catches up with the owner's next move."""
    from test_replicas import Carrier, Follower

    from parlour.hall.clock import SystemClock
    from parlour.hall.hall import Hall
    from parlour.hall.room.commands import Act, Start, TakeBack
    from parlour.hall.store import SqlStore

    url = f"sqlite:///{tmp_path}/hall.sqlite3"
    owner_store, replica_store = SqlStore(url), SqlStore(url)
    carrier = Carrier()
    owner = Hall(owner_store, all_games(), SystemClock(), broadcast=carrier, seed=5)
    replica = Hall(replica_store, all_games(), SystemClock(), seed=5, ownership=Follower())
    carrier.to = replica
    await owner.start()

    async def settled(done) -> None:
        for _ in range(1200):
            if done():
                return
            await asyncio.sleep(0.05)
        raise AssertionError("nothing came in a minute")

    try:
        room, *_ = await owner.create_room("empire", {}, [{"kind": "open"}, {"kind": "bot", "bot": "easy"}],
                                           host_name="Ana", take_seat=0, coach=True)
        copy = await replica.room(room.code)
        await owner.execute(room.code, Start())
        game = room.game
        for _ in range(20):
            await settled(lambda: room.to_act() == {0} and room.coaching.hold is None)
            legal = game.legal_actions(room.state, 0)
            judged = [(a, judge(game, game.view(room.state, 0), 0, legal, a, move_seed(room.seed, room.turn + 1)))
                      for a in legal if not game.is_over(game.apply(room.state, 0, a))]
            wrong = [a for a, j in judged if j.label in WRONG]
            action = wrong[0] if wrong else next(a for a, j in judged if j.label not in WRONG)
            turn = room.turn
            await owner.execute(room.code, Act(0, room.audience(0).turn, action))
            if wrong:
                break
            await settled(lambda turn=turn: room.turn > turn + 1 or 0 in room.to_act())
        await settled(lambda: room.coaching.hold is not None and room.coaching.hold.judged is not None)
        await settled(lambda: copy.turn == room.turn and copy.status_json()["coach_hold"] is not None)
        # the copy shows the hold, and tells its player why, as the owner does
        shown = copy.status_json()["coach_hold"] == room.status_json()["coach_hold"]
        told = takeback.held(copy, 0)["judged"] == room.coaching.hold.judged
        before = copy.turn
        carrier.dropped = 1 if missed else 0
        await owner.execute(room.code, TakeBack(0))
        if missed:
            await asyncio.sleep(0.5)
            assert copy.turn == before  # it did not hear of it
            legal = game.legal_actions(room.state, 0)
            good = next(a for a in legal if judge(game, game.view(room.state, 0), 0, legal, a, move_seed(
                room.seed, room.turn + 1)).label not in WRONG)
            await owner.execute(room.code, Act(0, room.audience(0).turn, good))
            await settled(lambda: room.coaching.hold is None)
            await asyncio.sleep(0.5)
        else:
            await settled(lambda: copy.turn == room.turn)
        after = copy.turn
        await settled(lambda: copy.turn == room.turn)
        same = copy.state_text(0) == room.state_text(0) and copy.records == room.records
        return shown and told and same and copy.status_json()["coach_hold"] is None, before, after
    finally:
        await owner.stop()
        owner_store.close()
        replica_store.close()


@pytest.mark.parametrize("missed", [False, True])
def test_a_replica_takes_the_move_back_too(tmp_path, missed: bool) -> None:
    from test_limits import run_apart

    same, before, after = run_apart(taken_back_apart(tmp_path, missed))
    assert same
    assert after == before - 1 if not missed else after >= before  # the news missed: mended by the next move


def test_the_bots_wait_while_a_move_is_held(client, monkeypatch):
    """Every label held (the mechanism, not the thresholds, under test): a move that hands the turn
    to the bot is held, the bot does not answer until the player takes it back or keeps it."""
    monkeypatch.setattr(takeback, "WRONG", LABELS)
    code, token = coached(client, "empire")
    room = client.app.state.hall.rooms[code]
    game = room.game
    with seat_socket(client, code, token) as ana:
        start = my_turn(ana)
        turn = room.turn
        handing = next(a for a in start["legal"] if 1 in game.to_act(game.apply(room.state, 0, a))
                       and not game.is_over(game.apply(room.state, 0, a)))
        for keep in (False, True):
            assert ana.act(handing)["type"] == "ack"
            assert coach_says(client, code, token)["judged"]["action"] == handing
            time.sleep(1.5)  # the easy bot answers at once when it may
            assert room.turn == turn + 1 and room.to_act() == {1}
            assert take_back(client, code, token, keep=keep).status_code == 200
            if not keep:
                assert room.turn == turn and ana.sync()["legal"] == start["legal"]
        answered(client, code, turn)
        assert room.records[turn].action == handing and room.records[turn + 1].seat == 1  # the bot answered
