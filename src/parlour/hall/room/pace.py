"""A room's pace: live (everyone at the table, today's rooms) or turn-based (a move a day: a time
per move of an hour to 14 days, shown as a deadline).

A turn-based room's deadline is part of what the room commits: it is written with the action (or
the start) that set it, in the same transaction, so a restart or another process taking the room
over finds it as it was (a turn-based clock never restarts in full). When it passes nothing
happens by itself: the players whose time ran out are *late*, and the others may hand a late seat
to a bot or end the game with its player last. No task waits on a deadline: the one sweeper of
:mod:`parlour.hall.notify.sweeper` looks at the store's indexed deadlines.

    pace = Pace("turn-based", 86400, stored_deadline)
    deadline = pace.after(acting_humans, waiting_since, mover, now, over)   # None: unchanged
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import HallError
from ..store import Deadline

LIVE, TURN_BASED = "live", "turn-based"
PACES = (LIVE, TURN_BASED)
MIN_MOVE_TIME = 3600  # seconds: a turn-based room's time per move, from an hour...
MAX_MOVE_TIME = 14 * 86400  # ...to 14 days
WAITING_FOR_PLAYERS = 7 * 86400  # seconds a turn-based room stays listed with nobody connected to it


def check_pace(pace: Any, turn_timer: float | None) -> str:
    """``pace`` if it is one, with a turn timer it allows; else :class:`HallError` in words."""
    if pace not in PACES:
        raise HallError("bad_request", f"the pace is one of {', '.join(PACES)}, not {str(pace)[:40]!r}")
    if pace == TURN_BASED and (turn_timer is None or not MIN_MOVE_TIME <= turn_timer <= MAX_MOVE_TIME):
        raise HallError("bad_request", f"a turn-based room's turn_timer is the time per move, from {MIN_MOVE_TIME}"
                        f" seconds (an hour) to {MAX_MOVE_TIME} seconds (14 days); got {turn_timer}")
    return str(pace)


class Pace:
    """One room's pace and, turn-based, its turn's deadline (None while no person must act)."""

    def __init__(self, pace: str, seconds: float | None, deadline: float | None,
                 asked: Callable[[list[int]], None] = lambda seats: None) -> None:
        """``asked(seats)``: told, where the room is applied, when people are asked to move anew
        (the notifications' hook)."""
        self.pace = pace
        self.turn_based = pace == TURN_BASED
        self.seconds = seconds
        self.deadline = deadline if self.turn_based else None
        self._asked = asked

    def after(self, humans: Sequence[int], waiting_since: Sequence[int | None], mover: int | None, now: float,
              over: bool) -> Deadline | None:
        """The deadline a change sets, to commit with it (None: it stays as it is): ``humans``
        the people who must act after it, ``waiting_since`` each seat's turn of being asked before
        it (None: not asked), ``mover`` who acted (None: the start)."""
        if not self.turn_based:
            return None
        if over or not humans:
            new = None
        elif any(seat == mover or waiting_since[seat] is None for seat in humans):
            new = now + (self.seconds or 0)
        else:
            return None
        return None if new is None and self.deadline is None else Deadline(new)

    def committed(self, deadline: Deadline | None, humans: Sequence[int], leading: bool) -> None:
        """``deadline`` (from :meth:`after`) is in the store: the room shows it, and where the room
        is applied the people asked anew are told."""
        if deadline is None:
            return
        self.deadline = deadline.at
        if leading and deadline.at is not None:
            self._asked(list(humans))

    def waiting(self, ttl: float) -> float:
        """How long a waiting room nobody is connected to stays listed: ``ttl`` for a live one, a
        week for a turn-based one (its players come by now and then)."""
        return max(ttl, WAITING_FOR_PLAYERS) if self.turn_based else ttl

    def late(self, humans: Sequence[int], now: float) -> list[int]:
        """The people who must act and whose time ran out."""
        if self.deadline is None or now < self.deadline:
            return []
        return list(humans)

    def absent(self, humans: Sequence[int], now: float) -> list[int] | None:
        """Who counts as absent in the players' votes (room/votes.py): in a turn-based room the
        late people, and only they (its players come and go by the day); None in a live room,
        where absence is being gone a while."""
        return self.late(humans, now) if self.turn_based else None

    def status(self, humans: Sequence[int], now: float) -> dict[str, Any]:
        return {"pace": self.pace, "deadline": self.deadline, "late": self.late(humans, now)}
