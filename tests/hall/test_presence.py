"""hall/cluster/presence.py on a throwaway Redis, two processes' presence side by side (issue 28):
what one tells the other reads onto its seats; a disconnection is told with its time; nothing is
written while nothing changes; a process that stopped telling (killed) counts for nothing once its
word expired, the last time it saw a player kept; Redis away, presence is not known."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import redis

from parlour.hall.cluster.presence import HALLS, SLOW, STALE, Presence
from parlour.hall.room.leaving import HOST_AWAY, away_for, host_away
from parlour.hall.room.seats import SeatBook

ANA = {"kind": "human", "name": "Ana", "bot": None, "token": "0" * 64, "host": True}
OPEN = {"kind": "open", "name": None, "bot": None, "token": None}


class Clock:
    def __init__(self) -> None:
        self.time = 1_800_000_000.0

    def now(self) -> float:
        return self.time


class Copy:
    """What presence uses of a room: one process's copy of room ROOMXX."""

    def __init__(self, leading: bool) -> None:
        self.code, self.status, self.leading, self.watchers = "ROOMXX", "waiting", leading, 0
        self.seats = SeatBook([dict(ANA), dict(OPEN)])
        self.votes = SimpleNamespace(ballot=None)
        self.shown = 0

    def show_status(self, change: Any = None) -> None:
        self.shown += 1


def process(url: str, name: str, clock: Clock, leading: bool) -> tuple[Presence, Copy]:
    """A process's presence, and its copy of the room, watched by one connection (a spectator)."""
    room = Copy(leading)
    room.watchers = 1
    return Presence(url, name, SimpleNamespace(rooms={room.code: room}, clock=clock)), room  # type: ignore[arg-type]


def hset_calls(client: redis.Redis) -> int:
    return int(client.info("commandstats").get("cmdstat_hset", {}).get("calls", 0))


def test_a_player_connected_to_another_process_counts_and_their_leaving_is_told_with_its_time(redis_server):
    clock = Clock()
    a, at_a = process(redis_server.url, "a:1/x", clock, leading=True)
    b, at_b = process(redis_server.url, "b:2/y", clock, leading=False)
    at_a.seats[0].away_since = clock.now()  # hall A never saw Ana: gone since it read the room
    at_b.watchers, at_b.seats[0].connections = 2, 1  # Ana, through hall B
    asyncio.run(b.tick())
    asyncio.run(a.tick())
    seat = at_a.seats[0]
    assert (seat.connections, seat.elsewhere, seat.present, at_a.seats.watchers_elsewhere) == (0, 1, True, 2)
    assert a.knows(at_a) and at_a.shown == 1  # the presence dot turned green for A's watchers
    clock.time += HOST_AWAY * 2
    assert not host_away("waiting", at_a.seats, clock.now() - HOST_AWAY * 2, clock.now())  # she is here, at B
    left = clock.now()
    at_b.watchers, at_b.seats[0].connections, at_b.seats[0].away_since = 1, 0, left
    asyncio.run(b.tick())
    clock.time += HOST_AWAY - 1
    asyncio.run(a.tick())
    assert (seat.elsewhere, seat.seen_elsewhere, at_a.seats.watchers_elsewhere) == (0, left, 1)
    assert away_for(seat, clock.now()) == HOST_AWAY - 1  # gone since she left B, not since A read the room
    assert not host_away("waiting", at_a.seats, 0.0, clock.now())
    clock.time += 1
    assert host_away("waiting", at_a.seats, 0.0, clock.now())  # a minute: any seated player may start
    a.close()
    b.close()


def test_nothing_is_written_while_nothing_changes(redis_server):
    clock = Clock()
    b, at_b = process(redis_server.url, "b:2/y", clock, leading=True)
    at_b.watchers, at_b.seats[0].connections = 2, 1
    asyncio.run(b.tick())
    before = hset_calls(b.client)
    for _ in range(5):  # moves, timers, chat: none of them is presence
        asyncio.run(b.tick())
    assert hset_calls(b.client) == before
    at_b.watchers += 1  # a spectator came
    asyncio.run(b.tick())
    assert hset_calls(b.client) == before + 1
    b.close()


def test_a_tick_makes_no_value_for_a_room_whose_counts_are_as_told(redis_server, monkeypatch):
    """Every tick went through every room shown here, decoding what it told and encoding what it
    would tell, to find them equal: now the counts (watchers, connections) are compared first."""
    clock = Clock()
    b, at_b = process(redis_server.url, "b:2/y", clock, leading=True)
    at_b.watchers, at_b.seats[0].connections = 2, 1
    made = []
    value = Presence._value
    monkeypatch.setattr(Presence, "_value", lambda self, room: made.append(room.code) or value(self, room))
    asyncio.run(b.tick())
    assert made == ["ROOMXX"]
    for _ in range(5):
        asyncio.run(b.tick())
    assert made == ["ROOMXX"]
    at_b.seats[0].connections = 0  # Ana's connection closed: told, with when
    at_b.seats[0].away_since = clock.time
    before = hset_calls(b.client)
    asyncio.run(b.tick())
    assert made == ["ROOMXX", "ROOMXX"] and hset_calls(b.client) == before + 1
    b.close()


def test_a_killed_process_counts_for_nothing_once_its_word_expired_and_its_last_sight_is_kept(redis_server):
    clock = Clock()
    a, at_a = process(redis_server.url, "a:1/x", clock, leading=True)
    b, at_b = process(redis_server.url, "b:2/y", clock, leading=False)
    at_b.watchers, at_b.seats[0].connections = 2, 1
    asyncio.run(b.tick())
    asyncio.run(a.tick())
    seen = at_a.seats[0].seen_elsewhere
    assert at_a.seats[0].elsewhere == 1 and seen == clock.now()
    b.client.zadd(HALLS, {"b:2/y": time.time() - 1})  # B died: its word ran out (6 s after its last tick)
    clock.time += 30
    asyncio.run(a.tick())
    assert (at_a.seats[0].elsewhere, at_a.seats.watchers_elsewhere) == (0, 0)  # B's spectator too
    assert at_a.seats[0].seen_elsewhere == seen  # last seen there when A last read it
    a.close()
    b.close()


def test_with_redis_away_presence_is_not_known(redis_server):
    clock = Clock()
    a, at_a = process(redis_server.url, "a:1/x", clock, leading=True)
    asyncio.run(a.tick())
    assert a.knows(at_a)
    redis_server.stop()
    a._read[at_a.code] -= STALE + 1  # the last read is older than STALE...
    asyncio.run(a.tick())  # ...and this one fails (logged once): not known
    assert not a.knows(at_a)
    a.close()


def test_a_room_applied_here_that_nobody_watches_here_is_read_when_judged_not_every_tick(redis_server):
    clock = Clock()
    a, at_a = process(redis_server.url, "a:1/x", clock, leading=True)
    b, at_b = process(redis_server.url, "b:2/y", clock, leading=False)
    at_a.watchers, at_a.status = 0, "playing"
    at_b.watchers, at_b.seats[0].connections = 1, 1
    asyncio.run(b.tick())
    before = int(a.client.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0))
    for _ in range(SLOW - 1):
        asyncio.run(a.tick())
    assert int(a.client.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0)) == before
    assert not a.knows(at_a) and at_a.seats[0].elsewhere == 0  # not read: not known
    asyncio.run(a.look([at_a]))  # a command judged by presence, the lobby, an abandoned game
    assert a.knows(at_a) and at_a.seats[0].elsewhere == 1
    asyncio.run(a.tick())  # the SLOW-th tick reads it too
    assert int(a.client.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0)) == before + 2
    a.close()
    b.close()
