"""Happy Little Dinosaurs' hooks for the generic search bot (``parlour.bots.mcts``).

Flat Monte Carlo: each of the seat's actions is tried on guesses at the hidden cards (the others'
hands and face-down Point cards, the decks: ``game.sample``) and played on by the survivor for
every seat, each from its own view of the guess, to about the end of the round; then each
dinosaur's standing is weighed: its place on the Escape Route, less what its Disaster Area puts
at risk (each Disaster type that would now eliminate it).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any, Callable

from .bots import SurvivorBot, keep_value
from ...core import Action, View
from .engine import CARDS, GOAL, State, deadly_types


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


class DinosaursSearch:
    playout_bot = QuickSurvivor  # plays every seat in the playouts
    tree_depth = 1
    time_share = 0.45  # of the time limit (Palace: 0.3); a busy machine shrinks it (docs/bots.md)
    min_rounds = 2
    moves_per_player = 6  # playouts run about to the end of the round: this many moves a seat

    def rollout_depth(self, state: State) -> int:
        return self.moves_per_player * state.players
    exploration = 0.4
    temperature = 8.0  # points of standing that make a 73% favourite between two dinosaurs
    danger = 7.0  # points of standing lost per Disaster type that would eliminate
    hand_weight = 0.25  # points of standing per point of the survivor's worth of a card in hand
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
            if other == seat or state.hidden[other] is None:
                continue
            before = state.copy()  # as it stood when ``other`` chose
            before.hands[other].append(before.hidden[other])
            before.hidden[other] = None
            before.waiting = sorted(before.waiting + [other])
            legal = game.legal_actions(before, other)
            card = self._chooser.choose(game.view(before, other), other, legal)["card"]
            state.hands[other] = [c for c in before.hands[other] if c != card]
            state.hidden[other] = card
        return state

    def standing(self, state: State, seat: int) -> float:
        area = state.areas[seat]
        deadly = len(deadly_types(area, state.two_player))
        hand = sum(keep_value(c) for c in state.hands[seat])
        return min(state.escape[seat], GOAL) - self.danger * deadly + self.hand_weight * hand

    def evaluate(self, state: State) -> list[float]:
        """Each seat's expected share of the others it beats: the eliminated below everyone still
        running (the later eliminated above the earlier), the rest pairwise logistic in standing."""
        n = state.players
        key = {}
        for s in range(n):
            out = state.out[s]
            key[s] = (0, out, 0.0) if out is not None else (1, 0, self.standing(state, s))
        values = []
        for s in range(n):
            beats = 0.0
            for o in range(n):
                if o == s:
                    continue
                a, b = key[s], key[o]
                if a[0] != b[0] or a[0] == 0:
                    beats += 1.0 if a[:2] > b[:2] else 0.0 if a[:2] < b[:2] else 0.5
                else:
                    beats += 1.0 / (1.0 + math.exp((b[2] - a[2]) / self.temperature))
            values.append(beats / (n - 1))
        return values
