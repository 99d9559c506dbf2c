"""PettingZoo AEC environments pass PettingZoo's own API, seed and render tests, for every game and
player count, and end with rewards from the game's result (or are cut short by ``max_cycles``)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.spaces import Box
from rlkit import CONFIGS, GAMES, Config, config_id

from parlour.rl import pettingzoo as pz

pettingzoo_test = pytest.importorskip("pettingzoo.test")


@pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo remarks on dict observations (those of action masks)
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_api_test(config: Config) -> None:
    game_id, players, options = config
    pettingzoo_test.api_test(pz.env(game_id, players=players, options=options, render_mode="ansi"), num_cycles=60)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_seed_test(config: Config) -> None:
    game_id, players, options = config
    pettingzoo_test.seed_test(lambda: pz.env(game_id, players=players, options=options), num_cycles=60)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_render_test(config: Config, capsys: pytest.CaptureFixture[str]) -> None:
    """``"ansi"`` returns the text, ``"human"`` prints it and returns None."""
    game_id, players, options = config
    pettingzoo_test.render_test(lambda render_mode=None: pz.env(game_id, players, options, render_mode=render_mode))
    assert "scores:" in capsys.readouterr().out


@pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo remarks on dict observations (those of action masks)
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_api_test_cut_short_by_max_cycles(config: Config) -> None:
    """PettingZoo's ``max_cycles_test`` needs a parallel environment, which a game of turns is not;
    the API test plays games that ``max_cycles`` cuts short instead."""
    game_id, players, options = config
    pettingzoo_test.api_test(pz.env(game_id, players, options, max_cycles=3), num_cycles=60)


@pytest.mark.parametrize("players", [2, 4])
def test_max_cycles_truncates_every_agent_once_one_has_taken_that_many_steps(players: int) -> None:
    env = pz.env("palace", players=players, max_cycles=5)
    env.reset(seed=2)
    steps = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter(max_iter=10_000):
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            assert truncation and not termination and reward == 0.0 and info["view"]["seat"] == env.seat_of[agent]
            env.step(None)
            continue
        steps[agent] += 1
        env.step(int(env.action_space(agent).sample(observation["action_mask"])))
    assert max(steps.values()) == 5 and not env.agents
    assert not env.table.is_over()
    with pytest.raises(ValueError, match="max_cycles must be 1 or more"):
        pz.env("palace", max_cycles=0)


def test_observations_lie_within_finite_bounds() -> None:
    for game_id in GAMES:
        space = pz.env(game_id).observation_space("player_0")["observation"]
        assert isinstance(space, Box)
        assert np.isfinite(space.low).all() and np.isfinite(space.high).all() and (space.low < space.high).all()
        assert (space.low >= -5).all() and (space.high <= 5).all()


@pytest.mark.parametrize("config", [("palace", 4, {}), ("dinosaurs", 3, {}), ("prestige_cities", 3, {"blight": True})],
                         ids=config_id)
def test_a_whole_game_ends_with_the_results_rewards(config: Config) -> None:
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
    assert result is not None
    best = min(range(players), key=lambda s: result.ranks[s])
    assert totals[f"player_{best}"] == max(totals.values()) > 0
    assert sum(totals.values()) == pytest.approx(0.0)
    text = env.render()
    assert text is not None and "over:" in text and "scores:" in text


def test_bad_arguments_say_what_is_wrong() -> None:
    from parlour.core import BadOptions

    with pytest.raises(BadOptions, match="played by 2 to 6 players"):
        pz.env("palace", players=9)
    with pytest.raises(BadOptions, match="no option 'colour'"):
        pz.env("palace", colour="red")
    with pytest.raises(ValueError, match="render_mode"):
        pz.env("palace", render_mode="rgb_array")
    env = pz.env("palace")
    env.reset(seed=1)
    from parlour.rl.encoding import EncodingError

    with pytest.raises(EncodingError, match="must act: None is only for an agent whose game is over"):
        env.step(None)


def test_the_observation_is_the_seat_s_and_the_mask_only_the_acting_seat_s() -> None:
    env = pz.env("palace", players=3)
    env.reset(seed=1)
    acting = env.agent_selection
    for agent in env.agents:
        obs = env.observe(agent)
        assert obs["action_mask"].any() == (agent == acting)
        np.testing.assert_array_equal(obs["observation"], env.table.observe(env.seat_of[agent]))
