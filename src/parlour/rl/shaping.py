"""Potential-based reward shaping for the Gymnasium environments: a denser reward that leaves the
game's result, and which policy is best, as they were.

Each step adds ``gamma * potential(after) - potential(before)`` to the reward, the potential read
from the learner's view alone and taken as 0 once the game is over (Ng, Harada and Russell, 1999).
With ``gamma`` 1 the added rewards of a whole game add up to ``-potential(start)``: a number the
learner's play cannot change, so the game's result is all that is left to play for::

    from parlour.rl import gym, shaping
    env = shaping.Shaped(gym.make("patchwork"), shaping.POTENTIALS["patchwork"])

``POTENTIALS`` holds one potential per game where one is written: an estimate, in [-1, 1], of how
far the seat is ahead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

from ..core import View
from ..games.dinosaurs.engine import GOAL
from ..games.patchwork.engine import BASE_SCORE
from .gym import ParlourGymEnv

Potential = Callable[[View, int], float]


_ROW = (1 << 9) - 1
_HAS_RIGHT = sum(((1 << 8) - 1) << (9 * y) for y in range(9))  # squares with a square to their right
_HAS_BELOW = (1 << 72) - 1  # squares with a square below them


def quilt_bits(rows: list[str]) -> int:
    """A quilt as the view gives it (rows of ``O`` and ``.``) as bits, square (x, y) at y * 9 + x."""
    return sum(1 << (9 * y + x) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "O")


def seams(quilt: int) -> int:
    """How many sides a patched square shares with an empty one: few for a compact quilt, many for
    one in scattered pieces, whose holes later patches will not fit."""
    return ((quilt ^ (quilt >> 1)) & _HAS_RIGHT).bit_count() + ((quilt ^ (quilt >> 9)) & _HAS_BELOW).bit_count()


def patchwork_potential(view: View, seat: int, seam_points: float = 0.5, lead: bool = True) -> float:
    """The seat's lead in the score it would have if nobody bought anything more (its buttons, the
    income still to be paid out, less two per empty square, the bonus), less ``seam_points`` (half a
    point) for each seam of its quilt between patched and empty squares (a quilt in scattered pieces leaves holes
    that later patches do not fit), / 80, within [-1, 1]. With ``lead`` False, that score of the seat's
    alone (what the opponent does between two of the seat's moves moves it no more)."""
    paydays = view["income_times"]

    def final(player: dict[str, Any]) -> float:
        later = sum(1 for t in paydays if t > player["time"])
        return float(player["score"] + player["income"] * later) - seam_points * seams(quilt_bits(player["quilt"]))

    players = view["players"]
    if not lead:  # the seat's own score less the engine's base of 200: from -160 (the start is -157) to 80
        return max(-1.0, min(1.0, (final(players[seat]) - BASE_SCORE + 40) / 120))
    return max(-1.0, min(1.0, (final(players[seat]) - final(players[1 - seat])) / 80))


def palace_potential(view: View, seat: int) -> float:
    """How many fewer cards the seat holds (hand, face-up and face-down) than the others on average,
    / 30, within [-1, 1]."""
    players = view["players"]
    others = [p["cards_left"] for i, p in enumerate(players) if i != seat]
    lead = sum(others) / len(others) - players[seat]["cards_left"]
    return max(-1.0, min(1.0, float(lead) / 30))


def dinosaurs_potential(view: View, seat: int) -> float:
    """The seat's lead in escape points over the best of the others still in the game, / the goal
    (50), within [-1, 1]; -1 once the seat is eliminated."""
    players = view["players"]
    if players[seat]["eliminated"]:
        return -1.0
    others = [p["escape"] for i, p in enumerate(players) if i != seat and not p["eliminated"]]
    lead = players[seat]["escape"] - max(others, default=0)
    return max(-1.0, min(1.0, float(lead) / GOAL))


def empire_potential(view: View, seat: int) -> float:
    """How much of the way to the culprit the seat has come: the roles it has ruled out of the 14
    others, / 14, within [0, 1] (a right accusation wins, and with one suspect left it is sure)."""
    return (15 - len(view["suspects"])) / 14


POTENTIALS: dict[str, Potential] = {"patchwork": patchwork_potential, "palace": palace_potential,
                                    "dinosaurs": dinosaurs_potential, "empire": empire_potential}


class Shaped(gymnasium.Wrapper):
    """A :class:`~parlour.rl.gym.ParlourGymEnv` whose rewards have ``gamma * potential(after) -
    potential(before)`` added at each step (the potential 0 at the end of the game).
    ``info["result"]`` is the game's own reward, the unshaped one."""

    def __init__(self, env: ParlourGymEnv, potential: Potential, gamma: float = 1.0) -> None:
        super().__init__(env)
        if not 0.0 < gamma <= 1.0:
            raise ValueError(f"gamma must be in (0, 1], not {gamma!r}")
        self.parlour = env
        self.potential, self.gamma = potential, gamma
        self.last = 0.0

    def _potential(self) -> float:
        return float(self.potential(self.parlour.view(), self.parlour.seat))

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        observation, info = self.env.reset(**kwargs)
        self.last = self._potential()
        return observation, info

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        now = 0.0 if terminated else self._potential()
        shaped = float(reward) + self.gamma * now - self.last
        self.last = now
        return observation, shaped, terminated, truncated, {**info, "result": reward}

    def action_masks(self) -> np.ndarray:
        return self.parlour.action_masks()
