"""Each game's encoding for learning agents: its integer actions and its observation tensor.

One module per game, each with ``ACTIONS`` (an :class:`~parlour.rl.encoding.ActionCodec`) and
``OBSERVATION`` (an :class:`~parlour.rl.encoding.ObservationEncoder`); each game's registry entry
(``parlour.games``) names its module.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from ...core import UnknownGame
from ...games import entries
from ..encoding import ActionCodec, ObservationEncoder

GAMES = tuple(game_id for game_id, entry in entries().items() if entry.encoding)  # the games that have one


@dataclass(frozen=True)
class Encoding:
    actions: ActionCodec
    observation: ObservationEncoder


def encoding(game_id: str) -> Encoding:
    """The encoding of the game called ``game_id``."""
    found = entries().get(game_id)
    if found is None or found.encoding is None:
        raise UnknownGame(f"there is no encoding for learning agents of {game_id!r}"
                          f" (the games: {', '.join(GAMES)})")
    module = importlib.import_module(found.encoding)
    return Encoding(module.ACTIONS, module.OBSERVATION)
