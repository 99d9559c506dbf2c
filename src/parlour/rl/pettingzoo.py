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
(see :func:`parlour.rl.table.rewards`). ``render()`` returns the game as text (``render_mode="ansi"``)
or prints it (``"human"``, also after each step). ``max_cycles`` cuts a game short: once an agent has
taken that many steps, every agent is truncated (rewards 0, the game unfinished).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .encoding import EncodingError
from .gym import observation_box
from .table import Table

RENDER_MODES = ["ansi", "human"]


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class ParlourEnv(AECEnv):  # pettingzoo ship no type information: the base is Any
    """One Parlour game as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 1, "is_parallelizable": False}

    def __init__(self, game_id: str, players: int | None = None, options: Mapping[str, Any] | None = None,
                 render_mode: str | None = None, max_cycles: int | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES}, not {render_mode!r}")
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be 1 or more (or None), not {max_cycles!r}")
        self.table = Table(game_id, players, options, keep_log=render_mode is not None)
        self.metadata = {**self.metadata, "name": f"parlour_{game_id}_v0"}
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [agent_name(s) for s in range(self.table.players)]
        self.seat_of = {name: s for s, name in enumerate(self.possible_agents)}
        size = self.table.codec.size
        observation = spaces.Dict({
            "observation": observation_box(self.table),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.table.seeds.seed(seed)
        self.table.reset()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.steps = dict.fromkeys(self.agents, 0)
        self.agent_selection = self.agents[0]
        self._select()

    def _select(self) -> None:
        """The next agent; ``infos`` holds the view of the agent to act (every agent's at the end:
        views cost time, and an agent reads its info only when it is selected)."""
        table = self.table
        seat = table.seat()
        if seat is None:
            self._every_view()
            return
        self.infos[self.agent_selection] = {}
        self.agent_selection = agent = self.possible_agents[seat]
        self.infos[agent] = {"view": table.view(seat)}

    def _every_view(self) -> None:
        self.infos = {a: {"view": self.table.view(self.seat_of[a])} for a in self.agents}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat_of[agent]
        return {"observation": self.table.observe(seat), "action_mask": self.table.mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise EncodingError(f"{agent} must act: None is only for an agent whose game is over")
        self._cumulative_rewards[agent] = 0.0
        table = self.table
        table.step(action)
        self.steps[agent] += 1
        self._select()
        if table.is_over():  # rewards come only at the end: until then there is nothing to add up
            for seat, reward in enumerate(table.rewards()):
                self.rewards[agent_name(seat)] = reward
                self.terminations[agent_name(seat)] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        elif self.max_cycles is not None and self.steps[agent] >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
            self._every_view()
            self.agent_selection = self.agents[0]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The game as text (the last public lines of its log, the scores, who acts): returned with
        ``render_mode="ansi"``, printed with ``"human"``."""
        return self.table.show(self.render_mode)

    def close(self) -> None:
        pass


def env(game_id: str, players: int | None = None, options: Mapping[str, Any] | None = None,
        render_mode: str | None = None, max_cycles: int | None = None, **game_options: Any) -> ParlourEnv:
    """The AEC environment of ``game_id`` (``"palace"``, ``"patchwork"``...); the game's options go in
    ``options`` or as keywords: ``env("prestige_cities", players=3, blight=True)``."""
    return ParlourEnv(game_id, players, {**(options or {}), **game_options}, render_mode, max_cycles)
