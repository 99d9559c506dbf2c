"""Happy Little Dinosaurs' hooks for the generic search bot (``parlour.bots.mcts``).

Flat Monte Carlo: each of the seat's actions is tried on guesses at the hidden cards (the others'
hands and face-down Point cards, the decks: ``DinosaursSearch.sample``) and played on by the
survivor for every seat, each from its own view of the guess, to the end of the round; then each
dinosaur's chance of winning the game is estimated from its standing at the start of the next
round (a conditional logit over the dinosaurs still in, its weights fitted to who won games
between survivors: ``WEIGHTS``). Only first place counts: a finished game is worth 1 to its winner.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from ...bots.mcts import softmax, winner_values
from ...core import Action, SearchHooks, View
from .bots import SurvivorBot, keep_value
from .engine import CARDS, GOAL, IS_POINT, State, deadly_types, trait


def _kind(action: Action) -> tuple[Any, ...]:
    """An action with its cards named by kind: actions alike but for which copy of a card they use."""
    return tuple((k, CARDS[v].key if k == "card" else tuple(sorted(CARDS[c].key for c in v)) if k == "cards"
                  else tuple(v) if isinstance(v, list) else v) for k, v in sorted(action.items()))


class QuickSurvivor(SurvivorBot):
    """The survivor for playouts: the chances its card is the lowest or the highest are worked out
    exactly from the unseen Point values (each other dinosaur's card drawn from them, as the
    survivor's own guesses draw it) instead of estimated from 120 guesses."""

    def _odds(self, pool: list[int], traits: list[int]) -> Callable[[int], tuple[float, float]]:
        counts = Counter(pool)
        total = len(pool)

        def odds(score: int) -> tuple[float, float]:
            above = at_least = at_most = 1.0  # every other card above, at or above, at or below the score
            for t in traits:
                below = sum(k for v, k in counts.items() if v + t < score) / total
                level = counts.get(score - t, 0) / total
                above *= 1.0 - below - level
                at_least *= 1.0 - below
                at_most *= below + level
            return above + 0.5 * (at_least - above), at_most
        return odds


# A dinosaur's standing at the start of a round, in log-odds of winning the game: the weights of
# ``DinosaursSearch.features``, fitted by a conditional logit (each game's winner against the
# dinosaurs still in) to the round starts of 2,000 games between survivors per table size
# (``python -m parlour.games.dinosaurs.fit`` reprints them; docs/bots.md). Per Escape Route space: a Disaster
# held is worth 2.4 (two players: 3.8)
# spaces, as it pays a space every round; a Disaster type that would eliminate costs 0.8 (2.2),
# and 2.7 (2.3) more when the face-up Disaster is of it.
WEIGHTS: dict[int, tuple[float, ...]] = {
    # escape, disasters, deadly types, face-up deadly, best Point, sum of Points,
    # Disaster Instants, scoring Instants, trait, the survivor's worth of the hand
    2: (0.1037, 0.3920, -0.2307, -0.2385, 0.1224, -0.0491, -1.8509, -0.1506, 0.1530, 0.0666),
    4: (0.0982, 0.2331, -0.0783, -0.2623, 0.0689, -0.0752, -1.9848, -0.5098, 0.0584, 0.0751),
}
_DISASTER_INSTANTS = frozenset(("disaster_insurance", "disaster_redirect"))
_SCORING_INSTANTS = frozenset(("score_booster", "score_sapper", "score_inversion"))


class DinosaursSearch(SearchHooks[State]):
    playout_bot = QuickSurvivor  # plays every seat in the playouts
    tree_depth = 1
    time_share = 0.7  # of the time limit: its longest turn about half the limit when quiet; a busy
    # machine shrinks it (docs/bots.md)
    min_rounds = 2
    moves_per_player = 10  # a bound on a playout: the end of the round (``playout_end``) comes first

    def rollout_depth(self, state: State) -> int:
        return self.moves_per_player * state.players
    exploration = 0.4
    width = 5
    first_bonus = 0.03  # the survivor's own choice is kept unless another is clearly better

    def __init__(self) -> None:
        from .engine import Dinosaurs

        self._game = Dinosaurs()
        self._chooser = QuickSurvivor(self._game)

    def candidates(self, state: State, seat: int, depth: int) -> list[Action]:
        """The playout survivor's choice first, then the rest, each kind of choice once."""
        game = self._game
        legal = game.legal_actions(state, seat)
        first = self._chooser.choose(game.view(state, seat), seat, legal)
        out, seen = [first], {_kind(first)}
        for action in legal:
            kind = _kind(action)
            if kind not in seen:  # two Score Boosters on the same dinosaur are one choice
                seen.add(kind)
                out.append(action)
        return out

    def sample(self, view: View, seat: int, rng: random.Random) -> State:
        """The belief: a guess at the hidden cards (``game.sample``) in which every other dinosaur
        that already chose its Point card face down chose it as the survivor would have, from its
        guessed hand and that card, rather than any unseen Point card alike."""
        game = self._game
        state = game.sample(view, seat, rng)
        if state.phase not in ("select", "sudden_death"):
            return state
        for other in range(state.players):
            chosen = state.hidden[other]
            if other == seat or chosen is None:
                continue
            before = state.copy()  # as it stood when ``other`` chose
            before.hands[other].append(chosen)
            before.hidden[other] = None
            before.waiting = sorted(before.waiting + [other])
            legal = game.legal_actions(before, other)
            card = self._chooser.choose(game.view(before, other), other, legal)["card"]
            state.hands[other] = [c for c in before.hands[other] if c != card]
            state.hidden[other] = card
        return state

    def playout_end(self, start: State, state: State) -> bool:
        """A playout stops once the round it started in is over: its Disaster has gone to someone
        or to the bottom of the deck, and the next round's is face up."""
        return state.round > start.round

    result_values = staticmethod(winner_values)  # only first place counts

    def features(self, state: State, seat: int) -> tuple[float, ...]:
        """What ``WEIGHTS`` weighs in a dinosaur's standing, in their order."""
        area = state.areas[seat]
        deadly = deadly_types(area, state.two_player)
        hand = state.hands[seat]
        points = [CARDS[c].value for c in hand if IS_POINT[c]]
        disaster = state.disaster
        return (min(state.escape[seat], GOAL), len(area), len(deadly),
                1.0 if disaster is not None and CARDS[disaster].key in deadly else 0.0,
                max(points, default=0), sum(points),
                sum(1 for c in hand if CARDS[c].key in _DISASTER_INSTANTS),
                sum(1 for c in hand if CARDS[c].key in _SCORING_INSTANTS),
                trait(state.dinosaurs[seat], disaster), sum(keep_value(c) for c in hand))

    def standing(self, state: State, seat: int) -> float:
        """The dinosaur's standing in log-odds of winning (only differences between dinosaurs count)."""
        weights = WEIGHTS[2 if state.players == 2 else 4]
        return sum(w * f for w, f in zip(weights, self.features(state, seat)))

    def evaluate(self, state: State) -> list[float]:
        """Each seat's chance of winning the game: 0 once eliminated; among the others, in
        proportion to the exponential of its standing (a softmax, the conditional logit fitted)."""
        standings = [None if state.out[s] is not None else self.standing(state, s) for s in range(state.players)]
        return softmax(standings)
