"""Bot accounts (hall/botaccounts.py, challenges.py, web/bots_api.py, challenges_api.py): an account
turned into a bot account, its API tokens, a bot's program online over /ws/bot, people's challenges,
the games it plays through the room's own protocol, what a bot account may not do, its forfeit when
its time runs out, and a revoked token stopping it at once."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hallkit import OPEN
from starlette.websockets import WebSocketDisconnect
from test_players import PASSWORD, as_guest, sign_in, sign_up

from parlour.hall.errors import HallError
from parlour.hall.quotas import Limits
from parlour.hall.room.commands import GiveToBot
from parlour.hall.store import make_engine

pytestmark = pytest.mark.timeout(60)


def make_bot(client: TestClient, name: str = "Deep") -> str:
    """A new bot account called ``name``; its first token. The client is left signed out."""
    as_guest(client)
    sign_up(client, name)
    answer = client.post("/api/me/bot")
    assert answer.status_code == 201, answer.text
    as_guest(client)
    return str(answer.json()["token"])


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class BotProgram:
    """A bot's program on /ws/bot, remembering what it received."""

    def __init__(self, client: TestClient, token: str) -> None:
        self._context = client.websocket_connect("/ws/bot", headers=auth(token))
        self.ws = self._context.__enter__()
        self.welcome = self.receive()

    def receive(self) -> dict[str, Any]:
        return dict(json.loads(self.ws.receive_text()))

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(message))

    def ready(self, games: Any = ("secrets",), max_games: int | None = None) -> dict[str, Any]:
        self.send({"type": "ready", "games": list(games), "max_games": max_games})
        return self.receive()

    def close(self) -> None:
        self._context.__exit__(None, None, None)


@contextmanager
def in_background(call: Callable[[], Any]) -> Iterator[list[Any]]:
    """Runs ``call`` on a thread (a challenge waits for the bot's answer); its result in the list after."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(call()), daemon=True)
    thread.start()
    yield out
    thread.join(20)
    assert out, "the request did not come back"


def challenge(client: TestClient, opponent: str = "Deep", game: str = "secrets", **more: Any) -> Any:
    return client.post("/api/challenges", json={"opponent": opponent, "game": game, **more})


def pick(ws: Any, number: int) -> dict[str, Any]:
    """The next state where the socket's seat must act, after it picked ``number`` there (acknowledged)."""
    state = next(m for m in iter(ws.receive_json, None) if m["type"] == "state" and m["legal"])
    ws.send_json({"type": "act", "id": "p", "turn": state["turn"], "action": {"type": "pick", "number": number}})
    answer = next(m for m in iter(ws.receive_json, None) if m["type"] in ("ack", "error"))
    assert answer["type"] == "ack", answer
    return dict(state)


