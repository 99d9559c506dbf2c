"""``parlour arena GAME --bot NAME=COMMAND ...``: a round-robin tournament between bots.

Each bot is a built-in one (``builtin:greedy``) or a program (any command line) that the referee
runs as a subprocess under the game's time limits. Seats are rotated (swapped, for two players),
games are seeded and played in parallel processes; at the end a table of wins, draws, losses,
average scores and ratings, and why any match ended early (``--format csv`` or ``json`` for the
table as data on standard output, the rest on standard error). ``docs/bots.md`` tells bot authors
the rest.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from typing import Any

from .shared import add_option_argument, game_options, print_table

DEFAULT_LOGS = "arena-logs"
FORMATS = ("table", "csv", "json")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "arena", help="a tournament between bots (built-in ones or programs)",
        description="Round-robin tournament between bots, seats rotated, in parallel processes. A bot is"
                    " NAME=COMMAND: COMMAND is builtin:BOT, json:COMMAND LINE (a program speaking the generic"
                    " JSON protocol), cg-live:COMMAND LINE (a Patchwork program speaking CodinGame's current protocol)"
                    " or a command line (a program speaking the game's own protocol, such as Patchwork's"
                    " CodinGame protocol of its rules document; JSON for games that have none). See docs/bots.md.")
    parser.add_argument("game", help="the game's id (see 'parlour games')")
    parser.add_argument("--bot", action="append", required=True, metavar="NAME=COMMAND", dest="bots",
                        help="a bot, e.g. mine='python3 bot.py' or g=builtin:greedy (two or more)")
    parser.add_argument("--games", type=int, default=2,
                        help="games per table of bots (default 2: one deal, seats swapped)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole tournament (default 1)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="matches played at once (default 1)")
    parser.add_argument("--cluster", default=None, metavar="ADDRESS",
                        help="play the matches on a Dask distributed cluster: a scheduler's address"
                             " (tcp://host:8786), or local[:N] for N worker processes here (needs the"
                             " 'cluster' extra); the same results and replays as -j for the same seed")
    parser.add_argument("--time-scale", type=float, default=1.0, metavar="X",
                        help="multiply the time limits by X, for slow machines (default 1: the rules document's)")
    parser.add_argument("--players", type=int, default=None, help="players per game (default: the fewest)")
    parser.add_argument("--replays", default=None, metavar="DIR", help="write one replay file per game here")
    parser.add_argument("--logs", default=DEFAULT_LOGS, metavar="DIR",
                        help=f"the programs' standard error, one file per bot and match (default {DEFAULT_LOGS})")
    parser.add_argument("--format", choices=FORMATS, default="table",
                        help="the results as a table (default), or as CSV or JSON on standard output"
                             " (progress and notes then go to standard error)")
    add_option_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..arena import replays, tournament
    from ..arena.match import Entrant, check_entrant, time_limits
    from ..core import ParlourError
    from ..games import get

    game = get(args.game)
    players = args.players or max(2, game.min_players)
    game.check_players(players)
    options = game_options(game, args.options, players)
    if args.games < 1 or args.jobs < 1:
        raise ParlourError("--games and -j must be at least 1")
    if not args.time_scale > 0:
        raise ParlourError("--time-scale must be more than 0")
    entrants = [Entrant.parse(text) for text in args.bots]
    for entrant in entrants:
        check_entrant(game, entrant)
    tasks = tournament.schedule(game.id, entrants, players, args.games, args.seed, options=options,
                                time_scale=args.time_scale, logs=args.logs)
    console = Console(stderr=args.format != "table")  # CSV and JSON keep standard output for the data
    console.soft_wrap = not console.is_terminal  # a pipe or a file gets whole lines, never broken at 80
    first, later = time_limits(game, args.time_scale)
    console.print(f"[bold]{game.name}[/bold]: {len(tasks)} games, {len(entrants)} bots, seed {args.seed};"
                  f" time limits {first * 1000:g} ms for a bot's first turn, {later * 1000:g} ms later"
                  + ("; cg-live: bots have the live referee's, 1000 ms then 100 ms, times the scale"
                     if any(e.command.startswith("cg-live:") for e in entrants) else ""))
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        bar = progress.add_task("playing", total=len(tasks))

        def advance(record: Any) -> None:
            if args.replays:
                replays.write(args.replays, record.number, record.replay)
            progress.advance(bar)

        records = tournament.run(tasks, args.jobs, advance, cluster=args.cluster)
    standings = tournament.standings(entrants, records)
    early = [r for r in records if r.forfeit is not None]
    if args.format == "table":
        print_table(console, results_table(game.name, standings, len(records), args.seed))
    else:
        write_results(args.format, game, standings, records, args.seed, options)
    if early:
        console.print(f"[bold]{len(early)} game(s) ended early[/bold] (the failing bot loses):")
        for record in early:
            where = f" (replay {game.id}-{record.number:04d}.json)" if args.replays else ""
            console.print(f"  game {record.number}: {record.ended}{where}", markup=False, highlight=False,
                          soft_wrap=True)  # one line per game, however narrow the output
    moves = sum(r.moves for r in records)
    if moves:
        overhead = sum(r.overhead for r in records) / moves
        console.print(f"referee overhead: {overhead * 1000:.3f} ms per move on average"
                      " (everything but the bots' thinking)", style="dim")
    if any(e.builtin is None for e in entrants):
        console.print(f"programs' standard error: {args.logs}/", style="dim")
    if args.replays:
        console.print(f"replays: {args.replays}/ (show one with 'parlour replay FILE')", style="dim")
    return 0


def result_rows(standings: list[Any]) -> list[dict[str, Any]]:
    """The results table as plain values, one dict per bot (the columns of CSV and JSON)."""
    rows = []
    for s in standings:
        rate, low, high = s.win_rate_interval()
        rows.append({"bot": s.name, "games": s.games, "wins": s.wins, "draws": s.draws, "losses": s.losses,
                     "win_rate": round(rate, 4), "win_rate_low": round(low, 4), "win_rate_high": round(high, 4),
                     "average_score": None if s.average_score is None else round(s.average_score, 2),
                     "rating": round(s.rating, 2), "mu": round(s.mu, 2), "sigma": round(s.sigma, 2),
                     "failed": s.forfeits, "moves": s.moves,
                     "ms_per_move": round(s.think_total / s.moves * 1000, 2) if s.moves else None,
                     "max_ms": round(s.think_max * 1000, 1) if s.moves else None, "late": s.late})
    return rows


def write_results(form: str, game: Any, standings: list[Any], records: list[Any], seed: int,
                  options: dict[str, Any]) -> None:
    """The results on standard output as CSV (a header and a row per bot) or one JSON object."""
    rows = result_rows(standings)
    if form == "csv":
        writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return
    early = [{"game": r.number, "ended": r.ended, "forfeit": r.forfeit} for r in records if r.forfeit is not None]
    json.dump({"game": game.id, "games": len(records), "seed": seed, "options": options, "standings": rows,
               "ended_early": early}, sys.stdout, indent=1)
    sys.stdout.write("\n")


def results_table(game_name: str, standings: list[Any], games: int, seed: int) -> Any:
    from rich.table import Table

    table = Table(title=f"{game_name}: {games} games, seed {seed}")
    for column in ("bot", "games", "wins", "draws", "losses", "win rate (95%)", "avg score", "rating",
                   "failed", "ms/move", "max ms*", "late"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for s in standings:
        rate, low, high = s.win_rate_interval()
        average = "-" if s.average_score is None else f"{s.average_score:.1f}"
        table.add_row(s.name, str(s.games), str(s.wins), str(s.draws), str(s.losses),
                      f"{rate:.1%} ({low:.0%}-{high:.0%})", average,
                      f"{s.rating:.1f} ({s.mu:.1f}±{s.sigma:.1f})", str(s.forfeits),
                      f"{s.think_total / s.moves * 1000:.1f}" if s.moves else "-",
                      f"{s.think_max * 1000:.0f}" if s.moves else "-", f"{s.late}/{s.moves}")
    table.caption = ("max ms*: the longest turn after a bot's first (which has the longer limit);"
                     " late: turns over the limit (a program is cut off, an in-process bot is not)")
    return table
