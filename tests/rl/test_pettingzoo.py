"""PettingZoo AEC environments pass PettingZoo's own API and seed tests, for every game and
player count, and end with rewards from the game's result."""

from __future__ import annotations

import numpy as np
import pytest
from rlkit import CONFIGS, GAMES, config_id

from parlour.rl import pettingzoo as pz

pettingzoo_test = pytest.importorskip("pettingzoo.test")


@pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo's remarks on dict observations
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_api_test(config: tuple) -> None:
    game_id, players, options = config
    pettingzoo_test.api_test(pz.env(game_id, players=players, options=options, render_mode="ansi"), num_cycles=60)


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_seed_test(game_id: str) -> None:
    pettingzoo_test.seed_test(lambda: pz.env(game_id), num_cycles=60)


@pytest.mark.parametrize("config", [("palace", 4, {}), ("dinosaurs", 3, {}), ("prestige_cities", 3, {"blight": True})],
                         ids=config_id)
def test_a_whole_game_ends_with_the_results_rewards(config: tuple) -> None:
    game_id, players, options = config
    env = pz.env(game_id, players=players, render_mode="ansi", **options)
    env.reset(seed=3)
    assert env.possible_agents == [f"player_{i}" for i in range(players)]
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=20_000):
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        assert info["view"]["seat"] == int(agent.split("_")[1])
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(env.action_space(agent).sample(observation["action_mask"])))
    assert not env.agents, "the game did not end"
    result = env.table.game.result(env.table.state)
    best = min(range(players), key=lambda s: result.ranks[s])
    assert totals[f"player_{best}"] == max(totals.values()) > 0
    assert sum(totals.values()) == pytest.approx(0.0)
    text = env.render()
    assert "over:" in text and "scores:" in text


def test_bad_arguments_say_what_is_wrong() -> None:
    from parlour.core import BadOptions

    with pytest.raises(BadOptions, match="played by 2 to 6 players"):
        pz.env("palace", players=9)
    with pytest.raises(BadOptions, match="no option 'colour'"):
        pz.env("palace", colour="red")
    with pytest.raises(ValueError, match="render_mode"):
        pz.env("palace", render_mode="rgb_array")


def test_the_observation_is_the_seat_s_and_the_mask_only_the_acting_seat_s() -> None:
    env = pz.env("palace", players=3)
    env.reset(seed=1)
    acting = env.agent_selection
    for agent in env.agents:
        obs = env.observe(agent)
        assert obs["action_mask"].any() == (agent == acting)
        np.testing.assert_array_equal(obs["observation"], env.table.observe(env.seat_of[agent]))
