"""The rematch: a player of a finished game offers to play again.

    answer, room = await offer_rematch(hall, "KUYWKA", seat_token)

A new room with the same game, options, bots and turn timer, every seat turned by one (seat 1's
player sits at seat 2...), the caller seated there and its host, every other player's seat kept
for them ``RESERVE_SEATS`` seconds. Everyone in the old room sees the new room's code in its status
(``rematch``) and a line in its chat. In a cluster it is made by the process that applies the old
room (forwarded there as a command like any other).

Each player who takes their kept seat is said in the old room's chat, and the rematch starts by
itself once every seat is taken (:func:`joined`): one click for whoever offers it, one for each of
the others.
"""

from __future__ import annotations

import contextlib

from .errors import HallError
from .hall import Hall
from .room import Room
from .room.commands import OfferRematch, Rematched, Say, Start
from .room.seats import RESERVE_SEATS


async def offer_rematch(hall: Hall, code: str, token: str | None) -> tuple[Rematched, Room]:
    """The rematch of room ``code`` offered by the player holding ``token``: its answer and the new room."""
    room = await hall.room(code)
    room.seat_for_token(token)  # refused here already if the token holds no seat
    answer = await hall.forward_to_owner(room, OfferRematch(token))
    if answer is None:
        answer = await rematch_here(hall, room, token)
    assert isinstance(answer, Rematched)
    return answer, await hall.room(answer.code)


async def rematch_here(hall: Hall, room: Room, token: str | None) -> Rematched:
    """The rematch, made by the process that applies ``room``."""
    seat = room.seat_for_token(token)
    if room.status != "over":
        raise HallError("conflict", "a rematch is offered once the game is over")
    if room.rematch is not None:
        raise HallError("conflict", f"a rematch is already offered: join room {room.rematch}")
    specs, kept = room.seats.for_rematch(seat, hall.clock.now() + RESERVE_SEATS)
    for reserved in kept.values():
        reserved["from"] = room.code  # the room whose players it keeps seats for: see joined()
    # the room's options as played, bots as named: a bot that took over a seat keeps "Ana (bot)"
    new_room, host_token, mine, seat_token = await hall.create_room(
        room.game.id, room.options, specs, room.turn_timer, room.names()[seat], (seat + 1) % room.players, kept,
        pace=room.pace.pace)
    await room.offered_rematch(new_room.code)
    await room.chat.tell(f"{room.names()[seat]} offers a rematch")
    assert mine is not None and seat_token is not None
    return Rematched(new_room.code, host_token, mine, seat_token)


def origin(room: Room) -> str | None:
    """The old room whose players a rematch room keeps seats for (None: not a rematch, or every
    kept seat is taken)."""
    return next((str(s.reserved["from"]) for s in room.seats if s.reserved and s.reserved.get("from")), None)


async def joined(hall: Hall, room: Room, old: str | None, name: str) -> None:
    """``name`` took a seat in ``room``, a rematch of room ``old`` (:func:`origin`, read before the
    join; None: not a rematch): the old room's chat says so, and once every seat is taken the
    rematch starts by itself."""
    if old is None:
        return
    with contextlib.suppress(HallError):  # the old room's chat is a courtesy: the join stands
        await hall.execute(old, Say("system", f"{name} joined the rematch ({room.code})"))
    if room.status != "waiting" or room.seats.open_seats():
        return
    with contextlib.suppress(HallError):  # someone started it meanwhile
        await hall.run(room, Start())
        await hall.execute(old, Say("system", f"everyone is in: the rematch ({room.code}) started"))
