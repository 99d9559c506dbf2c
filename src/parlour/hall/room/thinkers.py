"""Worker processes where the bots that think (search bots) choose their moves.

A search bot uses its whole time budget at full speed; in the server's process it would hold the
interpreter for that long and every other room's acknowledgements would wait. So each such move
is sent to a worker process, at a lower CPU priority than the server, as (game id, bot name,
seed, the seat's view and legal actions); the worker builds the bot from the registry by name,
lets it choose within the budget, and answers. A worker that overruns its budget by far is ended
and replaced, and the move is reported as failed (the room then plays a random legal action)::

    thinkers = Thinkers(workers=1, budget=1.0)
    action = thinkers.choose("patchwork", "mcts", seed, view, seat, legal)  # blocking: call it from a thread
    advice = thinkers.advise("palace", seed, 48, 5, view, seat, legal, deadline=30.0)  # the coach's hint
    thinkers.close()
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import queue
import threading
from multiprocessing.connection import Connection
from typing import Any

from ...core import Action, View

log = logging.getLogger(__name__)

WORKER_NICE = 10  # the workers yield the CPU to the server's event loop
OVERRUN = 2.0  # a move may take this many times its budget, plus GRACE, before its worker is ended
GRACE = 2.0  # seconds


class ThinkerFailed(RuntimeError):
    """The worker could not give a move (it overran its budget, or the bot failed)."""


class _Worker:
    def __init__(self, context: Any) -> None:
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=work, args=(theirs,), daemon=True, name="parlour-thinker")
        self.process.start()
        theirs.close()

    def end(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.connection.close()


class Thinkers:
    """A pool of ``workers`` processes, started when first needed; ``choose`` blocks its caller
    (a thread) until the move comes or the hard deadline passes."""

    def __init__(self, workers: int, budget: float) -> None:
        self.budget = budget
        self.deadline = budget * OVERRUN + GRACE  # seconds before an overrunning worker is ended
        self.workers = max(1, workers)
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server
        self._idle: queue.Queue[_Worker | None] = queue.Queue()
        for _ in range(self.workers):
            self._idle.put(None)  # a place for a worker, started on first use
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._closed = False

    def choose(self, game_id: str, bot: str, seed: int, view: View, seat: int, legal: list[Action]) -> Action:
        action: Action = self._ask(("choose", game_id, bot, seed, self.budget, view, seat, legal), f"the {bot} bot",
                                   self.deadline)
        return action

    def advise(self, game_id: str, seed: int, rounds: int, width: int, view: View, seat: int, legal: list[Action],
               deadline: float) -> dict[str, Any]:
        """The coach's hint (:func:`parlour.bots.analysis.advise`, its JSON) for ``seat`` from its
        ``view``, made by a worker; a worker still at it after ``deadline`` seconds is ended."""
        advice: dict[str, Any] = self._ask(("advise", game_id, seed, rounds, width, view, seat, legal), "the coach",
                                           deadline)
        return advice

    def judge(self, game_id: str, seed: int, rounds: int, width: int, view: View, seat: int, legal: list[Action],
              action: Action, deadline: float) -> dict[str, Any]:
        """``seat``'s move ``action`` judged from its ``view`` (:func:`parlour.bots.analysis.judge`,
        its JSON) by a worker, for the coach (room/takeback.py); ended after ``deadline`` seconds."""
        judged: dict[str, Any] = self._ask(("judge", game_id, seed, rounds, width, view, seat, legal, action),
                                           "the coach", deadline)
        return judged

    def _ask(self, job: tuple[Any, ...], who: str, deadline: float) -> Any:
        worker = self._idle.get()
        try:
            if worker is None:
                worker = self._start()
            worker.connection.send(job)
            if not worker.connection.poll(deadline):
                raise ThinkerFailed(f"{who} overran its budget by far ({deadline:.0f} s): its worker was ended")
            ok, answer = worker.connection.recv()
        except (OSError, EOFError) as problem:
            raise ThinkerFailed(f"{who}'s worker went away ({problem})") from None
        except ThinkerFailed:
            self._retire(worker)
            worker = None
            raise
        finally:
            if worker is not None and not worker.process.is_alive():
                self._retire(worker)
                worker = None
            self._idle.put(worker)
        if not ok:
            raise ThinkerFailed(answer)
        return answer

    def _start(self) -> _Worker:
        with self._lock:
            if self._closed:
                raise ThinkerFailed("the hall is closing")
            worker = _Worker(self._context)
            self._all.add(worker)
            return worker

    def _retire(self, worker: _Worker | None) -> None:
        if worker is None:
            return
        with self._lock:
            self._all.discard(worker)
        worker.end()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers, self._all = list(self._all), set()
        for worker in workers:
            worker.end()


def work(connection: Connection) -> None:
    """A worker's life: build each asked-for bot from the registry and answer with its choice."""
    from ... import bots as bot_registry
    from ...bots.analysis import Budget, advise, judge
    from ...games import all_games

    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)
    games = all_games()
    while True:
        try:
            kind, *job = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        who = "the coach" if kind in ("advise", "judge") else f"the {job[1]} bot"
        try:
            if kind == "advise":  # the coach's hint (room/coach.py)
                game_id, seed, rounds, width, view, seat, legal = job
                advice = advise(games[game_id], view, seat, legal, seed, Budget(rounds, width))
                connection.send((True, advice.to_json()))
                continue
            if kind == "judge":  # the coach's judgement of a move (room/takeback.py)
                game_id, seed, rounds, width, view, seat, legal, action = job
                judged = judge(games[game_id], view, seat, legal, action, seed, budget=Budget(rounds, width))
                connection.send((True, judged.to_json()))
                continue
            game_id, name, seed, budget, view, seat, legal = job
            bot = bot_registry.create(games[game_id], name, seed=seed, time_limit=budget)
            connection.send((True, bot.choose(view, seat, legal)))
        except Exception as error:  # the hall falls back to a random legal action
            connection.send((False, f"{who} failed: {type(error).__name__}: {error}"))
