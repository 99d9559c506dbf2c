"""Gymnasium single-agent environments: one seat learns, Parlour's bots play the others::

    from parlour.rl import gym
    env = gym.make("empire", opponent="medium")
    observation, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

Opponents are looked up by name in the bot registry (:mod:`parlour.bots`): the game's own bots and
the generic ones (``random``, ``mcts``...). The agent's observation is its seat's tensor;
``info["action_mask"]`` (and ``env.action_masks()``, as sb3-contrib's MaskablePPO asks) says which
tokens are legal, ``env.view()`` is the seat's view itself. The reward comes at the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import create
from ..core import Bot
from .encoding import EncodingError  # noqa: F401  (what an illegal token raises)
from .table import Table


class ParlourGymEnv(gymnasium.Env):
    """One Parlour game from one seat, the other seats played by bots.

    ``seat`` is the learner's seat, or ``"random"`` for a new one each game; ``opponent`` names the
    bot of every other seat, or gives one name per other seat. ``max_steps`` truncates a game.
    ``illegal="raise"`` refuses a token the mask does not allow (:class:`EncodingError`);
    ``illegal="lose"`` ends the game there with reward -1, for learners that use no mask.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game_id: str, opponent: str | Sequence[str] = "random", players: int | None = None,
                 options: Mapping[str, Any] | None = None, seat: int | str = 0, max_steps: int | None = None,
                 opponent_time_limit: float | None = None, illegal: str = "raise",
                 render_mode: str | None = None) -> None:
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
        self.illegal = illegal
        self.table = Table(game_id, players, options, keep_log=render_mode is not None)
        n = self.table.players
        names = [opponent] * (n - 1) if isinstance(opponent, str) else list(opponent)
        if len(names) != n - 1:
            raise ValueError(f"a {n}-player game has {n - 1} opponents, not {len(names)}: {names}")
        if seat != "random" and seat not in range(n):
            raise ValueError(f"seat must be 0 to {n - 1} or 'random', not {seat!r}")
        self.opponent_names = names
        self.opponent_time_limit = opponent_time_limit
        self.seat_choice = seat
        self.max_steps = max_steps
        self.render_mode = render_mode
        # made once so that a bad name fails here, in words (UnknownBot)
        self.bots: dict[int, Bot] = {}
        self._make_bots(0 if seat == "random" else seat, 0)
        self.observation_space = spaces.Box(-np.inf, np.inf, (self.table.encoder.layout.size,), np.float32)
        self.action_space = spaces.Discrete(self.table.codec.size)

    def _make_bots(self, me: int, seed: int) -> None:
        others = [s for s in range(self.table.players) if s != me]
        self.seat = me
        self.bots = {s: create(self.table.game, name, seed=seed + s, time_limit=self.opponent_time_limit)
                     for s, name in zip(others, self.opponent_names)}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if seed is not None:
            self.table.seeds.seed(seed)
        for _ in range(100):  # a game the bots end before the learner acts is dealt again
            self.table.reset()
            me = int(self.np_random.integers(self.table.players)) if self.seat_choice == "random" else self.seat_choice
            self._make_bots(me, self.table.seed % 2**31)
            self._opponents_play()
            if not self.table.is_over():
                break
        self.steps = 0
        return self._observation(), self._info()

    def _opponents_play(self) -> None:
        table = self.table
        while not table.is_over():
            seat = table.seat()
            if seat == self.seat:
                return
            view = table.view(seat)
            legal = table.game.legal_actions(table.state, seat)
            table.apply(seat, self.bots[seat].choose(view, seat, legal))

    def _observation(self) -> np.ndarray:
        return self.table.observe(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.table.mask(self.seat), "seat": self.seat}

    def view(self) -> dict[str, Any]:
        """The learner's seat's view, as the game gives it (a JSON-ready dict)."""
        return self.table.view(self.seat)

    def action_masks(self) -> np.ndarray:
        return self.table.mask(self.seat).astype(bool)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self.illegal == "lose" and not (0 <= action < self.table.codec.size
                                           and self.table.mask(self.seat)[action]):
            return self._observation(), -1.0, True, False, self._info()
        self.table.step(action)
        self.steps += 1
        self._opponents_play()
        terminated = self.table.is_over()
        reward = self.table.rewards()[self.seat] if terminated else 0.0
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        return self.table.render() if self.render_mode == "ansi" else None


def make(game_id: str, opponent: str | Sequence[str] = "random", **kwargs: Any) -> ParlourGymEnv:
    """The single-agent environment of ``game_id`` against ``opponent`` (a bot name, or one per
    other seat); the other keywords are :class:`ParlourGymEnv`'s."""
    return ParlourGymEnv(game_id, opponent, **kwargs)


def register() -> None:
    """Register ``parlour/<game>-v0`` with Gymnasium, for ``gymnasium.make("parlour/palace-v0")``."""
    from .encodings import GAMES

    for game_id in GAMES:
        env_id = f"parlour/{game_id}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=ParlourGymEnv, kwargs={"game_id": game_id})
