"""Gymnasium single-agent environments against Parlour's bots, looked up by name in the registry."""

from __future__ import annotations

import gymnasium
import pytest
from rlkit import CONFIGS, GAMES, Config, config_id

from parlour import bots
from parlour.games import get
from parlour.rl import gym
from parlour.rl.encoding import EncodingError

env_checker = pytest.importorskip("gymnasium.utils.env_checker")


GYM_CONFIGS = [(g, p, o) for g, p, o in CONFIGS if p > 1]  # one seat learns, bots play the others


@pytest.mark.filterwarnings("error")  # and without a warning
@pytest.mark.parametrize("config", GYM_CONFIGS, ids=config_id)
def test_gymnasium_check_env_with_its_defaults_on_the_registered_environment(config: Config) -> None:
    """``gymnasium.make("parlour/<game>-v0")``: what Gymnasium's tools, which step with unmasked
    samples, find registered (illegal="lose")."""
    game_id, players, options = config
    for render_mode in (None, "ansi", "human"):
        env = gymnasium.make(f"parlour/{game_id}-v0", players=players, options=options, render_mode=render_mode)
        env_checker.check_env(env.unwrapped)
        env.close()


def play(env: gym.ParlourGymEnv, seed: int) -> float:
    observation, info = env.reset(seed=seed)
    for _ in range(5_000):
        assert env.observation_space.contains(observation)
        assert info["action_mask"].any() and (info["action_mask"] == env.action_masks()).all()
        observation, reward, terminated, truncated, info = env.step(env.action_space.sample(info["action_mask"]))
        if terminated or truncated:
            return reward
    raise AssertionError("the game did not end")


SEARCHING = ("mcts", "hard")  # they think for a time limit: played below with a short one
GAME_BOTS = [(g, name) for g in GAMES for name in bots.names(get(g)) if name not in SEARCHING]


@pytest.mark.parametrize(("game_id", "opponent"), GAME_BOTS, ids=lambda x: x)
def test_a_game_against_each_bot_by_name(game_id: str, opponent: str) -> None:
    env = gym.make(game_id, opponent=opponent, seat="random")
    rewards = {play(env, seed) for seed in range(2)}
    assert rewards <= {-1.0, 0.0, 1.0}


def test_the_medium_level_by_name() -> None:
    """The issue's example: ``gym.make("empire", opponent="medium")``."""
    env = gym.make("empire", opponent="medium")
    assert play(env, 1) in (-1.0, 0.0, 1.0)


@pytest.mark.parametrize("opponent", SEARCHING)
def test_searching_opponents_with_a_time_limit(opponent: str) -> None:
    env = gym.make("patchwork", opponent=opponent, opponent_time_limit=0.005, max_steps=3)
    _, info = env.reset(seed=1)
    for _ in range(3):
        _, _, terminated, truncated, info = env.step(env.action_space.sample(info["action_mask"]))
    assert truncated and not terminated


def test_several_opponents_and_their_seats() -> None:
    env = gym.make("palace", opponent=["shark", "random", "random"], players=4, seat=2)
    _, info = env.reset(seed=4)
    assert info["seat"] == 2 and env.view()["seat"] == 2
    assert sorted(env.bots) == [0, 1, 3]
    assert type(env.bots[0]).__name__ == "SharkBot"
    assert play(env, 5) in (-1.0, -1 / 3, 1 / 3, 1.0)


def test_bad_arguments_are_refused_in_words() -> None:
    with pytest.raises(bots.UnknownBot, match="has no bot 'nobody'"):
        gym.make("empire", opponent="nobody")
    with pytest.raises(ValueError, match="3 opponents, not 2"):
        gym.make("palace", opponent=["random", "random"], players=4)
    with pytest.raises(ValueError, match="seat must be"):
        gym.make("empire", seat=2)
    env = gym.make("empire")
    _, info = env.reset(seed=1)
    refused = int((info["action_mask"] == 0).nonzero()[0][0])
    with pytest.raises(EncodingError, match="not legal"):
        env.step(refused)


def test_registered_with_gymnasium() -> None:
    env = gymnasium.make("parlour/dinosaurs-v0", opponent="survivor", players=3).unwrapped
    assert isinstance(env, gym.ParlourGymEnv) and env.table.players == 3 and env.illegal == "lose"
    other = gymnasium.make("parlour/empire-v0", illegal="raise").unwrapped
    assert isinstance(other, gym.ParlourGymEnv) and other.illegal == "raise"


def test_human_rendering_prints_and_returns_none(capsys: pytest.CaptureFixture[str]) -> None:
    env = gym.make("palace", render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert "scores:" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode must be one of"):
        gym.make("palace", render_mode="rgb_array")
