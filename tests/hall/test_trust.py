"""A hall people can trust (issue 30): friends, blocks, mutes, reports, moderators, reputation,
and a player's own data (hall/social.py, hall/moderation.py, web/friends_api.py, moderation_api.py)."""

from __future__ import annotations

import gc
import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hallkit import OPEN, Socket, host, new_room
from limits import parse
from starlette.websockets import WebSocketDisconnect
from test_accounts_security import first
from test_bot_accounts import in_background, timed_out_bot
from test_person_challenges import challenge, incoming, session_of, wait_for_challenges
from test_players import PASSWORD, play_secrets, seat_socket
from test_table import chat_lines

from parlour.cli import main as parlour
from parlour.hall import social as social_module
from parlour.hall.hall import SWEEP_EVERY
from parlour.hall.moderation import REPORTS_PER_DAY
from parlour.hall.quotas import Limits
from parlour.hall.ratings import PAIR_GAMES
from parlour.hall.room.leaving import ABANDONED_AFTER, AWAY_GRACE
from parlour.hall.room.votes import PROPOSE_EVERY

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def client(make_client):
    """A hall whose REST rate per address does not stop these tests (several people share one address)."""
    return make_client(Limits(rest="1000/second", joins="1000/minute", rooms="1000/minute"))


class Person:
    """One person's browser on the hall: their own cookies, over the test's one client (whose
    event loop every socket of the test must share, for the broadcast to reach them all)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jar: dict[str, str] = {}
        self.app = client.app

    def __getattr__(self, method: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            self.client.cookies.clear()
            for key, value in self.jar.items():
                self.client.cookies.set(key, value)
            try:
                return getattr(self.client, method)(*args, **kwargs)
            finally:
                # what the server set last wins over what was sent (a cookie set here has no domain)
                sent, got = {}, {}
                for cookie in self.client.cookies.jar:
                    (got if cookie.domain else sent)[cookie.name] = cookie.value
                self.jar = {**sent, **got}
                self.client.cookies.clear()
        return call


def person(client: TestClient, name: str) -> Any:
    """A browser of its own on the same hall, signed up as ``name``."""
    other = Person(client)
    answer = other.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return other


def sitting(client: TestClient, code: str) -> str:
    answer = client.post(f"/api/rooms/{code}/join", json={"name": "whoever"})
    assert answer.status_code == 200, answer.text
    return answer.json()["seat_token"]


def chat_socket(client: TestClient, code: str, token: str | None = None) -> Socket:
    socket = Socket(client, code)
    socket.send({"type": "hello", "token": token, "chat": True})
    return socket


def said(socket: Socket, until: str | None = None) -> list[str]:
    """Every chat text the socket has been shown, once a line saying ``until`` has come (else once
    a ping's pong marks the end of what was queued). A later line coming means every earlier one
    would have come before it: lines are sent in the order they are numbered."""
    def shown() -> list[str]:
        hidden = {n for m in socket.received if m["type"] == "chat" for n in m.get("hidden", [])}
        return [line["text"] for m in socket.received if m["type"] == "chat" for line in m["lines"]
                if line["n"] not in hidden]
    if until is None:
        socket.send({"type": "ping"})
        while socket.receive()["type"] != "pong":
            pass
    else:
        for _ in range(200):
            if until in shown():
                break
            socket.receive()
    return shown()


def next_of(socket: Socket, kind: str) -> dict[str, Any]:
    """The next message of ``kind``, past any other."""
    for _ in range(200):
        message = socket.receive()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def admin(*arguments: str) -> int:
    """``parlour admin ...`` in a thread of its own: the command runs its own event loop, and the
    browser tests leave one running in this thread."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(parlour, ["admin", *arguments]).result()


def moderator(client: TestClient, db_url: str, name: str = "Mod") -> TestClient:
    mod = person(client, name)
    assert admin("grant", name, "moderator", "--db", db_url) == 0
    return mod


# -- friends and invitations ---------------------------------------------------------------------------
def test_friends_are_followed_listed_with_where_they_play_and_invited_to_a_table(client):
    ana, bo = person(client, "Ana"), person(client, "Bo")
    assert ana.put("/api/me/friends/bo").json() == {"done": "you follow Bo"}
    assert ana.put("/api/me/friends/Bo").status_code == 200  # again: nothing new
    code = new_room(ana)["code"]
    listed = ana.get("/api/me/friends").json()
    assert [(f["name"], f["room"]) for f in listed] == [("Bo", None)]
    with Socket(bo, code):  # Bo watches: online, but sits nowhere
        assert ana.get("/api/me/friends").json()[0]["online"] is True
    seat = sitting(bo, code)
    with chat_socket(bo, code, seat) as his:
        first(his, lambda m: m["type"] == "chat")  # his hello is through (its chat comes after): he is at the table
        now = ana.get("/api/me/friends").json()[0]
        assert (now["online"], now["room"], now["game"], now["url"]) == (True, code, "patchwork", f"/r/{code}")
    assert bo.get("/api/me/friends").json() == []  # following goes one way

    # an invitation to Ana's table, seen once on Bo's next page
    other = new_room(ana)["code"]
    refused = ana.post("/api/me/invitations", json={"player": "Bo", "room": other})
    assert refused.status_code == 403 and "do not sit" in refused.json()["detail"]
    sitting(ana, other)
    sent = ana.post("/api/me/invitations", json={"player": "Bo", "room": other})
    assert sent.status_code == 201, sent.text
    notices = bo.get("/api/me/notices").json()
    assert notices["invitations"] == [{"from": "Ana", "room": other, "url": f"/r/{other}",
                                       "at": notices["invitations"][0]["at"]}]
    assert bo.get("/api/me/notices").json()["invitations"] == []  # shown once
    cy = person(client, "Cy")
    not_a_friend = ana.post("/api/me/invitations", json={"player": "Cy", "room": other})
    assert not_a_friend.status_code == 422 and "follow Cy first" in not_a_friend.json()["detail"]
    assert cy.get("/api/me/notices").json()["invitations"] == []
    assert ana.delete("/api/me/friends/Bo").status_code == 204
    assert ana.get("/api/me/friends").json() == []


def test_friend_requests_are_bounded_and_refused_in_words(client, monkeypatch):
    ana = person(client, "Ana")
    person(client, "Bo"), person(client, "Cy"), person(client, "Di")
    monkeypatch.setattr(social_module, "FOLLOWS_RATE", parse("2/hour"))
    for name in ("Bo", "Cy"):
        assert ana.put(f"/api/me/friends/{name}").status_code == 200
    third = ana.put("/api/me/friends/Di")
    assert third.status_code == 429 and "too many friends added" in third.json()["detail"]
    assert [f["name"] for f in ana.get("/api/me/friends").json()] == ["Bo", "Cy"]
    for bad, status, words in (("Nobody", 404, "no player"), ("Ana", 422, "that is you"),
                               ("bot:greedy", 404, "no player"), ("x" * 65, 422, "at most 64")):
        answer = ana.put(f"/api/me/friends/{bad}")
        assert answer.status_code == status and words in answer.json()["detail"], (bad, answer.text)
    assert TestClient(client.app).get("/api/me/friends").status_code == 401  # a guest


# -- blocks and mutes ------------------------------------------------------------------------------------
def test_a_blocked_players_chat_never_reaches_the_blocker_live_or_after_a_reload(client):
    ana, bo, cy = person(client, "Ana"), person(client, "Bo"), person(client, "Cy")
    code = new_room(ana, "palace", [OPEN, OPEN, OPEN])["code"]
    seats = {name: sitting(c, code) for name, c in (("Ana", ana), ("Bo", bo), ("Cy", cy))}
    with chat_socket(ana, code, seats["Ana"]) as at_ana, chat_socket(bo, code, seats["Bo"]) as at_bo, \
            chat_socket(cy, code, seats["Cy"]) as at_cy:
        chat_lines(at_cy, 3)
        at_cy.send({"type": "chat", "text": "before the block"})
        chat_lines(at_ana, 4)
        assert ana.put("/api/me/blocks/Cy").status_code == 200  # while connected: it counts at once
        at_cy.send({"type": "chat", "text": "after the block"})
        assert said(at_bo, "after the block")[-1] == "after the block"
        at_bo.send({"type": "chat", "text": "Bo here"})
        assert said(at_ana, "Bo here")[-1] == "Bo here" and "after the block" not in said(at_ana)
    with chat_socket(ana, code, seats["Ana"]) as reloaded:  # a reload: the history is filtered too
        history = said(reloaded, "Bo here")
        assert "before the block" not in history and "after the block" not in history
    # the block is private: only Ana sees it, and it is nowhere in Cy's view of himself
    assert [b["name"] for b in ana.get("/api/me/blocks").json()] == ["Cy"]
    assert cy.get("/api/me/blocks").json() == [] and "Ana" not in json.dumps(cy.get("/api/me/data").json()["blocks"])
    assert ana.delete("/api/me/blocks/Cy").status_code == 204
    with chat_socket(ana, code, seats["Ana"]) as unblocked:
        assert "after the block" in said(unblocked, "Bo here")
        assert len(client.app.state.social._blocked) == 1  # Ana's, while a connection of hers holds it
    for _ in range(100):  # with the connections gone, nothing of anyone's blocks stays in memory
        gc.collect()
        if len(client.app.state.social._blocked) == 0:
            break
        time.sleep(0.05)
    assert len(client.app.state.social._blocked) == 0


def test_a_blocked_player_cannot_join_the_blockers_table_nor_invite_them(client):
    ana, cy = person(client, "Ana"), person(client, "Cy")
    code = new_room(ana)["code"]
    sitting(ana, code)
    ana.put("/api/me/blocks/Cy")
    refused = cy.post(f"/api/rooms/{code}/join", json={"name": "Cy"})
    assert refused.status_code == 403 and "does not play with you" in refused.json()["detail"]
    assert "Cy" not in json.dumps(client.get(f"/api/rooms/{code}").json()["seats"])  # nothing changed
    mine = new_room(cy)["code"]
    sitting(cy, mine)
    cy.put("/api/me/friends/Ana")
    invite = cy.post("/api/me/invitations", json={"player": "Ana", "room": mine})
    assert invite.status_code == 403 and "does not take invitations from you" in invite.json()["detail"]
    assert ana.get("/api/me/notices").json()["invitations"] == []
    assert client.post(f"/api/rooms/{code}/join", json={"name": "a guest"}).status_code == 200  # guests as today


def test_a_blocked_player_cannot_challenge_the_blocker_and_nobody_is_asked(client):
    ana, cy, bo = session_of(client, "Ana"), session_of(client, "Cy"), session_of(client, "Bo")
    for who in (ana, bo):
        incoming(client, who)  # both look at their challenges: they may be challenged
    assert client.put("/api/me/blocks/Cy", headers=ana).status_code == 200
    refused = challenge(client, cy, "Ana")
    assert refused.status_code == 403 and refused.json()["detail"] == "Ana does not take challenges from you"
    assert incoming(client, ana) == [] and client.get("/api/me/games", headers=cy).json()["playing"] == []
    assert client.put("/api/me/friends/Bo", headers=cy).status_code == 200  # a person is challenged by friends
    with in_background(lambda: challenge(client, cy, "Bo")):  # anyone else he may: Bo is asked
        assert [c["from"] for c in wait_for_challenges(client, bo)] == ["Cy"]
        declined = client.post(f"/api/challenges/{incoming(client, bo)[0]['id']}/decline", json={}, headers=bo)
        assert declined.status_code == 204, declined.text


def test_anyone_mutes_one_name_in_one_room_for_themselves(client):
    room = new_room(client, "palace", [OPEN, OPEN, OPEN])
    code = room["code"]
    tokens = [client.post(f"/api/rooms/{code}/join", json={"name": n}).json()["seat_token"] for n in ("A", "B", "C")]
    with chat_socket(client, code, tokens[0]) as a, chat_socket(client, code, tokens[1]) as b, \
            chat_socket(client, code, tokens[2]) as c:
        a.send({"type": "mute", "name": "C"})
        assert next_of(a, "muted")["names"] == ["C"]
        c.send({"type": "chat", "text": "noise"})
        assert said(b, "noise")[-1] == "noise"  # only A muted C
        b.send({"type": "chat", "text": "signal"})
        assert "noise" not in said(a, "signal")
        for bad in ({"type": "mute"}, {"type": "mute", "name": "x" * 65}, {"type": "mute", "name": "C", "on": 1}):
            a.send(bad)
            assert next_of(a, "error")["code"] == "bad_message"
        a.send({"type": "mute", "name": "C", "on": False})
        assert next_of(a, "muted")["names"] == []
        c.send({"type": "chat", "text": "heard again"})
        assert said(a, "heard again")[-1] == "heard again"


# -- reports and moderators ----------------------------------------------------------------------------
def test_a_report_keeps_a_copy_of_the_chat_around_it_and_is_bounded(client, db_url):
    ana, cy = person(client, "Ana"), person(client, "Cy")
    code = new_room(ana)["code"]
    tokens = sitting(ana, code), sitting(cy, code)
    with chat_socket(cy, code, tokens[1]) as at_cy:
        for i in range(3):
            at_cy.send({"type": "chat", "text": f"rude {i}"})
        lines = chat_lines(at_cy, 5)
    line = next(x["n"] for x in lines if x["text"] == "rude 1")
    made = ana.post("/api/reports", json={"player": "Cy", "room": code, "line": line, "reason": "insults"})
    assert made.status_code == 201, made.text
    for body, status, words in (
            ({"player": "Cy", "reason": ""}, 422, "reason cannot be empty"),
            ({"player": "Cy", "reason": "x" * 501}, 422, "500"),
            ({"player": "Cy", "room": code, "line": 999, "reason": "r"}, 422, "no chat line 999"),
            ({"player": "Nobody", "reason": "r"}, 404, "no player"),
            ({"player": "Ana", "reason": "r"}, 422, "yourself"),
            ({"player": "Cy", "reason": "r", "extra": 1}, 422, "extra")):
        answer = ana.post("/api/reports", json=body)
        assert answer.status_code == status and words in answer.json()["detail"], (body, answer.text)
    assert TestClient(client.app).post("/api/reports", json={"player": "Cy", "reason": "r"}).status_code == 401
    mod = moderator(client, db_url)
    queue = mod.get("/api/moderation/reports").json()
    assert len(queue) == 1  # the refused ones changed nothing
    assert [e["text"] for e in queue[0]["evidence"] if e["kind"] == "player"] == ["rude 0", "rude 1", "rude 2"]
    assert (queue[0]["reporter"], queue[0]["player"], queue[0]["line"]) == ("Ana", "Cy", line)
    hidden = mod.post("/api/moderation/actions", json={"action": "hide_line", "room": code, "line": line,
                                                     "reason": "rude"})
    assert hidden.status_code == 200  # the line is hidden, and the report's copy still holds it
    assert "rude 1" in [e["text"] for e in mod.get("/api/moderation/reports").json()[0]["evidence"]]
    # a guest is reported by the name on their seat, in the room where they sit
    elsewhere = new_room(client)["code"]
    client.post(f"/api/rooms/{elsewhere}/join", json={"name": "Troll"})
    assert ana.post("/api/reports", json={"player": "Troll", "reason": "r"}).status_code == 404
    guest = ana.post("/api/reports", json={"player": "Troll", "room": elsewhere, "reason": "rude guest"})
    assert guest.status_code == 201, guest.text
    assert [(r["player"], r["signed_in"]) for r in mod.get("/api/moderation/reports").json()] == [
        ("Cy", True), ("Troll", False)]
    for i in range(REPORTS_PER_DAY - 2):
        assert ana.post("/api/reports", json={"player": "Cy", "reason": f"again {i}"}).status_code == 201
    over = ana.post("/api/reports", json={"player": "Cy", "reason": "one too many"})
    assert over.status_code == 429 and f"at most {REPORTS_PER_DAY} reports a day" in over.json()["detail"]
    assert len(mod.get("/api/moderation/reports").json()) == REPORTS_PER_DAY


def test_only_moderators_see_the_queue_and_act_and_a_ban_ends_sessions_and_says_why(client, db_url, clock):
    cy = person(client, "Cy")
    ana = person(client, "Ana")
    guest = TestClient(client.app)
    for c, status in ((guest, 401), (ana, 403)):
        for method, path in (("GET", "/api/moderation/reports"), ("GET", "/api/moderation/log"),
                             ("GET", "/moderation")):
            assert c.request(method, path).status_code == status, (path, status)
        denied = c.post("/api/moderation/actions", json={"player": "Cy", "action": "ban", "reason": "r"})
        assert denied.status_code == status
    assert "moderators only" in ana.get("/api/moderation/reports").json()["detail"]
    assert "moderators only" in ana.get("/moderation").text  # a page that says why, for a browser
    mod = moderator(client, db_url)
    assert mod.get("/moderation").status_code == 200
    ana.post("/api/reports", json={"player": "Cy", "reason": "spam"})
    report = mod.get("/api/moderation/reports").json()[0]
    assert not {"password", "session", "token", "address"} & set(report)  # nothing private
    for body, words in (({"player": "Cy", "action": "ban", "days": 0, "reason": "r"}, "days"),
                        ({"player": "Cy", "action": "explode", "reason": "r"}, "action"),
                        ({"player": "Cy", "address": "1.2.3.4", "action": "ban", "reason": "r"}, "not both"),
                        ({"player": "Cy", "action": "ban", "reason": ""}, "reason")):
        refused = mod.post("/api/moderation/actions", json=body)
        assert refused.status_code == 422 and words in refused.json()["detail"], (body, refused.text)
    assert cy.get("/api/me").status_code == 200
    banned = mod.post("/api/moderation/actions", json={"player": "Cy", "action": "ban", "days": 7,
                                                     "reason": "spam in every room", "report": report["id"]})
    assert banned.status_code == 200 and "banned until" in banned.json()["done"]
    assert cy.get("/api/me").status_code == 401  # the session ended at once
    again = cy.post("/api/session", json={"name": "Cy", "password": PASSWORD})
    assert again.status_code == 403
    assert "banned from the hall until" in again.json()["detail"] and "spam in every room" in again.json()["detail"]
    assert cy.get("/api/me").status_code == 401  # no session was left open
    assert mod.get("/api/moderation/reports").json() == []  # the report was answered
    clock.advance(8 * 86400)  # the ban ends by itself
    assert cy.post("/api/session", json={"name": "Cy", "password": PASSWORD}).status_code == 200
    log = mod.get("/api/moderation/log").json()
    assert [(e["moderator"], e["action"], e["target"], e["days"]) for e in log] == [("Mod", "ban", "Cy", 7)]
    assert admin("revoke", "Mod", "moderator", "--db", db_url) == 0
    assert mod.get("/api/moderation/log").status_code == 403
    assert admin("grant", "Nobody", "moderator", "--db", db_url) == 1
    assert admin("grant", "Ana", "king", "--db", db_url) == 1


def ended_and_closed(socket: Socket) -> dict[str, Any]:
    """The ``signed_out`` error the hall sends a socket whose session ended, once the socket closed (4401)."""
    ended = None
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(100):
            message = socket.ws.receive_json()
            if message["type"] == "error" and message["code"] == "signed_out":
                ended = message
    assert closed.value.code == 4401 and ended is not None
    return ended


def test_a_ban_or_a_deleted_account_closes_the_players_sockets_at_once(client, db_url):
    cy, ana = person(client, "Cy"), person(client, "Ana")
    mod = moderator(client, db_url)
    code = new_room(ana)["code"]
    with Socket(cy, code) as cy_socket, Socket(ana, code) as ana_socket:  # signed in, both watching
        cy_socket.hello(None)
        ana_socket.hello(None)
        banned = mod.post("/api/moderation/actions", json={"player": "Cy", "action": "ban", "reason": "spam"})
        assert banned.status_code == 200, banned.text
        assert "session ended" in ended_and_closed(cy_socket)["message"]
        ana_socket.send({"type": "ping"})
        assert first(ana_socket, lambda m: m["type"] == "pong")  # nobody else's
        deleted = ana.request("DELETE", "/api/me", json={"password": PASSWORD})
        assert deleted.status_code == 200, deleted.text
        ended_and_closed(ana_socket)


def test_a_muted_player_is_refused_in_words_warned_and_a_line_hidden_and_a_room_closed(client, db_url):
    cy, ana = person(client, "Cy"), person(client, "Ana")
    mod = moderator(client, db_url)
    code = new_room(ana)["code"]
    tokens = sitting(ana, code), sitting(cy, code)
    with chat_socket(cy, code, tokens[1]) as at_cy, chat_socket(ana, code, tokens[0]) as at_ana:
        at_cy.send({"type": "chat", "text": "a line to hide"})
        line = next(x["n"] for x in chat_lines(at_ana, 3) if x["text"] == "a line to hide")
        hid = mod.post("/api/moderation/actions", json={"action": "hide_line", "room": code, "line": line,
                                                       "reason": "slur"})
        assert hid.status_code == 200, hid.text
        at_ana.send({"type": "chat", "text": "after it"})
        assert "a line to hide" not in said(at_ana, "after it")  # taken away live
        muted = mod.post("/api/moderation/actions", json={"player": "Cy", "action": "mute", "days": 1,
                                                         "reason": "calm down"})
        assert muted.status_code == 200
        at_cy.send({"type": "chat", "text": "can I?"})
        refused = next_of(at_cy, "error")
        assert refused["code"] == "muted" and "calm down" in refused["message"] and "until" in refused["message"]
    with chat_socket(ana, code, tokens[0]) as reloaded:
        assert "a line to hide" not in said(reloaded, "after it")
    mod.post("/api/moderation/actions", json={"player": "Cy", "action": "warn", "reason": "be kind"})
    assert [w["reason"] for w in cy.get("/api/me/notices").json()["warnings"]] == ["be kind"]
    assert cy.get("/api/me/notices").json()["warnings"] == []
    closed = mod.post("/api/moderation/actions", json={"action": "close_room", "room": code, "reason": "a brawl"})
    assert closed.status_code == 200
    refused = client.post(f"/api/rooms/{code}/join", json={"name": "late"})
    assert refused.status_code == 403 and "closed this room: a brawl" in refused.json()["detail"]
    actions = [e["action"] for e in mod.get("/api/moderation/log").json()]
    assert actions == ["close_room", "warn", "mute", "hide_line"]


def test_a_ban_by_address_stops_guests(client, db_url):
    mod = moderator(client, db_url)
    code = new_room(client)["code"]
    playing = new_room(client, "secrets", [OPEN, {"kind": "bot", "bot": "random"}], take_seat=0, host_name="G")
    client.post(f"/api/rooms/{playing['code']}/start", headers=host(playing["host_token"]))
    seat = seat_socket(client, playing["code"], playing["seat_token"])
    banned = mod.post("/api/moderation/actions", json={"address": "testclient", "action": "ban", "days": 1,
                                                     "reason": "a flood of rooms"})
    assert banned.status_code == 200, banned.text
    refused = seat.act({"type": "pick", "number": 0})  # a connection opened before the ban plays no more
    assert refused["type"] == "error" and refused["code"] == "banned" and "a flood of rooms" in refused["message"]
    seat.close()
    for answer in (client.post(f"/api/rooms/{code}/join", json={"name": "guest"}),
                   client.post("/api/rooms", json={"game": "patchwork", "seats": [OPEN, OPEN]}),
                   client.post("/api/accounts", json={"name": "Newcomer", "password": PASSWORD})):
        assert answer.status_code == 403 and "a flood of rooms" in answer.json()["detail"], answer.text
    mod.post("/api/moderation/actions", json={"address": "testclient", "action": "unban", "reason": "lifted"})
    assert client.post(f"/api/rooms/{code}/join", json={"name": "guest"}).status_code == 200


def test_moderators_see_the_pairs_who_met_more_often_than_is_rated(client, db_url, clock):
    main, feeder = person(client, "Main"), person(client, "Feeder")
    mod = moderator(client, db_url)
    assert mod.get("/api/moderation/flagged").json() == []
    codes = []
    for _ in range(PAIR_GAMES + 2):  # the feeder throws every game; the last two are played, not rated
        room = new_room(main, "secrets", [OPEN, OPEN], take_seat=0, host_name="Main")
        joined = feeder.post(f"/api/rooms/{room['code']}/join", json={"name": "Feeder"}).json()
        main.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"]))
        play_secrets((seat_socket(client, room["code"], room["seat_token"]), 9),
                     (seat_socket(client, room["code"], joined["seat_token"]), 0))
        codes.append(room["code"])
        clock.advance(60)
    flagged = mod.get("/api/moderation/flagged")
    assert flagged.status_code == 200, flagged.text
    pairs = flagged.json()
    assert [(p["first"], p["second"], p["game"], p["unrated"], p["room"]) for p in pairs] == [
        ("Main", "Feeder", "secrets", 2, codes[-1])]
    assert pairs[0]["last"] - pairs[0]["since"] == 60  # the first game not rated, and the latest
    assert main.get("/api/moderation/flagged").status_code == 403  # moderators only
    assert client.get("/api/moderation/flagged").status_code == 401
    assert mod.get("/api/moderation/flagged?limit=0").status_code == 422


# -- reputation and your data ------------------------------------------------------------------------------
def test_reputation_is_the_share_of_games_played_to_the_end_and_says_how_the_others_were_left(client, clock):
    ana, bo = person(client, "Ana"), person(client, "Bo")
    nothing = {"finished": 0, "left": 0, "share": None, "resigned": 0, "away": 0, "abandoned": 0, "timed_out": 0}
    assert bo.get("/api/players/Bo/reputation").json() == {"name": "Bo", **nothing}

    def against_bo(seats: list[dict[str, Any]] | None = None) -> tuple[str, dict[str, Any], str]:
        room = new_room(ana, "secrets", seats or [OPEN, OPEN], take_seat=0, host_name="Ana")
        joined = bo.post(f"/api/rooms/{room['code']}/join", json={"name": "Bo"})
        assert joined.status_code == 200, joined.text
        assert ana.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"])).status_code == 200
        return room["code"], room, joined.json()["seat_token"]

    def ana_ends(code: str, room: dict[str, Any]) -> None:  # a vote of one: the only person left
        ended = ana.post(f"/api/rooms/{code}/vote", json={"motion": "end", "agree": True},
                         headers=host(room["seat_token"]))
        assert ended.status_code == 200 and ended.json()["status"] == "over", ended.text

    code, room, _ = against_bo()  # Bo resigns; Ana plays on, then ends it
    assert bo.post(f"/api/rooms/{code}/resign").status_code == 200
    ana_ends(code, room)

    code, room, bo_token = against_bo()  # Bo goes (his socket closes) and stays away: Ana votes his seat to a bot
    with Socket(client, code) as his:
        his.hello(bo_token)
    clock.advance(AWAY_GRACE)
    given = ana.post(f"/api/rooms/{code}/vote", json={"motion": "bot", "seat": 1, "agree": True},
                     headers=host(room["seat_token"]))
    assert given.status_code == 200 and given.json()["seats"][1]["left"] == "away", given.text
    clock.advance(PROPOSE_EVERY)  # a vote proposed a moment ago: the next one waits
    ana_ends(code, room)

    counted = {"finished": 0, "left": 2, "share": 0.0, "resigned": 1, "away": 1, "abandoned": 0, "timed_out": 0}
    if not client.app.state.hall.clustered:  # (a cluster does not end abandoned games: test_leaving.py)
        code, _, bo_token = against_bo([OPEN, OPEN, {"kind": "bot", "bot": "random"}])  # Ana resigns at once
        assert ana.post(f"/api/rooms/{code}/resign").status_code == 200
        with Socket(client, code) as his:
            his.hello(bo_token)
        for _ in range(200):  # the hall has seen him go (by its clock): from now on nobody plays it
            if not client.get(f"/api/rooms/{code}").json()["seats"][1]["connected"]:
                break
            time.sleep(0.05)
        clock.advance(ABANDONED_AFTER + SWEEP_EVERY + 20)
        for _ in range(200):
            if client.get(f"/api/rooms/{code}").json()["status"] == "over":
                break
            time.sleep(0.05)
        assert client.get(f"/api/rooms/{code}").json()["seats"][1]["left"] == "abandoned"
        counted = {"finished": 0, "left": 3, "share": 0.0, "resigned": 1, "away": 1, "abandoned": 1,
                   "timed_out": 0}
    assert client.get("/api/players/Bo").json()["reputation"] == counted
    ana_counted = client.get("/api/players/Ana/reputation").json()
    resigned = 0 if client.app.state.hall.clustered else 1  # the third game, at once
    assert ana_counted == {"name": "Ana", "finished": 2, "left": resigned, "share": round(2 / (2 + resigned), 3),
                           "resigned": resigned, "away": 0, "abandoned": 0, "timed_out": 0}
    assert client.get("/api/players/Nobody/reputation").status_code == 404


def test_a_bot_account_that_let_its_time_run_out_has_it_counted(client, clock):
    _, program, _, _ = timed_out_bot(client, clock)  # its seat goes to a built-in bot
    program.close()
    assert client.get("/api/players/Deep/reputation").json() == {
        "name": "Deep", "finished": 0, "left": 1, "share": 0.0, "resigned": 0, "away": 0, "abandoned": 0,
        "timed_out": 1}


def test_a_player_downloads_their_data_and_deletes_the_account_their_games_stay(client, db_url):
    ana, bo = person(client, "Ana"), person(client, "Bo")
    ana.put("/api/me/friends/Bo")
    ana.put("/api/me/blocks/Bo")
    code = new_room(ana)["code"]
    token = sitting(ana, code)
    with chat_socket(ana, code, token) as socket:
        socket.send({"type": "chat", "text": "my words"})
        chat_lines(socket, 2)
    download = ana.get("/api/me/data")
    assert download.status_code == 200 and "attachment" in download.headers["content-disposition"]
    data: dict[str, Any] = download.json()
    assert data["account"]["name"] == "Ana" and [f["name"] for f in data["friends"]] == ["Bo"]
    assert [b["name"] for b in data["blocks"]] == ["Bo"] and data["games"][0]["room"] == code
    assert [line["text"] for line in data["chat_lines"]] == ["my words"]
    assert "argon2" not in download.text and "password" not in download.text
    wrong = ana.request("DELETE", "/api/me", json={"password": "not it at all"})
    assert wrong.status_code == 401 and ana.get("/api/me").status_code == 200  # nothing changed
    busy = ana.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert busy.status_code == 409 and "not over" in busy.json()["detail"]
    other = person(client, "Di")
    # a finished game of Di's, against a bot: it stays, under a name that is no longer hers
    room = new_room(other, "secrets", [OPEN, {"kind": "bot", "bot": "random"}], take_seat=0, host_name="Di")
    other.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"]))
    ana.post("/api/reports", json={"player": "Di", "reason": "reported before she left"})
    finished = room["code"]
    assert play_secrets((seat_socket(client, finished, room["seat_token"]), 0))["result"] is not None
    gone = other.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert gone.status_code == 200 and "gone-" in gone.json()["done"]
    anonymous = gone.json()["done"].rsplit(" ", 1)[1]
    seats = client.get(f"/api/rooms/{finished}").json()["seats"]
    assert seats[0]["name"] == anonymous and seats[0]["profile"] is None
    assert other.get("/api/me").status_code == 401
    assert client.get("/api/players/Di").status_code == 404
    mod = moderator(client, db_url)
    assert [r["player"] for r in mod.get("/api/moderation/reports").json()] == [anonymous]
    assert bo.put("/api/me/friends/Di").status_code == 404
    assert other.post("/api/session", json={"name": "Di", "password": PASSWORD}).status_code == 401
