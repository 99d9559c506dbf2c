"""Palace's bots: `shark` plays legal, sensible moves from its view alone, and beats random players."""

from __future__ import annotations

import pytest
from palace_states import GAME, NO_SWAP, make, swap

from parlour import bots


def shark(seed: int = 1):
    bot = bots.create(GAME, "shark", seed=seed)
    bot.rng.random = lambda: 0.5  # never wander off: these scenarios test its judgement
    return bot


def choice(state, seat=None):
    seat = state.current if seat is None else seat
    return shark().choose(GAME.view(state, seat), seat, GAME.legal_actions(state, seat))


def test_shark_is_listed():
    assert bots.names(GAME)[:2] == ["shark", "random"]


def test_sheds_low_cards_several_at_once_and_keeps_the_special_ones():
    state = make(4, hands=[["2H", "4H", "4D", "10C", "joker", "AS"]], pick_up=["9C", "9D"])
    assert sorted(choice(state)["cards"]) == ["4D", "4H"]


def test_uses_a_special_card_only_when_nothing_else_goes():
    state = make(4, hands=[["2H", "5D", "7C", "10C"]], pile=["KS"], pick_up=["9C"])
    assert choice(state)["cards"] in (["2H"], ["7C"])


def test_burns_a_big_pile():
    state = make(4, hands=[["10H", "KD"]], pile=["JS", "QS", "KS", "AS", "2S", "6C", "8C"], pick_up=["9C"])
    assert choice(state)["cards"] == ["10H"]


def test_skips_a_player_about_to_go_out():
    state = make(4, hands=[["8H", "9D", "KC"], ["4S"]], face_ups=[["KS"], []], face_downs=[["QS"], []],
                 pile=["6C"], pick_up=["2C"])
    assert choice(state)["cards"] == ["8H"]


def test_trades_a_fat_hand_for_a_thin_one():
    state = make(4, hands=[["cardinal", "8H", "9H", "JH", "QH", "KH", "AH"], ["QD"], ["8C", "9C"]],
                 swaps_left=1, swap_own=True)
    assert choice(state) == swap(0, 1)
    state = make(4, hands=[["2H", "10H"], ["4D", "5D", "6D", "8D", "9D"]], swaps_left=1, swap_own=True)
    assert choice(state) == NO_SWAP


def test_shark_only_plays_legal_moves_and_games_end():
    for seed in range(6):
        n = 2 + seed % 5
        state = GAME.start(n, {}, seed)
        players = [bots.create(GAME, "shark", seed=seed * 7 + s) for s in range(n)]
        for _ in range(5000):
            if GAME.is_over(state):
                break
            seat = state.current
            action = players[seat].choose(GAME.view(state, seat), seat, GAME.legal_actions(state, seat))
            GAME.check(state, seat, action)
            state = GAME.apply(state, seat, action)
        assert GAME.is_over(state)


def test_shark_beats_random_players():
    """In 4-player games against three `random` players a fair share of wins is 25%; the issue asks
    for at least 50% over 500 games (docs/benchmarks.md has that measurement). Here 40 seeded games."""
    wins = 0
    for seed in range(40):
        seat = seed % 4
        players = [bots.create(GAME, "shark" if s == seat else "random", seed=seed * 10 + s) for s in range(4)]
        state = GAME.start(4, {}, seed)
        while not GAME.is_over(state):
            s = state.current
            state = GAME.apply(state, s, players[s].choose(GAME.view(state, s), s, GAME.legal_actions(state, s)))
        wins += GAME.result(state).ranks[seat] == 1
    assert wins >= 20, f"shark won {wins} of 40"


# -- the hard bot's judgement (search.py) ---------------------------------------------------------------

def test_the_search_judges_each_seats_chance_of_going_out_first():
    """The chances add up to one; of two seats alike but for a card more, the lighter is likelier
    to go out first; once a seat is out first, it has won and the others have not."""
    search = GAME.search
    state = make(4, hands=[["4H", "5D"], ["4S", "5C", "9D"]], face_ups=[["KS"], ["KH"]], face_downs=[["QS"], ["QH"]],
                 pick_up=[], current=2)
    chances = search.evaluate(state)
    assert abs(sum(chances) - 1) < 1e-9 and all(0 < c < 1 for c in chances)
    assert chances[0] > chances[1]
    out = make(4, hands=[[], ["4S"]], face_ups=[[], []], face_downs=[[], []], finished=[0], current=1)
    assert search.evaluate(out) == [1.0, 0.0, 0.0, 0.0]


def test_a_finished_playout_counts_only_going_out_first():
    """The search's value of a finished game is 1 for the seat that went out first, 0 for the rest,
    not a share of the others beaten (a second place is worth nothing to it)."""
    from parlour.bots.mcts import MctsBot

    bot = MctsBot(GAME, seed=1)
    bot._depth = 0
    over = make(4, hands=[[], [], [], ["4S"]], face_ups=[[], [], [], []], face_downs=[[], [], [], []],
                finished=[2, 0, 1, 3], current=None)
    assert GAME.is_over(over)
    assert bot._playout(over, None, float("inf")) == [0.0, 0.0, 1.0, 0.0]


def test_the_evaluation_is_fitted_to_who_goes_out_first():
    """The fitter learns from games of sharks that cards still to shed count against a seat."""
    pytest.importorskip("numpy")
    from parlour.games.palace import fitting
    from parlour.games.palace.search import FEATURES

    data = fitting.positions(4, 30, seed=5)
    weights = dict(zip(FEATURES, fitting.fit(data)))
    assert weights["face_ups"] < 0 and weights["face_downs"] < 0
    assert fitting.log_loss(list(weights.values()), data) < fitting.log_loss([0.0] * len(FEATURES), data)
