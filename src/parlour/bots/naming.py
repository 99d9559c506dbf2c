"""A bot's name resolved to the class that plays it: a level (``easy``, ``medium``, ``hard``) or one
of the game's own bots, and the generic bots the caller knows. Below the registry
(``parlour.bots``) and the search bot alike, which both look bots up by name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import Bot, Game, UnknownGame


class UnknownBot(UnknownGame):
    """A bot name that no bot answers to for this game."""


def bot_class(game: Game[Any], name: str, generic: Mapping[str, type[Bot]]) -> type[Bot] | None:
    """The class of the bot called ``name`` for ``game``: a level's bot (a class, or the name of
    another), else one of the game's own bots, else one of ``generic``; None if none is called so."""
    level = game.levels.get(name)
    if level is not None:
        return level.bot if isinstance(level.bot, type) else bot_class(game, level.bot, generic)
    return game.bots.get(name) or generic.get(name)
