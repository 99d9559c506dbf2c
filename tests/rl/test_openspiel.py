"""OpenSpiel: every game registered as ``parlour_<id>`` passes OpenSpiel's random simulation test
(serialisation included) for every player count and the options that change the play, its states
cross process boundaries to equal states with the same future, and OpenSpiel's own MCTS
(Patchwork) and ISMCTS (the hidden-information games) play it."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from typing import Any  # pyspiel's games and states (pyspiel has no types)

import numpy as np
import pytest
from rlkit import CONFIGS, GAMES, Config, config_id

from parlour.games import get

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from parlour.rl import openspiel  # noqa: E402  (registers the games)


def load(config: Config, **params: int) -> Any:
    game_id, players, options = config
    return pyspiel.load_game(f"parlour_{game_id}", {"players": players, **options, **params})


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_openspiel_random_simulation_with_serialisation(config: Config) -> None:
    """OpenSpiel's own test, serialising and reading back the game and state along the way; the deal
    is its first (chance) node."""
    pyspiel.random_sim_test(load(config), num_sims=1, serialize=True, verbose=False)


def round_trips(game: Any, state: Any) -> list[Any]:
    """The state read back by each way OpenSpiel offers: its own text, the game's and state's, pickle."""
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    return [game.deserialize_state(state.serialize()), again, pickle.loads(pickle.dumps(state))]


def same(a: Any, b: Any, game_id: str) -> None:
    assert str(a) == str(b) and a.history() == b.history() and a.current_player() == b.current_player()
    assert a.is_terminal() == b.is_terminal() and a.returns() == b.returns()
    assert (a.state is None) == (b.state is None)
    if a.state is not None:
        engine = get(game_id)
        assert engine.state_to_json(a.state.value) == engine.state_to_json(b.state.value)
    assert (a.prefix, a.prefix_seat) == (b.prefix, b.prefix_seat)
    if not a.is_chance_node():
        assert a.legal_actions() == b.legal_actions()
        for player in range(a.num_players()):
            assert a.information_state_string(player) == b.information_state_string(player)
            np.testing.assert_array_equal(a.observation_tensor(player), b.observation_tensor(player))


def random_actions(state: Any, rng: random.Random, limit: int) -> list[int]:
    """Plays up to ``limit`` random actions (chance as likely as OpenSpiel says), returns them."""
    played: list[int] = []
    while not state.is_terminal() and len(played) < limit:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        played.append(action)
    return played


def under_way(game: Any, rng: random.Random) -> Any:
    """A state in the middle of an action of several tokens (Dinosaurs' Fire Spray), from the first
    deal whose random game comes to one."""
    for deal in range(100):
        state = game.new_initial_state()
        state.apply_action(deal)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            if state.prefix:
                return state
    raise AssertionError("no random game came to an action of several tokens")


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_a_state_read_back_is_equal_and_has_the_same_future(config: Config) -> None:
    """Serialised at the deal, early, midway (and, where the game has them, in the middle of an action
    of several tokens), read back three ways: the same state (the engine's, the tokens under way),
    and the same actions give the same states, step by step, to the same end."""
    game_id, players, _ = config
    game = load(config)
    rng = random.Random(sum(map(ord, config_id(config))))
    states, state = [], game.new_initial_state()
    for stop in (0, 1, 7, 40, 300):
        random_actions(state, rng, stop - len(state.history()))
        if not state.is_terminal():
            states.append(state.clone())
    if game_id == "dinosaurs" and players > 2:  # Fire Spray's discards go token by token
        states.append(under_way(game, rng))
        assert states[-1].prefix
    assert len(states) >= 2  # the deal and the dealt game at least (random Empire games are short)
    for k, state in enumerate(states):
        for way, other in enumerate(round_trips(game, state)):
            same(state, other, game_id)
            original, future = state.clone(), random.Random(k)
            to_the_end = k == len(states) - 1 and way == 0  # the others, 100 actions on (time)
            for step in range(10_000 if to_the_end else 100):
                if original.is_terminal():
                    break
                other.apply_action(random_actions(original, future, 1)[0])
                if step % 20 == 0:
                    same(original, other, game_id)
            same(original, other, game_id)
            assert original.is_terminal() or not to_the_end


CHILD = """
import pickle, sys
states, actions = pickle.load(sys.stdin.buffer)
out = []
for state, more in zip(states, actions):
    for action in more:
        state.apply_action(action)
    out.append((str(state), state.returns(), state.history()))
pickle.dump(out, sys.stdout.buffer)
"""


def test_states_cross_a_process_boundary() -> None:
    """A state pickled here and read in a new Python (which imports nothing of Parlour's first) plays
    on there as it does here."""
    states, futures, expected = [], [], []
    for game_id in GAMES:
        game = pyspiel.load_game(f"parlour_{game_id}")
        state = game.new_initial_state()
        random_actions(state, random.Random(3), 12)
        here = state.clone()
        more = random_actions(here, random.Random(4), 10_000)
        states.append(state)
        futures.append(more)
        expected.append((str(here), here.returns(), here.history()))
    done = subprocess.run([sys.executable, "-c", CHILD], input=pickle.dumps((states, futures)),
                          capture_output=True, timeout=120, check=True)
    assert pickle.loads(done.stdout) == expected


def test_parameters_are_the_game_s_options_and_the_seed_fixes_the_deal() -> None:
    game = pyspiel.load_game("parlour_prestige_cities", {"players": 3, "mountains": True, "seed": 4})
    assert game.num_players() == 3 and game.options["mountains"] is True
    first, again = game.new_initial_state(), game.new_initial_state()
    assert str(first) == str(again) and not first.is_chance_node() and game.max_chance_outcomes() == 0
    assert game.num_distinct_actions() == 577
    with pytest.raises(Exception, match="played by 1 to 6 players"):
        pyspiel.load_game("parlour_prestige_cities", {"players": 7})


def searcher(game: Any) -> Any:
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return mcts.MCTSBot(game, uct_c=2, max_simulations=8, evaluator=evaluator, random_state=rng)
    return ismcts.ISMCTSBot(game, evaluator, uct_c=2, max_simulations=8, random_state=rng)


def test_the_deal_is_a_chance_node_whose_outcome_k_is_the_game_of_seed_k() -> None:
    game = pyspiel.load_game("parlour_palace", {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node() and game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    outcomes = state.chance_outcomes()
    assert len(outcomes) == openspiel.DEALS == game.max_chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 1234) == "deal 1234"
    state.apply_action(1234)
    fixed = pyspiel.load_game("parlour_palace", {"players": 3, "seed": 1234}).new_initial_state()
    assert str(state) == str(fixed) and state.current_player() == fixed.current_player()
    with pytest.raises(Exception, match="not 65536"):
        game.new_initial_state().apply_action(openspiel.DEALS)


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
