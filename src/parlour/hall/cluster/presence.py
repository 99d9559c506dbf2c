"""Who is connected to each room, across the processes of a cluster (docs/scaling.md).

    presence = Presence(redis_url, node.id, hall)   # the node makes it when the hall starts
    hall.spawn(presence.run())                       # tells and reads every EVERY seconds
    await presence.look(rooms)                       # the lobby: read now, before judging a page

Each process counts its own connections (a seat's ``connections``, a room's ``watchers``). This
module tells the other processes, and hears them, so that what is judged by who is connected (the
lobby's lists, a host gone a minute, an absent player's seat, the votes, an abandoned game) is
judged by everyone connected to any process:

- **Told when it changes, never per move.** Every ``EVERY`` seconds a process writes, for each room
  in its memory whose presence here changed since it last told it, one field of the room's hash
  ``parlour:presence:CODE`` in Redis: the field is the process's id, its value what the process
  has of the room (its watchers, each seat's connections, and for a seat no longer connected here
  when its last connection here closed). One pipeline a tick; a move costs nothing. The hash
  expires ``KEEP`` seconds after its last write.
- **A dead process's presence expires.** With each tick a process puts itself in the sorted set
  ``parlour:halls``, scored with the time its word expires (``ALIVE`` seconds on, wall clock as the
  leases use); readers take only the fields of processes whose word still holds, so the connections
  of a process that died count for nothing after ``ALIVE`` seconds (its players reconnect to another).
- **Read where it is judged.** In the same pipeline a process reads the rooms it shows (a
  connection here) whose people are not all connected to it (one HGETALL a room), and every
  ``SLOW`` ticks those it applies; the lobby reads the rooms of a page before judging them
  (:meth:`look`), and the process applying a room reads it before a command judged by presence (a
  start, a seat given to a bot, a vote: hall.py) and before ending an abandoned game. What it read
  goes on the room's seats (``elsewhere``, ``seen_elsewhere``) and on ``watchers_elsewhere``; the
  judges (room/leaving.py, room/votes.py, hall/lobby.py) use it beside this process's own counts.
  A room's watchers here are shown a presence that changed.
- **Not known, not judged.** While Redis cannot be read, :meth:`knows` says False once the last
  read is ``STALE`` seconds old: the lobby then lists rooms without judging who is connected, and
  no game ends as abandoned (hall.py); a player's seat is never taken on stale news of absence
  beyond what this process itself saw.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

import redis

from ..hall import Hall
from ..room import Room

log = logging.getLogger(__name__)

KEY = "parlour:presence:"  # + a room's code: a hash, one field per process that told of the room
HALLS = "parlour:halls"  # a sorted set: each process's id, scored with when its word expires
EVERY = 2.0  # seconds between two ticks (tell what changed, read what is shown here)
SLOW = 15  # every SLOW ticks (30 s) the rooms applied here that nobody watches here are read too
ALIVE = 3 * EVERY  # seconds a process's word holds after its last tick
STALE = 3 * EVERY  # seconds after the last read of a room that its presence counts as unknown
KEEP = 24 * 3600  # seconds a room's hash is kept after its last write (a backstop: dead fields are skipped)
FORGET = 7 * 24 * 3600  # seconds after which a process's id is taken out of HALLS


class Presence:
    """This process's part in the cluster's presence: what it tells of its rooms, what it read."""

    def __init__(self, redis_url: str, me: str, hall: Hall) -> None:
        self.me = me
        self.hall = hall
        self.client = redis.Redis.from_url(redis_url, socket_timeout=EVERY, socket_connect_timeout=EVERY)
        self._told: dict[str, str] = {}  # code -> the value this process last wrote for it
        # code -> the counts (watchers, each seat's connections) of that value: while they stay,
        # so does the value, which is then neither made nor compared again
        self._counts: dict[str, tuple[int, tuple[int, ...]]] = {}
        self._seen: dict[str, list[float | None]] = {}  # code -> when each seat's last connection here closed
        self._read: dict[str, float] = {}  # code -> when it was last read (time.monotonic)
        self._failing = False
        self._ticks = 0

    # -- what the hall asks ------------------------------------------------------------------------
    def knows(self, room: Room) -> bool:
        """Whether who is connected to ``room`` at the other processes was read lately."""
        read = self._read.get(room.code)
        return read is not None and time.monotonic() - read <= STALE

    async def look(self, rooms: Sequence[Room]) -> None:
        """Reads now who is connected to ``rooms`` at the other processes (those not read in the
        last half tick); Redis away, they stay as they were (and :meth:`knows` says so)."""
        wanted = [room for room in rooms if time.monotonic() - self._read.get(room.code, -STALE) > EVERY / 2]
        if wanted:
            await self._exchange({}, wanted)

    async def run(self) -> None:
        while True:
            await asyncio.sleep(EVERY)
            await self.tick()

    async def tick(self) -> None:
        """Tells the other processes what changed here, and reads what is judged here."""
        rooms = self.hall.rooms
        for code in [code for code in self._read if code not in rooms]:
            del self._read[code]
        for code in [code for code in self._told if code not in rooms]:
            del self._told[code]
            self._counts.pop(code, None)
            self._seen.pop(code, None)
        writes, counted = {}, {}
        for code, room in rooms.items():
            if room.watchers == 0 and code not in self._told:
                continue  # nobody was ever connected to it here: nothing to tell
            counts = (room.watchers, tuple(seat.connections for seat in room.seats))
            if self._counts.get(code) == counts:
                continue  # as told
            value = self._value(room)
            if self._told.get(code) != value:
                writes[code], counted[code] = value, counts
        self._ticks += 1
        slow = self._ticks % SLOW == 0
        if await self._exchange(writes, [room for room in rooms.values() if _judged_here(room, slow)]):
            self._counts.update(counted)

    def close(self) -> None:
        self.client.close()

    # -- telling and reading -----------------------------------------------------------------------
    def _value(self, room: Room) -> str:
        """What this process tells of ``room``: its watchers here, each seat's connections here,
        and for a seat not connected here any more, when its last connection here closed."""
        seen = self._seen.setdefault(room.code, [None] * len(room.seats))
        told = json.loads(self._told[room.code]) if room.code in self._told else None
        for i, seat in enumerate(room.seats):
            if i < len(seen) and told is not None and i < len(told["c"]) and told["c"][i] and not seat.connections:
                seen[i] = seat.away_since  # it closed since the last tick
        return json.dumps({"w": room.watchers, "c": [seat.connections for seat in room.seats], "s": seen})

    async def _exchange(self, writes: Mapping[str, str], rooms: Sequence[Room]) -> bool:
        """Whether Redis took ``writes`` (and ``rooms`` were read)."""
        try:
            alive, hashes = await asyncio.to_thread(self._pipeline, writes, [room.code for room in rooms])
        except redis.RedisError as error:
            if not self._failing:
                log.warning("could not tell or read who is connected at the other halls (%s): the lobby lists"
                            " rooms without judging presence, and no game ends as abandoned, until Redis answers",
                            error)
            self._failing = True
            return False
        if self._failing:
            log.warning("who is connected at the other halls is told and read again")
        self._failing = False
        self._told.update(writes)
        now, read = self.hall.clock.now(), time.monotonic()
        for room, fields in zip(rooms, hashes):
            self._read[room.code] = read
            self._apply(room, [json.loads(value) for owner, value in fields.items() if owner in alive], now)
        return True

    def _pipeline(self, writes: Mapping[str, str], codes: Sequence[str]) -> tuple[set[str], list[dict[str, str]]]:
        """One round trip (on a thread): this process's word renewed, its writes, the processes
        alive, and the hashes of ``codes``."""
        wall = time.time()
        pipe = self.client.pipeline(transaction=False)
        pipe.zadd(HALLS, {self.me: wall + ALIVE})
        pipe.zremrangebyscore(HALLS, "-inf", wall - FORGET)
        for code, value in writes.items():
            pipe.hset(KEY + code, self.me, value)
            pipe.expire(KEY + code, KEEP)
        pipe.zrangebyscore(HALLS, wall, "+inf")
        for code in codes:
            pipe.hgetall(KEY + code)
        answers = pipe.execute()
        alive = {_text(owner) for owner in answers[2 + 2 * len(writes)]} - {self.me}
        hashes = [{_text(owner): _text(value) for owner, value in fields.items()}
                  for fields in answers[3 + 2 * len(writes):]]
        return alive, hashes

    @staticmethod
    def _apply(room: Room, told: list[dict[str, Any]], now: float) -> None:
        """Puts on ``room`` what the other processes alive told of it (read at ``now``)."""
        seats = room.seats
        before = [seat.connected for seat in seats]
        watchers, connections = 0, [0] * len(seats)
        seen: list[float | None] = [seat.seen_elsewhere for seat in seats]  # never earlier than it was
        for value in told:
            watchers += int(value.get("w", 0))
            for i, (count, closed) in enumerate(zip(value.get("c", ()), value.get("s", ()))):
                if i >= len(seats):
                    break
                connections[i] += int(count)
                last = now if count else closed
                earlier = seen[i]
                if last is not None and (earlier is None or last > earlier):
                    seen[i] = float(last)
        seats.watchers_elsewhere = watchers
        for seat, count, last in zip(seats, connections, seen):
            seat.elsewhere, seat.seen_elsewhere = count, last
        if room.watchers and [seat.connected for seat in seats] != before:
            room.show_status()  # a presence dot changed


def _judged_here(room: Room, slow: bool) -> bool:
    """Whether this process reads who is connected to ``room`` at the others this tick: not
    everyone who may keep it going is connected here, and it shows the room here (every tick), or
    it applies it (every ``SLOW`` ticks: the commands judged by presence read it first, hall.py;
    every tick while a vote is under way)."""
    if room.status == "over" or not (room.watchers or slow and room.leading or room.leading and room.votes.ballot):
        return False  # (a vote under way is counted again by itself: room/votes.py)
    return room.status == "waiting" or any(seat.kind == "human" and not seat.left and not seat.connections
                                           for seat in room.seats)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
