"""``parlour bench engine GAME``: uniformly random complete games per second on one core, through
the public contract (start, to_act, random_action, apply, is_over); the median of several runs."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any


def register(targets: argparse._SubParsersAction) -> None:
    parser = targets.add_parser("engine", help="random complete games per second through the contract",
                                description="Uniformly random complete games per second on one core.")
    parser.add_argument("game", help="the game's id (see 'parlour games')")
    parser.add_argument("--games", type=int, default=500, help="games in each run (default 500)")
    parser.add_argument("--runs", type=int, default=5, help="runs; the median is reported (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.set_defaults(run=run)


def random_games(game: Any, players: int, games: int, seed: int) -> tuple[float, int]:
    """(seconds, moves) for ``games`` uniformly random complete games."""
    rng = random.Random(seed)
    moves = 0
    started = time.perf_counter()
    for number in range(games):
        state = game.start(players, None, seed + number)
        while not game.is_over(state):
            seat = min(game.to_act(state))
            state = game.apply(state, seat, game.random_action(state, seat, rng))
            moves += 1
    return time.perf_counter() - started, moves


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from ..core import ParlourError
    from ..games import get
    from .bench import machine

    if args.games < 1 or args.runs < 1:
        raise ParlourError("--games and --runs must be at least 1")
    game = get(args.game)
    players = max(2, game.min_players)
    console = Console()
    random_games(game, players, min(20, args.games), args.seed)  # warm up
    table = Table(title=f"{game.name}: {args.games} uniformly random games per run, one core")
    for column in ("run", "seconds", "games/s", "moves/s", "moves/game"):
        table.add_column(column, justify="right")
    rates = []
    for run_number in range(args.runs):
        seconds, moves = random_games(game, players, args.games, args.seed + run_number * args.games)
        rates.append((args.games / seconds, moves / seconds))
        table.add_row(str(run_number + 1), f"{seconds:.3f}", f"{args.games / seconds:,.0f}",
                      f"{moves / seconds:,.0f}", f"{moves / args.games:.1f}")
    console.print(table)
    games_per_second = statistics.median(r[0] for r in rates)
    moves_per_second = statistics.median(r[1] for r in rates)
    console.print(f"median: [bold]{games_per_second:,.0f} games/s[/bold], {moves_per_second:,.0f} moves/s")
    console.print(machine(), style="dim")
    return 0
