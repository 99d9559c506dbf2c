"""Palace's hooks for the generic search bot (``parlour.bots.mcts``).

Flat Monte Carlo: each of the seat's actions is tried on guesses at the unseen cards (the
pick-up pile, face-downs, the unknown part of others' hands: ``game.sample``) and played on by the
shark for every seat, each from its own view of the guess, for a few turns; then each seat's
chance of going out first is estimated (``evaluate``): a conditional logit over the seats still in,
whose weights on what each holds (``seat_features``) were fitted to who went out first in games of
sharks (``parlour.games.palace.fitting``). Only going out first counts: the search plays to win,
not to finish high.
"""

from __future__ import annotations

import random

from ...bots.mcts import softmax, winner_values
from ...core import Action, SearchHooks
from .bots import JOKER_KEEP, KEEP, SharkBot
from .cards import ANYWHERE, ID_FACE, ID_VALUE, JOKER, JOKER_VALUE
from .engine import _FOLLOWERS, State, _step, situation

# what each card id is worth keeping for later, on the shark's scale
_KEEP_BY_ID = tuple(JOKER_KEEP if face == JOKER else KEEP.get(value, 0.0) for face, value in zip(ID_FACE, ID_VALUE))
# the cards that go on (nearly) anything or burn: 2, 3, 7, 10, the school cards, jokers
_SPECIAL = tuple(value in ANYWHERE or value in (10, JOKER_VALUE) for value in ID_VALUE)
_WEAK = tuple(not special and 4 <= value <= 9 for special, value in zip(_SPECIAL, ID_VALUE))

FEATURES = ("hand", "face_ups", "face_downs", "keep_hand", "keep_face_ups", "weak", "special", "to_move",
            "stuck_pile", "next", "hand_no_pick_up", "left_1", "left_2", "left_3", "left_squared")
# The weights of FEATURES in a seat's score (its chance of going out first is the softmax of the
# scores of the seats still in), fitted by ``python -m parlour.games.palace.fitting`` to who went out
# first from positions of shark games (``--players 4 --games 20000 --seed 100000``: 436,236
# positions of four-player games fitted, the 109,060 after them tested: log-loss 1.169, against
# 1.246 for a softmax of the old burden at its best temperature and 1.386 for even odds). Every
# player count uses them (in-process, two players: 91.0% against the shark over 200 games at 8
# guesses a move, against 88.5% with the old judgement; docs/bots.md).
WEIGHTS = (-0.2314, -0.7829, -0.7198, 0.0252, 0.1054, -0.0425, -0.0982, 0.1646,
           -0.0884, 0.0384, -0.0403, 0.4604, 0.1283, 0.2244, 0.1241)


def seat_features(state: State, seat: int, next_seat: int | None, allowed: frozenset[int]) -> tuple[float, ...]:
    """What ``seat`` holds, as FEATURES: its cards by where they are, what its special and plain
    cards are worth, whether it is to move (and then, if it cannot play, the pile it must take) or
    next, and how close it is to going out. ``allowed`` is what may follow on the play pile."""
    hand, ups, downs = state.hands[seat], state.face_ups[seat], state.face_downs[seat]
    held = hand + ups
    left = len(held) + len(downs)
    moving = seat == state.current
    main = hand or ups
    stuck = moving and bool(main) and not any(ID_VALUE[i] in allowed or ID_VALUE[i] == JOKER_VALUE for i in main)
    return (len(hand), len(ups), len(downs), sum(_KEEP_BY_ID[i] for i in hand), sum(_KEEP_BY_ID[i] for i in ups),
            sum(_WEAK[i] for i in held), sum(_SPECIAL[i] for i in held), float(moving),
            len(state.pile) if stuck else 0, float(seat == next_seat and not moving),
            0 if state.pick_up else len(hand), float(left <= 1), float(left <= 2), float(left <= 3),
            min(left, 20) ** 2 / 20)


def next_and_allowed(state: State) -> tuple[int | None, frozenset[int]]:
    """The seat after the one to move, and what may follow on the play pile (for seat_features)."""
    following = None
    if state.current is not None:
        following = _step(state.finished, state.players, state.current, state.direction, 1)
    return following, _FOLLOWERS[situation(state.pile, state.edition)]


class PalaceSearch(SearchHooks[State]):
    playout_bot = "medium"  # the shark plays every seat in the playouts
    tree_depth = 1
    time_share = 0.7  # of what it is told of a turn: its longest turn about half the limit when quiet; a
    # busy machine shrinks it (docs/bots.md)
    moves_per_player = 4  # playout moves a seat still in before the position is judged, 16 at least
    exploration = 0.4
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
        """4 moves a seat still in, but 8 with two: with four players 4 moves a seat do as well as 8
        at the same number of guesses, and make twice as many (docs/bots.md)."""
        return max(16, self.moves_per_player * (state.players - len(state.finished)))

    def evaluate(self, state: State) -> list[float]:
        """Each seat's chance of going out first: 1 or 0 once somebody has, else the softmax of
        the seats' scores (WEIGHTS) over those still in."""
        n = state.players
        if state.finished:
            return [float(s == state.finished[0]) for s in range(n)]
        following, allowed = next_and_allowed(state)
        return softmax([sum(w * x for w, x in zip(WEIGHTS, seat_features(state, s, following, allowed)))
                        for s in range(n)])

    result_values = staticmethod(winner_values)  # only going out first counts
