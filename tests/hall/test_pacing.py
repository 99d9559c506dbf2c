"""Analyses yield to live play (issue 33, hall/pacing.py): the hall says it is busy when it commits
many moves or its event loop runs late; the analysis worker then waits before each move, for as long
as the hall stays busy up to an analysis's patience, then at a floor, and goes on as soon as the hall
is quiet; a waiting worker is not a stuck one; paced or not, the judgement is the same."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest

from parlour.bots import create
from parlour.bots.analysis import Budget, analyse
from parlour.cli.bench_analysis import bots_game
from parlour.games import all_games, entry, get
from parlour.hall import analyses as analyses_module
from parlour.hall import observe
from parlour.hall.analyses import Analyses
from parlour.hall.pacing import BUSY_MOVES, LATE, PATIENCE, Load, Pacer

SMALL = Budget(rounds=6, width=3)


class Clock:
    """A clock, a CPU-time counter and a sleep that only move when told (or slept)."""

    def __init__(self) -> None:
        self.now = 100.0
        self.cpu = 5.0
        self.slept: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def busy_for(looks: int) -> Callable[[], bool]:
    """A hall busy at its first ``looks`` looks, then quiet."""
    seen = [0]

    def busy() -> bool:
        seen[0] += 1
        return seen[0] <= looks

    return busy


def test_the_hall_is_busy_with_many_moves_a_second_or_a_late_event_loop() -> None:
    clock, moves = Clock(), [0]
    load = Load(moves=lambda: moves[0], clock=lambda: clock.now)
    assert not load.look(0.0)
    for _ in range(10):  # BUSY_MOVES - 10 moves over a second: not yet
        clock.now += 0.1
        moves[0] += (BUSY_MOVES - 10) // 10
    assert not load.look(0.0)
    for _ in range(10):  # 1,000 moves a second
        clock.now += 0.1
        moves[0] += 100
        assert load.look(0.0)
    clock.now += 1.05  # a second with no move: quiet again
    assert not load.look(0.0)
    assert load.look(LATE)  # the loop woke this look late: busy, and for the next second
    clock.now += 0.5
    assert load.look(0.0)
    clock.now += 0.6
    assert not load.look(0.0)


def test_the_hall_counts_the_moves_it_commits_for_its_load() -> None:
    before = observe.committed()
    observe.moved("patchwork", "player")
    observe.moved("dinosaurs", "bot")
    assert observe.committed() == before + 2 and Load().moves is observe.committed


def test_the_worker_waits_while_the_hall_is_busy_and_goes_on_when_it_is_quiet() -> None:
    clock, busy = Clock(), [True]
    pacer = Pacer(lambda: busy[0], floor=0.1, patience=0.0, cpu=lambda: clock.cpu, clock=lambda: clock.now,
                  sleep=clock.sleep)  # no patience: at the floor from the start
    pacer()  # before the first move: nothing judged yet, nothing to wait for
    assert clock.slept == []
    clock.cpu += 0.08  # a move judged in 0.08 s of CPU, the hall busy throughout: 0.72 s of waiting, no more
    pacer()
    assert sum(clock.slept) == pytest.approx(0.72) and pacer.waited == pytest.approx(0.72)
    assert pacer.worked == pytest.approx(0.08)

    clock.slept.clear()
    clock.cpu += 0.08
    pacer.busy = busy_for(3)
    pacer()  # the hall turns quiet at the fourth look: the worker goes on then
    assert len(clock.slept) == 3 and sum(clock.slept) == pytest.approx(0.15)

    clock.slept.clear()
    busy[0] = False
    pacer.busy = lambda: busy[0]
    clock.cpu += 0.08
    pacer()  # a quiet hall: no waiting at all
    assert clock.slept == []
    with pytest.raises(ValueError, match="share of the time"):
        Pacer(lambda: True, floor=0)
    with pytest.raises(ValueError, match="number of seconds"):
        Pacer(lambda: True, patience=-1)


def test_an_analysis_waits_for_a_busy_hall_all_its_patience_then_goes_on_at_the_floor() -> None:
    clock, told = Clock(), []
    pacer = Pacer(lambda: True, floor=0.1, patience=2.0, cpu=lambda: clock.cpu, clock=lambda: clock.now,
                  sleep=clock.sleep, looked=lambda p: told.append((p.waiting, p.game_waited)))
    pacer()  # the hall busy before the first move: the whole patience, and no move judged meanwhile
    assert sum(clock.slept) == pytest.approx(2.0) and max(clock.slept) <= 0.05
    assert all(waiting for waiting, _ in told[:-1]) and told[-1] == (False, pytest.approx(2.0))
    assert [waited for _, waited in told] == sorted(waited for _, waited in told)  # the hall sees it grow
    clock.slept.clear()
    clock.cpu += 0.08
    pacer()  # patience spent, still busy: the floor, 0.72 s after a 0.08 s move
    assert sum(clock.slept) == pytest.approx(0.72) and pacer.game_waited == pytest.approx(2.72)

    pacer.new_game()  # another game: its patience is whole again
    assert told[-1] == (False, 0.0)
    clock.slept.clear()
    clock.cpu += 0.08
    pacer.busy = busy_for(3)
    pacer()  # waits while busy (longer than the floor would let it), goes on at the look it is quiet
    assert len(clock.slept) == 3 and pacer.game_waited == pytest.approx(0.15)
    assert pacer.waited == pytest.approx(2.72 + 0.15) and pacer.worked == pytest.approx(0.16)


def test_a_worker_waiting_for_a_busy_hall_is_not_taken_for_a_stuck_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analyses_module, "STUCK_SECONDS", 0.3)

    async def run() -> None:
        made = Analyses(Kept(), all_games())
        worker = Pacer(lambda: True, patience=10.0, sleep=lambda s: None, looked=made.shared.told)
        future: asyncio.Future[list[dict[str, Any]]] = asyncio.get_running_loop().create_future()

        async def wait_a_while() -> None:  # the worker waits for the hall 1.2 s, 4 times the stuck time
            for _ in range(24):
                worker.game_waited += 0.05
                worker.looked(worker)
                await asyncio.sleep(0.05)
            future.set_result([{"turn": 1}])

        waiting = asyncio.create_task(wait_a_while())
        assert await made._judged(future, 1, 10) == [{"turn": 1}]
        await waiting
        never: asyncio.Future[list[dict[str, Any]]] = asyncio.get_running_loop().create_future()
        with pytest.raises(RuntimeError, match="no move of 11 to 20 was judged in 0 s"):
            await made._judged(never, 11, 20)  # neither judging nor waiting: stuck

    asyncio.run(run())


class Kept:
    """The store's two calls the analyses make."""

    def __init__(self) -> None:
        self.saved: list[Any] = []

    async def analysis(self, code: str) -> Any:
        return self.saved[0] if self.saved else None

    async def save_analysis(self, record: Any) -> None:
        self.saved.append(record)


