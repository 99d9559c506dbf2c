"""Players: accounts, sessions, seats that follow a signed-in player, "My games", profiles,
ratings and leaderboards, over REST and the WebSocket (hall/accounts.py, players.py, ratings.py)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hallkit import OPEN, Socket, bot, host, join, new_room

from parlour.hall.accounts import SESSION_COOKIE
from parlour.hall.quotas import Limits
from parlour.hall.room.leaving import AWAY_GRACE
from parlour.hall.store import make_engine, metadata

PASSWORD = "correct horse battery"
CROSS_SITE = {"origin": "https://evil.example"}


def sign_up(client: TestClient, name: str = "Ana", password: str = PASSWORD) -> dict[str, Any]:
    answer = client.post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    return answer.json()


def sign_in(client: TestClient, name: str = "Ana", password: str = PASSWORD) -> Any:
    return client.post("/api/session", json={"name": name, "password": password})


def as_guest(client: TestClient) -> None:
    client.cookies.clear()


def signed_in_game(client: TestClient, game: str = "secrets") -> tuple[dict[str, Any], dict[str, Any]]:
    """A started game of ``game`` between two signed-up players, Ana (seat 0, the host) and Bo (seat
    1), with Bo's session left on ``client``: (the room Ana made, with its tokens; Bo's join answer)."""
    sign_up(client, "Ana")
    room = new_room(client, game, [OPEN, OPEN], take_seat=0)
    as_guest(client)
    sign_up(client, "Bo")
    bo = join(client, room["code"], "Bo")
    client.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"])).raise_for_status()
    return room, bo


def seat_socket(client: TestClient, code: str, token: str | None = None) -> Socket:
    """A socket on ``code`` that said hello with ``token`` (None: the client's session, if any)."""
    socket = Socket(client, code)
    socket.hello(token)
    return socket


def play_secrets(*players: tuple[Socket, int]) -> dict[str, Any]:
    """Each socket picks its number every round until the game of Secrets is over; returns the
    last state the first socket saw. The sockets are closed at the end."""
    try:
        for _ in range(2):  # rounds
            for socket, number in players:
                state = socket.sync()
                if not (state["legal"] or state["result"]):
                    state = socket.until(lambda s: bool(s["legal"]) or s["result"] is not None)
                if state["legal"]:
                    answer = socket.act({"type": "pick", "number": number})
                    assert answer["type"] == "ack", answer
        first = players[0][0]
        return first.state if first.state["result"] else first.until(lambda s: s["result"] is not None)
    finally:
        for socket, _ in players:
            socket.close()


def test_sign_up_signs_in_with_an_httponly_lax_cookie_and_me_says_who(client):
    answer = client.post("/api/accounts", json={"name": "  Ana  ", "password": PASSWORD})
    assert answer.status_code == 201 and answer.json() == {"name": "Ana", "kind": "human"}
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain HTTP here; over HTTPS it is Secure (next test)
    assert client.get("/api/me").json() == {"name": "Ana", "kind": "human"}
    as_guest(client)
    refused = client.get("/api/me")
    assert refused.status_code == 401 and "not signed in" in refused.json()["detail"]


def test_over_https_the_session_cookie_is_secure(client):
    secure = TestClient(client.app, base_url="https://testserver")
    answer = secure.post("/api/accounts", json={"name": "Ana", "password": PASSWORD})
    assert answer.status_code == 201 and "Secure" in answer.headers["set-cookie"]


def test_bad_names_and_passwords_get_a_reason_and_make_no_account(client):
    sign_up(client, "Ana")
    as_guest(client)
    cases = [({"name": "ANA", "password": PASSWORD}, 409, "taken"),
             ({"name": "   ", "password": PASSWORD}, 422, "empty"),
             ({"name": "x" * 33, "password": PASSWORD}, 422, "at most 32"),
             ({"name": "<b>Bo</b>", "password": PASSWORD}, 422, "cannot hold"),
             ({"name": "bot:greedy", "password": PASSWORD}, 422, "bots' accounts"),
             ({"name": "Bo", "password": ""}, 422, "empty"),
             ({"name": "Bo", "password": "short"}, 422, "at least 8"),
             ({"name": "Bo", "password": "p" * 257}, 422, "at most 256"),
             ({"name": "Bo"}, 422, "password"),
             ({"name": "Bo", "password": PASSWORD, "admin": True}, 422, "admin")]
    for body, status, words in cases:
        answer = client.post("/api/accounts", json=body)
        assert answer.status_code == status and words in answer.json()["detail"], (body, answer.text)
        assert SESSION_COOKIE not in answer.headers.get("set-cookie", "")
    assert client.get("/api/players/Bo").status_code == 404
    assert client.get("/api/players/ana").json()["name"] == "Ana"  # names are found whatever their case


def test_a_wrong_name_and_a_wrong_password_get_the_same_401(client):
    sign_up(client, "Ana")
    as_guest(client)
    wrong_password = sign_in(client, "Ana", "not the password")
    wrong_name = sign_in(client, "Nobody", PASSWORD)
    assert wrong_password.status_code == wrong_name.status_code == 401
    assert wrong_password.json() == wrong_name.json() == {"detail": "wrong name or password"}
    assert client.get("/api/me").status_code == 401
    right = sign_in(client, "ana", PASSWORD)  # any case
    assert right.status_code == 200 and right.json()["name"] == "Ana"
    assert client.get("/api/me").json()["name"] == "Ana"


def test_nobody_signs_in_as_a_bot(client):
    room = new_room(client, "secrets", [bot("random"), bot("random")])
    with Socket(client, room["code"]) as watcher:
        watcher.hello(None)
        client.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"]))
        watcher.until(lambda s: s["result"] is not None)
    assert client.get("/api/players/bot:random").json()["kind"] == "bot"
    for password in ("", "x" * 8, "None"):
        answer = sign_in(client, "bot:random", password)
        assert answer.status_code == 401 and answer.json()["detail"] == "wrong name or password"


def test_failed_sign_ins_are_throttled_by_name_and_address_together_never_locking_the_owner_out(make_client, clock):
    client = make_client(Limits.lifted())  # the hall's own rate of REST calls is not what is tested here
    sign_up(client, "Ana")
    as_guest(client)
    stranger = TestClient(client.app, client=("198.51.100.66", 40000))
    for _ in range(5):  # five free failures for the name from the stranger's address
        assert sign_in(stranger, "Ana", "not the password").status_code == 401
    assert sign_in(stranger, "Ana", "not the password").status_code == 401  # the sixth: now it waits 1 s
    waiting = sign_in(stranger, "Ana", PASSWORD)  # even the right password, from there, for a while
    assert waiting.status_code == 429 and "failed sign-ins for this name from your address" in waiting.json()["detail"]
    assert waiting.headers["retry-after"] == "1"
    right = sign_in(client, "Ana", PASSWORD)  # the owner, from their own address, gets in at once
    assert right.status_code == 200 and right.json()["name"] == "Ana"
    clock.advance(1.5)
    assert sign_in(stranger, "Ana", "still not it").status_code == 401
    longer = sign_in(stranger, "Ana", "not the password")
    assert longer.status_code == 429 and longer.headers["retry-after"] == "2"  # each failure doubles the wait
    for n in range(14):  # other names from the stranger's address: 21 failures in all from there
        clock.advance(5)
        assert sign_in(stranger, f"Someone {n}", PASSWORD).status_code == 401
    from_there = sign_in(stranger, "Cy", PASSWORD)
    assert from_there.status_code == 429 and "failed sign-ins from your address" in from_there.json()["detail"]
    as_guest(client)
    assert sign_in(client, "Ana", PASSWORD).status_code == 200  # and the owner still gets in


def test_sign_out_ends_the_session_and_a_stolen_or_expired_cookie_is_worth_nothing(client, clock):
    sign_up(client, "Ana")
    stolen = client.cookies[SESSION_COOKIE]
    assert client.delete("/api/session").status_code == 204
    assert client.get("/api/me").status_code == 401
    client.cookies.set(SESSION_COOKIE, stolen)  # the old cookie, replayed after sign-out
    assert client.get("/api/me").status_code == 401
    client.cookies.set(SESSION_COOKIE, "made-up" * 3)
    assert client.get("/api/me").status_code == 401
    client.cookies.set(SESSION_COOKIE, "x" * 5000)
    assert client.get("/api/me").status_code == 401
    as_guest(client)
    assert sign_in(client).status_code == 200
    assert client.get("/api/me").status_code == 200
    clock.advance(31 * 86400)
    assert client.get("/api/me").status_code == 401
    assert sign_in(client).status_code == 200  # a new session; the expired ones are let go
    sessions = client.app.state.hall.store.read(lambda c: c.execute(sa.text("SELECT count(*) FROM sessions")).scalar())
    assert sessions == 1


def test_change_password_needs_the_current_one_and_ends_the_other_sessions(client):
    sign_up(client, "Ana")
    first = client.cookies[SESSION_COOKIE]
    as_guest(client)
    sign_in(client)
    wrong = client.put("/api/me/password", json={"password": "not it at all", "new_password": "a new secret"})
    assert wrong.status_code == 401 and "current password is wrong" in wrong.json()["detail"]
    short = client.put("/api/me/password", json={"password": PASSWORD, "new_password": "tiny"})
    assert short.status_code == 422 and "at least 8" in short.json()["detail"]
    changed = client.put("/api/me/password", json={"password": PASSWORD, "new_password": "a new secret"})
    assert changed.status_code == 204
    assert client.get("/api/me").status_code == 200  # this session goes on
    kept = client.cookies[SESSION_COOKIE]
    client.cookies.set(SESSION_COOKIE, first)  # the other one ended
    assert client.get("/api/me").status_code == 401
    as_guest(client)
    assert sign_in(client, "Ana", PASSWORD).status_code == 401
    assert sign_in(client, "Ana", "a new secret").status_code == 200
    assert kept != client.cookies[SESSION_COOKIE]
    as_guest(client)
    guest = client.put("/api/me/password", json={"password": PASSWORD, "new_password": "a new secret"})
    assert guest.status_code == 401


def test_a_cross_site_request_with_the_session_cookie_is_refused(client):
    sign_up(client, "Ana")
    body = {"game": "patchwork", "seats": [OPEN, OPEN], "take_seat": 0, "host_name": "x"}
    refused = client.post("/api/rooms", json=body, headers=CROSS_SITE)
    assert refused.status_code == 403 and "another site" in refused.json()["detail"]
    referer = client.post("/api/rooms", json=body, headers={"referer": "https://evil.example/page"})
    assert referer.status_code == 403
    assert client.delete("/api/session", headers=CROSS_SITE).status_code == 403
    assert client.get("/api/rooms").json() == [] and client.get("/api/me").status_code == 200
    same_site = client.post("/api/rooms", json=body, headers={"origin": "http://testserver"})
    assert same_site.status_code == 201
    as_guest(client)  # a guest's request carries no session: nothing to forge, it goes through
    assert client.post("/api/rooms", json=body, headers=CROSS_SITE).status_code == 201


def test_a_seat_taken_signed_in_follows_the_player_to_any_browser(client):
    sign_up(client, "Ana")
    room = new_room(client, "secrets", [OPEN, OPEN], host_name="ignored", take_seat=0)
    code = room["code"]
    seats = client.get(f"/api/rooms/{code}").json()["seats"]
    assert (seats[0]["name"], seats[0]["profile"]) == ("Ana", "Ana")
    again = client.post(f"/api/rooms/{code}/join", json={"name": "Ana again"})
    assert again.status_code == 409 and "seat 0" in again.json()["detail"]
    as_guest(client)
    join(client, code, "Bo")  # a guest, as today
    assert client.get(f"/api/rooms/{code}").json()["seats"][1]["profile"] is None
    client.post(f"/api/rooms/{code}/start", headers=host(room["host_token"]))
    with Socket(client, code) as guest:
        assert guest.hello(None)["seat"] is None  # no cookie, no token: watching
    sign_in(client)  # another browser: no seat token, only the session
    with Socket(client, code) as ana:
        assert ana.hello(None)["seat"] == 0
        assert ana.act({"type": "pick", "number": 3})["type"] == "ack"
    with Socket(client, code) as forged:  # the cookie on a socket another site opened counts for nothing
        forged._context.__exit__(None, None, None)
        forged._context = client.websocket_connect(f"/ws/rooms/{code}", headers=CROSS_SITE)
        forged.ws = forged._context.__enter__()
        assert forged.hello(None)["seat"] is None


def test_my_games_lists_games_in_progress_with_whose_turn_and_finished_ones(client):
    sign_up(client, "Ana")
    first = new_room(client, "secrets", [OPEN, OPEN], take_seat=0)
    as_guest(client)
    bo = join(client, first["code"], "Bo")["seat_token"]
    client.post(f"/api/rooms/{first['code']}/start", headers=host(first["host_token"]))
    sign_in(client)
    mine = client.get("/api/me/games").json()
    assert [g["code"] for g in mine["playing"]] == [first["code"]] and mine["finished"] == []
    playing = mine["playing"][0]
    assert playing["to_act"] == ["Ana", "Bo"] and playing["your_turn"] is True
    assert playing["url"] == f"/r/{first['code']}"
    play_secrets((seat_socket(client, first["code"]), 9),  # Ana's seat, by her session
                 (seat_socket(client, first["code"], bo), 0))
    mine = client.get("/api/me/games").json()
    assert mine["playing"] == [] and [g["code"] for g in mine["finished"]] == [first["code"]]
    finished = mine["finished"][0]
    assert finished["rank"] == 1 and finished["replay_url"] == f"/r/{first['code']}/replay"
    assert finished["change"] is None  # Bo was a guest: the game is not rated
    assert client.get("/api/players/Ana").json()["ratings"] == []
    as_guest(client)
    assert client.get("/api/me/games").status_code == 401


def test_a_game_between_signed_in_players_and_a_bot_is_rated_in_the_store(client, db_url):
    sign_up(client, "Ana")
    room = new_room(client, "secrets", [OPEN, OPEN, bot("random")], take_seat=0)
    code = room["code"]
    as_guest(client)
    sign_up(client, "Bo")
    join(client, code, "whatever")
    client.post(f"/api/rooms/{code}/start", headers=host(room["host_token"]))
    bo = seat_socket(client, code)  # by Bo's session
    as_guest(client)
    sign_in(client, "Ana")
    final = play_secrets((seat_socket(client, code), 9), (bo, 0))
    ranks = final["result"]["ranks"]
    assert ranks[0] == 1 and ranks[1] == 3 or ranks[1] == ranks[2] == 2  # the bot may pick 0s too
    ana = client.get("/api/players/Ana").json()
    assert [(r["game"], r["games"]) for r in ana["ratings"]] == [("secrets", 1)]
    assert ana["played"] == [{"game": "secrets", "played": 1, "won": 1}]
    assert ana["recent"][0]["code"] == code and ana["recent"][0]["change"] > 0
    assert ana["recent"][0]["players"] == ["Ana", "Bo", "random"]
    board = client.get("/api/games/secrets/leaderboard").json()
    assert [row["name"] for row in board][0] == "Ana" and {row["name"] for row in board} == {"Ana", "Bo", "bot:random"}
    assert [row["place"] for row in board] == [1, 2, 3]
    bot_profile = client.get("/api/players/bot:random").json()
    assert bot_profile["kind"] == "bot" and bot_profile["ratings"][0]["games"] == 1
    assert client.get("/api/games/patchwork/leaderboard").json() == []
    unknown = client.get("/api/games/chess/leaderboard")
    assert unknown.status_code == 404 and "no game 'chess'" in unknown.json()["detail"]
    assert client.get("/api/games/secrets/leaderboard?limit=0").status_code == 422
    # the ratings came in the transaction of the last action: both are in the store, together
    engine = make_engine(db_url)
    with engine.connect() as connection:
        status = connection.execute(sa.text("SELECT status FROM rooms WHERE code = :c"), {"c": code}).scalar()
        rated = connection.execute(sa.text("SELECT count(*) FROM ratings WHERE game = 'secrets'")).scalar()
    engine.dispose()
    assert (status, rated) == ("over", 3)


def test_a_seat_given_to_a_bot_mid_game_forfeits_for_its_player_and_rewards_nobody(client, clock):
    room, _ = signed_in_game(client)
    code = room["code"]
    # Bo never comes; the host may not take the seat of a player who may be reloading (issue 27.4)...
    early = client.post(f"/api/rooms/{code}/seats/1/bot", json={"bot": "random"}, headers=host(room["host_token"]))
    assert early.status_code == 409 and "gone" in early.json()["detail"]
    # ...but once Bo has been gone a while, a bot plays Bo's seat, and Ana picks 0: whoever wins, Bo forfeits
    clock.advance(AWAY_GRACE)
    given = client.post(f"/api/rooms/{code}/seats/1/bot", json={"bot": "random"}, headers=host(room["host_token"]))
    assert given.status_code == 200
    as_guest(client)
    sign_in(client, "Ana")
    play_secrets((seat_socket(client, code), 0))
    ana = client.get("/api/players/Ana").json()["recent"][0]
    bo = client.get("/api/players/Bo").json()
    # Bo loses as a forfeit; taking an absent player's seat does not pay: Ana's rating does not move
    assert ana["rank"] == 1 and ana["change"] is None
    assert bo["recent"][0]["rank"] == 2 and bo["recent"][0]["change"] < 0 and bo["played"][0]["won"] == 0
    assert client.get("/api/players/bot:random").status_code == 404  # the stand-in is not rated


def test_unknown_players_are_404_and_profiles_show_nothing_private(client):
    missing = client.get("/api/players/Nobody")
    assert missing.status_code == 404 and "no player 'Nobody'" in missing.json()["detail"]
    sign_up(client, "Ana")
    profile = client.get("/api/players/Ana").json()
    assert set(profile) == {"name", "kind", "ratings", "played", "recent", "reputation"}  # reputation: issue 30


def test_the_openapi_schema_documents_the_players_endpoints_under_their_tag(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path, method in (("/api/accounts", "post"), ("/api/session", "post"), ("/api/session", "delete"),
                         ("/api/me", "get"), ("/api/me/password", "put"), ("/api/me/games", "get"),
                         ("/api/players/{name}", "get"), ("/api/games/{game}/leaderboard", "get")):
        assert paths[path][method]["tags"] == ["players"], path


def test_the_password_is_nowhere_in_the_store_the_logs_or_any_answer(client, db_url, caplog):
    caplog.set_level(logging.DEBUG)
    answers = [client.post("/api/accounts", json={"name": "Ana", "password": PASSWORD})]
    as_guest(client)
    answers += [sign_in(client, "Ana", PASSWORD + "!"), sign_in(client, "Ana", PASSWORD), client.get("/api/me"),
                client.get("/api/players/Ana"),
                client.put("/api/me/password", json={"password": PASSWORD, "new_password": PASSWORD + " 2"}),
                client.put("/api/me/password", json={"password": "x", "new_password": PASSWORD})]
    seen = "".join(a.text + str(a.headers) for a in answers)
    assert PASSWORD not in seen
    assert PASSWORD not in caplog.text
    engine = make_engine(db_url)
    with engine.connect() as connection:
        stored = "".join(str(tuple(row)) for table in metadata.sorted_tables
                         for row in connection.execute(sa.select(table)))
    engine.dispose()
    assert "Ana" in stored and "$argon2id$" in stored and PASSWORD not in stored


@pytest.mark.parametrize("page", ["/signin", "/me", "/players/Ana", "/leaderboard", "/leaderboard/patchwork"])
def test_the_players_pages_are_served(client, page):
    answer = client.get(page)
    assert answer.status_code == 200 and "players.js" in answer.text


def test_passwords_are_hashed_with_argon2id_at_the_librarys_own_cost_by_default(client):
    from argon2 import PasswordHasher, Type

    from parlour.hall.accounts import Accounts

    hasher = Accounts(client.app.state.hall.store, None).hasher  # type: ignore[arg-type]
    default = PasswordHasher()
    assert hasher.type is Type.ID
    assert (hasher.time_cost, hasher.memory_cost) == (default.time_cost, default.memory_cost)
