"""The hard bot's judgement (``DinosaursSearch``): a playout ends with its round, a position is
worth each dinosaur's chance of winning, only first place counts once the game is over, and the
fit of its weights (``fit.py``) finds what chose the winners."""

from __future__ import annotations

import pytest
from dino_states import GAME, ids, make_state

from parlour import bots
from parlour.bots.fitting import fit, log_loss
from parlour.core import Result
from parlour.games.dinosaurs.fit import positions

SEARCH = GAME.search
NAT, PRED, EMO, METEOR = ids("natural"), ids("predatory"), ids("emotional"), ids("meteor")
BAT, CANNON, STICK, INSURE = ids("run_home_bat"), ids("meteor_cannon"), ids("cool_stick"), ids("disaster_insurance")


def chances(**fields):
    return SEARCH.evaluate(make_state(**fields))


def test_the_chances_of_winning_add_up_to_one_and_the_eliminated_have_none():
    values = chances(players=4, escape=[10, 20, 30, 40], out=[None, 2, None, None],
                     areas=[[], [NAT[0], NAT[1], NAT[2]], [], []])
    assert abs(sum(values) - 1) < 1e-9
    assert values[1] == 0.0 and all(v > 0 for v in values[:1] + values[2:])
    assert values[0] < values[2] < values[3]  # further up the Escape Route, likelier to win


def test_two_dinosaurs_alike_have_even_chances():
    assert chances(players=2, dinosaurs=("stego", "stego"), hands=[[BAT[0]], [BAT[1]]]) == [0.5, 0.5]


def test_a_disaster_that_would_eliminate_lowers_the_chance_and_one_held_safely_raises_it():
    base = dict(players=2, dinosaurs=("stego", "stego"), escape=[20, 20], hands=[[BAT[0]], [BAT[1]]],
                disaster=NAT[3])
    even = chances(**base)[0]
    assert chances(**base, areas=[[PRED[0]], []])[0] > even  # a Disaster pays a space every round
    # two Natural Disasters of four would not eliminate under the 2-player rules, three would
    assert chances(**base, two_player=True, areas=[[NAT[0], NAT[1], NAT[2]], []])[0] < \
        chances(**base, two_player=True, areas=[[NAT[0], NAT[1], PRED[0]], []])[0]


def test_a_strong_hand_and_disaster_insurance_are_worth_having():
    base = dict(players=3, escape=[15, 15, 15], dinosaurs=("stego",) * 3, disaster=NAT[3])
    weak = chances(**base, hands=[[STICK[0]], [BAT[1]], [BAT[2]]])[0]
    assert chances(**base, hands=[[CANNON[0]], [BAT[1]], [BAT[2]]])[0] > weak
    assert chances(**base, hands=[[STICK[0], INSURE[0]], [BAT[1]], [BAT[2]]])[0] > weak


def test_only_first_place_counts_in_a_finished_game():
    assert SEARCH.result_values(Result((50, 30, 40, 0), (1, 3, 2, 4))) == [1.0, 0.0, 0.0, 0.0]
    assert SEARCH.result_values(Result((50, 50, 40), (1, 1, 3))) == [0.5, 0.5, 0.0]


def test_a_playout_ends_when_its_round_is_over():
    medium = [bots.create(GAME, "medium", seed=s) for s in range(3)]
    state = GAME.start(3, {}, seed=4)
    while state.round < 2:
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, medium[seat].choose(GAME.view(state, seat), seat,
                                                           GAME.legal_actions(state, seat)))
    start, ended = state, False
    while not ended:
        assert state.round == start.round  # the round goes on until its Disaster is dealt with
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, medium[seat].choose(GAME.view(state, seat), seat,
                                                           GAME.legal_actions(state, seat)))
        ended = SEARCH.playout_end(start, state)
    assert state.round == start.round + 1 and state.phase == "select"


def test_the_fit_finds_the_weights_that_chose_the_winners():
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(3)
    true = np.array([1.0, -0.5])
    data = []
    for _ in range(3000):  # two to four dinosaurs still in, one of them chosen by the true weights
        features = rng.normal(size=(int(rng.integers(2, 5)), 2))
        chances = np.exp(features @ true)
        shares = np.eye(len(features))[rng.choice(len(features), p=chances / chances.sum())]
        data.append((features.tolist(), shares.tolist()))
    weights = fit(data)
    assert np.allclose(weights, true, atol=0.15), weights
    assert log_loss(weights, data) < log_loss(0 * weights, data)


def test_the_fit_records_every_round_start_of_a_game_between_survivors():
    rows, shares = positions(3, 0, seed=5)
    assert sum(shares) == 1.0 and len(rows) >= 2
    assert all(len(row) == 3 and all(f is None or len(f) == len(SEARCH.features(GAME.start(3, {}, 1), 0))
                                     for f in row) for row in rows)
    assert all(f is not None for f in rows[0])  # nobody is out before the first round
