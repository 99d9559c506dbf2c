"""``parlour replay FILE``: show a replay file (from the arena or the hall) in the terminal.

By default a summary, every move in words and the final position; ``--step`` waits for Enter
between moves and draws the position after each; ``--at N`` draws the position after N moves.
The game is rebuilt from its seed and actions, so what is shown is what the engine says.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("replay", help="show a replay file move by move",
                            description="Show a replay file: summary, moves in words, positions.")
    parser.add_argument("file", help="a replay file (parlour-replay/1), e.g. from 'parlour arena --replays'")
    parser.add_argument("--step", action="store_true", help="draw the position after every move, Enter for the next")
    parser.add_argument("--at", type=int, default=None, metavar="N", help="draw the position after N moves")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, read: Callable[[str], str] | None = None) -> int:
    from rich.console import Console
    from rich.text import Text

    from ..arena import replays
    from ..core import ParlourError, with_names
    from ..core.replays import states
    from ..games import get

    console = Console(highlight=False)
    replay = replays.read(args.file)
    game = get(replay["game"])
    names = list(replay["names"])
    terminal = _terminal(game)
    total = len(replay["actions"])
    if args.at is not None and not 0 <= args.at <= total:
        raise ParlourError(f"--at is 0 to {total} (the replay has {total} moves), not {args.at}")
    console.print(f"[bold]{game.name}[/bold], seed {replay['seed']}: {', '.join(names)}; {total} moves")
    read = read or console.input
    state = None
    for number, state, log in states(game, replay):
        if number and args.at is None:
            seat, action = replay["actions"][number - 1]
            lines = [entry.render(names) for entry in log if entry.visible_to(None)]
            console.print(f"{number:>4}. {names[seat]}: " + ("; ".join(lines) or _brief(action)), markup=False)
        if terminal is not None and (args.step or args.at == number):
            console.print(terminal.render(game.view(state, None), None, names))
            if args.step and number < total:
                try:
                    read("[dim]Enter: next move[/dim] ")
                except EOFError:
                    args.step = False
        if args.at == number:
            break
    if args.at is None and terminal is not None and not args.step:
        console.print(terminal.render(game.view(state, None), None, names))
    result = replay["result"]
    winners = ", ".join(names[w] for w in result["winners"])
    scores = ", ".join(f"{name} {score:g}" for name, score in zip(names, result["scores"]))
    # a replay written before reasons had names may still hold {p0} placeholders
    console.print(f"[bold]{winners} won[/bold] ({scores}): ", Text(with_names(result["reason"], names)), sep="")
    if replay["ended"] != "normal":
        console.print(f"[red]ended early[/red]: {replay['ended']}")
    return 0


def _terminal(game: Any) -> Any:
    from .play import NoTerminal, terminal_for

    try:
        return terminal_for(game)
    except NoTerminal:
        return None


def _brief(action: Any) -> str:
    import json

    return json.dumps(action)
