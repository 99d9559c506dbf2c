"""What several commands share: game options from the command line, and tables that stay readable.

``--option NAME=VALUE`` (``parlour selfplay``, ``play`` and ``arena``) names one of the game's
declared options; the value is read by the option's kind and checked as the hall checks it::

    parlour selfplay prestige_cities --bots greedy,greedy --option blight=true --option deck1=cheap_labor
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from ..core import BadOptions, Game, Option

_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")
_WHOLE = re.compile(r"[+-]?[0-9]+")


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", dest="options",
                        help="a game option, e.g. blight=true (repeat for several; an unknown name lists"
                             " the game's options)")


def describe_option(option: Option) -> str:
    """``blight (true or false, default false)``: an option as the command line takes it."""
    if option.kind == "bool":
        kind = "true or false"
    elif option.kind == "int":
        kind = "a whole number" + (f" {option.minimum} to {option.maximum}"
                                   if option.minimum is not None and option.maximum is not None else "")
    else:
        kind = "one of " + ", ".join(option.choices)
    default = str(option.default).lower() if option.kind == "bool" else option.default
    return f"{option.name} ({kind}, default {default})"


def _value(option: Option, text: str) -> Any:
    if option.kind == "bool":
        word = text.strip().lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        raise BadOptions(f"option {option.name!r} is true or false (or yes/no, on/off, 1/0), not {text!r}")
    if option.kind == "int":
        if not _WHOLE.fullmatch(text.strip()):
            raise BadOptions(f"option {option.name!r} must be a whole number, not {text!r}")
        return int(text)
    return text.strip()


def game_options(game: Game[Any], texts: list[str], players: int | None = None) -> dict[str, Any]:
    """Every option of ``game``, those named in ``texts`` (``NAME=VALUE``) read and checked against
    the game's declared options, the others at their defaults; :class:`BadOptions` in words."""
    declared = {option.name: option for option in game.options}
    given: dict[str, Any] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        name = name.strip()
        if not sep or not name:
            raise BadOptions(f"--option takes NAME=VALUE, e.g. --option blight=true, not {text!r}")
        if name not in declared:
            known = "; ".join(describe_option(o) for o in game.options) or "none"
            raise BadOptions(f"{game.name} has no option {name!r}; its options: {known}")
        if name in given:
            raise BadOptions(f"option {name!r} is given twice")
        given[name] = _value(declared[name], value)
    return game.resolve_options(given, players)


def print_table(console: Any, table: Any) -> None:
    """Print a rich table whole: into a terminal it fits the window as rich fits it; anywhere else
    (a file, a pipe) at its natural width, never cut to 80 columns."""
    if console.is_terminal:
        console.print(table)
        return
    from rich.measure import Measurement

    natural = Measurement.get(console, console.options.update(width=1 << 16), table).maximum
    width = console.width
    console.width = max(width, natural)
    try:
        console.print(table)
    finally:
        console.width = width
