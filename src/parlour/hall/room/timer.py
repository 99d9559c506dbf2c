"""The turn timer: how long the people who must act may take before a bot moves for them.

    deadlines = Deadlines()                       # the hall's, one for every room
    timer = TurnTimer(3600, deadlines, on_time_out)
    timer.arm(restart=True, now=clock.now())      # after a change that asked a person anew
    for timer in deadlines.due(clock.now()): timer.fire()   # the hall's tick

A timer that runs here is listed in :class:`Deadlines`, so the hall's tick looks only at rooms
with a deadline; a replica of a room (another process applies it) shows its owner's deadline
and never fires.
"""

from __future__ import annotations

from collections.abc import Callable

MAX_TURN_TIMER = 24 * 3600  # seconds


class Deadlines:
    """The timers with a deadline in this process."""

    def __init__(self) -> None:
        self._timers: set[TurnTimer] = set()

    def add(self, timer: TurnTimer) -> None:
        self._timers.add(timer)

    def discard(self, timer: TurnTimer) -> None:
        self._timers.discard(timer)

    def due(self, now: float) -> list[TurnTimer]:
        return [t for t in self._timers if t.deadline is not None and t.deadline <= now]

    def __len__(self) -> int:
        return len(self._timers)


class TurnTimer:
    """One room's turn timer: ``seconds`` per turn (None: no timer)."""

    def __init__(self, seconds: float | None, deadlines: Deadlines, on_time_out: Callable[[], None]) -> None:
        self.seconds = seconds
        self.deadline: float | None = None
        self._deadlines = deadlines
        self._on_time_out = on_time_out

    def arm(self, asked_anew: bool, humans_acting: bool, now: float, leading: bool) -> None:
        """The deadline starts when people must act (``humans_acting``), and starts again when a
        change everyone saw asked one of them anew (``asked_anew``); an action hidden from some
        seat never moves it, so the deadline tells nobody about moves they cannot see. ``now``:
        when the turn began (a replica counts from its owner's time of the last action);
        ``leading``: this process fires it."""
        if not self.seconds or not humans_acting:
            self.stop()
        elif self.deadline is None or asked_anew:
            self.deadline = now + self.seconds
            if leading:
                self._deadlines.add(self)

    def stop(self) -> None:
        self.deadline = None
        self._deadlines.discard(self)

    def follow(self) -> None:
        """This process stops firing the timer (another one applies the room); it keeps showing it."""
        self._deadlines.discard(self)

    def fire(self) -> None:
        """The deadline passed: the timer stops and the room's bots move for the people."""
        self.stop()
        self._on_time_out()
