"""Exact play of Patchwork's last turns: who wins with perfect play from both sides, found by a
search of every legal move (every place of every patch, SKIP, every square for a special patch) to
the end of the game, scored as the rules score it (the 7x7 bonus, the tie won by whoever came home
first), and bounded by a number of positions, not by the clock: the same position gives the same
answer on any machine.

Patchwork hides nothing and has no dice, so a position is won or lost; near the end only a few
turns remain, and the search's estimates (a projected score, a fitted chance of winning) can be
wrong there in ways a few turns of exact play are not: which patch is still affordable, which one
still fits, who reaches the special patch, whose token comes home first.

>>> state = Patchwork().start(2, {}, seed=1)
>>> solve(state, positions=1000) is None  # the whole game: far too long
True
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...core import Action
from .engine import (
    FULL,
    LAST_SPACE,
    PATCHES,
    SIZE,
    SPECIAL,
    Patchwork,
    Placement,
    State,
    fits,
    score,
)

# How far from the end a position may be (the spaces both tokens still have to go) for the search
# to be tried: beyond it a few thousand positions never settle who wins (measured: 15 spaces left,
# 9,000 positions; 18, 360,000; 20, millions).
MAX_SPACES_LEFT = 18
_RULES = Patchwork()  # the rules, to advance positions by (no bots or levels needed)


class _OutOfBudget(Exception):
    """The search visited more positions than it may."""


def solve(state: State, positions: int) -> tuple[list[float], Action] | None:
    """Each seat's value of ``state`` with perfect play (1 for the winner, 0 for the other) and a
    move of the seat to act that keeps its value (the first that wins, SKIP first, if it wins at
    all), or None when more than ``positions`` positions would be visited, or the game is still too
    long (``MAX_SPACES_LEFT``). Patchwork's search hook ``solve`` (docs/bots.md)."""
    mover = state.mover
    if mover is None or spaces_left(state) > MAX_SPACES_LEFT:
        return None
    search = Endgame(positions)
    found = search.best(state)
    if found is None:
        return None
    winner, placement = found
    values = [1.0 if seat == winner else 0.0 for seat in (0, 1)]
    if placement is None:
        return values, {"type": "skip"}
    _, pid, o, x, y, _ = placement
    return values, {"type": "play", "patch": pid, "rotation": o.rotation, "flip": o.flip, "x": x, "y": y}


class Endgame:
    """Who wins a position with perfect play, found within ``positions`` positions visited or not
    at all. Positions solved are remembered (by this object only), so a second question about the
    same endgame costs less."""

    def __init__(self, positions: int) -> None:
        self.positions = positions
        self.visited = 0  # positions visited by the last question
        self._table: dict[tuple[Any, ...], int] = {}
        # how often each move (seat, patch, squares) won a position: tried first elsewhere (the
        # "history heuristic"; it halves the positions visited in the endgames measured)
        self._history: dict[tuple[int, int, int], int] = {}
        self._left = 0

    def winner(self, state: State) -> int | None:
        """The seat that wins from ``state`` with perfect play, or None if finding out takes more
        than the budget of positions."""
        found = self.best(state)
        return None if found is None else found[0]

    def best(self, state: State) -> tuple[int, Placement | None] | None:
        """The winner from ``state`` (its seat to act) and the first move of the seat to act that
        wins (or, when it loses, its first move), or None past the budget."""
        mover = state.mover
        assert mover is not None, "the game is over"
        self._left = self.positions
        try:
            moves = list(self.moves(state, mover))
            for placement in moves:
                if self._winner(_RULES.advance(state, mover, placement)) == mover:
                    return mover, placement
            return 1 - mover, moves[0]
        except _OutOfBudget:
            return None
        finally:
            self.visited = self.positions - max(self._left, 0)

    def moves(self, state: State, seat: int) -> Iterator[Placement | None]:
        """``seat``'s legal moves in ``state`` as :meth:`Patchwork.advance` takes them (None: SKIP):
        SKIP first, then each patch it may buy in every distinct place, the pending special patch
        alone when it holds one."""
        quilt = state.quilts[seat]
        pending = state.pending[seat]
        if pending:
            empty = FULL & ~quilt
            o = SPECIAL.orientations[0]
            while empty:
                low = empty & -empty
                empty ^= low
                index = low.bit_length() - 1
                yield SPECIAL, pending[0], o, index % SIZE, index // SIZE, low
            return
        yield None
        buttons = state.buttons[seat]
        for pid in state.circle[:3]:
            p = PATCHES[pid]
            if p.price > buttons:
                continue
            for o in p.orientations:
                corners = fits(quilt, o)
                while corners:
                    low = corners & -corners
                    corners ^= low
                    index = low.bit_length() - 1
                    yield p, pid, o, index % SIZE, index // SIZE, o.mask * low

    def _winner(self, state: State) -> int:
        mover = state.mover
        if mover is None:
            return _final_winner(state)
        key = (state.circle, state.quilts, state.buttons, state.time, state.income, state.pending,
               state.specials_left, state.bonus, state.first_home, state.last)
        known = self._table.get(key)
        if known is not None:
            return known
        self._left -= 1
        if self._left < 0:
            raise _OutOfBudget
        advance, history = _RULES.advance, self._history
        found = 1 - mover
        moves = list(self.moves(state, mover))
        if history:
            moves.sort(key=lambda p: -history.get(_move_key(mover, p), 0))
        for placement in moves:
            if self._winner(advance(state, mover, placement)) == mover:
                found = mover
                move = _move_key(mover, placement)
                history[move] = history.get(move, 0) + 1
                break
        self._table[key] = found
        return found


def _move_key(seat: int, placement: Placement | None) -> tuple[int, int, int]:
    """A move as the history heuristic knows it: the seat, the patch and the squares it covers."""
    return (seat, 0, 0) if placement is None else (seat, placement[1], placement[5])


def _final_winner(state: State) -> int:
    """The winner of a finished game: the higher score, or on equal scores whoever came home first."""
    first, second = score(state, 0), score(state, 1)
    if first != second:
        return 0 if first > second else 1
    return state.first_home if state.first_home is not None else 0


def spaces_left(state: State) -> int:
    """The spaces both tokens still have to go: a measure of how long the game may still last."""
    return 2 * LAST_SPACE - state.time[0] - state.time[1]
