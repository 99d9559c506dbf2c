"""A replica: a room that another process of a cluster applies, followed here from what its owner
committed, either as the owner published it (:func:`apply_change`, never reading the store) or as
the store has it (:func:`apply_committed`). The room decides when (room/room.py: ``became_owner``,
``sync_from_store``); this module only takes what was committed into the copy.

    followed = apply_change(room, {"action": {...}, "deadline": ...}, tell)   # False: read the store
    apply_committed(room, record, tell)                                       # from the store

``tell(seen_by_all)`` shows the change to the copy's watchers here (``seen_by_all``: after an
action, whether every audience saw it; None: the seats or the status changed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ...core import Game, LogEntry
from ..store import ActionRecord, RoomRecord, StoreError
from .audience import Audiences
from .coach import Coaching
from .pace import Pace
from .play import Play
from .seats import SeatBook
from .votes import Votes

Tell = Callable[[bool | None], None]


class Room(Protocol):
    """What a replica changes of its room (room/room.py's :class:`~.room.Room`)."""

    code: str
    game: Game[Any]
    status: str
    rematch: str | None
    forwarding: int  # the copy's own actions sent to the owner and not yet answered
    seats: SeatBook
    play: Play
    pace: Pace
    audiences: Audiences
    coaching: Coaching
    votes: Votes

    def advance(self, record: ActionRecord, state: Any, entries: list[LogEntry]) -> bool: ...

    def rewind(self, turn: int) -> None: ...


def apply_change(room: Room, change: dict[str, Any], tell: Tell) -> bool:
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
        tell(take_action(room, record))
        return True
    if "taken_back" in change:  # the coach (room/takeback.py)
        room.rewind(change["taken_back"])
    if "coach_hold" in change:
        room.coaching.followed = change["coach_hold"]
    if "vote" in change:
        room.votes.followed = change["vote"]
    take(room, change.get("seats"), change.get("rematch", room.rematch), change.get("status"))
    tell(None)
    return True


def apply_committed(room: Room, record: RoomRecord, tell: Tell | None) -> bool:
    """Takes what the store has committed: the room's seats and status, and its actions from this
    copy's turn on, applied in order (the store holds every turn, so none is skipped). Its watchers
    here are told unless ``tell`` is None. Returns whether anything changed."""
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
    if changed and tell is not None:
        tell(seen_by_all if applied else None)
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