class Steered(Load):
    """A hall whose business the test decides."""

    def __init__(self, busy: bool) -> None:
        super().__init__(moves=lambda: 0)
        self.busy = busy

    def look(self, late: float) -> bool:
        return self.busy


def dinosaurs_game(seed: int = 4) -> dict[str, Any]:
    game = get("dinosaurs")
    replay, _ = bots_game(game, [create(game, "random", seed=seed + i) for i in range(2)], seed, ["a", "b"])
    return replay


async def until(test: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


def test_a_busy_hall_holds_the_worker_back_until_it_is_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analyses_module, "PART", 100)
    replay = dinosaurs_game()
    load = Steered(busy=True)

    async def run() -> tuple[list[Any], dict[str, Any]]:
        kept = Kept()
        made = Analyses(kept, all_games(), load=load)  # the hall's own patience and floor
        made.budget = SMALL
        made.shared.busy = True
        try:
            first = await made.request("ROOM", replay, "ana")
            assert first["status"] == "pending" and first["patience"] == PATIENCE == 300.0
            await until(lambda: made.shared.waiting, 120, "the worker never waited for the busy hall")
            await asyncio.sleep(1.5)  # the hall busy: the worker judges nothing at all
            during = await made.request("ROOM", replay, "ana")
            assert made.shared.turn == 0 and during["done"] == 0 and during["status"] == "pending"
            assert during["waiting"] is True and during["waited"] >= 1.4
            load.busy = False  # quiet: it goes on, and finishes
            await until(lambda: made.queued == 0, 120, "the analysis did not go on once the hall was quiet")
            return kept.saved, {"waited": made.shared.waited, "worked": made.shared.worked}
        finally:
            await made.close()

    saved, spent = asyncio.run(run())
    assert len(saved) == 1 and len(saved[0].moves) == len(replay["actions"])
    assert spent["waited"] >= 1.4 and spent["worked"] > 0


def test_an_analysis_still_completes_on_a_hall_always_busy_and_judges_the_same() -> None:
    replay = dinosaurs_game(seed=9)
    game = get("dinosaurs")

    async def run() -> tuple[list[Any], float, float]:
        kept = Kept()
        made = Analyses(kept, all_games(), load=Steered(busy=True), floor=0.25, patience=1.0)
        made.budget = SMALL
        try:
            await made.request("ROOM", replay, "ana")
            seen = []
            while made.queued:
                answer = await made.request("ROOM", replay, "ana")
                if answer["status"] == "pending":
                    seen.append(answer["done"])
                await asyncio.sleep(0.1)
            assert seen == sorted(seen) and len(set(seen)) > 2  # progress told as it goes
            return kept.saved, made.shared.worked, made.shared.waited
        finally:
            await made.close()

    saved, worked, waited = asyncio.run(run())
    assert len(saved) == 1
    # the same seed, the same judgement: exactly what analyse() gives unpaced, in this process
    words = entry("dinosaurs").describer(replay["names"])
    assert saved[0].moves == [j.to_json() for j in analyse(game, replay, budget=SMALL, words=words)]
    assert all(move["best_words"] for move in saved[0].moves)  # the better move in words, for the page
    # its patience (1 s), then at the floor: three times the CPU of each move spent waiting (floor 0.25)
    assert worked > 0 and 1.0 + 2.7 * worked <= waited + 3 * 0.2 and waited <= 1.0 + 3 * worked + 2.0


def test_asking_again_for_an_analysis_being_made_costs_the_hall_nothing() -> None:
    """A page asks every second and a half while its analysis is made: the hall answers from its queue,
    without reading the store or rebuilding the game's replay (both once, to queue it)."""
    replay = dinosaurs_game(seed=5)
    made_replays, reads = [0], [0]

    class Counted(Kept):
        async def analysis(self, code: str) -> Any:
            reads[0] += 1
            return await super().analysis(code)

    def rebuilt() -> dict[str, Any]:
        made_replays[0] += 1
        return replay

    async def run() -> list[dict[str, Any]]:
        made = Analyses(Counted(), all_games(), load=Steered(busy=True))
        made.shared.busy = True
        try:
            return [await made.request("ROOM", rebuilt, "ana") for _ in range(20)]
        finally:
            await made.close()

    answers = asyncio.run(run())
    assert all(a["status"] == "pending" and a["total"] == len(replay["actions"]) for a in answers)
    assert made_replays == [1] and reads == [1]
