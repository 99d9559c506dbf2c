"""Palace for learning agents.

A play is one token: the value it is played as, how many natural cards and how many jokers it
puts down (suits never matter, and the engine lists one play per such choice). Other actions are
one token each; seats in a Cardinal swap are counted from the seat (0 the seat itself).
Cards are counted by face: ``2H`` .. ``AS`` (0-51, rank-major), joker, rules, social, cardinal.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from operator import itemgetter

import numpy as np

from ...core import Action, View
from ...games.palace.cards import AS_VALUES, FACE_BY_CODE, FACES, VALUE, VALUE_BY_NAME, value_name
from ..encoding import CatalogueCodec, EncodingError, Layout, ObservationEncoder, Tokens, relative

MAX_PLAYERS = 6
TABLE_CARDS = 3
MOST_NATURALS = 8  # two packs: eight cards of a rank
MOST_JOKERS = 4  # two packs, two jokers each
PLAYS = len(AS_VALUES) * (MOST_NATURALS + 1) * (MOST_JOKERS + 1)


# the first token of each value a play may count as
PLAY_TOKENS = {v: k * (MOST_NATURALS + 1) * (MOST_JOKERS + 1) for k, v in enumerate(AS_VALUES)}
NATURAL = {c: PLAY_TOKENS[VALUE[f]] for c, f in FACE_BY_CODE.items() if VALUE[f] in PLAY_TOKENS}  # by a card's code


class PalaceActions(CatalogueCodec):
    """Tokens ``0 .. 719`` are plays, ``(value index * 9 + naturals) * 5 + jokers``; then take, no_swap,
    flip of face-down 0-2, and swaps of two seats counted from the seat."""

    def __init__(self) -> None:
        others: list[Action] = [{"type": "take"}, {"type": "no_swap"}]
        others += [{"type": "flip", "index": i} for i in range(TABLE_CARDS)]
        others += [{"type": "swap", "seats": list(p)} for p in combinations(range(MAX_PLAYERS), 2)]
        plays = [f"play {n} {value_name(v)}{'s' if n != 1 else ''} and {j} joker{'s' if j != 1 else ''}"
                 for v in AS_VALUES for n in range(MOST_NATURALS + 1) for j in range(MOST_JOKERS + 1)]
        super().__init__([{"type": "play", "token": i} for i in range(PLAYS)] + others,
                         plays + [json_name(a) for a in others])
        self.simple = {kind: self.token({"type": kind}) for kind in ("take", "no_swap")}  # no field but the type

    def encode(self, view: View, action: Action) -> Tokens:
        if action.get("type") == "play":
            return (play_token(action),)
        if action.get("type") == "swap":
            seat, n = view["seat"], len(view["players"])
            action = {"type": "swap", "seats": sorted(relative(seat, s, n) for s in action["seats"])}
        return (self.token(action),)

    def heads(self, view: View, actions: Sequence[Action]) -> list[int]:
        """As :meth:`encode` for each action, without a call for most of them."""
        out = []
        simple = self.simple
        for action in actions:
            kind = action["type"]
            if kind == "play":
                if "as" in action:
                    out.append(play_token(action))
                else:  # natural cards only
                    cards = action["cards"]
                    out.append(NATURAL[cards[0]] + len(cards) * (MOST_JOKERS + 1))
            elif kind in simple:
                out.append(simple[kind])
            else:
                out.append(self.encode(view, action)[0])
        return out


def play_token(action: Action) -> int:
    """A play's token: the value it is played as, its natural cards and its jokers."""
    cards = action["cards"]
    jokers = cards.count("joker")
    if "as" in action:  # a play with jokers names its value
        value = VALUE_BY_NAME[action["as"]]
    elif jokers:
        raise EncodingError(f"a play with jokers names their value ('as'): {action}")
    else:
        value = VALUE[FACE_BY_CODE[cards[0]]]
    return int(PLAY_TOKENS[value] + (len(cards) - jokers) * (MOST_JOKERS + 1) + jokers)


def json_name(action: Action) -> str:
    return " ".join(str(v) for v in action.values())


PLAYER = 6
VALUES = 18  # what a card counts as: 0 (a joker not yet played) to 17 (cardinal)
# One pack of 57 cards (docs/rules/palace.md) bounds every count: at most 4 of a face, 57 cards in a
# hand or a pile (/ 20 < 3, / 30 < 2); nothing here is clipped ("exact") but the table's block.
LAYOUT = Layout([
    ("hand", FACES, "the seat's hand: how many of each face", (0.0, 4.0, "exact")),
    ("known_hands", MAX_PLAYERS * FACES, "per player from the seat (0 the seat): the faces the seat"
                                         " knows to be in that hand (picked up in sight, swapped)",
     (0.0, 4.0, "exact")),
    ("face_ups", MAX_PLAYERS * FACES, "per player from the seat: its face-up cards, by face", (0.0, 4.0, "exact")),
    ("players", MAX_PLAYERS * PLAYER, "per player from the seat: in the game, to act now, hand cards / 20,"
                                      " face-downs / 3, cards left / 30, finished (0/1)", (0.0, 3.0, "exact")),
    ("pile", FACES, "the play pile, by face", (0.0, 4.0, "exact")),
    ("pile_top", 4 * VALUES, "the top four cards of the play pile, one-hot of the value each counts as"),
    ("counts", VALUES, "one-hot: the value the next play must follow"),
    ("pile_state", 3, "cards in the play pile / 20, capped by a 9, a Rules card on top", (0.0, 3.0, "exact")),
    ("burned", FACES, "the burn pile, by face", (0.0, 4.0, "exact")),
    ("table", 6, "cards to draw / 60, direction (1 or -1), Cardinal swaps left / 2, swap with own hand"
                 " only, a turned-over joker waits to be named, players finished / 6", (-1.0, 1.0)),  # clipped: with
    # three Cardinal swaps left (3 / 2 = 1.5) were seen in six-player games, out of the old bounds
    ("swapped", 15, "pairs of seats (from the seat) already swapped this turn"),
])
PAIRS = tuple(combinations(range(MAX_PLAYERS), 2))


