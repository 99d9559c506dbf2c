"""The generic search bot: legal moves within its time, Patchwork's hooks, and a hidden-information
game where it must search from its view alone."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from parlour import bots
from parlour.arena.match import Entrant, MatchTask, play_match
from parlour.bots.mcts import MctsBot, seat_values
from parlour.core import Game, IllegalAction, Result, SearchHooks, derive, replay
from parlour.games import all_games, get

PATCHWORK = get("patchwork")


def test_mcts_is_a_builtin_for_every_game():
    assert "mcts" in bots.names(PATCHWORK)
    assert isinstance(bots.create(PATCHWORK, "mcts", time_limit=0.01), MctsBot)


def test_mcts_plays_a_whole_patchwork_match_legally(tmp_path):
    # time_scale 0.2: 10 ms a move; the referee applies every move, so an illegal one would lose.
    record = play_match(MatchTask(0, "patchwork", (Entrant("mcts", "builtin:mcts"), Entrant("g", "builtin:greedy")),
                                  seed=3, time_scale=0.2))
    assert record.ended == "normal"
    state = replay(PATCHWORK, 2, {}, 3, record.replay["actions"])
    assert PATCHWORK.is_over(state)


def test_mcts_searches_many_iterations_from_the_view():
    state = PATCHWORK.start(2, {}, 5)
    bot = MctsBot(PATCHWORK, seed=1, time_limit=0.05)
    action = bot.choose(PATCHWORK.view(state, 0), 0, PATCHWORK.legal_actions(state, 0))
    PATCHWORK.check(state, 0, action)
    assert bot.iterations >= 1




@pytest.mark.parametrize("seed", [1, 2])
def test_patchwork_candidates_are_legal_and_few(seed):
    hooks = PATCHWORK.search
    rng = random.Random(seed)
    state = PATCHWORK.start(2, {}, seed)
    seen_special = False
    while not PATCHWORK.is_over(state):
        seat = min(PATCHWORK.to_act(state))
        for depth, per_patch in ((0, hooks.root_placements), (1, hooks.inner_placements)):
            candidates = hooks.candidates(state, seat, depth)
            for action in candidates:
                PATCHWORK.check(state, seat, action)
            plays = [a for a in candidates if a["type"] == "play"]
            assert all(sum(1 for a in plays if a["patch"] == p) <= per_patch for p in {a["patch"] for a in plays})
            if state.pending[seat]:
                seen_special = True
                assert plays and len(plays) == len(candidates)  # no SKIP with a special patch
            else:
                assert {"type": "skip"} in candidates
        assert len(hooks.evaluate(state)) == 2 and abs(sum(hooks.evaluate(state)) - 1) < 1e-9
        state = PATCHWORK.apply(state, seat, hooks.rollout(state, seat, rng))
    assert seen_special


def test_seat_values_from_ranks():
    assert seat_values([1, 2]) == [1.0, 0.0]
    assert seat_values([2, 1]) == [0.0, 1.0]
    assert seat_values([1, 1]) == [0.5, 0.5]


# --- a tiny hidden-information game: the search must guess the opponent's card -----------------

class HighCard(Game[tuple]):
    """Two players each hold one card of 0-9 (hidden from the other). In turn each may keep it or
    swap it for the next card of the deck; then the higher card wins. State: (hands, deck, turn)."""

    id = "highcard"
    name = "High card"
    pitch = "keep or swap"
    min_players = max_players = 2
    hidden_information = True

    def start(self, players: int, options: Mapping[str, Any] | None, seed: int) -> tuple:
        deck = list(range(10))
        derive(seed, "deck").shuffle(deck)
        return (tuple(deck[:2]), tuple(deck[2:]), 0)

    def to_act(self, state):
        return frozenset() if state[2] >= 2 else frozenset({state[2]})

    def legal_actions(self, state, seat):
        return [{"type": "keep"}, {"type": "swap"}] if seat in self.to_act(state) else []

    def check(self, state, seat, action):
        if seat not in self.to_act(state):
            raise IllegalAction("not your turn")
        if action.get("type") not in ("keep", "swap"):
            raise IllegalAction("keep or swap")

    def apply(self, state, seat, action, log=None):
        self.check(state, seat, action)
        hands, deck, turn = state
        if action["type"] == "swap":
            hands = tuple(deck[0] if s == seat else h for s, h in enumerate(hands))
            deck = deck[1:]
        return (hands, deck, turn + 1)

    def view(self, state, seat):
        return {"mine": None if seat is None else state[0][seat], "turn": state[2], "deck_left": len(state[1])}

    def is_over(self, state):
        return state[2] >= 2

    def result(self, state):
        return Result.from_scores(state[0]) if self.is_over(state) else None

    def sample(self, view, seat, rng):
        unknown = [c for c in range(10) if c != view["mine"]]
        rng.shuffle(unknown)
        hands = (view["mine"], unknown[0]) if seat == 0 else (unknown[0], view["mine"])
        return (hands, tuple(unknown[1:1 + view["deck_left"]]), view["turn"])

    def state_to_json(self, state):
        return {"state": [list(state[0]), list(state[1]), state[2]]}

    def state_from_json(self, data):
        hands, deck, turn = data["state"]
        return (tuple(hands), tuple(deck), turn)


@pytest.mark.parametrize("card, best", [(0, "swap"), (1, "swap"), (9, "keep"), (8, "keep")])
def test_mcts_plays_a_hidden_information_game_from_its_view(card, best):
    game = HighCard()
    deck = [card] + [c for c in range(10) if c != card]
    state = ((card, deck[1]), tuple(deck[2:]), 0)
    def bot() -> MctsBot:  # a fixed number of iterations, whatever the machine's speed
        searcher = MctsBot(game, seed=1, time_limit=30.0)
        searcher.max_iterations = 400
        return searcher

    view = game.view(state, 0)
    first = bot()
    assert first.choose(view, 0, game.legal_actions(state, 0)) == {"type": best}
    assert first.iterations == 400
    # What it cannot see does not matter: another opponent card and deck, the same view, the same choice.
    other = ((card, deck[5]), tuple(reversed(deck[2:])), 0)
    assert game.view(other, 0) == view
    assert bot().choose(game.view(other, 0), 0, game.legal_actions(other, 0)) == {"type": best}


class _EndHooks(SearchHooks[tuple]):
    """Search hooks for High card: the low card wins, and a playout may stop after one move."""

    def __init__(self, stop: bool) -> None:
        self.stop = stop

    def evaluate(self, state):
        return [0.25, 0.75]

    def playout_end(self, start, state):
        return self.stop and state[2] > start[2]

    def result_values(self, result):
        return [1.0 - v for v in seat_values(result.ranks)]


@pytest.mark.parametrize("card, best", [(0, "keep"), (9, "swap")])
def test_a_games_result_values_are_what_the_search_plays_for(card, best):
    game = HighCard()
    game.search = _EndHooks(stop=False)
    state = ((card, 5), tuple(c for c in range(10) if c not in (card, 5)), 0)
    bot = MctsBot(game, seed=1, time_limit=30.0)
    bot.max_iterations = 400
    assert bot.choose(game.view(state, 0), 0, game.legal_actions(state, 0)) == {"type": best}


def test_a_playout_stops_where_the_games_playout_end_says():
    game = HighCard()
    state = game.start(2, {}, seed=1)
    outcomes = []
    for stop in (True, False):
        game.search = _EndHooks(stop)
        bot = MctsBot(game, seed=1)
        bot._set_depth(state)
        values = bot._playout(state, 0, deadline=float("inf"))
        outcomes.append([values[0], values[1]])
    assert outcomes[0] == [0.25, 0.75]  # evaluated after the first move
    assert outcomes[1] in ([0.0, 1.0], [1.0, 0.0])  # played to the end (two different cards)


@pytest.mark.parametrize("game_id", [g for g in all_games() if g != "patchwork"])
def test_mcts_plays_every_registered_game_to_its_end(game_id):
    # A few milliseconds a move: legality and robustness (hidden information included), not strength.
    record = play_match(MatchTask(0, game_id, (Entrant("mcts", "builtin:mcts"), Entrant("r", "builtin:random")),
                                  seed=2, time_scale=0.05))
    assert record.ended == "normal", record.ended


class _Clocks:
    """A stand-in for the time module: every look at the wall clock takes a millisecond, of which
    the process ran ``share``."""

    def __init__(self, share: float) -> None:
        self.share, self.ticks = share, 0

    def perf_counter(self) -> float:
        self.ticks += 1
        return self.ticks / 1000

    def process_time(self) -> float:
        return self.ticks * self.share / 1000


@pytest.mark.parametrize("game_id", ["palace", "patchwork"])
def test_the_search_shrinks_when_the_machine_gives_it_little_of_the_processor(monkeypatch, game_id):
    """A process that ran for a fraction of its searches' wall time is on a busy machine, where a
    long search is likely to be caught past the limit by a wait to be scheduled: it searches less
    (never below MIN_CPU_SHARE of its time), and as much as before once it runs freely again."""
    import parlour.bots.mcts as mcts

    game = get(game_id)
    state = game.start(2, {}, seed=4)
    seat = min(game.to_act(state))
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    iterations = {}
    for share in (1.0, 0.0):
        monkeypatch.setattr(mcts, "time", _Clocks(share))
        bot = MctsBot(game, seed=1, time_limit=0.2)
        for _ in range(3):
            assert bot.choose(view, seat, legal) in legal
        iterations[share] = bot.iterations
        assert bot.cpu_share == (1.0 if share else mcts.MIN_CPU_SHARE)
    assert iterations[0.0] < iterations[1.0]
