"""The second audit's findings about accounts, names and identity (issue 27: items 4's ratings half,
6, 7, 8, 10, 11, 12, 14), each reproduced first, then held: look-alike names, sign-in throttles
that lock nobody out, the cost of hashing, chat names, the client's address behind proxies and
IPv6, the cluster's secret, games thrown between two accounts, sockets after a sign-out."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from hallkit import OPEN, Socket, host, join, new_room
from starlette.websockets import WebSocketDisconnect
from test_limits import run_apart  # the browser tests leave an event loop running in this thread
from test_players import PASSWORD, as_guest, play_secrets, seat_socket, sign_in, sign_up

from parlour.cli.nginx import nginx_conf
from parlour.core import ParlourError
from parlour.hall.accounts import Accounts
from parlour.hall.errors import HallError
from parlour.hall.quotas import Limits, RateLimited, address_key
from parlour.hall.ratings import PAIR_GAMES, PAIR_PERIOD
from parlour.hall.store import SqlStore, make_engine
from parlour.hall.text import clean_name, name_key
from parlour.hall.throttles import HashBudget
from parlour.hall.web import internal
from parlour.hall.web.middleware import Proxies, TrustedProxy


def first(socket: Socket, wanted: Any, limit: int = 500) -> dict[str, Any]:
    """The next message ``wanted(message)`` is true of."""
    for _ in range(limit):
        message = socket.receive()
        if wanted(message):
            return message
    raise AssertionError("no such message")


# -- item 6: look-alike names -------------------------------------------------------------------------

LOOK_ALIKES = ["Аna", "Ａna", "𝐀na", "A\u0301na", "ANA", "Ana\u0307"]  # Cyrillic А, full-width, bold, accents
INVISIBLE = ["Ana\u034f", "An\u3164a", "\u2800Ana", "A\u200bna", "\u3164\u3164", "\u2800", "Ana\u00ad"]


def test_names_are_normalised_and_compared_by_their_confusable_skeleton():
    assert clean_name("Ａna") == "Ana" and clean_name("𝐀na") == "Ana"  # NFKC
    assert {name_key(n) for n in LOOK_ALIKES} == {name_key("Ana")}
    assert name_key("b0t:random") == name_key("bot:random") == name_key(clean_name("bot：random"))
    assert name_key("Ana") != name_key("Anna") and name_key("Bo") != name_key("Bob")
    for name in INVISIBLE:
        with pytest.raises(HallError, match="invisible|control"):  # format characters were refused already
            clean_name(name)
    for name in ("\u0301Ana", "A\u0301\u0301\u0301na"):
        with pytest.raises(HallError, match="accents"):
            clean_name(name)
    with pytest.raises(HallError, match="visible letter"):
        clean_name("\u0301")


def test_an_account_cannot_take_a_look_alike_an_invisible_or_a_bots_name(client):
    sign_up(client, "Ana")
    as_guest(client)
    for name in LOOK_ALIKES:
        answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 409 and "taken" in answer.json()["detail"], (name, answer.text)
    for name in INVISIBLE:
        answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 422 and ("invisible" in answer.json()["detail"]
                                              or "control" in answer.json()["detail"]), (name, answer.text)
    for name in ("bot：random", "b0t:random", "BOT:greedy", "𝐛ot:x"):
        answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 422 and "bots' accounts" in answer.json()["detail"], (name, answer.text)
    # a look-alike signs in to the one account it looks like, never to another
    assert sign_in(client, "Аna", PASSWORD).json()["name"] == "Ana"


def test_seats_and_spectators_cannot_take_a_players_look_alike_name(make_client):
    client = make_client(Limits(chat="100/second"))
    room = new_room(client, "secrets", [OPEN, OPEN], host_name="Ana", take_seat=0)
    code = room["code"]
    join(client, code, "Аna")  # Cyrillic: another name for the eye only
    names = [seat["name"] for seat in client.get(f"/api/rooms/{code}").json()["seats"]]
    assert names == ["Ana", "Аna 2"]
    refused = client.post(f"/api/rooms/{code}/join", json={"name": "\u3164"})
    assert refused.status_code == 422
    with Socket(client, code) as watcher:
        watcher.send({"type": "hello", "token": None, "chat": True})
        watcher.expect("welcome")
        for name in ("Ana", "ａna", "Аna 2", "system", "The Hall", "ѕуѕtеm", "Ana\u2800\u2800\u2800"):
            watcher.send({"type": "chat", "text": "I am the player", "name": name, "id": "c"})
            answer = first(watcher, lambda m: m["type"] == "error")
            assert answer["code"] == "bad_request" and answer["id"] == "c", (name, answer)
        watcher.send({"type": "chat", "text": "hello", "name": "Cy"})
        said = first(watcher, lambda m: m["type"] == "chat" and any(line["text"] == "hello" for line in m["lines"]))
        line = next(line for line in said["lines"] if line["text"] == "hello")
        assert (line["kind"], line["name"]) == ("spectator", "Cy")


def test_a_signed_in_players_seat_is_marked_and_a_guest_of_the_same_name_is_not(client):
    sign_up(client, "Ana")
    room = new_room(client, "secrets", [OPEN, OPEN], take_seat=0)
    as_guest(client)
    join(client, room["code"], "Bo")
    seats = client.get(f"/api/rooms/{room['code']}").json()["seats"]
    assert [(s["name"], s["profile"]) for s in seats] == [("Ana", "Ana"), ("Bo", None)]
    # the table's page draws the signed-in player's seat as a link to the profile, with a mark
    script = client.get("/static/room.js").text
    assert 'class: "seat-name seat-account", href: `/players/${encodeURIComponent(seat.profile)}`' in script
    assert 'class: "badge chat-watching" }, "watching"' in script  # the marker is not part of the name


# -- item 7: no lock-out, growing delays (tests/hall/test_players.py has the REST story) ------------

def test_the_wait_after_failures_doubles_up_to_fifteen_minutes_and_is_forgotten(client, clock):
    accounts: Accounts = client.app.state.accounts
    waits = []
    for _ in range(20):
        accounts.failed_pair.failed(("ana", "203.0.113.9"), clock.now())
        waits.append(accounts.failed_pair.wait(("ana", "203.0.113.9"), clock.now()))
    assert waits[:8] == [0, 0, 0, 0, 0, 1, 2, 4] and max(waits) == 900
    assert accounts.failed_pair.wait(("ana", "203.0.113.10"), clock.now()) == 0  # another address: nothing
    clock.advance(3601)
    assert accounts.failed_pair.wait(("ana", "203.0.113.9"), clock.now()) == 0


# -- item 12: the hashing budget --------------------------------------------------------------------

class SlowHasher(PasswordHasher):
    """Argon2id made cheap, said to take 0.2 s a hash (the budget counts the time it takes)."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)

    def verify(self, hash: Any, password: Any) -> bool:
        import time

        time.sleep(0.2)
        return super().verify(hash, password)


def test_a_sign_in_loop_gets_only_its_share_of_hashing_and_the_hall_its_cap(db_url, clock):
    async def scenario() -> None:
        store = SqlStore(db_url)
        try:
            budget = HashBudget(per_address=0.5, window=60.0, overall=0.7, overall_rate=0.001, waiting_max=2)
            accounts = Accounts(store, clock, SlowHasher(), budget)
            await accounts.sign_up("Ana", PASSWORD, "198.51.100.1")
            signed = 0
            with pytest.raises(RateLimited, match="too many sign-ins from your address"):
                for _ in range(10):  # right passwords, in a loop: 0.2 s each, 0.5 s for this address
                    await accounts.sign_in("Ana", PASSWORD, "198.51.100.1")
                    signed += 1
            assert signed == 3
            await accounts.sign_in("Ana", PASSWORD, "198.51.100.2")  # another address: its own share...
            with pytest.raises(RateLimited, match="busy checking passwords"):
                await accounts.sign_in("Ana", PASSWORD, "198.51.100.3")  # ...until the hall's runs out
            budget.overall.capacity = budget.overall.left = 100.0  # now only the queue's cap can refuse
            many = await asyncio.gather(*(accounts.sign_in("Ana", PASSWORD, f"198.51.100.{n}") for n in range(10, 16)),
                                        return_exceptions=True)
            busy = [r for r in many if isinstance(r, RateLimited)]
            # six at once (each hash 0.2 s): two wait for the one hasher, the others are told to come back
            assert len(busy) >= 3 and all("busy" in str(r) for r in busy), many
        finally:
            store.close()

    run_apart(scenario())


