"""``parlour play GAME``: a person plays in the terminal against bots.

The game's package supplies the drawing and the move syntax in a ``terminal`` module
(``render(view, seat, names)``, ``parse_move(text, view, seat)``, ``HELP``, and optionally
``describe(action, view, seat, names)``: then the legal moves are listed by number under the board,
when they are few, and a number typed picks one; and ``WORDS``, the game's own words such as
Prestige Cities' ``cards``); this loop only asks, hands the action to the
engine and tells what happened, so no rule is written here.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ..core import Game, IllegalAction, LogEntry, ParlourError
from ..core.words import addressed
from .shared import add_option_argument, game_options

QUIT_WORDS = {"quit", "q", "exit", "resign"}
HELP_WORDS = {"help", "h", "?"}
BOARD_WORDS = {"board", "show", "look", "b?"}
MENU = 40  # the most moves listed by number under the board (a number typed still picks beyond it)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("play", help="play a game in the terminal against bots",
                            description="Play a game in the terminal against a bot.")
    parser.add_argument("game", help="the game's id (see 'parlour games')")
    parser.add_argument("--vs", default=None, metavar="BOT",
                        help="the bot in the other seat(s) (default: the game's first bot)")
    parser.add_argument("--seed", type=int, default=None, help="the game's seed (default: a fresh one)")
    parser.add_argument("--seat", type=int, default=1, help="your seat, 1 for the first player (default 1)")
    parser.add_argument("--players", type=int, default=None, help="number of players (default: the fewest)")
    add_option_argument(parser)
    parser.set_defaults(run=run)


class NoTerminal(ParlourError):
    """A game whose package has no terminal renderer."""


def terminal_for(game: Game[Any]) -> ModuleType:
    """The game's terminal renderer (its registry entry says which), or :class:`NoTerminal` in words."""
    from ..games import entries

    found = entries().get(game.id)
    module = found.terminal_module() if found is not None else None
    if module is None:
        raise NoTerminal(f"{game.name} cannot be played in the terminal (its package has no terminal"
                         " renderer); play it in the browser hall instead")
    return module


def run(args: argparse.Namespace, read: Callable[[str], str] | None = None) -> int:
    from rich.console import Console
    from rich.text import Text

    from .. import bots
    from ..core import derive, fresh_seed
    from ..games import get

    console = Console(highlight=False)
    game = get(args.game)
    terminal = terminal_for(game)
    players = args.players or max(2, game.min_players)
    game.check_players(players)
    options = game_options(game, getattr(args, "options", []), players)
    if not 1 <= args.seat <= players:
        raise ParlourError(f"--seat is 1 to {players}, not {args.seat}")
    me = args.seat - 1
    seed = fresh_seed() if args.seed is None else args.seed
    bot_name = args.vs or bots.names(game)[0]
    opponents = {s: bots.create(game, bot_name, seed=derive(seed, "bot", s).getrandbits(32))
                 for s in range(players) if s != me}
    names = ["You" if s == me else bot_name for s in range(players)]
    read = read or console.input

    state = game.start(players, options, seed)
    console.print(f"[bold]{game.name}[/bold], seed {seed}: you are player {me + 1} against {bot_name}."
                  " Type 'help' for the moves.")
    drawn = False
    while not game.is_over(state):
        seats = game.to_act(state)
        if me not in seats:
            seat = min(seats)
            log: list[LogEntry] = []
            action = opponents[seat].choose(game.view(state, seat), seat, game.legal_actions(state, seat))
            state = game.apply(state, seat, action, log)
            tell(console, log, me, names)
            drawn = False
            continue
        view = game.view(state, me)
        describe = getattr(terminal, "describe", None)
        legal = game.legal_actions(state, me) if describe else []
        if not drawn:
            console.print(terminal.render(view, me, names))
            if describe and len(legal) <= MENU:
                for n, option in enumerate(legal, 1):
                    console.print(f"  {n:>2}. {describe(option, view, me, names)}", markup=False)
            elif describe:
                console.print(f"  ({len(legal)} moves open: type one in words, or 'help')", markup=False)
            drawn = True
        try:
            text = read(f"[bold]player {me + 1}>[/bold] ").strip()
        except EOFError:
            console.print("\nno more input: you leave the game.")
            return 0
        word = text.lower()
        if word in QUIT_WORDS:
            console.print("You leave the game.")
            return 0
        if word in HELP_WORDS:
            console.print(terminal.HELP, markup=False)
            continue
        if word in getattr(terminal, "WORDS", {}):
            console.print(terminal.WORDS[word](view), markup=False)
            continue
        if word in BOARD_WORDS or not word:
            drawn = False
            continue
        try:
            if describe and re.fullmatch(r"\d+", word):
                if not 1 <= int(word) <= len(legal):
                    raise ValueError(f"there is no move {word}: choose 1 to {len(legal)}, or type 'board' to see them")
                action = legal[int(word) - 1]
            else:
                action = terminal.parse_move(text, view, me)
            log = []
            state = game.apply(state, me, action, log)
        except ValueError as error:
            console.print(f"[yellow]{error}[/yellow]", markup=True)
            continue
        except IllegalAction as error:
            console.print(f"[red]Not allowed:[/red] {error}")
            continue
        tell(console, log, me, names)
        drawn = False
    view = game.view(state, me)
    console.print(terminal.render(view, me, names))
    result = game.result(state)
    assert result is not None  # the game is over
    if hasattr(terminal, "render_result"):
        console.print(terminal.render_result(view, names))
    winners = result.winners
    reason = Text(result.render_reason(names))  # plain text: a name is never read as markup
    if winners == (me,):
        console.print("[bold green]You win![/bold green]", reason)
    elif me in winners:
        console.print("[bold]A shared win.[/bold]", reason)
    else:
        console.print(f"[bold]{', '.join(names[w] for w in winners)} wins.[/bold]", reason)
    return 0


def tell(console: Any, log: list[LogEntry], seat: int, names: list[str]) -> None:
    """Print the log lines ``seat`` may read, with the others' names, speaking to ``seat`` as "you"."""
    for entry in log:
        if entry.visible_to(seat):
            console.print("  " + addressed(entry.text, seat, names), markup=False)
