"""A game's entry in the registry: its rules object and where everything else it provides lives.

Each game's package builds its one entry (``ENTRY``) next to its ``GAME``; ``parlour.games`` lists
the packages, and the hall, the CLI, the arena and ``parlour.rl`` read what they need from the
entries (docs/adding-a-game.md)::

    ENTRY = GameEntry(GAME, assets=Path(__file__).parent, terminal=f"{__name__}.terminal",
                      encoding="parlour.rl.encodings.patchwork")
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from .actions import Action, View
from .game import Game


@dataclass(frozen=True)
class GameEntry:
    """One game as the registry knows it. The modules are named, not imported, until asked for: a
    program that never draws a game in the terminal never loads its renderer, and only
    ``parlour.rl`` (an optional extra) imports an encoding."""

    game: Game[Any]
    # the game package's folder: rules.html (the rules for players), spec.html (the rules document
    # the engine implements) and static/ (renderer.js and its CSS), which the hall serves
    assets: Path
    # the module that draws the game in a terminal (``parlour play``, ``parlour replay``), if any
    terminal: str | None = None
    # the module of the game's own protocol for bot programs in the arena (else the generic JSON one)
    protocol: str | None = None
    # the module of its encoding for learning agents (``parlour.rl``), if it has one
    encoding: str | None = None

    @property
    def id(self) -> str:
        return self.game.id

    def terminal_module(self) -> ModuleType | None:
        """The terminal renderer's module (``render``, ``parse_move``...), or None."""
        return importlib.import_module(self.terminal) if self.terminal else None

    def describer(self, names: Sequence[str]) -> Callable[[Action, View, int], str] | None:
        """``words(action, view, seat)``: a move in words, spoken to the seat that may make it, from
        its view only (the terminal module's ``describe``: the coach's hint and the analysis' better
        move are named with it), or None if the game has none."""
        module = self.terminal_module()
        describe = getattr(module, "describe", None) if module is not None else None
        if describe is None:
            return None
        listed = list(names)
        return lambda action, view, seat: str(describe(action, view, seat, listed))

    def protocol_module(self) -> ModuleType | None:
        """The module of the game's own bot protocol (``make_protocol``), or None."""
        return importlib.import_module(self.protocol) if self.protocol else None
