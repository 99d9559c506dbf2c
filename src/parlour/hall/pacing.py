"""Analyses yield to live play (docs/analysis.md): the hall tells its analysis worker whether it is
busy, through a few numbers in shared memory, and the worker, before each move it judges, waits
while the hall is busy. An analysis waits for the hall :data:`PATIENCE` seconds in all; only a hall
busy for longer than that gets its analyses made at :data:`FLOOR`, the share of its time the worker
then still works (a move that took 0.08 s of CPU is followed by at most 0.72 s of waiting), so a
queue always ends; as soon as the hall is quiet it goes on::

    shared = Shared.new(context)                        # in the hall; the worker gets shared.array
    watching = asyncio.create_task(watch(Load(), shared))   # the hall: busy or not, 10 times a second
    pace = Pacer(lambda: shared.busy, looked=shared.told)   # in the worker: pace() before each move judged

The worker already runs at the lowest CPU priority (Linux's SCHED_IDLE), yet on two cores it still
slowed the rooms (their ack p99 14.6 ms against 4.8-9.3 ms at 1,000 moves/s, session 18: two
virtual cores may share a physical one, and caches and memory are shared whatever the priority);
working a tenth of the time still did (4.2 and 3.4 ms against 2.7-3.2, session 19): only not running
at all leaves the rooms alone.

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
PATIENCE: Final = 300.0  # seconds an analysis waits in all for a busy hall before it goes on at the floor
FLOOR: Final = 0.1  # the share of its time the worker still works once an analysis's patience is spent
WAIT_LOOK: Final = 0.05  # seconds between two looks of a waiting worker at the hall

_BUSY, _TURN, _WORKED, _WAITED, _WAITING, _GAME_WAITED = _SLOTS = range(6)


class Shared:
    """What the hall and its analysis worker share: whether the hall is busy (the hall writes it),
    the last move judged of the game being analysed, the worker's seconds of CPU spent judging and
    of waiting for the hall, whether it is waiting now and how long the analysis being made has
    waited (the worker writes them). Doubles in shared memory, each written by one side only."""

    def __init__(self, array: Any) -> None:
        self.array = array  # a multiprocessing RawArray of doubles (one a slot), handed to the worker at its start

    @classmethod
    def new(cls, context: BaseContext) -> Shared:
        return cls(context.RawArray("d", len(_SLOTS)))

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

    @property
    def waiting(self) -> bool:
        return bool(self.array[_WAITING])

    @property
    def game_waited(self) -> float:
        return float(self.array[_GAME_WAITED])

    def told(self, pacer: Pacer) -> None:
        """The worker's side: what ``pacer`` has spent, and whether it waits now."""
        array = self.array
        array[_WORKED], array[_WAITED] = pacer.worked, pacer.waited
        array[_WAITING], array[_GAME_WAITED] = (1.0 if pacer.waiting else 0.0), pacer.game_waited


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
    is busy, looking again every :data:`WAIT_LOOK` seconds. The game being analysed (since
    :meth:`new_game`) waits ``patience`` seconds in all; past that, a wait lasts at most
    ``(1 - floor) / floor`` times the CPU time the worker spent since the last call (the last move's
    judgement). ``worked`` and ``waited`` add up the seconds of each, ``game_waited`` those of this
    game; ``looked(pacer)`` is told at every look and at the end of every call (the hall reads it)."""

    def __init__(self, busy: Callable[[], bool], floor: float = FLOOR, patience: float = PATIENCE,
                 cpu: Callable[[], float] = time.process_time, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep, looked: Callable[[Pacer], None] = lambda _: None) -> None:
        if not 0 < floor <= 1:
            raise ValueError(f"the floor is a share of the time, above 0 and at most 1, not {floor}")
        if patience < 0:
            raise ValueError(f"the patience is a number of seconds, 0 or more, not {patience}")
        self.busy, self.floor, self.patience, self.looked = busy, floor, patience, looked
        self.cpu, self.clock, self.sleep = cpu, clock, sleep
        self.worked = self.waited = self.game_waited = 0.0
        self.waiting = False
        self._since: float | None = None  # the CPU time at the last call

    def new_game(self) -> None:
        """The next moves are another game's: its patience is whole."""
        self.game_waited = 0.0
        self.looked(self)

    def __call__(self) -> None:
        work = 0.0 if self._since is None else max(0.0, self.cpu() - self._since)
        self.worked += work
        now = self.clock()
        floor_until = now + work * (1 - self.floor) / self.floor  # once patience is spent
        while (patient := self.game_waited < self.patience) or now < floor_until:
            if not self.busy():
                break
            self.waiting = True
            self.sleep(min(WAIT_LOOK, self.patience - self.game_waited if patient else floor_until - now))
            before, now = now, self.clock()
            self.waited += now - before
            self.game_waited += now - before
            self.looked(self)
        self.waiting = False
        self.looked(self)
        self._since = self.cpu()


__all__ = ["BUSY_MOVES", "FLOOR", "LATE", "PATIENCE", "Load", "Pacer", "Shared", "watch"]
