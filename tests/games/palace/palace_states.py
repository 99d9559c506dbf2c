"""Build Palace situations directly from card codes, for scenario tests."""

from __future__ import annotations

from parlour.games import get
from parlour.games.palace.cards import FACE_BY_CODE, ID_FACE, PACK_SIZE, VALUE, VALUE_BY_NAME, packs_for, sort_ids
from parlour.games.palace.engine import EDITION, State

GAME = get("palace")
TAKE = {"type": "take"}
NO_SWAP = {"type": "no_swap"}
# hands for seats 1 to 3 of four that hold no 5 (make's own fill them with 4s, 5s and 6s)
NO_FIVES = [["4D", "6D", "9D"], ["4C", "6C", "9C"], ["4H", "6H", "9H"]]


def play(*cards: str, as_: str | None = None) -> dict:
    action = {"type": "play", "cards": list(cards)}
    if as_ is not None:
        action["as"] = as_
    return action


def flip(index: int = 0) -> dict:
    return {"type": "flip", "index": index}


def swap(a: int, b: int) -> dict:
    return {"type": "swap", "seats": [a, b]}


def make(players: int = 3, *, hands=None, face_ups=None, face_downs=None, pick_up=(), pile=(), burned=(),
         current: int = 0, direction: int = 1, detour: int | None = None, finished=(), swaps_left: int = 0,
         swap_own: bool = False, swapped=(), complete: bool = False, edition: int = EDITION) -> State:
    """A state from card codes. Seats not given hold a hand of a 4, a 5 and a 6, one face-up and
    one face-down court card, so nobody goes out by accident. ``pile`` entries are codes, or
    'joker=K' for a joker played as a King. Cards named nowhere are simply not in the game, or
    with ``complete`` lie on the burn pile (so that the state accounts for every card)."""
    free: dict[int, list[int]] = {}
    for i in range(PACK_SIZE * packs_for(players)):
        free.setdefault(ID_FACE[i], []).append(i)

    def ids(cards) -> list[int]:
        out = []
        for c in cards:
            pool = free[FACE_BY_CODE[c]]
            assert pool, f"no {c} left in the packs"
            out.append(pool.pop(0))
        return out

    def any_of(*ranks: str) -> int:
        for rank in ranks:
            for suit in "HDCS":
                if free[FACE_BY_CODE[rank + suit]]:
                    return free[FACE_BY_CODE[rank + suit]].pop(0)
        raise AssertionError(f"no {ranks} left")

    named_hands = [ids(h) for h in (hands or [])]
    named_ups = [ids(f) for f in (face_ups or [])]
    named_downs = [ids(f) for f in (face_downs or [])]
    pile_entries = []
    for entry in pile:
        card, _, as_name = entry.partition("=")
        (i,) = ids([card])
        pile_entries.append((i, VALUE_BY_NAME[as_name] if as_name else VALUE[ID_FACE[i]]))
    rest = (ids(pick_up), ids(burned))
    all_hands = named_hands + [[any_of("4", "5", "6"), any_of("5", "6", "4"), any_of("6", "4", "5")]
                               for _ in range(players - len(named_hands))]
    all_ups = named_ups + [[any_of("K", "Q", "J", "A")] for _ in range(players - len(named_ups))]
    all_downs = named_downs + [[any_of("J", "Q", "K", "A")] for _ in range(players - len(named_downs))]
    known = tuple(tuple(() for _ in range(players)) for _ in range(players + 1))
    if complete:
        rest = (rest[0], rest[1] + sorted(i for pool in free.values() for i in pool))
    return State(tuple(sort_ids(h) for h in all_hands), tuple(sort_ids(f) for f in all_ups),
                 tuple(tuple(f) for f in all_downs), tuple(rest[0]), tuple(pile_entries), tuple(rest[1]),
                 direction, current, detour, swaps_left, swap_own, tuple(tuple(p) for p in swapped), None,
                 tuple(finished), known, (), 0, edition)


def hand(state: State, seat: int) -> list[str]:
    return GAME.view(state, seat)["players"][seat]["hand"]


def pile(state: State) -> list[str]:
    return [p["card"] for p in GAME.view(state, None)["play_pile"]]


def face_ups(state: State, seat: int) -> list[str]:
    return GAME.view(state, None)["players"][seat]["face_ups"]


def nxt(state: State) -> int | None:
    return state.current
