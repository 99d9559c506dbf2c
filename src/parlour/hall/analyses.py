"""Analyses of finished games (docs/analysis.md), made in a worker process of their own, one game at a
time, from a queue with a cap per person and in all; each is stored once made and never made again.

The worker runs at the lowest CPU priority, so live rooms (and the bots' own workers) always come
first, and before each move it waits while the hall is busy with live play (hall/pacing.py: five
minutes at most an analysis, then it goes on at a floor); a game is judged a few moves per call,
its progress told move by move, and a worker that neither judges nor waits for far too long is
ended, and the analysis with a reason::

    analyses = Analyses(store, games)
    state = await analyses.request(code, replay, requester="ana")   # made, pending or failed
    await analyses.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

from ..bots.analysis import DEFAULT_BUDGET, LABELS
from ..core import Game
from .errors import HallError
from .pacing import FLOOR, PATIENCE, Load, Pacer, Shared, watch
from .store import AnalysisRecord, Store

log = logging.getLogger(__name__)

QUEUED: Final = 16  # analyses waiting or being made, in all
PER_REQUESTER: Final = 2  # of those, asked for by one person (an account, else an address)
MOVES: Final = 2_000  # the longest game analysed (a game's cap on moves is lower: docs/analysis.md)
PART: Final = 10  # moves judged per call to the worker
STUCK_SECONDS: Final = 120.0  # a worker neither judging nor waiting this long is stuck: it ends the analysis
WORKER_NICE: Final = 19


@dataclass
class Job:
    """An analysis asked for and not yet stored."""

    code: str
    requester: str
    game: str
    replay: dict[str, Any]
    done: int = 0
    failed: str | None = None

    @property
    def total(self) -> int:
        return len(self.replay["actions"])


_worker_pace: list[tuple[Shared, Pacer]] = []  # in the worker: what it shares with the hall, its pacer


def _start_worker(array: Any, floor: float, patience: float) -> None:
    """The worker runs only on a core nothing else wants (Linux's SCHED_IDLE; elsewhere nice 19): at
    nice 19 alone it still took a share of the cores from the live rooms, whose ack p99 went from
    6-8 ms to 18-21 ms at 1,000 moves/s while analyses ran (parlour bench hall --analyses); and it
    waits between moves while the hall is busy (hall/pacing.py): at SCHED_IDLE it still slowed them."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    shared = Shared(array)
    _worker_pace[:] = [(shared, Pacer(lambda: shared.busy, floor, patience, looked=shared.told))]


def judge_part(game_id: str, replay: dict[str, Any], first: int, last: int, rounds: int, width: int
               ) -> list[dict[str, Any]]:
    """In the worker: moves ``first`` to ``last`` of ``replay`` judged (their JSON), each move after
    the pacer's leave (a game's patience starts with its first move), the last move judged told to
    the hall as it goes."""
    from ..bots.analysis import Budget, analyse
    from ..games import entry

    shared, pacer = _worker_pace[0]
    if first == 1:
        pacer.new_game()

    def judged(turn: int, total: int) -> None:
        if turn >= first:
            shared.turn = turn

    found = entry(game_id)
    return [j.to_json() for j in analyse(found.game, replay, budget=Budget(rounds, width), progress=judged,
                                         first=first, last=last, pace=pacer, words=found.describer(replay["names"]))]


class Analyses:
    """The queue of analyses to make, the worker that makes them, and the store that keeps them."""

    def __init__(self, store: Store, games: Mapping[str, Game[Any]], now: Any = time.time,
                 load: Load | None = None, floor: float = FLOOR, patience: float = PATIENCE) -> None:
        self.store = store
        self.games = games
        self.now = now
        self.budget = DEFAULT_BUDGET
        self.load = load if load is not None else Load()  # is the hall busy? (hall/pacing.py)
        self.floor = floor  # the share of its time the worker still works once its patience is spent
        self.patience = patience  # seconds an analysis waits for a busy hall, in all, before the floor
        self._jobs: dict[str, Job] = {}  # by room code, in the order asked
        self._failed: dict[str, str] = {}  # room code -> why its analysis could not be made (until restart)
        self._wake = asyncio.Event()
        self._runner: asyncio.Task[None] | None = None
        self._pool: ProcessPoolExecutor | None = None
        self._context = multiprocessing.get_context("spawn")
        self.shared = Shared.new(self._context)  # what the hall and its worker tell each other
        self._making: Job | None = None

    async def request(self, code: str, replay: dict[str, Any] | Callable[[], dict[str, Any]], requester: str
                      ) -> dict[str, Any]:
        """Room ``code``'s analysis: made (stored), or pending with its progress (queued now if it
        was not), or failed with the reason. ``replay``: the finished game's (core.replays), or what
        makes it, asked for only to queue it: a page asking every second and a half while its
        analysis is made costs the hall neither a store read nor a replay rebuilt."""
        job = self._jobs.get(code)
        if job is not None:
            return self.pending(job)
        stored = await self.store.analysis(code)
        if stored is not None:
            return made(stored)
        if code in self._failed:
            return {"status": "failed", "reason": self._failed[code]}
        job = self._jobs.get(code)  # asked for meanwhile, by another request
        if job is None:
            job = self._queue(code, replay() if callable(replay) else replay, requester)
        return self.pending(job)

    @property
    def queued(self) -> int:
        """Analyses asked for and not yet made (the one being made included)."""
        return len(self._jobs)

    def pending(self, job: Job) -> dict[str, Any]:
        """Progress, told move by move; and whether the worker now waits for a busy hall, how long
        this analysis has waited and may wait in all (then it goes on, slowly, busy or not)."""
        ahead = list(self._jobs).index(job.code)
        making = job is self._making
        done = max(job.done, self.shared.turn) if making else job.done
        waited = self.shared.game_waited if making else 0.0
        return {"status": "pending", "done": done, "total": job.total, "ahead": ahead,
                "waiting": making and self.shared.waiting, "waited": round(waited, 1), "patience": self.patience}

    def _queue(self, code: str, replay: dict[str, Any], requester: str) -> Job:
        if len(replay["actions"]) > MOVES:
            raise HallError("conflict", f"this game is too long to analyse ({len(replay['actions'])} moves;"
                                        f" the hall analyses games of up to {MOVES})")
        if len(self._jobs) >= QUEUED:
            raise HallError("throttled", f"{len(self._jobs)} analyses are being made: ask again in a few"
                                            " minutes (nothing was queued)")
        mine = sum(1 for job in self._jobs.values() if job.requester == requester)
        if mine >= PER_REQUESTER:
            raise HallError("throttled", f"you already have {mine} analyses being made: ask for another"
                                            " once one is ready (nothing was queued)")
        job = Job(code, requester, replay["game"], replay)
        self._jobs[code] = job
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run(), name="parlour-analyses")
        self._wake.set()
        return job

    async def _run(self) -> None:
        while True:
            if not self._jobs:
                self._wake.clear()
                await self._wake.wait()
                continue
            job = next(iter(self._jobs.values()))
            try:
                await self._make(job)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # one game's failure must not stop the others'
                log.exception("the analysis of room %s failed", job.code)
                self._failed[job.code] = f"the analysis could not be made: {error}"
            finally:
                self._jobs.pop(job.code, None)

    async def _make(self, job: Job) -> None:
        loop = asyncio.get_running_loop()
        moves: list[dict[str, Any]] = []
        self._making, self.shared.turn = job, 0
        watching = loop.create_task(watch(self.load, self.shared), name="parlour-analyses-load")
        try:
            for first in range(1, job.total + 1, PART):
                last = min(job.total, first + PART - 1)
                future = loop.run_in_executor(self._worker(), judge_part, job.game, job.replay, first, last,
                                              self.budget.rounds, self.budget.width)
                moves += await self._judged(future, first, last)
                job.done = last
        finally:
            self._making = None
            watching.cancel()
        await self.store.save_analysis(AnalysisRecord(job.code, self.now(), {
            "rounds": self.budget.rounds, "width": self.budget.width}, moves))

    async def _judged(self, future: asyncio.Future[list[dict[str, Any]]], first: int, last: int
                      ) -> list[dict[str, Any]]:
        """The worker's answer, unless for :data:`STUCK_SECONDS` it neither judges a move nor waits
        for a busy hall (a wait is told at every look, 20 times a second)."""
        seen = self.shared.turn, self.shared.game_waited
        while not (await asyncio.wait({future}, timeout=STUCK_SECONDS))[0]:
            now = self.shared.turn, self.shared.game_waited
            if now == seen:
                self._end_worker()
                raise RuntimeError(f"no move of {first} to {last} was judged in {STUCK_SECONDS:.0f} s")
            seen = now
        return future.result()

    def _worker(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(1, mp_context=self._context, initializer=_start_worker,
                                             initargs=(self.shared.array, self.floor, self.patience))
        return self._pool

    def _end_worker(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            for process in list(pool._processes.values()):  # a stuck judgement is not waited for
                process.kill()
            pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner
        self._end_worker()


def made(stored: AnalysisRecord) -> dict[str, Any]:
    """A stored analysis as the API answers it: its moves, and each seat's count of each label."""
    seats = 1 + max((move["seat"] for move in stored.moves), default=0)
    counts = [dict.fromkeys(LABELS, 0) for _ in range(seats)]
    for move in stored.moves:
        counts[move["seat"]][move["label"]] += 1
    return {"status": "made", "made": stored.made, "budget": stored.budget, "moves": stored.moves,
            "summary": counts}


__all__ = ["PER_REQUESTER", "QUEUED", "Analyses", "Job", "made"]
