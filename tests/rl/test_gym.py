"""Gymnasium single-agent environments against Parlour's bots, looked up by name in the registry."""

from __future__ import annotations

import pytest
from rlkit import GAMES

from parlour import bots
from parlour.games import get
from parlour.rl import gym
from parlour.rl.encoding import EncodingError

env_checker = pytest.importorskip("gymnasium.utils.env_checker")


@pytest.mark.filterwarnings("ignore::UserWarning")  # Gymnasium's remark on unbounded boxes
@pytest.mark.parametrize("game_id", GAMES)
def test_gymnasium_check_env(game_id: str) -> None:
    # check_env steps with unmasked random tokens: illegal="lose" takes them
    env_checker.check_env(gym.make(game_id, opponent="random", illegal="lose"), skip_render_check=True)


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
    import gymnasium

    gym.register()
    env = gymnasium.make("parlour/dinosaurs-v0", opponent="survivor", players=3)
    assert env.unwrapped.table.players == 3
