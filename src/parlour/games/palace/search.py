"""Palace's hooks for the generic search bot (``parlour.bots.mcts``).

Flat Monte Carlo: each of the seat's actions is tried on guesses at the unseen cards (the
pick-up pile, face-downs, the unknown part of others' hands: ``game.sample``) and played on by the
shark for every seat, each from its own view of the guess, for a few turns; then each seat's
burden is weighed: the cards it must still shed (a face-down counts more, being blind), less a
little for the special cards in its hand and face-ups that will get it out of trouble.
"""

from __future__ import annotations

import math

import random

from ...core import Action
from .bots import JOKER_KEEP, KEEP, SharkBot
from .cards import ID_FACE, ID_VALUE, JOKER
from .engine import State

# what each card id is worth keeping for later, on the shark's scale
_KEEP_BY_ID = tuple(JOKER_KEEP if face == JOKER else KEEP.get(value, 0.0) for face, value in zip(ID_FACE, ID_VALUE))


class PalaceSearch:
    playout_bot = "medium"  # the shark plays every seat in the playouts
    tree_depth = 1
    time_share = 0.3  # of the time limit: a busy machine may stall the program for longer than it thinks
    moves_per_player = 8  # moves played on, a seat's share, before the burdens are weighed
    exploration = 0.4
    temperature = 2.5  # cards of burden that make a 73% favourite between two players
    face_down_weight = 1.5
    keep_weight = 0.08
    width = 4
    min_rounds = 2
    first_bonus = 0.02  # the shark's own choice is kept unless another is better

    def __init__(self) -> None:
        from .engine import Palace

        self._game = Palace()
        self._shark = SharkBot(self._game, seed=0)

    def candidates(self, state: State, seat: int, depth: int) -> list[Action]:
        """The shark's choice first, then the other plays by the shark's own measure."""
        game, shark = self._game, self._shark
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        shark.rng = random.Random(len(legal))
        first = shark.choose(view, seat, legal)
        plays = [a for a in legal if a["type"] == "play" and a != first]
        threat = shark._threat(view, seat)
        plays.sort(key=lambda a: -shark._worth(view, seat, a, threat))
        rest = [a for a in legal if a["type"] != "play" and a != first]
        return [first] + plays + rest

    def rollout_depth(self, state: State) -> int:
        return self.moves_per_player * (state.players - len(state.finished))

    def burden(self, state: State, seat: int) -> float:
        held = state.hands[seat] + state.face_ups[seat]
        good = sum(_KEEP_BY_ID[i] for i in held)
        share = len(state.pick_up) / max(1, state.players - len(state.finished))
        return (len(held) + self.face_down_weight * len(state.face_downs[seat]) + share
                - self.keep_weight * good)

    def evaluate(self, state: State) -> list[float]:
        """Each seat's expected share of the others it beats: exact for those out already,
        pairwise logistic in the burdens for the rest."""
        n = state.players
        burden = {s: self.burden(state, s) for s in range(n) if s not in state.finished}
        values = []
        for s in range(n):
            if s in state.finished:
                values.append((n - 1 - state.finished.index(s)) / (n - 1))
                continue
            beats = sum(1.0 / (1.0 + math.exp((burden[s] - burden[o]) / self.temperature))
                        for o in burden if o != s)
            values.append(beats / (n - 1) if n > 1 else 0.0)
        return values
