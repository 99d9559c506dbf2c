"""Taking a move back, with the coach at the table (docs/analysis.md): after each move a coached
person makes alone (nobody else chose in the same round), the bots wait while the coach judges it
from the seat's view, as the after-game analysis will (:func:`parlour.bots.analysis.judge`, in the
bot pool's worker). A move it finds a mistake or a blunder is held: the person is told why and may
take it back or keep it; after ``HOLD`` seconds it stands and the bots answer. Any other move
stands at once. A move is taken back only before the bots answer, and only the last one::

    moved(room, record, over)            # in Room._act, once the move is committed: judge and hold
    holding(room)                        # whether the bots wait (Room._changed asks)
    await take_back(room, TakeBack(seat))            # the move is undone, in the store and the room
    await take_back(room, TakeBack(seat, keep=True))  # it stands: the bots answer
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Final, Protocol

from ...bots.analysis import DEFAULT_BUDGET, move_seed
from ..errors import HallError
from ..store import ActionRecord, Lease, StoreError
from .audience import Audiences
from .bots import BotDriver
from .chat import Chat
from .coach import AT_ONCE, SECONDS, Coaching, Hold
from .coach import Room as CoachedRoom
from .commands import TakeBack
from .history import History
from .play import Play

log = logging.getLogger(__name__)

HOLD: Final = 60.0  # seconds the bots wait for a person to take back or keep a wrong-looking move
WRONG: Final = ("mistake", "blunder")  # the labels that hold the bots' answer


class Room(CoachedRoom, Protocol):
    """What taking back uses of a room (room/room.py's :class:`~.room.Room`)."""

    play: Play
    audiences: Audiences
    driver: BotDriver
    chat: Chat
    lock: asyncio.Lock
    lease: Lease | None
    leading: bool

    def refusal(self, error: StoreError) -> HallError: ...

    def committed(self, change: dict[str, Any]) -> None: ...

    def show_status(self, change: dict[str, Any] | None = None) -> None: ...


def moved(room: Room, record: ActionRecord, over: bool) -> None:
    """``record`` was just committed (``room`` still in the state before it, under its lock): a
    coached person's move made alone is judged, and the bots wait for the judgement."""
    if not room.coach:
        return  # most rooms: nothing to do, at no cost
    coaching: Coaching = room.coaching
    coaching.hold = None
    seat = record.seat
    if over or record.by != "player" or room.to_act() != {seat} or not coaching.helps(room, seat) \
            or room.game.id not in room.bots.registry or Coaching.making >= AT_ONCE:
        return  # not coached here, or the coach is busy: the move stands and the bots answer
    hold = coaching.hold = Hold(seat, record.turn, room.state, list(room.play.waiting_since))
    game, pool = room.game, room.bots
    Coaching.making += 1
    judging = asyncio.get_running_loop().run_in_executor(
        pool.thinking, pool.thinkers.judge, game.id, move_seed(room.seed, record.turn + 1), DEFAULT_BUDGET.rounds,
        DEFAULT_BUDGET.width, game.view(room.state, seat), seat, game.legal_actions(room.state, seat),
        record.action, SECONDS)
    room.context.spawn(_judged(room, hold, judging))


async def _judged(room: Room, hold: Hold, judging: asyncio.Future[dict[str, Any]]) -> None:
    try:
        judged: dict[str, Any] | None = await judging
    except Exception as error:  # the coach could not judge it: the move stands
        log.warning("the coach could not judge a move in room %s: %s", room.code, error)
        judged = None
    finally:
        Coaching.making -= 1
    coaching: Coaching = room.coaching
    if coaching.hold is not hold:
        return  # taken back, kept or moved on meanwhile
    if judged is None or judged["label"] not in WRONG:
        coaching.hold = None
    else:
        hold.judged = {**judged, "line": line(judged)}
        hold.until = room.context.clock.now() + HOLD
        room.context.spawn(_expire(room, hold))
    # the bots answer now, or everyone sees the move held (the other processes too)
    room.show_status({"coach_hold": None if coaching.hold is None else {**hold.to_json(), "judged": hold.judged}})


async def _expire(room: Room, hold: Hold) -> None:
    await asyncio.sleep(HOLD)
    if room.coaching.hold is hold:
        room.coaching.hold = None
        room.show_status({"coach_hold": None})


def holding(room: Room) -> bool:
    """Whether the bots wait on the coach (a hold of a move that is still the room's last)."""
    hold = room.coaching.hold
    if hold is not None and (room.status != "playing" or hold.turn != room.turn - 1):
        room.coaching.hold = hold = None
    return hold is not None


def line(judged: dict[str, Any]) -> str:
    """Why the move is held, in one line.

    >>> line({"label": "blunder", "win_chance_before": 0.62, "win_chance_after": 0.21})
    'That looks like a blunder: your chance of winning falls from 62% to 21% (the coach would play another move).'
    """
    return (f"That looks like a {judged['label']}: your chance of winning falls from"
            f" {round(100 * judged['win_chance_before'])}% to {round(100 * judged['win_chance_after'])}%"
            " (the coach would play another move).")


def held(room: Room, seat: int) -> dict[str, Any] | None:
    """What the coach says to ``seat`` of its move the bots wait on (None: nothing held)."""
    room.coaching.check(room, seat)
    hold = room.coaching.hold if holding(room) else None
    if hold is None:  # a cluster's copy: what the room's owner published
        followed = room.coaching.followed
        current = room.coaching.hold_json(room.turn)
        return followed if current is not None and current["seat"] == seat else None
    if hold.seat != seat:
        return None
    return {**hold.to_json(), "judged": hold.judged}


async def take_back(room: Room, command: TakeBack) -> None:
    """``command.seat`` takes back its move the bots wait on, or (``keep``) lets it stand."""
    seat, coaching = command.seat, room.coaching
    async with room.lock:
        coaching.check(room, seat)
        hold = coaching.hold if holding(room) else None
        if hold is None or hold.seat != seat:
            raise HallError("conflict", "there is no move of yours to take back: a move can be taken back only"
                            " while the bots wait on it (the coach holds a move that looks like a mistake or a"
                            " blunder), and only your last one")
        if not command.keep:
            coaching.count_take_back(seat, room.context.clock.now())
            try:
                await room.context.store.take_back(room.code, hold.turn, lease=room.lease)
            except StoreError as error:
                raise room.refusal(error) from None
            rewind(room, hold.turn, hold)
        coaching.hold = None
    if command.keep:
        room.show_status({"coach_hold": None})
        return
    room.committed({"taken_back": hold.turn})
    await room.chat.tell(f"{room.seats[seat].name} took a move back (the coach)")


def rewind(room: Room, turn: int, hold: Hold | None = None) -> None:
    """``room`` as it was before its action ``turn`` (``hold``: the state before its last action,
    kept; else, in another process's copy, the game is replayed to it). Every audience is made anew."""
    play = room.play
    if turn < play.turn:
        records = play.records[:turn]
        if hold is not None and turn == play.turn - 1:
            play.state, play.turn, play.waiting_since, play.records = hold.before, turn, hold.waiting, records
        else:
            play.records = History()
            play.begin()
            for record in records:
                play.advance(record, room.game.apply(play.state, record.seat, record.action))
    room.audiences.forget()
    room.coaching.followed = None
    room.coaching.forget()
    room.driver.forget()
