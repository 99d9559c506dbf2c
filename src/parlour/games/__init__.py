"""The registry: the one list of Parlour's games, read by the CLI, the hall and the arena.

Adding a game means adding its package under ``parlour/games/`` and one line below. Each package
exposes ``GAME``, its :class:`~parlour.core.Game` object.
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from types import ModuleType

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


def companion(game: Game, name: str) -> ModuleType | None:
    """The module ``name`` of the game's own package (its ``terminal`` renderer, its ``protocol``
    for programs...), or None when the game has none."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        spec = importlib.util.find_spec(f"{package}.{name}") if package else None
    except ModuleNotFoundError:
        spec = None
    return importlib.import_module(f"{package}.{name}") if spec is not None else None
