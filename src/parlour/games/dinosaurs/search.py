"""Happy Little Dinosaurs' hooks for the generic search bot (``parlour.bots.mcts``).

Flat Monte Carlo: each of the seat's actions is tried on guesses at the hidden cards (the others'
hands and face-down Point cards, the decks: ``game.sample``) and played on by the survivor for
every seat, each from its own view of the guess, to about the end of the round; then each
dinosaur's standing is weighed: its place on the Escape Route, less what its Disaster Area puts
at risk (each Disaster type that would now eliminate it).
"""

from __future__ import annotations

import math

from .bots import SurvivorBot, keep_value
from .engine import _ANY_OF, DISASTER_TYPES, GOAL, State, eliminates

_TYPES = DISASTER_TYPES + ("meteor",)


class QuickSurvivor(SurvivorBot):
    """The survivor with fewer guesses at the others' cards: five times quicker, for playouts."""

    samples = 24


class DinosaursSearch:
    playout_bot = QuickSurvivor  # plays every seat in the playouts
    tree_depth = 1
    time_share = 0.3  # of the time limit: a busy machine may stall the program for longer than it thinks
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

    def standing(self, state: State, seat: int) -> float:
        area = state.areas[seat]
        deadly = sum(1 for t in _TYPES if eliminates(area + [_ANY_OF[t]], state.two_player))
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
