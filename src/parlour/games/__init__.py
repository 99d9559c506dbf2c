"""The registry: the one list of Parlour's games, read by the CLI, the hall and the arena.

Adding a game means adding its package under ``parlour/games/`` and one line below. Each package
exposes ``GAME``, its :class:`~parlour.core.Game` object.
"""

from __future__ import annotations

import importlib
from functools import cache

from ..core import Game, UnknownGame

PACKAGES = (
    "patchwork",
    "empire",
    "dinosaurs",
    "prestige_cities",
    "palace",
)


@cache
def all_games() -> dict[str, Game]:
    """Every game by id, in the registry's order."""
    games = {}
    for package in PACKAGES:
        game = importlib.import_module(f"{__name__}.{package}").GAME
        games[game.id] = game
    return games


def get(game_id: str) -> Game:
    """The game called ``game_id``, or :class:`UnknownGame` listing the ones there are."""
    try:
        return all_games()[game_id]
    except KeyError:
        raise UnknownGame(f"there is no game {game_id!r} (the games: {', '.join(all_games())})") from None
