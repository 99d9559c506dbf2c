"""Turn-based rooms (hall/room/pace.py): a time per move of an hour to 14 days, the deadline
committed with the move that set it and kept across restarts, the lobby's pace, "My games" with
your turn first, and the cap on games per player."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from hallkit import OPEN, Socket, host, join, new_room
from test_players import as_guest, seat_socket, sign_in, sign_up

from parlour.hall.quotas import Limits

DAY = 86400


def turn_based(client: Any, seconds: float = DAY, **body: Any) -> dict[str, Any]:
    return new_room(client, "patchwork", [OPEN, OPEN], pace="turn-based", turn_timer=seconds, **body)


def started(client: Any, room: dict[str, Any], names: tuple[str, ...] = ("Ana", "Bo")) -> list[str]:
    tokens = [join(client, room["code"], name, seat)["seat_token"] for seat, name in enumerate(names)]
    assert client.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"])).status_code == 200
    return tokens


def status(client: Any, code: str) -> dict[str, Any]:
    answer = client.get(f"/api/rooms/{code}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def move(client: Any, code: str, tokens: list[str]) -> int:
    """The seat to act plays its first legal action; returns that seat."""
    seat = next(i for i, token in enumerate(tokens) if i in to_act(client, code))
    socket = Socket(client, code)
    try:
        socket.hello(tokens[seat])
        state = socket.sync()
        assert socket.act(state["legal"][0])["type"] == "ack"
    finally:
        socket.close()
    return seat


def to_act(client: Any, code: str) -> list[int]:
    socket = Socket(client, code)
    try:
        socket.hello()
        return list(socket.sync()["to_act"])
    finally:
        socket.close()


def test_a_turn_based_room_takes_a_time_per_move_from_an_hour_to_14_days_and_refuses_others_in_words(client):
    for seconds, words in ((600, "from 3600 seconds"), (15 * DAY, "14 days"), (None, "turn_timer is the time")):
        answer = client.post("/api/rooms", json={"game": "patchwork", "seats": [OPEN, OPEN], "pace": "turn-based",
                                                 "turn_timer": seconds})
        assert answer.status_code == 422 and words in answer.json()["detail"], answer.text
    answer = client.post("/api/rooms", json={"game": "patchwork", "seats": [OPEN, OPEN], "pace": "weekly"})
    assert answer.status_code == 422 and "pace" in answer.json()["detail"]
    assert client.get("/api/rooms").json() == []  # nothing was made
    live = client.post("/api/rooms", json={"game": "patchwork", "seats": [OPEN, OPEN], "turn_timer": 3 * DAY})
    assert live.status_code == 422, "a live room's timer stays capped at a day"
    room = turn_based(client, 14 * DAY)
    assert status(client, room["code"])["pace"] == "turn-based"
    assert status(client, room["code"])["turn_timer"] == 14 * DAY


def test_the_deadline_is_set_by_the_start_and_each_move_and_survives_a_restart_without_starting_again(
        make_client, clock):
    client = make_client()
    room = turn_based(client)
    code = room["code"]
    tokens = started(client, room)
    began = clock.now()
    assert status(client, code)["deadline"] == began + DAY and status(client, code)["late"] == []
    clock.advance(3600)
    mover = move(client, code, tokens)
    assert status(client, code)["deadline"] == began + 3600 + DAY
    clock.advance(5 * 3600)
    client = make_client()  # a restart: the room is rebuilt from the store
    after = status(client, code)
    assert after["deadline"] == began + 3600 + DAY, "the clock did not start again in full"
    assert after["turn"] == 1
    clock.advance(DAY)  # past it: late, and nothing happened by itself
    late = status(client, code)
    assert late["late"] == to_act(client, code) and late["turn"] == 1
    assert mover is not None


def test_a_live_room_is_as_before(client):
    room = new_room(client, "patchwork", [OPEN, OPEN], turn_timer=60)
    started(client, room)
    shown = status(client, room["code"])
    assert shown["pace"] == "live" and shown["turn_timer"] == 60 and shown["late"] == []


def test_the_lobby_lists_turn_based_rooms_apart(client):
    slow = turn_based(client)["code"]
    live = new_room(client, "patchwork", [OPEN, OPEN])["code"]
    assert [r["code"] for r in client.get("/api/rooms?pace=turn-based").json()] == [slow]
    assert [r["code"] for r in client.get("/api/rooms?pace=live").json()] == [live]
    listed = {r["code"]: r for r in client.get("/api/rooms").json()}
    assert listed[slow]["pace"] == "turn-based" and listed[slow]["turn_timer"] == DAY
    assert client.get("/api/rooms?pace=weekly").status_code == 422


def test_my_games_put_your_turn_first_soonest_deadline_first(client, clock):
    sign_up(client, "Ana")
    rooms = []
    for seconds in (3 * DAY, DAY, 2 * DAY):
        room = turn_based(client, seconds, take_seat=1)  # Ana sits second: Bo moves first
        as_guest(client)
        bo = join(client, room["code"], "Bo", 0)["seat_token"]
        client.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"]))
        rooms.append((room["code"], bo))
        sign_in(client)
    waiting_code = rooms[2][0]  # Bo does not move here: Ana waits for him
    for code, bo in rooms[:2]:
        as_guest(client)
        socket = seat_socket(client, code, bo)
        assert socket.act(socket.sync()["legal"][0])["type"] == "ack"
        socket.close()
    sign_in(client)
    playing = client.get("/api/me/games").json()["playing"]
    mine = [(g["code"], g["your_turn"]) for g in playing]
    # her turn in the first two (a day's deadline before three days'), then the one waiting for Bo
    assert mine == [(rooms[1][0], True), (rooms[0][0], True), (waiting_code, False)], mine
    assert playing[0]["deadline"] == clock.now() + DAY and playing[0]["pace"] == "turn-based"


def test_a_player_is_in_at_most_the_halls_cap_of_unfinished_games(make_client):
    client = make_client(Limits(games_per_player=2))
    sign_up(client, "Ana")
    for _ in range(2):
        turn_based(client, take_seat=0)
    refused = client.post("/api/rooms", json={"game": "patchwork", "seats": [OPEN, OPEN], "pace": "turn-based",
                                             "turn_timer": DAY, "take_seat": 0})
    assert refused.status_code == 409 and "2 unfinished games" in refused.json()["detail"]
    as_guest(client)
    other = turn_based(client)["code"]
    sign_in(client)
    answer = client.post(f"/api/rooms/{other}/join", json={"name": "Ana"})
    assert answer.status_code == 409 and "2 unfinished games" in answer.json()["detail"]
    assert [s["kind"] for s in status(client, other)["seats"]] == ["open", "open"]  # nothing changed
    assert len(client.get("/api/me/games").json()["playing"]) == 2
    as_guest(client)
    assert client.post(f"/api/rooms/{other}/join", json={"name": "Guest"}).status_code == 200  # guests uncounted


def test_when_time_runs_out_nothing_happens_until_another_player_hands_the_seat_to_a_bot(client, clock):
    room = turn_based(client)
    code = room["code"]
    tokens = started(client, room)
    ana, bo = (host(token) for token in tokens)  # Ana (seat 0) must move first
    ask = lambda seat, who, choice="bot": client.post(f"/api/rooms/{code}/late/{seat}",  # noqa: E731
                                                      json={"choice": choice}, headers=who)
    early = ask(0, bo)
    assert early.status_code == 409 and "has not run out" in early.json()["detail"]
    clock.advance(DAY + 1)
    assert status(client, code)["late"] == [0] and status(client, code)["turn"] == 0  # nothing by itself
    assert ask(0, ana).status_code == 403  # not for her own seat
    assert ask(0, {}).status_code == 403  # a spectator
    assert client.post(f"/api/rooms/{code}/late/0", json={"choice": "resign"}, headers=bo).status_code == 422
    assert [s["kind"] for s in status(client, code)["seats"]] == ["human", "human"]  # nothing changed
    taken = ask(0, bo)
    assert taken.status_code == 200, taken.text
    assert taken.json()["seats"][0]["kind"] == "bot" and taken.json()["seats"][0]["name"] == "Ana (bot)"
    watcher = Socket(client, code)
    watcher.hello()
    if watcher.sync()["turn"] < 1:  # the bot moves for her seat (it may have by now)
        watcher.until(lambda s: s["turn"] >= 1)
    watcher.close()


def test_a_live_room_has_no_late_choice(client):
    room = new_room(client, "patchwork", [OPEN, OPEN], turn_timer=60)
    tokens = started(client, room)
    answer = client.post(f"/api/rooms/{room['code']}/late/0", json={"choice": "bot"}, headers=host(tokens[1]))
    assert answer.status_code == 409 and "turn-based" in answer.json()["detail"]


def test_a_turn_based_room_waits_for_players_a_week_where_a_live_one_waits_a_quarter_hour(client, clock):
    slow = turn_based(client)["code"]
    live = new_room(client, "patchwork", [OPEN, OPEN])["code"]
    clock.advance(6 * DAY)
    client.app.state.hall.sweep(clock.now())
    assert [r["code"] for r in client.get("/api/rooms").json()] == [slow]
    clock.advance(7 * DAY + 1)  # a week since anyone looked (several processes: since it was read again)
    client.app.state.hall.sweep(clock.now())
    assert client.get("/api/rooms").json() == []
    assert status(client, live)["status"] == "waiting"  # its link still opens it, as before


async def follow_deadlines(tmp_path: Any, drop_at: int | None) -> tuple[list[tuple[Any, Any]], int]:
    """A turn-based room played by its owner while a replica follows it: each move's deadline on
    both, and the replica's reads of the store."""
    from test_replicas import Carrier, CountingStore, Follower

    from parlour.games import all_games
    from parlour.hall.broadcast import LocalBroadcast
    from parlour.hall.hall import Hall
    from parlour.hall.room.commands import Act, Join, Start
    from parlour.hall.store import SqlStore

    class Clock:
        now_ = 1_800_000_000.0

        def now(self) -> float:
            return self.now_

    clock = Clock()
    url = f"sqlite:///{tmp_path}/hall.sqlite3"
    owner_store, replica_store = SqlStore(url), CountingStore(url)
    carrier = Carrier()
    owner = Hall(owner_store, all_games(), clock, broadcast=carrier, seed=5)
    replica = Hall(replica_store, all_games(), clock, broadcast=LocalBroadcast(), seed=5, ownership=Follower())
    carrier.to = replica
    await owner.start()
    seen = []
    try:
        room, *_ = await owner.create_room("palace", {}, [{"kind": "open"}, {"kind": "open"}], turn_timer=DAY,
                                           pace="turn-based")
        copy = await replica.room(room.code)
        for name in ("Ana", "Bo"):
            await owner.execute(room.code, Join(name))
        await owner.execute(room.code, Start())
        CountingStore.reads = 0
        rng = random.Random(7)
        for move in range(12):
            if room.status != "playing":
                break
            if move == drop_at:
                carrier.dropped = 1
            clock.now_ += 600
            seat = min(room.to_act())
            action = owner.games["palace"].random_action(room.state, seat, rng)
            await owner.execute(room.code, Act(seat, room.audience(seat).turn, action))
            for _ in range(100):  # a read to fill a gap runs on a thread
                if copy.turn == room.turn:
                    break
                await asyncio.sleep(0.02)
            seen.append((room.pace.deadline, copy.pace.deadline))
        return seen, CountingStore.reads
    finally:
        await owner.stop()
        owner_store.close()
        replica_store.close()


def test_a_replica_shows_the_owners_deadline_from_the_change_and_from_the_store_after_a_gap(tmp_path):
    from test_limits import run_apart

    seen, reads = run_apart(follow_deadlines(tmp_path, drop_at=None))
    assert len(seen) > 5 and all(owner == copy and owner is not None for owner, copy in seen), seen
    assert len({owner for owner, _ in seen}) > 1 and reads == 0  # deadlines moved with the moves
    (tmp_path / "gap").mkdir()
    seen, reads = run_apart(follow_deadlines(tmp_path / "gap", drop_at=3))
    assert seen[3][0] != seen[3][1], "the dropped change: the replica could not know it yet"
    assert all(owner == copy for owner, copy in seen[4:]) and reads >= 1, seen  # the next change, and the store
