"""Analyses yield to live play (issue 33, hall/pacing.py): the hall says it is busy when it commits
many moves or its event loop runs late; the analysis worker then waits between moves, down to a
floor, and goes on as soon as the hall is quiet; paced or not, the judgement is the same."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from parlour.bots import create
from parlour.bots.analysis import Budget, analyse
from parlour.cli.bench_analysis import bots_game
from parlour.games import all_games, get
from parlour.hall import analyses as analyses_module
from parlour.hall import observe
from parlour.hall.analyses import Analyses
from parlour.hall.pacing import BUSY_MOVES, LATE, Load, Pacer

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
    pacer = Pacer(lambda: busy[0], floor=0.1, cpu=lambda: clock.cpu, clock=lambda: clock.now, sleep=clock.sleep)
    pacer()  # before the first move: nothing judged yet, nothing to wait for
    assert clock.slept == []
    clock.cpu += 0.08  # a move judged in 0.08 s of CPU, the hall busy throughout: 0.72 s of waiting, no more
    pacer()
    assert sum(clock.slept) == pytest.approx(0.72) and pacer.waited == pytest.approx(0.72)
    assert pacer.worked == pytest.approx(0.08)

    clock.slept.clear()
    clock.cpu += 0.08
    looks = [0]

    def quiet_after_three_looks() -> bool:
        looks[0] += 1
        return looks[0] <= 3

    pacer.busy = quiet_after_three_looks
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
        made = Analyses(kept, all_games(), load=load, floor=1e-4)  # busy: up to 10,000 times a move's time
        made.budget = SMALL
        made.shared.busy = True
        try:
            assert (await made.request("ROOM", replay, "ana"))["status"] == "pending"
            await until(lambda: made.shared.turn >= 1, 120, "the first move was never judged")
            held = made.shared.turn
            await asyncio.sleep(1.5)  # the hall busy: the worker waits after its first move
            during = (await made.request("ROOM", replay, "ana"))
            assert made.shared.turn == held and during["done"] == held and during["status"] == "pending"
            load.busy = False  # quiet: it goes on, and finishes
            await until(lambda: made.queued == 0, 120, "the analysis did not go on once the hall was quiet")
            return kept.saved, {"waited": made.shared.waited, "worked": made.shared.worked}
        finally:
            await made.close()

    saved, spent = asyncio.run(run())
    assert len(saved) == 1 and len(saved[0].moves) == len(replay["actions"])
    assert spent["waited"] >= 1.4


def test_an_analysis_still_completes_on_a_hall_always_busy_and_judges_the_same() -> None:
    replay = dinosaurs_game(seed=9)
    game = get("dinosaurs")

    async def run() -> tuple[list[Any], float, float]:
        kept = Kept()
        made = Analyses(kept, all_games(), load=Steered(busy=True), floor=0.25)
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
    assert saved[0].moves == [j.to_json() for j in analyse(game, replay, budget=SMALL)]
    # at the floor: three times the CPU of each move spent waiting (floor 0.25), the hall never quiet
    assert worked > 0 and 2.7 * worked <= waited <= 3 * worked + 2.0
