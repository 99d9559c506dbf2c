"""``parlour bench analysis GAME``: does the analysis judge well, and what does it cost?

Plays games between the levels (random, medium and hard by default; every pair, seats swapped),
analyses every move at the given budget, and reports for each level the share of its moves labelled
mistake or blunder (a random player's should be far above a strong one's), a calibration table (of
the positions where the mover was given a 70-80% chance of winning, how many did it win?) and the
analysis' CPU time per 100 moves. The figures are in docs/bots.md.
"""

from __future__ import annotations

import argparse
import itertools
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def register(targets: argparse._SubParsersAction) -> None:
    parser = targets.add_parser("analysis", help="how well the analysis judges moves, and its cost",
                                description="Games between levels, every move analysed: mistakes by level,"
                                            " calibration of the chances, CPU per 100 moves.")
    parser.add_argument("game", help="the game's id")
    parser.add_argument("--games", type=int, default=12, help="games in all, spread over the pairs (default 12)")
    parser.add_argument("--levels", default="random,medium,hard", help="the levels that play (default all three)")
    parser.add_argument("--rounds", type=int, default=None, help="the analysis' rounds per move (default its own)")
    parser.add_argument("--think", type=float, default=0.05,
                        help="seconds a thinking bot gets per move (default 0.05: quick games)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-j", "--jobs", type=int, default=1, help="games analysed at once (default 1)")
    parser.set_defaults(run=run)


def bots_game(game: Any, bots: list[Any], seed: int, names: list[str]) -> tuple[dict[str, Any], Any]:
    """``bots`` (one a seat, the lowest seat to act moving first) play ``game`` dealt from ``seed``:
    its replay (the seats named ``names``) and its result."""
    from ..core.replays import record

    players = len(bots)
    state = game.start(players, {}, seed=seed)
    actions = []
    while not game.is_over(state):
        seat = min(game.to_act(state))
        action = bots[seat].choose(game.view(state, seat), seat, game.legal_actions(state, seat))
        actions.append((seat, action))
        state = game.apply(state, seat, action)
    result = game.result(state)
    assert result is not None
    return record(game, players, game.resolve_options({}, players), seed, names, actions, result), result


def _one(task: tuple[str, list[str], int, float, int | None]) -> dict[str, Any]:
    from ..bots import create
    from ..bots.analysis import DEFAULT_BUDGET, Budget, analyse
    from ..games import get

    game_id, levels, seed, think, rounds = task
    game = get(game_id)
    bots = [create(game, level, seed=seed * 7 + i, time_limit=think) for i, level in enumerate(levels)]
    replay, result = bots_game(game, bots, seed, levels)
    budget = Budget(rounds, DEFAULT_BUDGET.width) if rounds else DEFAULT_BUDGET
    began = time.process_time()
    judged = analyse(game, replay, budget=budget)
    cpu = time.process_time() - began
    return {"levels": levels, "winners": list(result.winners), "cpu": cpu,
            "moves": [(j.seat, j.label, j.win_chance_before, j.choices, j.loss) for j in judged]}


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from ..core import ParlourError
    from ..games import get
    from .bench import machine

    game = get(args.game)
    levels = args.levels.split(",")
    if args.games < 1 or len(levels) < 2:
        raise ParlourError("--games must be at least 1 and --levels name at least two levels")
    pairs = [list(p) for p in itertools.combinations(levels, 2)]
    tasks = []
    for number in range(args.games):
        pair = pairs[(number // 2) % len(pairs)]
        tasks.append((game.id, pair if number % 2 == 0 else pair[::-1], args.seed + number, args.think, args.rounds))
    console = Console()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        games = list(pool.map(_one, tasks))
    # mistakes and blunders, inaccuracies, moves with a choice, their total loss, and the same counts
    # where the game was still open (the mover's chance 10-90%: in a decided game no move loses much)
    bad = {level: [0, 0, 0, 0.0, 0, 0] for level in levels}
    buckets = [[0, 0] for _ in range(10)]  # positions given 0-10%, 10-20%...: how many, how many won
    moves = 0
    cpu = 0.0
    for played in games:
        cpu += played["cpu"]
        moves += len(played["moves"])
        for seat, label, chance, choices, loss in played["moves"]:
            if choices > 1:
                tally = bad[played["levels"][seat]]
                tally[0] += label in ("mistake", "blunder")
                tally[1] += label == "inaccuracy"
                tally[2] += 1
                tally[3] += loss
                if 0.1 <= chance <= 0.9:
                    tally[4] += label in ("mistake", "blunder")
                    tally[5] += 1
            bucket = buckets[min(9, int(chance * 10))]
            bucket[0] += 1
            bucket[1] += seat in played["winners"]
    console.print(f"{game.name}: {len(games)} games, {moves} moves analysed; {machine()}")
    console.print(f"analysis CPU: {100 * cpu / max(moves, 1):.1f} s per 100 moves")
    table = Table(title="Moves with a choice, by the level that played them")
    for column in ("level", "moves", "mistakes + blunders", "inaccuracies", "mean loss", "open games' moves",
                   "their mistakes + blunders"):
        table.add_column(column, justify="right")
    for level, (mistakes, inaccuracies, total, loss, open_bad, open_total) in bad.items():
        table.add_row(level, str(total), f"{mistakes / max(total, 1):.1%}", f"{inaccuracies / max(total, 1):.1%}",
                      f"{loss / max(total, 1):.3f}", str(open_total), f"{open_bad / max(open_total, 1):.1%}")
    console.print(table)
    calibration = Table(title="Calibration: the mover's chance before a move, and how often the mover won")
    for column in ("given", "positions", "won"):
        calibration.add_column(column, justify="right")
    for decile, (count, won) in enumerate(buckets):
        if count:
            calibration.add_row(f"{10 * decile}-{10 * decile + 10}%", str(count), f"{won / count:.0%}")
    console.print(calibration)
    return 0