# -- item 11: addresses, proxies, the cluster's secret, /internal/ guesses ----------------------------

def test_quotas_count_an_ipv6_client_by_its_64_network():
    assert address_key("2001:db8:1:2:aaaa:bbbb:cccc:1") == address_key("2001:db8:1:2::ffff") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:203.0.113.7") == address_key("203.0.113.7") == "203.0.113.7"
    assert address_key("testclient") == "testclient"


def test_many_ipv6_addresses_of_one_network_share_one_quota(make_client):
    client = make_client(Limits(rooms="2/minute"))
    body = {"game": "secrets", "seats": [OPEN, OPEN]}
    answers = [TestClient(client.app, client=(f"2001:db8:7:7::{n:x}", 1)).post("/api/rooms", json=body).status_code
               for n in range(1, 5)]
    assert answers == [201, 201, 429, 429]
    other = TestClient(client.app, client=("2001:db8:7:8::1", 1))
    assert other.post("/api/rooms", json=body).status_code == 201


async def _seen_address(app_scope: dict[str, Any], proxies: Proxies) -> tuple[str, str]:
    seen: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.update(scope)

    await TrustedProxy(app, proxies)(app_scope, None, None)  # type: ignore[arg-type]
    return seen["client"][0], seen["scheme"]


def scope(peer: str, **headers: str) -> dict[str, Any]:
    return {"type": "http", "client": (peer, 5000), "scheme": "http",
            "headers": [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]}


def test_x_forwarded_for_is_believed_only_from_a_configured_proxy_with_its_secret():
    nginx = Proxies(frozenset({"127.0.0.1"}), "the proxy's secret")
    forged = {"x_forwarded_for": "203.0.113.50", "x_forwarded_proto": "https"}
    assert run_apart(_seen_address(scope("127.0.0.1", **forged), Proxies())) == ("127.0.0.1", "http")
    assert run_apart(_seen_address(scope("198.51.100.9", **forged), nginx)) == ("198.51.100.9", "http")
    # another local process, without nginx's secret (or with a wrong one), is not believed
    assert run_apart(_seen_address(scope("127.0.0.1", **forged), nginx)) == ("127.0.0.1", "http")
    wrong = dict(forged, x_parlour_proxy="a guess")
    assert run_apart(_seen_address(scope("127.0.0.1", **wrong), nginx)) == ("127.0.0.1", "http")
    right = dict(forged, x_parlour_proxy="the proxy's secret")
    assert run_apart(_seen_address(scope("127.0.0.1", **right), nginx)) == ("203.0.113.50", "https")


def test_the_cluster_gives_its_halls_the_proxy_and_keeps_secrets_off_the_store_and_command_lines(tmp_path):
    conf = nginx_conf(8000, [8101, 8102], "nginx's own secret")
    assert 'proxy_set_header X-Parlour-Proxy "nginx\'s own secret";' in conf
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in conf  # replacing whatever the client wrote
    from parlour.cli.cluster import Cluster

    cluster = Cluster(tmp_path, 2, 8000)
    assert set(cluster.secrets) == {"PARLOUR_CLUSTER_SECRET", "PARLOUR_PROXY_SECRET"}
    assert len(set(cluster.secrets.values())) == 2 and all(len(v) >= 32 for v in cluster.secrets.values())


def test_a_hall_of_a_cluster_takes_its_secret_from_outside_the_store(db_url, monkeypatch):
    from parlour.hall.cluster.node import Node

    store = SqlStore(db_url)
    try:
        monkeypatch.delenv("PARLOUR_CLUSTER_SECRET", raising=False)
        with pytest.raises(ParlourError, match="PARLOUR_CLUSTER_SECRET"):
            Node(store, "redis://127.0.0.1:1/0", "127.0.0.1:8101")
        monkeypatch.setenv("PARLOUR_CLUSTER_SECRET", "s" * 40)
        assert Node(store, "redis://127.0.0.1:1/0", "127.0.0.1:8101").secret == "s" * 40
        engine = make_engine(db_url)
        with engine.connect() as connection:
            kept = connection.execute(sa.text("SELECT count(*) FROM cluster_settings")).scalar()
        engine.dispose()
        assert kept == 0  # nothing a password-less local PostgreSQL would give away
    finally:
        store.close()


