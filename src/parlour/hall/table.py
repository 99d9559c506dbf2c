"""The table: what the hall offers around a game, apart from playing it: the live lobby.

    listing = lobby(hall, "playing", game="palace")   # newest first, as GET /api/rooms gives it

A waiting room that nobody has been connected to for ``WAITING_TTL`` seconds expires: the lobby
stops listing it and the hall lets go of it (the store keeps it, and its link still works).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .rooms import Hall, Room

WAITING_TTL = 15 * 60  # seconds a waiting room stays listed with nobody connected to it
LobbyStatus = Literal["waiting", "playing"]


def expired(room: "Room", now: float) -> bool:
    """A waiting room nobody has been connected to for ``WAITING_TTL`` seconds."""
    return room.status == "waiting" and room.watchers == 0 and now - room.touched >= WAITING_TTL


def listed(room: "Room", status: LobbyStatus, now: float) -> bool:
    if room.status != status:
        return False
    if status == "waiting":  # a room to join: a seat is open and someone may still fill it
        return any(s.kind == "open" for s in room.seats) and not expired(room, now)
    return True


def lobby(hall: "Hall", status: LobbyStatus = "waiting", game: str | None = None) -> list[dict[str, Any]]:
    """The rooms the lobby shows, newest first: ``waiting`` ones to join, or ``playing`` ones to
    watch, with their players and how far along they are (``turn``: the moves a spectator saw)."""
    if game is not None:
        hall.game(game)  # an unknown game is refused in words
    now = hall.clock.now()
    rooms = [r for r in hall.rooms.values() if listed(r, status, now) and (game is None or r.game.id == game)]
    return [{"code": r.code, "game": r.game.id, "status": r.status, "seats": r.seats_json(),
             "created": r.created, "turn": r.audience(None).turn if r.status == "playing" else 0,
             "watchers": r.watchers}
            for r in sorted(rooms, key=lambda r: -r.created)]
