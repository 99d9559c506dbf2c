"""``parlour bench referee``: the referee's own time per move, everything but the bots' thinking.

Plays Patchwork matches between the starter programs of ``examples/bots`` (Python, speaking the
CodinGame protocol; and the generic JSON starter) and between built-in bots in-process. For each
move the referee builds the view (and the legal actions when the protocol sends them), writes the
input, reads and parses the answer, checks and applies it, and records it; its overhead is the
match's wall time minus the time spent waiting for the bots (and, steadier on a busy machine, the
referee process's CPU time minus what in-process bots used). Program start-up and the kill at the
end are not per move and are left out.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path


def register(targets: argparse._SubParsersAction) -> None:
    parser = targets.add_parser("referee", help="the arena referee's own time per move",
                                description="The referee's overhead per move: all but the bots' thinking.")
    parser.add_argument("--games", type=int, default=10, help="matches per kind of bot (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first match (default 1)")
    parser.add_argument("--examples", default=None, metavar="DIR",
                        help="the examples/bots folder (default: the one beside the source tree)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from ..arena.match import Entrant, MatchTask, play_match
    from ..core import ParlourError
    from .bench import machine

    if args.games < 1:
        raise ParlourError("--games must be at least 1")
    examples = Path(args.examples) if args.examples else Path(__file__).resolve().parents[3] / "examples" / "bots"
    starter = examples / "patchwork" / "starter.py"
    generic = examples / "generic" / "starter.py"
    if not starter.exists() or not generic.exists():
        raise ParlourError(f"the starter bots are not in {examples} (give --examples DIR)")
    python = sys.executable
    kinds = [
        ("programs, CodinGame protocol", f"{python} {starter}", f"{python} {starter}"),
        ("programs, JSON protocol", f"json:{python} {generic}", f"json:{python} {generic}"),
        ("built-in bots in-process", "builtin:greedy", "builtin:random"),
    ]
    console = Console()
    table = Table(title=f"Referee overhead per move, Patchwork, {args.games} matches per row")
    for column in ("bots", "moves", "CPU ms/move", "wall ms/move", "median match (wall)", "worst match (wall)"):
        table.add_column(column, justify="left" if column == "bots" else "right")
    for label, first, second in kinds:
        per_match, total, total_cpu, moves = [], 0.0, 0.0, 0
        for number in range(args.games):
            entrants = (Entrant("a", first), Entrant("b", second))
            if number % 2:
                entrants = entrants[::-1]
            # roomy limits: a slow bot on a loaded machine must not end the measurement early
            record = play_match(MatchTask(number, "patchwork", entrants, args.seed + number, time_scale=20.0))
            if record.ended != "normal":
                raise ParlourError(f"a benchmark match ended early: {record.ended}")
            per_match.append(record.overhead / record.moves)
            total += record.overhead
            total_cpu += record.overhead_cpu
            moves += record.moves
        table.add_row(label, str(moves), f"{total_cpu / moves * 1000:.3f}", f"{total / moves * 1000:.3f}",
                      f"{statistics.median(per_match) * 1000:.3f}", f"{max(per_match) * 1000:.3f}")
    console.print(table)
    console.print(machine(), style="dim")
    return 0
