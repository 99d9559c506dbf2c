"""The commands that set a table: a person takes a seat, a seat goes to a bot, the game starts.
Each is judged under the room's lock (the seats' rules are :class:`~.seats.SeatBook`'s), committed,
then shown and said in the chat; the room (room/room.py) hands them the commands.

    seat, token = await join(room, Join("Ana"))     # HallError in words if there is no seat for Ana
    await give_to_bot(room, GiveToBot(1, "greedy"))
    await start(room)

A seat taken mid-game from a person is a forfeit, and goes through room/leaving.py instead.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from ...core import Game
from ..errors import HallError
from ..store import SeatHolder, leaving
from .chat import Chat
from .commands import GiveToBot, Join
from .context import RoomContext
from .pace import Pace
from .play import Play
from .seats import SeatBook


class Room(Protocol):
    """What setting the table uses of a room (room/room.py's :class:`~.room.Room`)."""

    game: Game[Any]
    players: int
    status: str
    seats: SeatBook
    play: Play
    pace: Pace
    leading: bool
    lock: asyncio.Lock
    context: RoomContext
    chat: Chat

    async def save(self, **changes: Any) -> None: ...

    def committed(self, change: dict[str, Any]) -> None: ...


async def join(room: Room, command: Join) -> tuple[int, str]:
    """``command``'s person takes a seat: (the seat, its new token)."""
    async with room.lock:
        seat, token, seats = room.seats.joined(command, room.status, room.context.clock.now())
        taken = SeatHolder(seat, command.account.id) if command.account is not None else None
        await room.save(seats=seats, taken=taken)
        room.seats.set(seat, seats[seat])
    room.committed({"seats": seats})
    await room.chat.tell(f"{seats[seat]['name']} took seat {seat + 1}")
    return seat, token


async def give_to_bot(room: Room, command: GiveToBot) -> None:
    """A seat goes to a bot: an open one, a bot's, or before the start a person's who is not
    connected (a person's seat mid-game is a forfeit: room/leaving.py)."""
    async with room.lock:
        current = room.seats[command.seat]
        seats = room.seats.given_to_bot(command, room.status)
        await room.save(seats=seats, left=leaving(command.seat, current.account, room.status))
        room.seats.set(command.seat, seats[command.seat])
    room.committed({"seats": seats})
    await room.chat.tell(f"a bot ({command.bot}) took over {current.name}'s seat" if current.kind == "human"
                         else f"{seats[command.seat]['name']} (bot) took seat {command.seat + 1}")


async def start(room: Room) -> None:
    """The game starts, every seat taken (a turn-based room's first deadline commits with it)."""
    async with room.lock:
        if room.status != "waiting":
            raise HallError("conflict", "the game has already started")
        room.seats.check_full()
        humans = room.seats.humans(room.game.to_act(room.play.start_state())) if room.pace.turn_based else []
        deadline = room.pace.after(humans, [None] * room.players, None, room.context.clock.now(), False)
        await room.save(status="playing", deadline=deadline)
        room.pace.committed(deadline, humans, room.leading)
        room.status = "playing"
        room.play.begin()
    room.committed({"status": "playing", "deadline": room.pace.deadline})
    await room.chat.tell("the game started")
