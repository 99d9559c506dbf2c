"""Analyses yield to live play (docs/analysis.md): the hall tells its analysis worker whether it is
busy, through a few numbers in shared memory, and the worker, between two moves it judges, waits
while the hall is busy, but never so long that a queue stops: while the hall stays busy the worker
still works :data:`FLOOR` of the time (a move that took 0.08 s of CPU is followed by at most 0.72 s
of waiting), and as soon as the hall is quiet it goes on::

    shared = Shared.new(context)                        # in the hall; the worker gets shared.array
    watching = asyncio.create_task(watch(Load(), shared))   # the hall: busy or not, 10 times a second
    pace = Pacer(lambda: shared.busy)                   # in the worker: pace() before each move judged

The worker already runs at the lowest CPU priority (Linux's SCHED_IDLE), yet on two cores it still
slowed the rooms (their ack p99 14.6 ms against 4.8-9.3 ms at 1,000 moves/s, session 18: two
virtual cores may share a physical one, and caches and memory are shared whatever the priority);
only not running at all leaves the rooms alone.

The hall is busy when it committed :data:`BUSY_MOVES` moves or more in the last second, or when its
event loop was late by :data:`LATE` or more at one of its looks in that second (the hall is short of
CPU, whatever the cause).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from multiprocessing.context import BaseContext
from typing import Any, Final

from . import observe

BUSY_MOVES: Final = 50  # moves committed in the last second that make the hall busy
LATE: Final = 0.005  # seconds the hall's event loop was late at a look in the last second: busy
WINDOW: Final = 1.0  # seconds the hall looks back
LOOK_EVERY: Final = 0.1  # seconds between two looks of the hall at itself, while an analysis is made
FLOOR: Final = 0.1  # the share of its time the worker still works while the hall stays busy
WAIT_LOOK: Final = 0.05  # seconds between two looks of a waiting worker at the hall

_BUSY, _TURN, _WORKED, _WAITED = range(4)


class Shared:
    """What the hall and its analysis worker share: whether the hall is busy (the hall writes it),
    the last move judged of the game being analysed, and the worker's seconds of CPU spent judging
    and of waiting for the hall (the worker writes them). Doubles in shared memory, each written by
    one side only."""

    def __init__(self, array: Any) -> None:
        self.array = array  # a multiprocessing RawArray of 4 doubles, handed to the worker at its start

    @classmethod
    def new(cls, context: BaseContext) -> Shared:
        return cls(context.RawArray("d", 4))

    @property
    def busy(self) -> bool:
        return bool(self.array[_BUSY])

    @busy.setter
    def busy(self, value: bool) -> None:
        self.array[_BUSY] = 1.0 if value else 0.0

    @property
    def turn(self) -> int:
        return int(self.array[_TURN])

    @turn.setter
    def turn(self, value: int) -> None:
        self.array[_TURN] = float(value)

    @property
    def worked(self) -> float:
        return float(self.array[_WORKED])

    @property
    def waited(self) -> float:
        return float(self.array[_WAITED])

    def spent(self, worked: float, waited: float) -> None:
        self.array[_WORKED], self.array[_WAITED] = worked, waited


class Load:
    """The hall's side: is it busy? :meth:`look` is told how late the event loop woke the look
    itself, and counts the moves committed since the looks of the last :data:`WINDOW`."""

    def __init__(self, moves: Callable[[], int] = observe.committed, clock: Callable[[], float] = time.monotonic,
                 busy_moves: int = BUSY_MOVES, late: float = LATE) -> None:
        self.moves, self.clock, self.busy_moves, self.late = moves, clock, busy_moves, late
        self._looks: deque[tuple[float, int, bool]] = deque()  # (when, moves so far, late)

    def look(self, late: float) -> bool:
        """Whether the hall is busy now, the loop having been ``late`` seconds late at this look."""
        now, moves = self.clock(), self.moves()
        self._looks.append((now, moves, late >= self.late))
        while self._looks[0][0] < now - WINDOW:
            self._looks.popleft()
        return moves - self._looks[0][1] >= self.busy_moves * WINDOW or any(slow for _, _, slow in self._looks)


async def watch(load: Load, shared: Shared, every: float = LOOK_EVERY) -> None:
    """Until cancelled, tell ``shared`` every ``every`` seconds whether the hall is busy."""
    while True:
        due = time.perf_counter() + every
        await asyncio.sleep(every)
        shared.busy = load.look(max(0.0, time.perf_counter() - due))


class Pacer:
    """The worker's side: called before each move it judges, it waits while ``busy()`` says the hall
    is busy, for at most ``(1 - floor) / floor`` times the CPU time the worker spent since the last
    call (the last move's judgement), looking again every :data:`WAIT_LOOK` seconds; ``worked`` and
    ``waited`` add up the seconds of each."""

    def __init__(self, busy: Callable[[], bool], floor: float = FLOOR, cpu: Callable[[], float] = time.process_time,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> None:
        if not 0 < floor <= 1:
            raise ValueError(f"the floor is a share of the time, above 0 and at most 1, not {floor}")
        self.busy, self.floor, self.cpu, self.clock, self.sleep = busy, floor, cpu, clock, sleep
        self.worked = self.waited = 0.0
        self._since: float | None = None  # the CPU time at the last call

    def __call__(self) -> None:
        if self._since is not None:
            work = max(0.0, self.cpu() - self._since)
            self.worked += work
            start = now = self.clock()
            deadline = start + work * (1 - self.floor) / self.floor
            while now < deadline and self.busy():
                self.sleep(min(WAIT_LOOK, deadline - now))
                now = self.clock()
            self.waited += now - start
        self._since = self.cpu()


__all__ = ["BUSY_MOVES", "FLOOR", "LATE", "Load", "Pacer", "Shared", "watch"]
