"""``parlour analyse FILE``: every move of a replay file judged by the search (docs/analysis.md).

For each move, the mover's chance of winning with the search's preferred move and with the move
played, the preferred move, and a label (best, good, inaccuracy, mistake, blunder). Each move is
judged from what its seat could see when it chose, never from the cards revealed later.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("analyse", help="judge every move of a replay file",
                            description="Judge every move of a replay file (from the arena or the hall) with the"
                                        " search: chances of winning, the better move, and a label.")
    parser.add_argument("file", help="a replay file (parlour-replay/1)")
    parser.add_argument("--seat", type=int, default=None, metavar="N",
                        help="judge only seat N's moves (seats count from 0)")
    parser.add_argument("--format", choices=("table", "json"), default="table",
                        help="a table for people (default) or JSON: {\"moves\": [...], \"summary\": [...]}")
    parser.add_argument("--rounds", type=int, default=None, metavar="N",
                        help="guesses at the hidden cards (and playouts) per candidate move;"
                             " more is slower and steadier (default 48)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..arena import replays
    from ..bots.analysis import DEFAULT_BUDGET, Budget, analyse, summary
    from ..core import ParlourError
    from ..games import entry

    replay = replays.read(args.file)
    found = entry(replay["game"])
    game = found.game
    try:
        budget = Budget(args.rounds, DEFAULT_BUDGET.width) if args.rounds is not None else DEFAULT_BUDGET
    except ValueError as error:
        raise ParlourError(f"--rounds: {error}") from None
    names = list(replay.get("names") or [f"seat {i + 1}" for i in range(replay["players"])])
    judged = analyse(game, replay, seat=args.seat, budget=budget, words=found.describer(names))
    if args.format == "json":
        json.dump({"game": game.id, "moves": [j.to_json() for j in judged],
                   "summary": [{"seat": i, "name": names[i], **counts}
                               for i, counts in enumerate(summary(judged, replay["players"]))
                               if args.seat in (None, i)]},
                  sys.stdout, separators=(",", ":"))
        print()
        return 0
    counts = summary(judged, replay["players"])
    _table(game, judged, names, [(names[i], c) for i, c in enumerate(counts) if args.seat in (None, i)])
    return 0


def _table(game: Any, judged: list[Any], names: list[str], counts: list[tuple[str, dict[str, int]]]) -> None:
    from rich.console import Console
    from rich.table import Table

    colours = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
    table = Table(title=f"{game.name}: every move judged by the search")
    for heading in ("move", "player", "played", "chance before", "after", "label", "better"):
        table.add_column(heading, overflow="fold")
    for j in judged:
        style = colours.get(j.label, "")
        better = "" if j.label in ("best", "good") else j.best_words or _brief(j.best)
        table.add_row(str(j.turn), names[j.seat], _brief(j.action), f"{j.win_chance_before:.0%}",
                      f"{j.win_chance_after:.0%}", f"[{style}]{j.label}[/]" if style else j.label, better)
    console = Console(highlight=False)
    console.print(table)
    for name, count in counts:
        console.print(f"{name}: " + ", ".join(f"{n} {label}" for label, n in count.items()))


def _brief(action: dict[str, Any]) -> str:
    """An action in a few words: its type, then its fields' values ("play card=32")."""
    rest = " ".join(f"{key}={json.dumps(value, separators=(',', ':'))}" for key, value in action.items()
                    if key != "type" and value is not None)
    return f"{action.get('type', '?')} {rest}".strip()
