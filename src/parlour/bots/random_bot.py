"""The uniformly random player: every legal action equally likely."""

from __future__ import annotations

from ..core import Action, Bot, View


class RandomBot(Bot):
    name = "random"

    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        return self.rng.choice(legal)
