"""Per-token values: each Patchwork placement's seams and purchase worth, as the seat's view has them."""

from __future__ import annotations

import numpy as np
import pytest

from parlour.rl import gym, shaping
from parlour.rl.encodings.patchwork import PER_SLOT, VALUES, PatchworkActions
from parlour.rl.token_values import TOKEN_VALUES, WithTokenValues, patchwork_token_values


def covered(env: gym.ParlourGymEnv) -> dict[int, int]:
    """Each legal placement token's squares, from the engine's own placements."""
    table = env.table
    start = PatchworkActions.starts(env.view())
    out = {}
    for pid, orientation, corners in table.game.placements(table.state, env.seat):  # type: ignore[attr-defined]
        base = start[pid] + 324 * orientation.flip + 81 * orientation.rotation
        for corner in range(81):
            if corners >> corner & 1:
                out[base + corner] = orientation.mask << corner
    return out


def test_each_placement_s_value_is_the_seams_it_adds_and_its_patch_s_worth() -> None:
    env = gym.make("patchwork", seat="random")
    rng = np.random.default_rng(0)
    checked = specials = 0
    for seed in range(6):
        observation, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            values = patchwork_token_values(env.view(), env.seat, observation).reshape(2, -1)
            quilt = shaping.quilt_bits(env.view()["players"][env.seat]["quilt"])
            for token, squares in covered(env).items():
                added = shaping.seams(quilt | squares) - shaping.seams(quilt)
                assert values[0, token] * 10 == pytest.approx(added)
                slot = (token - 1) // PER_SLOT
                assert values[1, token] == (observation[VALUES + 2 * slot + 1] if slot < 3 else 0.0)
                checked += 1
                specials += slot == 3
            assert values[:, 0].tolist() == [0.0, 0.0]  # skip
            mask = info["action_mask"]
            observation, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked > 10_000 and specials  # the special patch's tokens too


def test_the_wrapper_appends_them_within_its_space() -> None:
    parlour = gym.make("patchwork")
    env = WithTokenValues(parlour, parlour, *TOKEN_VALUES["patchwork"])
    observation, info = env.reset(seed=3)
    size = parlour.observation_space.shape[0]
    assert observation.shape == (size + 2 * PatchworkActions.size,) and env.observation_space.contains(observation)
    assert (observation[:size] == parlour.table.observe(parlour.seat)).all()
    assert (env.action_masks() == parlour.action_masks()).all()
    observation, *_ = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
    assert env.observation_space.contains(observation)
