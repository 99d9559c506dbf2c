"""When a turn-based player's time runs out: nothing happens by itself; the others choose to hand
the late seat to a bot (it plays on under the player's name, rated as their forfeit, as when a
host gives an abandoned seat to a bot) or to end the game with the absent player last.

    await decide(hall, room, caller_seat, late_seat, "bot")
"""

from __future__ import annotations

from typing import Literal

from .errors import HallError
from .hall import Hall
from .room import Room
from .room.commands import GiveToBot
from .room.pace import TURN_BASED

Choice = Literal["bot", "forfeit"]


async def decide(hall: Hall, room: Room, caller: int, seat: int, choice: Choice) -> None:
    """``caller`` (a player's seat) chooses what becomes of ``seat``, whose time ran out; refused
    in words, changing nothing, unless the room is turn-based and being played, ``seat`` is late
    and ``caller`` is another person at the table."""
    if room.pace.pace != TURN_BASED:
        raise HallError("conflict", "only in a turn-based room do the players choose when time runs out"
                        " (in a live room a bot moves for the late player)")
    if room.status != "playing":
        raise HallError("conflict", "the game is not being played")
    room.seats.check_seat(seat)
    late = room.pace.late(room.seats.humans(room.to_act()), hall.clock.now())
    name = room.names()[seat]
    if seat not in late:
        raise HallError("conflict", f"{name}'s time has not run out: nothing to decide")
    if caller == seat or room.seats[caller].kind != "human":
        raise HallError("not_a_player", "the other players decide what becomes of a late seat: move instead")
    if choice == "bot":
        await hall.run(room, GiveToBot(seat, room.bots.builtin(room.game)))
    else:
        await forfeit(hall, room, seat)


async def forfeit(hall: Hall, room: Room, seat: int) -> None:
    """Ends the game with ``seat``'s player last, rated as a forfeit: the forfeit of issue 28,
    which this calls once it is in the hall (on branch ``table`` at 16:30 UTC, not yet on main:
    room/leaving.py and ``Vote(seat, motion="end")`` of room/votes.py, "the game ends now, absent
    players last"). Until then it refuses in words and changes nothing."""
    raise HallError("conflict", "ending a game by forfeit is not in this hall yet (it comes with the"
                    " players' forfeit, issue 28): hand the seat to a bot meanwhile")
