"""``parlour bench engine GAME``: uniformly random complete games per second on one core, through
the public contract (start, to_act, random_action, apply, is_over); the median of several runs.

Rates are given per CPU second of this process (what one core does, steady on a busy machine) and
per wall-clock second (what a user would see, lower when other work shares the cores)."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any


def register(targets: argparse._SubParsersAction) -> None:
    parser = targets.add_parser("engine", help="random complete games per second through the contract",
                                description="Uniformly random complete games per second on one core.")
    random_game_arguments(parser, games=500, runs=5)
    parser.set_defaults(run=run)


def random_game_arguments(parser: argparse.ArgumentParser, games: int, runs: int) -> None:
    """The arguments of a benchmark of random games: the game, games per run, runs, seed, players."""
    parser.add_argument("game", help="the game's id (see 'parlour games')")
    parser.add_argument("--games", type=int, default=games, help=f"games in each run (default {games})")
    parser.add_argument("--runs", type=int, default=runs, help=f"runs; the median is reported (default {runs})")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument("--players", type=int, default=None,
                        help="players in each game (default: 2, or the game's minimum if larger)")


def random_game_setup(args: argparse.Namespace) -> tuple[Any, int]:
    """The game and the number of players that :func:`random_game_arguments` named, checked."""
    from ..core import ParlourError
    from ..games import get

    if args.games < 1 or args.runs < 1:
        raise ParlourError("--games and --runs must be at least 1")
    game = get(args.game)
    players = max(2, game.min_players) if args.players is None else args.players
    game.check_players(players)
    return game, players


def random_games(game: Any, players: int, games: int, seed: int) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, moves) for ``games`` uniformly random complete games."""
    rng = random.Random(seed)
    moves = 0
    cpu_started, started = time.process_time(), time.perf_counter()
    for number in range(games):
        state = game.start(players, None, seed + number)
        while not game.is_over(state):
            seat = min(game.to_act(state))
            state = game.apply(state, seat, game.random_action(state, seat, rng))
            moves += 1
    return time.process_time() - cpu_started, time.perf_counter() - started, moves


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from .bench import machine

    game, players = random_game_setup(args)
    console = Console()
    random_games(game, players, min(20, args.games), args.seed)  # warm up
    table = Table(title=f"{game.name}, {players} players: {args.games} uniformly random games per run, one core")
    for column in ("run", "CPU s", "wall s", "games/s", "moves/s", "games/wall s", "moves/game"):
        table.add_column(column, justify="right")
    rates = []
    for run_number in range(args.runs):
        cpu, wall, moves = random_games(game, players, args.games, args.seed + run_number * args.games)
        rates.append((args.games / cpu, moves / cpu, args.games / wall))
        table.add_row(str(run_number + 1), f"{cpu:.3f}", f"{wall:.3f}", f"{args.games / cpu:,.0f}",
                      f"{moves / cpu:,.0f}", f"{args.games / wall:,.0f}", f"{moves / args.games:.1f}")
    console.print(table)
    games_per_second, moves_per_second, games_per_wall = (statistics.median(r[i] for r in rates) for i in range(3))
    console.print(f"median: [bold]{games_per_second:,.0f} games/s[/bold], {moves_per_second:,.0f} moves/s"
                  f" per CPU second ({games_per_wall:,.0f} games per wall-clock second)")
    console.print(machine(), style="dim")
    return 0
