"""Patchwork's hooks for the generic search bot (``parlour.bots.mcts``): which moves are worth
searching, a cheap playout policy and an evaluation of unfinished games.

A turn offers hundreds of placements, most of them poor; the search looks only at the best few
placements of each patch by the greedy bot's own measure (``bots.purchase_value`` and how snugly
the patch fits), and at SKIP. Unfinished games are evaluated by each player's projected final
score: the score now, the income still to come, and what the time left on the track is worth.
"""

from __future__ import annotations

import heapq
import math
import random
from typing import Any

from ...core import Action, SearchHooks
from .bots import _fit_quality, purchase_value, skip_value
from .endgame import solve as solve_endgame
from .engine import (
    BONUS_POINTS,
    EMPTY_PENALTY,
    INCOME_TIMES,
    LAST_SPACE,
    PATCHES,
    SIZE,
    SPECIAL,
    SQUARES,
    State,
    fits,
    has_bonus_square,
)

# How many income spaces lie strictly after each space.
INCOME_AFTER = tuple(sum(1 for t in INCOME_TIMES if t > space) for space in range(LAST_SPACE + 1))
SKIP: Action = {"type": "skip"}

# The chance of winning the analysis judges a position by (``PatchworkSearch.win_chance``): a
# conditional logit over the two players' ``seat_features``, fitted to who won games between hard
# bots by ``python -m parlour.games.patchwork.fitting`` (docs/analysis.md). Its log-loss on games it
# was not fitted on is 0.51, the evaluation's below (``evaluate``, which the hard level plays by) 0.65.
FEATURES = ("buttons", "squares covered", "income to come", "spaces left", "7x7 bonus", "to move",
            "first home", "buttons x left", "covered x left", "income x left", "spaces x left", "to move x left")
CHANCE_WEIGHTS = (0.2659, 0.4648, 0.2849, 0.4129, 1.9722, 0.3180, 0.4489, 0.0315, -0.4390, -0.1440, -0.0123,
                  -0.4243)


def seat_features(state: State, seat: int) -> list[float]:
    """``seat``'s features (``FEATURES``): its buttons, squares covered (special patches still to
    place count as covered), income still to come, spaces left on the track, the bonus, whether it
    moves next or came home first, and the first five times the share of the game still to play."""
    time = state.time[seat]
    left = 1.0 - (state.time[0] + state.time[1]) / (2 * LAST_SPACE)
    base = [float(state.buttons[seat]), float(state.quilts[seat].bit_count() + len(state.pending[seat])),
            float(state.income[seat] * INCOME_AFTER[time]), float(LAST_SPACE - time),
            1.0 if state.bonus == seat else 0.0]
    return [*base, 1.0 if state.mover == seat else 0.0, 1.0 if state.first_home == seat else 0.0,
            *(x * left for x in base[:4]), (1.0 if state.mover == seat else 0.0) * left]


class PatchworkSearch(SearchHooks[State]):
    """The search hooks. The numbers below were set by hand, not tuned; docs/bots.md has what
    they give against the greedy bot."""

    root_placements = 3  # placements searched per patch at the root
    inner_placements = 1  # and below it,
    inner_corners = 2  # chosen among the first places (top-left first) of each orientation only
    rollout_depth = 0  # evaluate a leaf as soon as it is reached
    exploration = 0.25  # UCT constant, on win probabilities
    time_value = 1.4  # projected worth of one space of time still to spend, in points
    temperature = 6.0  # points of projected lead that make a 73% favourite

    def candidates(self, state: State, seat: int, depth: int) -> list[Action]:
        """SKIP and the best placements of each playable patch, best first."""
        keep = self.root_placements if depth == 0 else self.inner_placements
        corners_per_orientation = SQUARES if depth == 0 else self.inner_corners
        quilt, time = state.quilts[seat], state.time[seat]
        pending = state.pending[seat]
        if pending:
            patches = [(SPECIAL, pending[0])]
        else:
            buttons = state.buttons[seat]
            patches = [(PATCHES[p], p) for p in state.circle[:3] if PATCHES[p].price <= buttons]
        bonus_open = state.bonus is None
        scored: list[tuple[float, int, Action]] = []
        for p, pid in patches:
            base = purchase_value(p, pid, time)
            best: list[tuple[float, int, int, Any, int]] = []
            for k, o in enumerate(p.orientations):
                corners = fits(quilt, o)
                tried = 0
                while corners and tried < corners_per_orientation:
                    tried += 1
                    low = corners & -corners
                    corners ^= low
                    mask = o.mask * low
                    value = _fit_quality(quilt, mask)
                    if bonus_open and has_bonus_square(quilt | mask):
                        value += BONUS_POINTS / 0.6
                    item = (value, -low.bit_length(), -k, o, low)
                    if len(best) < keep:
                        heapq.heappush(best, item)
                    elif item > best[0]:
                        heapq.heapreplace(best, item)
            for value, _, _, o, low in best:
                index = low.bit_length() - 1
                scored.append((base + 0.6 * value, len(scored),
                               {"type": "play", "patch": pid, "rotation": o.rotation, "flip": o.flip,
                                "x": index % SIZE, "y": index // SIZE}))
        if not pending:
            scored.append((skip_value(time, state.time[1 - seat]), len(scored), SKIP))
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [action for _, _, action in scored]

    def solve(self, state: State, positions: int) -> tuple[list[float], Action] | None:
        """The last turns played exactly (:mod:`.endgame`): who wins with perfect play, and how."""
        return solve_endgame(state, positions)

    def rollout(self, state: State, seat: int, rng: random.Random) -> Action:
        return self.candidates(state, seat, 1)[0]

    def projection(self, state: State, seat: int) -> float:
        """The final score ``seat`` may expect: now, plus income to come, plus time's worth."""
        time = state.time[seat]
        empty = SQUARES - state.quilts[seat].bit_count() - len(state.pending[seat])
        return (state.buttons[seat] - EMPTY_PENALTY * empty + (BONUS_POINTS if state.bonus == seat else 0)
                + state.income[seat] * INCOME_AFTER[time] + self.time_value * (LAST_SPACE - time))

    def evaluate(self, state: State) -> list[float]:
        lead = self.projection(state, 0) - self.projection(state, 1)
        first = 1.0 / (1.0 + math.exp(-lead / self.temperature))
        return [first, 1.0 - first]

    def win_chance(self, state: State) -> list[float]:
        """Each player's chance of winning, fitted (``CHANCE_WEIGHTS``): what the analysis judges an
        unfinished position by, where ``evaluate`` is what the hard level chooses its moves by."""
        lead = sum(w * (a - b) for w, a, b in zip(CHANCE_WEIGHTS, seat_features(state, 0), seat_features(state, 1)))
        first = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, lead))))
        return [first, 1.0 - first]