def test_guesses_of_the_cluster_secret_are_throttled(client):
    client.app.include_router(internal.router)  # as a hall of a cluster has it
    internal.guesses.succeeded("testclient")
    try:
        for _ in range(internal.GUESSES_FREE):
            answer = client.post("/internal/cluster/rooms/ABC/act", json={}, headers={"x-parlour-cluster": "guess"})
            assert answer.status_code == 403
        client.post("/internal/cluster/rooms/ABC/act", json={}, headers={"x-parlour-cluster": "guess"})
        throttled = client.post("/internal/cluster/rooms/ABC/act", json={}, headers={"x-parlour-cluster": "guess"})
        assert throttled.status_code == 429 and "wrong secret" in throttled.json()["detail"]
        assert int(throttled.headers["retry-after"]) >= 1
    finally:
        internal.guesses.succeeded("testclient")


# -- item 4 (its ratings half): games thrown between the same two accounts -----------------------------

def test_two_accounts_meeting_again_and_again_are_rated_a_few_games_a_day_and_flagged(make_client, clock):
    client = make_client(Limits.lifted())
    sign_up(client, "Main")
    as_guest(client)
    sign_up(client, "Feeder")
    changes = []
    for _ in range(PAIR_GAMES + 2):
        as_guest(client)
        sign_in(client, "Main")
        room = new_room(client, "secrets", [OPEN, OPEN], take_seat=0)
        code = room["code"]
        main = seat_socket(client, code)
        as_guest(client)
        sign_in(client, "Feeder")
        client.post(f"/api/rooms/{code}/join", json={"name": "x"})
        client.post(f"/api/rooms/{code}/start", headers=host(room["host_token"]))
        play_secrets((main, 9), (seat_socket(client, code), 0))  # the feeder throws every game
        changes.append(client.get("/api/players/Main").json()["recent"][0]["change"])
        clock.advance(60)
    assert all(c is not None and c > 0 for c in changes[:PAIR_GAMES]) and changes[PAIR_GAMES:] == [None, None]
    ratings = client.get("/api/players/Main").json()["ratings"]
    assert ratings[0]["games"] == PAIR_GAMES
    flagged = run_apart(client.app.state.hall.store.flagged_pairs(10))
    assert [(f.first, f.second, f.game, f.unrated) for f in flagged] == [("Main", "Feeder", "secrets", 2)]
    clock.advance(PAIR_PERIOD)  # a day later they are rated together again
    as_guest(client)
    sign_in(client, "Main")
    room = new_room(client, "secrets", [OPEN, OPEN], take_seat=0)
    main = seat_socket(client, room["code"])
    as_guest(client)
    sign_in(client, "Feeder")
    client.post(f"/api/rooms/{room['code']}/join", json={"name": "x"})
    client.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"]))
    play_secrets((main, 9), (seat_socket(client, room["code"]), 0))
    assert client.get("/api/players/Main").json()["recent"][0]["change"] > 0


# -- item 14: a refused message's id; sockets after a sign-out ----------------------------------------

def test_a_rate_limited_message_is_answered_with_its_id(make_client):
    client = make_client(Limits(connection_messages="3/minute"))
    room = new_room(client, "secrets", [OPEN, OPEN], host_name="Ana", take_seat=0)
    with Socket(client, room["code"]) as socket:
        socket.hello(room["seat_token"])
        socket.send({"type": "ping", "id": 1})
        socket.send({"type": "ping", "id": 2})
        socket.send({"type": "act", "id": "mine-7", "action": {"type": "pick", "number": 1}})
        refused = first(socket, lambda m: m["type"] == "error")
        assert refused["code"] == "rate_limited" and refused["id"] == "mine-7"


