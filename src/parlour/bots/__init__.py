"""Game-agnostic players built on the contract alone, and the one place bots are made by name.

Besides its named bots, every game offers three levels, ``easy``, ``medium`` and ``hard``, that
its package declares as ``levels`` on its game (:class:`~parlour.core.Level`): each level's bot (a
bot name, or a bot class of its own) and one line on how it plays, for the lobby's seat menu.
"""

from __future__ import annotations

from typing import Any

from ..core import Bot, Game
from .mcts import MctsBot
from .naming import UnknownBot, bot_class
from .random_bot import RandomBot

__all__ = ["ABOUT_GENERIC", "GENERIC", "LEVELS", "UnknownBot", "about", "create", "names"]

GENERIC: dict[str, type[Bot]] = {"random": RandomBot, "mcts": MctsBot}
LEVELS = ("easy", "medium", "hard")
ABOUT_GENERIC = {"random": "Plays a uniformly random legal move",
                 "mcts": "Searches ahead (Monte Carlo tree search) from what its seat can see"}


def names(game: Game[Any]) -> list[str]:
    """The bots that can play ``game``: its own heuristic ones first, then the generic ones, then
    the levels."""
    own = list(game.bots) + [n for n in GENERIC if n not in game.bots]
    return own + [n for n in game.levels if n not in own]


def about(game: Game[Any], name: str) -> str:
    """One line on how the bot called ``name`` plays: its level's line (also for the bot a level
    names), else the generic bots' own, else the first sentence of its class's docstring."""
    level = game.levels.get(name) or next((level for level in game.levels.values() if level.bot == name), None)
    if level is not None:
        return level.about
    if name in ABOUT_GENERIC and name not in game.bots:
        return ABOUT_GENERIC[name]
    cls = bot_class(game, name, GENERIC)
    words = " ".join((cls.__doc__ or "").split()) if cls is not None else ""
    return words.split(". ")[0].rstrip(".")


def create(game: Game[Any], name: str, seed: int = 0, time_limit: float | None = None) -> Bot:
    """A bot called ``name`` (a named bot or a level) for ``game``; raises :class:`UnknownBot`
    in words."""
    cls = bot_class(game, name, GENERIC)
    if cls is None:
        raise UnknownBot(f"{game.name} has no bot {name!r} (its bots: {', '.join(names(game))})")
    return cls(game, seed=seed, time_limit=time_limit)
