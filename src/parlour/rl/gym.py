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
from .encoding import EncodingError
from .table import Table

__all__ = ["EncodingError", "ParlourGymEnv", "make", "observation_box", "register"]  # EncodingError: what an
# illegal token raises
RENDER_MODES = ["ansi", "human"]


def observation_box(table: Table) -> spaces.Box:
    """The observation tensor's space: every value within the game's layout's bounds."""
    layout = table.encoder.layout
    return spaces.Box(layout.low, layout.high, (layout.size,), np.float32)


class ParlourGymEnv(gymnasium.Env):
    """One Parlour game from one seat, the other seats played by bots.

    ``seat`` is the learner's seat, or ``"random"`` for a new one each game; ``opponent`` names the
    bot of every other seat, or gives one name per other seat. ``max_steps`` truncates a game.
    ``illegal="raise"`` refuses a token the mask does not allow (:class:`EncodingError`);
    ``illegal="lose"`` ends the game there with reward -1, for learners that use no mask.
    """

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(self, game_id: str, opponent: str | Sequence[str] = "random", players: int | None = None,
                 options: Mapping[str, Any] | None = None, seat: int | str = 0, max_steps: int | None = None,
                 opponent_time_limit: float | None = None, illegal: str = "raise",
                 render_mode: str | None = None) -> None:
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES}, not {render_mode!r}")
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
        self.seat = 0 if isinstance(seat, str) else seat
        self._make_bots(self.seat, 0)
        self.observation_space = observation_box(self.table)
        self.action_space = spaces.Discrete(self.table.codec.size)

    def _make_bots(self, me: int, seed: int) -> None:
        others = [s for s in range(self.table.players) if s != me]
        self.seat = me
        self.bots = {s: create(self.table.game, name, seed=seed + s, time_limit=self.opponent_time_limit)
                     for s, name in zip(others, self.opponent_names)}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.table.seeds.seed(seed)
        for _ in range(100):  # a game the bots end before the learner acts is dealt again
            self.table.reset()
            choice = self.seat_choice
            me = int(self.np_random.integers(self.table.players)) if isinstance(choice, str) else choice
            self._make_bots(me, self.table.seed % 2**31)
            self._opponents_play()
            if not self.table.is_over():
                break
        self.steps = 0
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def _opponents_play(self) -> None:
        table = self.table
        while (seat := table.seat()) is not None:
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

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.illegal == "lose" and not (0 <= action < self.table.codec.size
                                           and self.table.mask(self.seat)[action]):
            return self._observation(), -1.0, True, False, self._info()
        self.table.step(action)
        self.steps += 1
        self._opponents_play()
        terminated = self.table.is_over()
        reward = self.table.rewards()[self.seat] if terminated else 0.0
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        """The game as text (the last public lines of its log, the scores, who acts): returned with
        ``render_mode="ansi"``, printed with ``"human"``."""
        return self.table.show(self.render_mode)


def make(game_id: str, opponent: str | Sequence[str] = "random", **kwargs: Any) -> ParlourGymEnv:
    """The single-agent environment of ``game_id`` against ``opponent`` (a bot name, or one per
    other seat); the other keywords are :class:`ParlourGymEnv`'s."""
    return ParlourGymEnv(game_id, opponent, **kwargs)


def _registered(**kwargs: Any) -> ParlourGymEnv:
    return ParlourGymEnv(**kwargs)


def register() -> None:
    """Register ``parlour/<game>-v0`` with Gymnasium (done on import), for
    ``gymnasium.make("parlour/palace-v0", opponent="medium")``. What Gymnasium's own tools expect of
    an environment they know only by name holds there: a token the mask refuses ends the game with
    reward -1 (``illegal="lose"``, which a keyword changes), since ``check_env`` and the like step with
    unmasked samples."""
    from .encodings import GAMES

    for game_id in GAMES:
        env_id = f"parlour/{game_id}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=_registered, kwargs={"game_id": game_id, "illegal": "lose"})


register()
