"""What a bot is: something that picks an action from its seat's view alone."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from .game import Action, Game, View


class Bot(ABC):
    """A player. It is told its seat's view and legal actions, never the full state.

    ``game`` is the game's rules object and ``seed`` fixes the bot's own random choices.
    ``time_limit`` (seconds) is how long it may think on one move, if it thinks at all.
    """

    name: str = "bot"
    # True for a bot that thinks for its whole time limit (a search): the hall runs its moves in
    # worker processes, off the server's event loop.
    thinks: bool = False

    def __init__(self, game: Game[Any], seed: int = 0, time_limit: float | None = None) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.time_limit = time_limit

    @abstractmethod
    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        """One of ``legal``, chosen from what ``view`` shows."""
