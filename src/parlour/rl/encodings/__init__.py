"""Each game's encoding for learning agents: its integer actions and its observation tensor.

One module per game, each with ``ACTIONS`` (an :class:`~parlour.rl.encoding.ActionCodec`) and
``OBSERVATION`` (an :class:`~parlour.rl.encoding.ObservationEncoder`); this is their registry.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from ...core import UnknownGame
from ..encoding import ActionCodec, ObservationEncoder

GAMES = ("patchwork", "empire", "dinosaurs", "prestige_cities", "palace")  # a module each, named by the id


@dataclass(frozen=True)
class Encoding:
    actions: ActionCodec
    observation: ObservationEncoder


def encoding(game_id: str) -> Encoding:
    """The encoding of the game called ``game_id``."""
    if game_id not in GAMES:
        raise UnknownGame(f"there is no encoding for learning agents of {game_id!r}"
                          f" (the games: {', '.join(GAMES)})")
    module = importlib.import_module(f"{__name__}.{game_id}")
    return Encoding(module.ACTIONS, module.OBSERVATION)
