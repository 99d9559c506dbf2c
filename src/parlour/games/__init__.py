"""The registry: the one list of Parlour's games, read by the CLI, the hall, the arena and ``parlour.rl``.

Adding a game means adding its package under ``parlour/games/`` and one line below
(docs/adding-a-game.md). Each package exposes ``GAME``, its :class:`~parlour.core.Game` object,
and ``ENTRY``, its :class:`~parlour.core.GameEntry`: the game and where its terminal
renderer, bot protocol, rules and renderer, and encoding for learning agents live.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from ..core import Game, GameEntry, UnknownGame

__all__ = ["PACKAGES", "GameEntry", "all_games", "entries", "entry", "get"]

PACKAGES = (
    "patchwork",
    "empire",
    "dinosaurs",
    "prestige_cities",
    "palace",
)


@cache
def entries() -> dict[str, GameEntry]:
    """Every game's entry by id, in the registry's order."""
    found = {}
    for package in PACKAGES:
        module = importlib.import_module(f"{__name__}.{package}")
        game_entry: GameEntry = module.ENTRY
        if game_entry.game is not module.GAME:
            raise RuntimeError(f"parlour.games.{package}: ENTRY is not the entry of its GAME")
        found[game_entry.id] = game_entry
    return found


@cache
def all_games() -> dict[str, Game[Any]]:
    """Every game by id, in the registry's order."""
    return {game_id: found.game for game_id, found in entries().items()}


def entry(game_id: str) -> GameEntry:
    """The entry of the game called ``game_id``, or :class:`UnknownGame` listing the ones there are."""
    try:
        return entries()[game_id]
    except KeyError:
        raise UnknownGame(f"there is no game {game_id!r} (the games: {', '.join(entries())})") from None


def get(game_id: str) -> Game[Any]:
    """The game called ``game_id``, or :class:`UnknownGame` listing the ones there are."""
    return entry(game_id).game
