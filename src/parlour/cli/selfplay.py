"""``parlour selfplay GAME --bots a,b``: bots play each other many times; a table of how they did.

Generic over the contract: any registered game, any bots that ``parlour.bots.create`` makes. Seats
rotate from one game to the next so that no bot always moves first.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from .shared import add_option_argument, game_options, print_table


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("selfplay", help="bots play each other; wins and scores",
                            description="Bots play each other many games, seats rotating; then a table.")
    parser.add_argument("game", help="the game's id (see 'parlour games')")
    parser.add_argument("--bots", required=True, help="comma-separated bot names, one per seat, e.g. greedy,random")
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole run (default 1)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="processes to play in (default 1)")
    add_option_argument(parser)
    parser.set_defaults(run=run)


@dataclass(frozen=True)
class GameRecord:
    """One finished game: which entry (index in --bots) sat in each seat, and the outcome."""

    number: int
    entries: tuple[int, ...]  # entries[seat] = index into the --bots list
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    moves: int


def play_one(task: tuple[str, tuple[str, ...], int, int, dict[str, Any]]) -> GameRecord:
    """Play game number ``number`` of a run; everything random in it comes from the run's seed."""
    from .. import bots
    from ..core import TooLong, derive
    from ..games import get

    game_id, names, seed, number, options = task
    game = get(game_id)
    players = len(names)
    entries = tuple((seat + number) % players for seat in range(players))
    game_seed = derive(seed, "selfplay game", number).getrandbits(63)
    seated = [bots.create(game, names[entries[seat]], seed=derive(seed, "selfplay bot", number, seat).getrandbits(32))
              for seat in range(players)]
    state = game.start(players, options, game_seed)
    moves = 0
    while not game.is_over(state):
        try:
            game.check_length(moves)  # its cap on actions: a longer game is a bug in the game
        except TooLong as error:
            raise RuntimeError(f"{game.id} game {number} did not end: {error}") from None
        seat = min(game.to_act(state))
        action = seated[seat].choose(game.view(state, seat), seat, game.legal_actions(state, seat))
        state = game.apply(state, seat, action)
        moves += 1
    result = game.result(state)
    assert result is not None  # the game is over
    return GameRecord(number, entries, tuple(result.scores), tuple(result.ranks), moves)


def summarise(names: tuple[str, ...], records: list[GameRecord]) -> dict[str, Any]:
    """Wins (a shared first place counts as a draw), average score per entry, first seat's win rate."""
    labels = [name if names.count(name) == 1 else f"{name} #{i + 1}" for i, name in enumerate(names)]
    rows = []
    for entry, label in enumerate(labels):
        wins = draws = 0
        scores = []
        for r in records:
            seat = r.entries.index(entry)
            scores.append(r.scores[seat])
            firsts = r.ranks.count(1)
            if r.ranks[seat] == 1:
                if firsts == 1:
                    wins += 1
                else:
                    draws += 1
        rows.append({"bot": label, "games": len(records), "wins": wins, "draws": draws,
                     "losses": len(records) - wins - draws,
                     "average_score": sum(scores) / len(scores) if scores else 0.0})
    first_wins = sum(1 for r in records if r.ranks[0] == 1 and r.ranks.count(1) == 1)
    return {"rows": rows, "games": len(records),
            "first_player_win_rate": first_wins / len(records) if records else 0.0,
            "average_moves": sum(r.moves for r in records) / len(records) if records else 0.0}


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from .. import bots
    from ..core import ParlourError
    from ..games import get

    game = get(args.game)
    names = tuple(n.strip() for n in args.bots.split(",") if n.strip())
    game.check_players(len(names))
    options = game_options(game, args.options, len(names))
    for name in names:
        bots.create(game, name)  # an unknown name fails here, in words, before anything runs
    if args.games < 1 or args.jobs < 1:
        raise ParlourError("--games and -j must be at least 1")
    tasks = [(game.id, names, args.seed, number, options) for number in range(args.games)]
    console = Console()
    records: list[GameRecord] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        bar = progress.add_task(f"{game.name}: {' vs '.join(names)}", total=len(tasks))
        if args.jobs == 1:
            for task in tasks:
                records.append(play_one(task))
                progress.advance(bar)
        else:
            import multiprocessing

            with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
                for record in pool.imap_unordered(play_one, tasks, chunksize=max(1, len(tasks) // (args.jobs * 8))):
                    records.append(record)
                    progress.advance(bar)
    records.sort(key=lambda r: r.number)
    summary = summarise(names, records)
    table = Table(title=f"{game.name}: {summary['games']} games, seed {args.seed}")
    for column in ("bot", "wins", "draws", "losses", "win rate", "average score"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in summary["rows"]:
        table.add_row(row["bot"], str(row["wins"]), str(row["draws"]), str(row["losses"]),
                      f"{row['wins'] / row['games']:.1%}", f"{row['average_score']:.1f}")
    print_table(console, table)
    given = [text.split("=", 1)[0].strip() for text in args.options]
    if given:
        console.print("options: " + ", ".join(f"{name}={options[name]}" for name in given), highlight=False)
    console.print(f"first player's win rate: {summary['first_player_win_rate']:.1%};"
                  f" {summary['average_moves']:.1f} moves a game on average")
    return 0