def ana_against_a_guest(client) -> str:
    """A started game of Secrets between Ana, signed in on ``client`` (seat 0), and a guest: its code."""
    sign_up(client, "Ana")
    room = new_room(client, "secrets", [OPEN, OPEN], take_seat=0)
    as_guest(client)
    join(client, room["code"], "Bo")
    sign_in(client, "Ana")
    client.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"])).raise_for_status()
    return room["code"]


def closed_as_signed_out(socket: Socket) -> None:
    """The hall closes ``socket`` with 4401, signed out, within its next 50 messages."""
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(50):
            socket.ws.receive_json()
    assert closed.value.code == 4401


def test_signing_out_closes_the_sessions_sockets_and_lets_their_seat_go(client):
    code = ana_against_a_guest(client)
    with Socket(client, code) as ana:
        assert ana.hello(None)["seat"] == 0  # the seat follows the session
        ana.sync()
        assert client.get(f"/api/rooms/{code}").json()["seats"][0]["connected"] is True
        assert client.delete("/api/session").status_code == 204
        ended = first(ana, lambda m: m["type"] == "error" and m["code"] == "signed_out")
        assert "signed out" in ended["message"]
        closed_as_signed_out(ana)
    assert client.get(f"/api/rooms/{code}").json()["seats"][0]["connected"] is False


def test_the_migration_keys_old_accounts_by_their_skeleton_and_forgets_the_stored_secret(tmp_path):
    from alembic import command

    from parlour.hall.store import migrations

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = make_engine(url)
    with engine.begin() as connection:
        command.upgrade(migrations.config(connection), "0005")
        for number, name in enumerate(["Ana", "Аna", "bot:random"]):  # the second: a Cyrillic А, then allowed
            connection.execute(sa.text("INSERT INTO accounts (name, name_key, kind, password, created)"
                                       " VALUES (:n, :k, 'human', NULL, :c)"), {"n": name, "k": name.casefold(),
                                                                               "c": number})
        connection.execute(sa.text("INSERT INTO cluster_settings VALUES ('forward_secret', 'in the clear')"))
    assert migrations.prepare(engine)[0] == "0006"  # and the later revisions
    with engine.connect() as connection:
        keys = dict(connection.execute(sa.text("SELECT name, name_key FROM accounts")).all())
        settings = connection.execute(sa.text("SELECT count(*) FROM cluster_settings")).scalar()
    engine.dispose()
    assert keys["Ana"] == name_key("Ana") and keys["bot:random"] == name_key("bot:random")
    assert keys["Аna"] == f"{name_key('Ana')}#2"  # the younger look-alike keeps its rows, not the name
    assert settings == 0


def test_a_hall_port_does_not_believe_x_forwarded_for_from_a_local_process(tmp_path):
    import httpx

    from parlour.cli.processes import free_port, start_server

    port = free_port()
    server = start_server(f"sqlite:///{tmp_path / 'hall.sqlite3'}", port, ("--limit", "rooms=2/minute"))
    try:
        body = {"game": "patchwork", "seats": [OPEN, OPEN]}
        answers = [httpx.post(f"http://127.0.0.1:{port}/api/rooms", json=body, timeout=10,
                              headers={"x-forwarded-for": f"203.0.113.{n}"}).status_code for n in range(1, 4)]
        assert answers == [201, 201, 429]  # one local client, whatever address it writes
    finally:
        server.terminate()
        server.wait(30)


def test_a_socket_of_a_session_ended_elsewhere_finds_out_before_it_acts(client, monkeypatch):
    from parlour.hall.web import signed_in, socket

    monkeypatch.setattr(socket, "RECHECK", 0.0)
    monkeypatch.setattr(signed_in.SignedInSockets, "end_session", lambda self, session: None)  # another process
    code = ana_against_a_guest(client)
    with Socket(client, code) as ana:
        assert ana.hello(None)["seat"] == 0
        assert client.delete("/api/session").status_code == 204
        refused = ana.act({"type": "pick", "number": 3}, message_id="after")
        assert refused["type"] == "error" and refused["code"] == "signed_out" and refused["id"] == "after"
        closed_as_signed_out(ana)
