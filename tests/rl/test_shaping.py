"""Potential-based shaping: the added rewards of a game add up to minus the potential at the start,
so the result is all that is left to play for, and the game's own reward is still told."""

from __future__ import annotations

import numpy as np
import pytest

from parlour.rl import gym, shaping


@pytest.mark.parametrize("game_id", sorted(shaping.POTENTIALS))
def test_the_shaped_rewards_of_a_game_add_up_to_its_result_less_the_first_potential(game_id: str) -> None:
    env = shaping.Shaped(gym.make(game_id, seat="random"), shaping.POTENTIALS[game_id])
    rng = np.random.default_rng(0)
    moved = 0
    for seed in range(4):
        observation, info = env.reset(seed=seed)
        start = env.last
        assert -1.0 <= start <= 1.0
        total, terminated = 0.0, False
        while not terminated:
            mask = env.action_masks()
            observation, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            total += reward
            moved += reward != info["result"]
        assert info["result"] in (-1.0, 0.0, 1.0)
        assert total == pytest.approx(info["result"] - start)
    assert moved  # the potential does move during a game


def test_the_potentials_read_the_lead_from_the_seat_s_view() -> None:
    empty = ["." * 9] * 9
    corner = ["OO" + "." * 7] + ["." * 9] * 8  # two squares in the corner: three seams
    view = {"income_times": [5, 11], "players": [{"time": 6, "score": 10, "income": 3, "quilt": corner},
                                                 {"time": 0, "score": 12, "income": 0, "quilt": empty}]}
    assert shaping.seams(shaping.quilt_bits(corner)) == 3 and shaping.seams(0) == 0
    assert shaping.seams(shaping.quilt_bits(["." * 4 + "O" + "." * 4] + ["." * 9] * 8)) == 3
    assert shaping.seams(shaping.quilt_bits(["O" * 9] * 9)) == 0
    assert shaping.patchwork_potential(view, 0) == pytest.approx((10 + 3 - 1.5 - 12) / 80)
    assert shaping.patchwork_potential(view, 1) == pytest.approx(-(10 + 3 - 1.5 - 12) / 80)
    own = {**view, "players": [{**view["players"][0], "score": 210}, view["players"][1]]}  # the engine's base is 200
    assert shaping.patchwork_potential(own, 0, lead=False) == pytest.approx((210 + 3 - 1.5 - 200 + 40) / 120)
    assert shaping.patchwork_potential(own, 0, seam_points=2, lead=False) == pytest.approx((210 + 3 - 6 - 160) / 120)
    palace = {"players": [{"cards_left": 10}, {"cards_left": 25}, {"cards_left": 4}]}
    assert shaping.palace_potential(palace, 0) == pytest.approx((14.5 - 10) / 30)
    dinosaurs = {"players": [{"escape": 20, "eliminated": False}, {"escape": 35, "eliminated": True},
                             {"escape": 12, "eliminated": False}]}
    assert shaping.dinosaurs_potential(dinosaurs, 0) == pytest.approx((20 - 12) / 50)  # the eliminated one aside
    assert shaping.dinosaurs_potential(dinosaurs, 2) == pytest.approx((12 - 20) / 50)
    assert shaping.dinosaurs_potential(dinosaurs, 1) == -1.0
    assert shaping.empire_potential({"suspects": list(range(1, 15))}, 0) == pytest.approx(1 / 14)
    assert shaping.empire_potential({"suspects": [7]}, 1) == 1.0
    with pytest.raises(ValueError, match="gamma must be in"):
        shaping.Shaped(gym.make("palace"), shaping.palace_potential, gamma=0.0)
