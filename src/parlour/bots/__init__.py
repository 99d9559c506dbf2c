"""Game-agnostic players built on the contract alone, and the one place bots are made by name."""

from __future__ import annotations

from typing import Any

from ..core import Bot, Game, UnknownGame
from .mcts import MctsBot
from .random_bot import RandomBot

GENERIC: dict[str, type[Bot]] = {"random": RandomBot, "mcts": MctsBot}


def names(game: Game[Any]) -> list[str]:
    """The bots that can play ``game``: its own heuristic ones first, then the generic ones."""
    return list(game.bots) + [n for n in GENERIC if n not in game.bots]


def create(game: Game[Any], name: str, seed: int = 0, time_limit: float | None = None) -> Bot:
    """A bot called ``name`` for ``game``; raises :class:`UnknownGame`-style errors in words."""
    cls = game.bots.get(name) or GENERIC.get(name)
    if cls is None:
        raise UnknownBot(f"{game.name} has no bot {name!r} (its bots: {', '.join(names(game))})")
    return cls(game, seed=seed, time_limit=time_limit)


class UnknownBot(UnknownGame):
    """A bot name that no bot answers to for this game."""
