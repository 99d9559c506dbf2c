"""PettingZoo AEC environments for Parlour's games, every player count and option::

    from parlour.rl import pettingzoo
    env = pettingzoo.env("palace", players=4)
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        env.step(None if termination or truncation else env.action_space(agent).sample(mask))

An agent is a seat (``player_0``...). Its observation is ``{"observation": tensor, "action_mask":
mask}`` from its seat's view only; ``info["view"]`` is the view itself (given to the agent
to act, and to every agent at the end). Rewards come at the end
(see :func:`parlour.rl.table.rewards`). ``render()`` returns text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .table import Table


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class ParlourEnv(AECEnv):
    """One Parlour game as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game_id: str, players: int | None = None, options: Mapping[str, Any] | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.table = Table(game_id, players, options, keep_log=render_mode is not None)
        self.metadata = {**self.metadata, "name": f"parlour_{game_id}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(self.table.players)]
        self.seat_of = {name: s for s, name in enumerate(self.possible_agents)}
        size = self.table.codec.size
        observation = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.table.encoder.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self.table.seeds.seed(seed)
        self.table.reset()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._select()

    def _select(self) -> None:
        """The next agent; ``infos`` holds the view of the agent to act (every agent's at the end:
        views cost time, and an agent reads its info only when it is selected)."""
        table = self.table
        seat = table.seat()
        if seat is None:
            self.infos = {a: {"view": table.view(self.seat_of[a])} for a in self.agents}
            return
        self.infos[self.agent_selection] = {}
        self.agent_selection = agent = self.possible_agents[seat]
        self.infos[agent] = {"view": table.view(seat)}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat_of[agent]
        return {"observation": self.table.observe(seat), "action_mask": self.table.mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        table = self.table
        table.step(action)
        self._select()
        if table.is_over():  # rewards come only at the end: until then there is nothing to add up
            for seat, reward in enumerate(table.rewards()):
                self.rewards[agent_name(seat)] = reward
                self.terminations[agent_name(seat)] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.table.render()

    def close(self) -> None:
        pass


def env(game_id: str, players: int | None = None, options: Mapping[str, Any] | None = None,
        render_mode: str | None = None, **game_options: Any) -> ParlourEnv:
    """The AEC environment of ``game_id`` (``"palace"``, ``"patchwork"``...); the game's options go in
    ``options`` or as keywords: ``env("prestige_cities", players=3, blight=True)``."""
    return ParlourEnv(game_id, players, {**(options or {}), **game_options}, render_mode)
