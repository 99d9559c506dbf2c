"""The live lobby: the rooms to join and the games to watch, newest first.

    listing = await lobby(hall, "playing", game="palace")   # as GET /api/rooms gives it

The lists show only rooms someone can use (issue 28.2): a waiting room is listed while somebody
is in it (a connection) or it is new (``FRESH`` seconds: its maker is on the way), and a game
being played while one of its people is at the table or was in the last ``FRESH`` seconds (a
reload, a player on the way), or bots alone play it. Several processes (a cluster) judge by who is
connected to any of them (hall/cluster/presence.py: each process tells the others its
connections per room); while that cannot be read (Redis away) a process lists the rooms without
judging presence. Whether its host is here (``host_here``) is shown: once the host has been gone a
minute any seated player may start the game (room/leaving.py). A waiting room that nobody has been connected to for
``WAITING_TTL`` seconds expires: the hall lets go of it (the store keeps it, and its link still
works).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import aclosing
from typing import Any, Literal

from .errors import HallError
from .hall import WAITING_TTL, Hall
from .room import Room
from .room.leaving import away_for

LobbyStatus = Literal["waiting", "playing"]
STORED_PAGE = 100  # rooms read from the store at a time for the lobby of several processes
FRESH = 120  # seconds a new waiting room is listed with nobody in it yet


def listed(room: Room, status: LobbyStatus, now: float, present: bool = True) -> bool:
    """Whether the lobby lists ``room``; ``present``: judge by who is connected (False when that
    is not known: a process of a cluster that cannot read the others', docs/scaling.md). A
    turn-based room is not judged by who is connected: its people come and go by the day."""
    if room.status != status:
        return False
    present = present and not room.pace.turn_based
    if status == "waiting":  # a room to join: a seat is open and someone there may start it
        return bool(room.seats.open_seats()) and not room.expired(now, WAITING_TTL) and (
            not present or room.watchers > 0 or room.seats.watchers_elsewhere > 0 or now - room.created < FRESH)
    people = [seat for seat in room.seats if seat.kind == "human" and not seat.left]
    return not present or not people or any(away_for(seat, now) < FRESH for seat in people)


async def lobby(hall: Hall, status: LobbyStatus = "waiting", game: str | None = None,
                offset: int = 0, limit: int | None = None, pace: str | None = None) -> list[dict[str, Any]]:
    """The rooms the lobby shows, newest first: ``waiting`` ones to join, or ``playing`` ones to
    watch, with their players and how far along they are (``turn``: the moves a spectator saw);
    ``limit`` rooms from ``offset`` on (all by default); ``pace``: only live or only turn-based
    rooms. Only the page's entries are built."""
    if game is not None:
        hall.game(game)  # an unknown game is refused in words
    now = hall.clock.now()
    page: list[Room] = []
    skipped = 0
    async with aclosing(_candidates(hall, status, game)) as rooms:
        async for room in rooms:
            if not listed(room, status, now, hall.ownership.knows_presence(room)) or (
                    game is not None and room.game.id != game) or (
                    pace is not None and room.pace.pace != pace):
                continue
            if skipped < offset:
                skipped += 1
                continue
            if limit is not None and len(page) >= limit:
                break
            page.append(room)
    return [{"code": r.code, "game": r.game.id, "status": r.status, "seats": r.seats.to_json(now),
             "created": r.created, "turn": r.audience(None).turn if r.status == "playing" else 0,
             "watchers": r.watchers, "pace": r.pace.pace, "turn_timer": r.turn_timer, "host_here": not r.host_away()}
            for r in page]


async def _candidates(hall: Hall, status: LobbyStatus, game: str | None) -> AsyncGenerator[Room, None]:
    if not hall.clustered:
        for room in sorted(hall.rooms.values(), key=lambda r: -r.created):
            yield room
        return
    async with aclosing(_stored(hall, status, game)) as rooms:
        async for room in rooms:
            yield room


async def _stored(hall: Hall, status: LobbyStatus, game: str | None) -> AsyncGenerator[Room, None]:
    """The rooms the store has with ``status`` (of ``game``), newest first, as this process has
    them (one of several: the lobby is every process's rooms, not only those in memory here), with
    who is connected to them at the other processes read for each page at once."""
    start = 0
    while True:
        codes = await hall.store.lobby_page(status, game, start, STORED_PAGE)
        rooms = []
        for code in codes:
            if code in hall.abandoned and code not in hall.rooms:
                continue  # expired, as this process saw it (the single process's lobby forgets it too)
            try:
                rooms.append(await hall.room(code))
            except HallError:  # it no longer replays (logged)
                continue
        await hall.ownership.look(rooms)
        for room in rooms:
            yield room
        if len(codes) < STORED_PAGE:
            return
        start += STORED_PAGE