def accepted_challenge(client: TestClient, program: BotProgram, **more: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ana's challenge, accepted by ``program``: (the answer to Ana, the bot's game message)."""
    with in_background(lambda: challenge(client, **more)) as out:
        asked = program.receive()
        assert asked["type"] == "challenge" and asked["from"] == "Ana" and asked["game"] == "secrets", asked
        program.send({"type": "accept", "id": asked["id"]})
        game = program.receive()
    answer = out[0]
    assert answer.status_code == 201, answer.text
    return answer.json(), game


def test_an_account_becomes_a_bot_account_with_tokens_shown_once_and_stored_hashed(client, db_url):
    sign_up(client, "Deep")
    first = client.post("/api/me/bot")
    assert first.status_code == 201 and len(first.json()["token"]) >= 32
    assert client.get("/api/me").json() == {"name": "Deep", "kind": "botacct"}
    again = client.post("/api/me/bot")
    assert again.status_code == 409 and "already" in again.json()["detail"]
    second = client.post("/api/me/tokens", json={"label": "my laptop"})
    assert second.status_code == 201
    listed = client.get("/api/me/tokens").json()
    assert [t["label"] for t in listed] == ["first token", "my laptop"]
    assert all("token" not in t for t in listed)
    engine = make_engine(db_url)
    with engine.connect() as conn:
        stored = {row.token for row in conn.execute(sa.text("SELECT token FROM api_tokens"))}
    engine.dispose()
    tokens = {first.json()["token"], second.json()["token"]}
    assert stored == {hashlib.sha256(t.encode()).hexdigest() for t in tokens} and not stored & tokens
    assert client.delete(f"/api/me/tokens/{listed[0]['id']}").status_code == 204
    assert [t["label"] for t in client.get("/api/me/tokens").json()] == ["my laptop"]
    assert client.delete(f"/api/me/tokens/{listed[0]['id']}").status_code == 404
    assert client.post("/api/me/tokens", json={"label": "x" * 41}).status_code == 422
    # the owner still signs in, as a bot account, to manage its tokens
    as_guest(client)
    assert sign_in(client, "Deep", PASSWORD).json()["kind"] == "botacct"


def test_an_account_with_a_rated_game_cannot_become_a_bot(client, db_url):
    sign_up(client, "Ana")
    engine = make_engine(db_url)
    with engine.begin() as conn:
        account = conn.execute(sa.text("SELECT id FROM accounts WHERE name = 'Ana'")).scalar_one()
        conn.execute(sa.text("INSERT INTO ratings VALUES (:a, 'patchwork', 25, 8, 1, 1, 0)"), {"a": account})
    engine.dispose()
    refused = client.post("/api/me/bot")
    assert refused.status_code == 409 and "rated game" in refused.json()["detail"]
    assert client.get("/api/me").json()["kind"] == "human"
    assert client.get("/api/me/tokens").status_code == 409  # a person's account has no tokens
    as_guest(client)
    assert client.post("/api/me/bot").status_code == 401


def test_a_bot_account_takes_no_seat_uninvited_and_never_chats(client):
    make_bot(client)
    room = client.post("/api/rooms", json={"game": "secrets", "seats": [OPEN, OPEN]}).json()  # a guest's
    sign_in(client, "Deep", PASSWORD)
    for body in ({"take_seat": 0}, {}):
        made = client.post("/api/rooms", json={"game": "secrets", "seats": [OPEN, OPEN], **body})
        assert made.status_code == 403 and "bot account cannot make rooms" in made.json()["detail"]
    joined = client.post(f"/api/rooms/{room['code']}/join", json={"name": "Deep"})
    assert joined.status_code == 403 and "challenged" in joined.json()["detail"]
    assert challenge(client, "Deep").status_code == 403  # nor challenges anyone
    with client.websocket_connect(f"/ws/rooms/{room['code']}") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "welcome"
        ws.send_json({"type": "chat", "text": "hello humans"})
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["code"] == "not_a_player" and "chat" in message["message"]


def test_a_challenge_plays_a_rated_game_through_the_rooms_protocol(client):
    token = make_bot(client)
    sign_up(client, "Ana")
    program = BotProgram(client, token)
    assert program.welcome == {"type": "welcome", "account": "Deep", "max_games": 4, "playing": []}
    assert program.ready(["secrets", {"game": "patchwork", "options": {}}], 2)["type"] == "online"
    online = client.get("/api/bots").json()
    assert [(b["name"], sorted(b["games"]), b["max_games"]) for b in online] == [("Deep", ["patchwork", "secrets"], 2)]
    mine, game = accepted_challenge(client, program)
    assert game["type"] == "game" and game["code"] == mine["code"] and game["seat"] == 1 - mine["seat"]
    room = client.get(f"/api/rooms/{mine['code']}").json()
    assert room["status"] == "playing"
    assert [s.get("bot_account", False) for s in room["seats"]] == [s["seat"] == game["seat"] for s in room["seats"]]
    # the bot plays its seat (found by its account) through the room's own WebSocket protocol
    with client.websocket_connect(f"/ws/bot/rooms/{mine['code']}", headers=auth(token)) as bot_ws, \
            client.websocket_connect(f"/ws/rooms/{mine['code']}") as ana_ws:
        bot_ws.send_json({"type": "hello"})
        welcome = bot_ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["seat"] == game["seat"]
        ana_ws.send_json({"type": "hello", "token": mine["seat_token"]})
        assert ana_ws.receive_json()["seat"] == mine["seat"]
        seen: list[dict[str, Any]] = []
        for _ in range(2):  # Secrets: two rounds, both seats pick in each
            seen.append(pick(bot_ws, 9))
            ana_secret = pick(ana_ws, 1)["view"]["secret"]
        assert all(state["view"]["secret"] != ana_secret for state in seen)
        assert ana_secret not in json.dumps(seen)  # the bot sees only its own seat's view
    assert client.get(f"/api/rooms/{mine['code']}").json()["status"] == "over"
    board = client.get("/api/games/secrets/leaderboard/bots").json()
    assert [(b["name"], b["kind"], b["games"]) for b in board] == [("Deep", "botacct", 1)] and board[0]["rating"] != 0
    assert any(r["game"] == "secrets" for r in client.get("/api/bots").json()[0]["ratings"])
    program.close()


def test_challenges_refused_in_words(client):
    token = make_bot(client)
    sign_up(client, "Ana")
    offline = challenge(client)
    assert offline.status_code == 409 and "offline" in offline.json()["detail"]
    assert challenge(client, "Nobody").status_code == 404
    person = challenge(client, "Ana")
    assert person.status_code == 409 and "that is you" in person.json()["detail"]
    program = BotProgram(client, token)
    program.ready(["secrets"], 1)
    other_game = challenge(client, game="patchwork")
    assert other_game.status_code == 409 and "does not play Patchwork" in other_game.json()["detail"]
    with in_background(lambda: challenge(client)) as out:
        asked = program.receive()
        program.send({"type": "decline", "id": asked["id"], "reason": "I only play at night"})
    assert out[0].status_code == 409 and "declined the challenge: I only play at night" in out[0].json()["detail"]
    client.app.state.challenges.answer_seconds = 0.3  # type: ignore[attr-defined]
    silent = challenge(client)
    assert silent.status_code == 409 and "did not answer" in silent.json()["detail"]
    program.receive()  # the challenge it let pass
    client.app.state.challenges.answer_seconds = 5.0  # type: ignore[attr-defined]
    accepted_challenge(client, program)
    busy = challenge(client)
    assert busy.status_code == 409 and "its most at once" in busy.json()["detail"]
    quick = challenge(client, turn_timer=1)
    assert quick.status_code == 422 and "turn_timer is seconds per turn, 5 to 3600" in quick.json()["detail"]
    program.close()


def test_the_bot_stream_refuses_bad_messages_and_tokens(client):
    token = make_bot(client)
    with client.websocket_connect("/ws/bot", headers=auth("not-a-token")) as ws:
        assert ws.receive_json()["code"] == "bad_credentials"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
    program = BotProgram(client, token)
    for message, code in ((b"{", "bad_message"), (json.dumps({"type": "dance"}).encode(), "bad_message"),
                          (json.dumps({"type": "ready", "games": ["chess"]}).encode(), "unknown_game"),
                          (json.dumps({"type": "ready", "games": ["secrets"], "max_games": 99}).encode(),
                           "bad_message"),
                          (json.dumps({"type": "accept", "id": "x"}).encode(), "bad_message"),
                          (b"x" * (65 * 1024), "too_large")):
        program.ws.send_bytes(message)
        answer = program.receive()
        assert answer["type"] == "error" and answer["code"] == code, (message[:40], answer)
    program.close()


def test_a_revoked_token_stops_the_bot_at_once(client):
    token = make_bot(client)
    sign_up(client, "Ana")
    program = BotProgram(client, token)
    program.ready(["secrets"])
    mine, _ = accepted_challenge(client, program)
    with client.websocket_connect(f"/ws/bot/rooms/{mine['code']}", headers=auth(token)) as bot_ws:
        bot_ws.send_json({"type": "hello"})
        assert bot_ws.receive_json()["type"] == "welcome"
        as_guest(client)
        sign_in(client, "Deep", PASSWORD)
        first = client.get("/api/me/tokens").json()[0]["id"]
        assert client.delete(f"/api/me/tokens/{first}").status_code == 204
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                bot_ws.receive_json()
        assert closed.value.code == 4401
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            program.receive()
    assert closed.value.code == 4401
    program.close()
    assert client.get("/api/bots").json() == []
    with client.websocket_connect("/ws/bot", headers=auth(token)) as ws:
        assert ws.receive_json()["code"] == "bad_credentials"


def timed_out_bot(client: TestClient, clock: Any) -> tuple[str, BotProgram, dict[str, Any], dict[str, Any]]:
    """Deep, a bot account, accepts Ana's challenge to Secrets with a 5 s turn timer and never moves:
    its room connection is told it watches from then on. (Its token, its program, the answer to Ana,
    the bot's game message.)"""
    token = make_bot(client)
    sign_up(client, "Ana")
    program = BotProgram(client, token)
    program.ready(["secrets"])
    mine, game = accepted_challenge(client, program, turn_timer=5)
    with client.websocket_connect(f"/ws/bot/rooms/{mine['code']}", headers=auth(token)) as bot_ws:
        bot_ws.send_json({"type": "hello"})
        assert bot_ws.receive_json()["seat"] == game["seat"]
        clock.advance(6)  # the bot never moves
        told = next(m for m in iter(bot_ws.receive_json, None) if m["type"] == "welcome")
        assert told["seat"] is None  # its connection watches from then on: the seat is not its any more
    return token, program, mine, game


def test_a_bot_whose_time_runs_out_forfeits_its_seat_to_a_builtin_bot(client, clock):
    token, program, mine, game = timed_out_bot(client, clock)
    code = mine["code"]
    seat = client.get(f"/api/rooms/{code}").json()["seats"][game["seat"]]
    assert seat["kind"] == "bot" and seat["name"] == "Deep (bot)" and seat["left"] == "timed_out", seat
    again = BotProgram(client, token)  # its program connecting anew has no game to resume: the seat is not its
    assert again.welcome["playing"] == [], again.welcome
    again.close()
    with client.websocket_connect(f"/ws/rooms/{code}") as ana_ws:  # Ana plays on against the built-in bot
        ana_ws.send_json({"type": "hello", "token": mine["seat_token"]})
        result = None
        for _ in range(3):  # the timer picked for Ana too in round 1; she picks in round 2
            state = next(m for m in iter(ana_ws.receive_json, None)
                         if m["type"] == "state" and (m["legal"] or m["result"]))
            result = state["result"]
            if result:
                break
            ana_ws.send_json({"type": "act", "id": "a", "turn": state["turn"], "action": {"type": "pick", "number": 0}})
    assert result is not None
    as_guest(client)
    sign_in(client, "Deep", PASSWORD)
    finished = client.get("/api/me/games").json()["finished"]
    assert finished[0]["code"] == code and finished[0]["rank"] == 2  # the forfeit ranks last
    # rated as played (room/leaving.py's timed_out): Ana, who stayed, gains from it, unlike an "away" forfeit
    ana = {r["game"]: r for r in client.get("/api/players/Ana").json()["ratings"]}
    deep = {r["game"]: r for r in client.get("/api/players/Deep").json()["ratings"]}
    assert ana["secrets"]["games"] == deep["secrets"]["games"] == 1
    assert ana["secrets"]["rating"] > deep["secrets"]["rating"]
    program.close()


def test_a_bot_that_moves_in_time_keeps_its_seat(client, clock):
    """The forfeit is judged again under the room's lock: a bot account whose deadline has not
    passed, or a person's seat, is not taken (room/leaving.py: check_timed_out)."""
    token = make_bot(client)
    sign_up(client, "Ana")
    program = BotProgram(client, token)
    program.ready(["secrets"])
    mine, game = accepted_challenge(client, program, turn_timer=30)
    code, hall = mine["code"], client.app.state.hall  # type: ignore[attr-defined]
    try:
        for seat in (game["seat"], mine["seat"]):  # the bot's deadline is 30 s away; Ana is a person
            with pytest.raises(HallError) as refused:
                client.portal.call(hall.execute, code, GiveToBot(seat, "random", forfeit=True))  # type: ignore[union-attr]
            assert "not a bot account's whose turn ran out" in str(refused.value)
        seats = client.get(f"/api/rooms/{code}").json()["seats"]
        assert seats[game["seat"]]["kind"] == "human" and seats[game["seat"]]["bot_account"] is True
        assert all(s["left"] is None for s in seats), seats
    finally:
        program.close()


def test_an_attacker_meets_the_bounds(make_client):
    client = make_client(Limits(rest="1000/second", challenges="2/minute", connection_messages="5/second", flood=3))
    token = make_bot(client)
    sign_in(client, "Deep", PASSWORD)
    for n in range(19):  # 20 tokens at most, the first included
        assert client.post("/api/me/tokens", json={"label": f"t{n}"}).status_code == 201
    too_many = client.post("/api/me/tokens", json={})
    assert too_many.status_code == 409 and "at most 20 tokens" in too_many.json()["detail"]
    as_guest(client)
    sign_up(client, "Ana")
    assert [challenge(client).status_code for _ in range(3)] == [409, 409, 429]  # offline, then counted out
    long = client.post("/api/challenges", json={"opponent": "D" * 33, "game": "secrets"})
    assert long.status_code == 422
    with client.websocket_connect("/ws/bot", headers=auth("x" * 10_000)) as ws:
        assert ws.receive_json()["code"] == "bad_credentials"
    program = BotProgram(client, token)
    with pytest.raises(WebSocketDisconnect) as closed:  # a flood of messages: refused, then the socket closed
        for _ in range(40):
            program.send({"type": "ping"})
        while True:
            program.receive()
    assert closed.value.code == 4429
    program.close()
    program = BotProgram(client, token)
    offer = [{"game": "patchwork", "options": {}}] * 21
    program.send({"type": "ready", "games": offer})
    assert "1 to 20 games" in program.receive()["message"]
    program.close()


def test_a_challenger_is_held_to_the_halls_cap_of_unfinished_games(make_client):
    client = make_client(Limits(games_per_player=1))
    token = make_bot(client)
    sign_up(client, "Ana")
    program = BotProgram(client, token)
    program.ready(["secrets"])
    accepted_challenge(client, program)  # her one unfinished game
    refused = challenge(client)
    assert refused.status_code == 409 and "1 unfinished games" in refused.json()["detail"], refused.text
    assert len(client.get("/api/me/games").json()["playing"]) == 1  # no room was made, the bot was not asked
    program.send({"type": "ping"})
    assert program.receive()["type"] == "pong"
    program.close()


def test_a_draining_hall_sends_a_bots_program_elsewhere(client):
    """A hall that drains to stop (SIGTERM) closes a new /ws/bot at once with 1012, as it does a
    room's socket: ``parlour bot connect`` reconnects, through the proxy to another hall."""
    token = make_bot(client)
    client.portal.call(client.app.state.hall.drain)  # type: ignore[union-attr,attr-defined]
    with client.websocket_connect("/ws/bot", headers=auth(token)) as ws, pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 1012
    assert client.get("/api/bots").json() == []
