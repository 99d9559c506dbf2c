"""Each game's encoding for learning agents: its integer actions and its observation tensor.

One module per game, each with ``ACTIONS`` (an :class:`~parlour.rl.encoding.ActionCodec`) and
``OBSERVATION`` (an :class:`~parlour.rl.encoding.ObservationEncoder`); this is their registry.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from ...core import UnknownGame
from ..encoding import ActionCodec, ObservationEncoder

MODULES = {"patchwork": "patchwork", "empire": "empire", "dinosaurs": "dinosaurs",
           "prestige_cities": "prestige_cities", "palace": "palace"}


@dataclass(frozen=True)
class Encoding:
    actions: ActionCodec
    observation: ObservationEncoder


def encoding(game_id: str) -> Encoding:
    """The encoding of the game called ``game_id``."""
    if game_id not in MODULES:
        raise UnknownGame(f"there is no encoding for learning agents of {game_id!r}"
                          f" (the games: {', '.join(MODULES)})")
    module = importlib.import_module(f"{__name__}.{MODULES[game_id]}")
    return Encoding(module.ACTIONS, module.OBSERVATION)
