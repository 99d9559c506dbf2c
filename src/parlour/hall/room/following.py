"""A replica: a room that another process of a cluster applies, followed here from what its owner
committed, either as the owner published it (:func:`apply_change`, never reading the store) or as
the store has it (:func:`sync_from_store`, read on a thread, in the background: :func:`refresh`).
Which process leads a room, and what changes hands with it, is the room's (room/room.py:
``became_owner``, ``lost_ownership``); this module takes what was committed into the copy, and
has the room show it to its watchers here (``room.shown_here``).

    if not apply_change(room, {"action": {...}, "deadline": ...}):   # it does not follow on
        refresh(room)                                                # caught up from the store
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from ...core import Game, LogEntry
from ..store import ActionRecord, RoomRecord, StoreError
from .audience import Audiences
from .coach import Coaching
from .context import RoomContext
from .pace import Pace
from .play import Play
from .seats import SeatBook
from .votes import Votes


class Room(Protocol):
    """What a replica changes of its room (room/room.py's :class:`~.room.Room`)."""

    code: str
    game: Game[Any]
    status: str
    rematch: str | None
    leading: bool  # this process applies the room: it follows nobody
    forwarding: int  # the copy's own actions sent to the owner and not yet answered
    lock: asyncio.Lock
    context: RoomContext
    seats: SeatBook
    play: Play
    pace: Pace
    audiences: Audiences
    coaching: Coaching
    votes: Votes

    def advance(self, record: ActionRecord, state: Any, entries: list[LogEntry]) -> bool: ...

    def rewind(self, turn: int) -> None: ...

    def shown_here(self, action_seen_by_all: bool | None) -> None: ...


def refresh(room: Room) -> None:
    """A replica catches up with what its owner committed, in the background (not while an action
    of its own is being forwarded: that action's ack goes out first)."""
    if not room.leading and not room.forwarding:
        room.context.spawn(sync_from_store(room))


async def sync_from_store(room: Room) -> bool:
    """Brings this replica up to what the store has committed (read on a thread); returns whether
    anything changed."""
    record = await read_committed(room)
    async with room.lock:
        if record is None or room.leading:
            return False
        return apply_committed(room, record)


async def read_committed(room: Room) -> RoomRecord | None:
    """The room as the store has it, its actions from this copy's turn on (read on a thread)."""
    return await room.context.store.room(room.code, room.play.turn)


def apply_change(room: Room, change: dict[str, Any]) -> bool:
    """Takes one change the room's owner committed and published; False when it does not follow
    on from this copy (a change was missed, or an action of this copy's is being forwarded): the
    copy is then caught up from the store."""
    if room.forwarding:
        return False
    room.pace.deadline = change.get("deadline", room.pace.deadline)
    if "action" in change:
        record = ActionRecord(**change["action"])
        if record.turn < room.play.turn and room.play.records[record.turn].at != record.at:
            room.rewind(record.turn)  # a move taken back (room/takeback.py) whose news this copy missed
        if record.turn != room.play.turn or room.status != "playing":
            return record.turn < room.play.turn  # had it already, or missed one
        room.shown_here(take_action(room, record))
        return True
    if "taken_back" in change:  # the coach (room/takeback.py)
        room.rewind(change["taken_back"])
    if "coach_hold" in change:
        room.coaching.followed = change["coach_hold"]
    if "vote" in change:
        room.votes.followed = change["vote"]
    take(room, change.get("seats"), change.get("rematch", room.rematch), change.get("status"))
    room.shown_here(None)
    return True


def apply_committed(room: Room, record: RoomRecord, quiet: bool = False) -> bool:
    """Takes what the store has committed: the room's seats and status, and its actions from this
    copy's turn on, applied in order (the store holds every turn, so none is skipped). Its watchers
    here are told unless ``quiet``. Returns whether anything changed."""
    changed = take(room, record.seats, record.rematch, record.status)
    if room.pace.turn_based and record.deadline != room.pace.deadline:
        room.pace.deadline, changed = record.deadline, True
    applied, seen_by_all = False, False
    for action in record.actions:
        if action.turn < room.play.turn:
            continue
        if action.turn != room.play.turn:
            raise StoreError(f"room {room.code}: turn {room.play.turn} is missing from the store")
        seen_by_all = take_action(room, action) or seen_by_all
        applied = changed = True
    if changed and not quiet:
        room.shown_here(seen_by_all if applied else None)
    return changed


def take(room: Room, seats: list[dict[str, Any]] | None, rematch: str | None, status: str | None) -> bool:
    """Takes the committed ``seats``, ``rematch`` and ``status``; returns whether anything changed."""
    changed = seats is not None and room.seats.replace(seats)
    if rematch != room.rematch:
        room.rematch, changed = rematch, True
    if room.status == "waiting" and status not in (None, "waiting"):
        room.status = "playing"
        room.play.begin()
        if room.audiences.built:  # as the owner showed it
            room.audiences.show(room.play.state)
        changed = True
    if room.status == "playing" and status == "over":  # ended before its rules ended it
        room.status, changed = "over", True
    return changed


def take_action(room: Room, record: ActionRecord) -> bool:
    """Applies the committed ``record``; returns whether every audience saw it."""
    record = room.play.cleaned(record)
    entries: list[LogEntry] = []
    return room.advance(record, room.game.apply(room.play.state, record.seat, record.action, entries), entries)
