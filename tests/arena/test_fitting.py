"""The conditional logit that Palace's and Happy Little Dinosaurs' hard bots are fitted with."""

import math

import pytest

np = pytest.importorskip("numpy")

from parlour.bots.fitting import fit, log_loss  # noqa: E402

AHEAD = [(1.0,), (0.0,)]  # two players, the first one point ahead


def test_the_weights_make_the_winners_as_likely_as_they_were():
    data = [(AHEAD, (1.0, 0.0))] * 3 + [(AHEAD, (0.0, 1.0))]  # ahead won 3 games of 4
    w = fit(data)
    assert w[0] == pytest.approx(math.log(3), abs=1e-3)
    assert log_loss(w, data) == pytest.approx(-(3 * math.log(0.75) + math.log(0.25)) / 4, abs=1e-6)
    assert log_loss([0.0], data) == pytest.approx(math.log(2))


def test_a_shared_win_is_half_a_win_to_each_and_a_position_nobody_still_in_won_is_left_out():
    assert fit([(AHEAD, (0.5, 0.5))] * 4)[0] == pytest.approx(0.0, abs=1e-9)
    three_to_one = [(AHEAD, (1.0, 0.0))] * 3 + [(AHEAD, (0.0, 1.0)), (AHEAD, (0.0, 0.0))]
    assert fit(three_to_one)[0] == pytest.approx(math.log(3), abs=1e-3)
    with pytest.raises(ValueError, match="no position"):
        fit([(AHEAD, (0.0, 0.0))])


def test_positions_of_different_sizes_are_fitted_together():
    three = [(2.0,), (1.0,), (0.0,)]
    data = ([(AHEAD, (1.0, 0.0))] * 3 + [(AHEAD, (0.0, 1.0))]
            + [(three, (1.0, 0.0, 0.0))] * 2 + [(three, (0.0, 0.0, 1.0))])
    w = fit(data)
    score = sum(sum(s * r[0] for r, s in zip(rows, shares))
                   - sum(math.exp(w[0] * r[0]) * r[0] for r in rows) / sum(math.exp(w[0] * r[0]) for r in rows)
                   for rows, shares in data)
    # the likeliest weight (but for the little ridge, 1e-4 a position): the score vanishes
    assert score == pytest.approx(len(data) * 1e-4 * w[0], abs=1e-9)
