"""Empire's hooks for the generic search bot (``parlour.bots.mcts``).

The search guesses the hidden cards from its seat's view, tries a few sensible actions at the
root and plays each guess out to the end with the detective for both players (each from its own
view of the guess): flat Monte Carlo, so an accusation is worth the chance that its culprit is
right, a claim what the opponent's likely answers make of it, and no move in the search is chosen
knowing the guessed cards.
"""

from __future__ import annotations

import random

from ...core import Action, SearchHooks
from .bots import DetectiveBot
from .engine import Empire, State


class EmpireSearch(SearchHooks[State]):
    playout_bot = "medium"  # the detective plays both sides of every playout
    exploration = 0.5
    tree_depth = 1
    time_share = 0.3  # of the time limit: a busy machine may stall the program for longer than it thinks
    width = 4
    first_bonus = 0.05  # the detective's own choice is kept unless another is clearly better
    min_rounds = 4  # a game's outcome is a coin toss: fewer guesses than this are noise, and the detective plays

    def __init__(self) -> None:
        self._game = Empire()
        self._detective = DetectiveBot(self._game, seed=0)

    def candidates(self, state: State, seat: int, depth: int) -> list[Action]:
        """The detective's choice first, then every other action except most accusations and
        guesses: one accusation (the likeliest culprit) and a guess at each role the opponent may
        hold only when few remain."""
        game = self._game
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        detective = self._detective
        detective.rng = random.Random(len(legal))
        first = detective.choose(view, seat, legal)
        suspects = detective._suspects(view)
        opponent = set(detective._opponent_candidates(view))
        likely = [n for n in suspects if n not in opponent] or suspects
        keep = []
        for action in legal:
            kind = action["type"]
            if kind == "accuse" and action["role"] != likely[0]:
                continue
            if kind == "guess" and (action["role"] not in opponent or len(opponent) > 4):
                continue
            if action != first:
                keep.append(action)
        return [first] + keep
