"""When a turn-based player's time runs out: nothing happens by itself; the others choose to hand
the late seat to a bot (it plays on under the player's name, rated as their forfeit, as when a
host gives an abandoned seat to a bot) or to end the game with the absent player last: the
players' vote to end the game (room/votes.py), in which a late seat is absent, so it places last
and forfeits as ``away`` (rated as a seat taken from an absent player: nobody else gains from it).
With two players the other's choice ends the game at once; with more, the others must all agree.

    await decide(hall, room, caller_seat, late_seat, "bot")
"""

from __future__ import annotations

from typing import Literal

from .errors import HallError
from .hall import Hall
from .room import Room
from .room.commands import GiveToBot, Vote
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
        await forfeit(hall, room, caller)


async def forfeit(hall: Hall, room: Room, caller: int) -> None:
    """``caller`` proposes (or agrees) to end the game now, the late seats placing last as
    forfeits: ``Vote(caller, "end")``, carried out once every other person still playing and
    neither late nor away agrees (at once when nobody else is left to ask)."""
    await hall.run(room, Vote(caller, "end"))
