"""The heuristic bot: it only ever plays legal actions, from its own view, and beats random play."""

from __future__ import annotations

from prestige_states import GAME, city, era_state

from contract import play_bots
from parlour import bots


def play(names: list[str], seed: int, options: dict | None = None):
    return play_bots(GAME, names, seed, options)


def test_greedy_is_listed_with_random():
    assert bots.names(GAME)[:2] == ["greedy", "random"]


def test_greedy_beats_random_with_every_expansion():
    margins = []
    for seed, options in enumerate(({}, {"blight": True}, {"ocean": True}, {"mountains": True},
                                    {"blight": True, "ocean": True, "mountains": True})):
        names = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        result = play(names, seed, options)
        me = names.index("greedy")
        assert result.ranks[me] == 1, (options, result)
        margins.append(result.scores[me] - result.scores[1 - me])
    assert sum(margins) / len(margins) > 10


def test_greedy_plays_a_catastrophe_against_the_leader():
    target = city("IIII", "", "", "", "", "", "", "", "I")  # a row of four and a lone one
    state = era_state("industrial_disaster", dice=(2, 1, 1, 1, 1), cities=[target, city("I")])
    bot = bots.create(GAME, "greedy")
    action = bot.choose(GAME.view(state, 1), 1, GAME.legal_actions(state, 1))
    assert action["type"] == "remove"
    state = GAME.apply(state, 1, action)
    follow = bot.choose(GAME.view(state, 1), 1, GAME.legal_actions(state, 1))
    assert follow in GAME.legal_actions(state, 1)


def test_four_greedy_bots_finish_a_game():
    result = play(["greedy"] * 4, 3, {"blight": True})
    assert len(result.ranks) == 4 and max(result.scores) > 15