# the place of each card code, counted by face, in each block of faces (looked up by map: bound once)
HAND = LAYOUT.places("hand", FACE_BY_CODE).__getitem__
KNOWN = [LAYOUT.places("known_hands", FACE_BY_CODE, r * FACES).__getitem__ for r in range(MAX_PLAYERS)]
UPS = [LAYOUT.places("face_ups", FACE_BY_CODE, r * FACES).__getitem__ for r in range(MAX_PLAYERS)]
PILE = LAYOUT.places("pile", FACE_BY_CODE).__getitem__
CARD, AS_NAME = itemgetter("card"), itemgetter("as")  # of a card of the play pile
BURNED = LAYOUT["burned"].start
# the top four cards of the pile by the value they count as (0: a joker not yet played)
AS = {name: VALUE_BY_NAME.get(name, 0) for name in (*VALUE_BY_NAME, "joker")}
TOP = [LAYOUT.places("pile_top", AS, k * VALUES) for k in range(4)]
COUNTS = LAYOUT.places("counts", VALUE_BY_NAME)
NUMBERS = LAYOUT["players"].start
PILE_STATE, TABLE, SWAPPED = (LAYOUT[b].start for b in ("pile_state", "table", "swapped"))


@lru_cache(maxsize=1024)
def burned(burn_pile: tuple[str, ...]) -> np.ndarray:
    """How many cards of each face the burn pile holds. The pile only grows, a few times a round,
    and is the longest list of the view (50 cards in six-player games): each is counted once."""
    return np.bincount([FACE_BY_CODE[c] for c in burn_pile], minlength=FACES).astype(np.float32)


# the view's fields the tensor reads, fetched at once
VIEW = itemgetter("players", "to_act", "play_pile", "counts", "swapped", "burn_pile", "capped", "rules_on_top",
                  "pick_up_pile", "direction", "swaps_left", "swap_own", "revealed", "finished")
PLAYER_FIELDS = itemgetter("known_hand", "face_ups", "hand_count", "face_downs", "cards_left", "place")
# for n players and a seat: each player from the seat (r) and its seat (i)
FROM_SEAT = [[[(r, (seat + r) % n) for r in range(n)] for seat in range(n)] for n in range(MAX_PLAYERS + 1)]
# where the numbers go with n players: the players block's first n rows, then pile_state and table
NUMBERED = [np.array([*range(NUMBERS, NUMBERS + PLAYER * n), *range(PILE_STATE, PILE_STATE + 3),
                      *range(TABLE, TABLE + 6)]) for n in range(MAX_PLAYERS + 1)]


class PalaceObservation(ObservationEncoder):
    layout = LAYOUT

    def encode(self, view: View, seat: int, chosen: Tokens = ()) -> np.ndarray:
        (players, to_act, pile, counts, swapped, burn_pile, capped, rules_on_top, pick_up, direction, swaps_left,
         swap_own, revealed, finished) = VIEW(view)
        n = len(players)
        places = list(map(HAND, players[seat]["hand"]))
        numbers: list[float | bool] = []  # the players block from the seat, then pile_state and table
        for r, i in FROM_SEAT[n][seat]:
            known, ups, hand_count, face_downs, cards_left, place = PLAYER_FIELDS(players[i])
            if known:  # often empty: the map is dearer than the test
                places += map(KNOWN[r], known)
            if ups:
                places += map(UPS[r], ups)
            numbers += (1.0, i in to_act, hand_count / 20, face_downs / 3, cards_left / 30, place is not None)
        if pile:
            places += map(PILE, map(CARD, pile))
            places += map(dict.__getitem__, TOP, map(AS_NAME, reversed(pile[-4:])))
        if counts is not None:
            places.append(COUNTS[counts])
        for pair in swapped:
            places.append(SWAPPED + PAIRS.index(tuple(sorted((s - seat) % n for s in pair))))
        out = LAYOUT.counted(places)
        out[BURNED:BURNED + FACES] = burned(tuple(burn_pile))
        numbers += (len(pile) / 20, capped, rules_on_top, pick_up / 60, direction, swaps_left / 2, swap_own,
                    revealed is not None, len(finished) / 6)
        out[NUMBERED[n]] = numbers
        return out


ACTIONS = PalaceActions()
OBSERVATION = PalaceObservation()
