"""OpenSpiel: every game registered as ``parlour_<id>`` passes OpenSpiel's random simulation test,
and OpenSpiel's own MCTS (Patchwork) and ISMCTS (the hidden-information games) play it."""

from __future__ import annotations

import numpy as np
import pytest
from rlkit import GAMES

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from parlour.rl import openspiel  # noqa: E402,F401  (registers the games)

LOADS = [("patchwork", {}), ("empire", {}), ("dinosaurs", {}), ("dinosaurs", {"players": 4}),
         ("prestige_cities", {"players": 1}), ("prestige_cities", {"players": 3, "blight": True, "ocean": True}),
         ("palace", {}), ("palace", {"players": 3})]


@pytest.mark.parametrize(("game_id", "params"), LOADS, ids=lambda x: str(x))
def test_openspiel_random_simulation(game_id: str, params: dict) -> None:
    game = pyspiel.load_game(f"parlour_{game_id}", {"seed": 11, **params})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_parameters_are_the_game_s_options_and_the_seed_fixes_the_deal() -> None:
    game = pyspiel.load_game("parlour_prestige_cities", {"players": 3, "mountains": True, "seed": 4})
    assert game.num_players() == 3 and game.options["mountains"] is True
    first, again = game.new_initial_state(), game.new_initial_state()
    assert str(first) == str(again)
    assert game.num_distinct_actions() == 577
    with pytest.raises(Exception, match="played by 1 to 6 players"):
        pyspiel.load_game("parlour_prestige_cities", {"players": 7})


def searcher(game):
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return mcts.MCTSBot(game, uct_c=2, max_simulations=8, evaluator=evaluator, random_state=rng)
    return ismcts.ISMCTSBot(game, evaluator, uct_c=2, max_simulations=8, random_state=rng)


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_search_bots_play(game_id: str) -> None:
    game = pyspiel.load_game(f"parlour_{game_id}", {"seed": 3})
    bot = searcher(game)
    state = game.new_initial_state()
    for _ in range(4):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.history()


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "patchwork"])
def test_resampling_keeps_the_information_state(game_id: str) -> None:
    game = pyspiel.load_game(f"parlour_{game_id}", {"seed": 8})
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 20:
        player = state.current_player()
        other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert other.information_state_string(player) == state.information_state_string(player)
        np.testing.assert_array_equal(other.observation_tensor(player), state.observation_tensor(player))
        assert other.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked
