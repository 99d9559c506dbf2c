"""Every game's bot levels (easy, medium, hard): made by name in the registry and the arena, legal
to the end of games of every player count and option, choosing from their seat's view alone, and
a short match of each level against the next. Strength is measured by the arena (docs/bots.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlour import bots
from parlour.arena.match import Entrant, MatchTask, check_entrant, play_match
from parlour.bots.mcts import MctsBot
from parlour.core import Game, derive, replay
from parlour.games import all_games
from parlour.games import get as get_game

GAMES = list(all_games().values())
ITERATIONS = 2  # the search bots stop after this many iterations (or guesses): quick and reproducible


def make(game: Game[Any], name: str, seed: int) -> Any:
    """A bot whose choices depend on its seed and view only: a search bot is told a minute a move
    and stopped by its count of iterations, never by the clock."""
    bot = bots.create(game, name, seed=seed, time_limit=60.0)
    if isinstance(bot, MctsBot):
        bot.max_iterations = ITERATIONS
    return bot


def setups(game: Game[Any]) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with the default options, then each option away from its default (a
    choice's values taken in turn), at the smallest table with an opponent."""
    out: list[tuple[int, dict[str, Any]]] = [(n, {}) for n in range(game.min_players, game.max_players + 1)]
    players = max(2, game.min_players)
    for option in game.options:
        if option.kind == "bool":
            out.append((players, {option.name: not option.default}))
        elif option.kind == "choice":
            values = [c for c in option.choices if c != option.default]
            out.append((players, {option.name: values[len(out) % len(values)]}))
    return out


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_game_offers_the_three_levels_with_a_line_each(game):
    names = bots.names(game)
    for level in bots.LEVELS:
        assert level in names
        assert len(bots.about(game, level)) > 20
        check_entrant(game, Entrant(level, f"builtin:{level}"))  # the arena accepts it
    assert game.levels["medium"].bot in game.bots  # medium is the game's own heuristic
    assert len({bots.about(game, level) for level in bots.LEVELS}) == 3


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_the_levels_play_legal_moves_to_the_end_of_every_setup(game):
    for number, (players, options) in enumerate(setups(game)):
        seed = 100 + number
        players_bots = [make(game, bots.LEVELS[(seat + number) % 3], seed * 10 + seat) for seat in range(players)]
        rng = random.Random(seed)
        state = game.start(players, options, seed)
        moves = 0
        while not game.is_over(state):
            seat = rng.choice(sorted(game.to_act(state)))
            legal = game.legal_actions(state, seat)
            action = players_bots[seat].choose(game.view(state, seat), seat, legal)
            assert action in legal, f"{game.id} {players} players {options}: {action!r} is not legal"
            state = game.apply(state, seat, action)
            moves += 1
            assert moves < 5_000, f"{game.id} {players} players {options}: no end in sight"
        assert game.result(state) is not None


def _midgame_states(game: Game[Any], players: int, seed: int, count: int) -> list[tuple[Any, int]]:
    """(state, seat to act) at a few points of a game between medium bots."""
    medium = [make(game, "medium", seed + s) for s in range(players)]
    state, out, step = game.start(players, {}, seed), [], 0
    while not game.is_over(state) and len(out) < count:
        seat = min(game.to_act(state))
        if step % 7 == 3 and len(game.legal_actions(state, seat)) > 1:
            out.append((state, seat))
        state = game.apply(state, seat, medium[seat].choose(game.view(state, seat), seat,
                                                          game.legal_actions(state, seat)))
        step += 1
    return out


@pytest.mark.parametrize("game", [g for g in GAMES if g.hidden_information], ids=lambda g: g.id)
def test_each_level_chooses_from_its_view_alone(game):
    """The same view over other hidden states (resampled from that view) gives the same choice
    for the same seed: nothing but the view reaches the bot."""
    players = min(3, game.max_players)
    for state, seat in _midgame_states(game, players, seed=7, count=4):
        view = game.view(state, seat)
        others = [game.sample(view, seat, derive(11, "resample", k)) for k in range(2)]
        for other in others:
            assert game.view(other, seat) == view
        for level in bots.LEVELS:
            choices = [make(game, level, 5).choose(game.view(s, seat), seat, game.legal_actions(s, seat))
                       for s in [state, *others]]
            assert choices[0] == choices[1] == choices[2], (level, choices)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@pytest.mark.parametrize("pair", [("easy", "medium"), ("medium", "hard")])
def test_a_short_match_of_one_level_against_the_next(game, pair):
    """Through the arena's referee, at a tenth of the time limits (the search bots think about
    10 ms a move): a normal end, and a replay that gives the same finish."""
    entrants = tuple(Entrant(name, f"builtin:{name}") for name in pair)
    record = play_match(MatchTask(0, game.id, entrants, seed=derive(3, game.id).getrandbits(32), time_scale=0.1))
    assert record.ended == "normal"
    final = replay(game, 2, {}, record.replay["seed"], record.replay["actions"])
    assert game.is_over(final)
    assert list(game.result(final).ranks) == record.replay["result"]["ranks"]


def test_a_flat_search_with_too_few_guesses_plays_the_heuristics_choice():
    """On a machine too busy for two guesses, Palace's hard bot plays the shark's move."""
    game = get_game("palace")
    for state, seat in _midgame_states(game, 3, seed=5, count=4):
        bot = make(game, "hard", 9)
        bot.max_iterations = bot.min_rounds - 1
        view, legal = game.view(state, seat), game.legal_actions(state, seat)
        assert bot.choose(view, seat, legal) == game.search.candidates(state, seat, 0)[0]


def test_prestige_planner_counts_the_open_bonus_cards():
    """A Park more is worth more to the planner while Monument Builder (most Parks, Deck 2) is
    open and the rival has as many Parks; the greedy bot's judgement does not change."""
    from parlour.games.prestige_cities.bots import GreedyBot
    from parlour.games.prestige_cities.engine import PARKS, bit
    from parlour.games.prestige_cities.search import PlannerBot

    game = get_game("prestige_cities")
    rival = (0, 0, 0, 0, bit(0, 0) | bit(0, 1), 0)
    even = (0, 0, 0, 0, bit(5, 0) | bit(5, 1), 0)
    ahead = tuple(m | bit(5, 2) if b == PARKS else m for b, m in enumerate(even))
    planner, greedy = PlannerBot(game), GreedyBot(game)
    planner._open, planner._others, planner._terrain = {2: "monument_builder"}, [rival], 0
    planner._rivals = {2: planner._rival_measure(2, "monument_builder")}
    gain = planner._worth(ahead, False) - planner._worth(even, False)
    assert gain > greedy._worth(ahead, False) - greedy._worth(even, False) + 1.0
