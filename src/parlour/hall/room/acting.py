"""A seat's action, judged under the room's lock before it is committed: whether it comes in time
and it is the seat's turn (:func:`check_turn`), the game's answer to it in words, and what commits
with it (:func:`judge`): its record, a finished game's places and ratings, a turn-based deadline.
It reads the room and changes nothing; the room (room/room.py) commits the :class:`Move`, then
takes it and tells everyone.

    check_turn(room, seat=0, turn=3)       # HallError: not started, over, stale, not your turn
    move = judge(room, Act(0, 3, action))  # HallError (illegal) in words
    cancelled = await commit(room, move)   # HallError (store, retry); waited out even if cancelled
    move.change()                          # what the room's replicas take of it (room/following.py)
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Protocol

from ...core import Game, IllegalAction, LogEntry
from ..errors import HallError
from ..ratings import settlement
from ..store import ActionRecord, Deadline, Lease, Settlement, StoreError
from ..wire import dumps_bytes, embedded
from .audience import Audience
from .coach import unrated
from .commands import Act
from .context import RoomContext
from .leaving import final
from .pace import Pace
from .play import Play
from .seats import SeatBook

log = logging.getLogger(__name__)


class Room(Protocol):
    """What judging an action reads of a room (room/room.py's :class:`~.room.Room`)."""

    code: str
    game: Game[Any]
    players: int
    status: str
    coach: bool  # a coached game is never rated (room/coach.py)
    seats: SeatBook
    play: Play
    pace: Pace
    context: RoomContext
    lease: Lease | None

    def audience(self, seat: int | None) -> Audience: ...

    def refusal(self, error: StoreError) -> HallError: ...


@dataclass(frozen=True)
class Move:
    """An action judged: its ``record`` to commit, the ``state`` and log ``entries`` it makes,
    whether it ends the game (``over``, with its places and ratings: ``settle``), and in a
    turn-based room the people it asks to act (``humans``) and the ``deadline`` it sets.
    ``encoded``: the action as JSON, made once for the store, the room's history and the change."""

    record: ActionRecord
    state: Any
    entries: list[LogEntry]
    over: bool
    settle: Settlement | None
    humans: list[int]
    deadline: Deadline | None
    encoded: bytes

    def change(self) -> dict[str, Any]:
        """What the room's replicas take of it, without reading the store (room/following.py), for
        :func:`~parlour.hall.wire.dumps_bytes` (its action is in it as the JSON made once)."""
        record = self.record
        action = {"turn": record.turn, "seat": record.seat, "action": embedded(self.encoded), "by": record.by,
                  "at": record.at}
        return {"action": action, **({"deadline": self.deadline.at} if self.deadline is not None else {})}


def check_turn(room: Room, seat: int, turn: Any) -> None:
    """Refuses an action of ``seat`` chosen when it had seen ``turn`` turns unless the game is on,
    the action comes in time and it is the seat's turn (room/play.py)."""
    if room.status == "waiting":
        raise HallError("not_started", "the game has not started yet")
    if room.status == "over":
        raise HallError("over", "the game is over")
    if isinstance(turn, bool) or not isinstance(turn, int):
        raise HallError("bad_message", "an act needs 'turn', the turn of the last state you saw")
    audience = room.audience(seat)
    room.play.check_turn(seat, turn, audience.room_turn(turn), audience.turn, room.seats.names)


def judge(room: Room, command: Act) -> Move:
    """``command``'s action applied to the room's state, once :func:`check_turn` let it through,
    and what commits with it; :class:`HallError` (``illegal``) in words if the game refuses it."""
    seat, game, play = command.seat, room.game, room.play
    entries: list[LogEntry] = []
    try:
        action = game.normalise(command.action)  # what is applied and stored: never the raw message
        state = game.apply(play.state, seat, action, entries)
    except IllegalAction as error:
        raise HallError("illegal", str(error)) from None
    except Exception as error:  # a game that trips over odd input must still answer in words
        log.exception("%s failed on %r in room %s", game.id, command.action, room.code)
        raise HallError("illegal", f"this action could not be applied ({type(error).__name__}: {error})") from None
    record = ActionRecord(play.turn, seat, action, command.by, room.context.clock.now())
    result = final(game, state, room.players, play.turn + 1)  # its rules', or its cap's
    over = result is not None
    settle = unrated(settlement(room.code, game.id, room.seats.records(), result.ranks, record.at)
                     if result is not None else None, room.coach)
    humans = room.seats.humans(game.to_act(state)) if room.pace.turn_based and not over else []
    deadline = room.pace.after(humans, play.waiting_since, seat, record.at, over)
    return Move(record, state, entries, over, settle, humans, deadline, dumps_bytes(action))


async def commit(room: Room, move: Move) -> bool:
    """``move`` committed with what commits with it (the fencing check of the room's lease, a
    finished game's ratings, a turn-based deadline), or :class:`HallError` in words (the room's
    :meth:`refusal`). Once under way, the commit is waited out even if the waiting task is
    cancelled (its connection closed): the store's future cannot be cancelled, so the task hears
    of it only once the commit ended, and the room must then take what the store took. Returns
    whether it was cancelled, for the room to raise :class:`asyncio.CancelledError` once it took
    the move. (``asyncio.shield`` of the room's act made a task a move: ~4% of a saturated hall's CPU.)"""
    saving = room.context.store.append_action(room.code, move.record, status="over" if move.over else None,
                                              lease=room.lease, settle=move.settle, deadline=move.deadline,
                                              encoded=move.encoded)
    cancelled = False
    try:
        await saving
    except asyncio.CancelledError:
        cancelled = True
    except Exception:  # the store's error: taken from the future below
        pass
    error = saving.exception()  # (ended: it cannot be cancelled)
    if error is None:
        return cancelled
    refused = room.refusal(error) if isinstance(error, StoreError) else error  # a lost lease: the room follows
    if cancelled:
        raise asyncio.CancelledError
    raise refused from None
