"""Palace's end for a game going round in circles (docs/rules/palace.md, rules edition 4).

A forced take can bring a game back to a position it was in before, and bots (or people) can then
play the same round for ever: easy bots did in 6 of 60 games. From edition 4 a position that comes
up for the third time ends the game, and the players still holding cards are placed after those
out, by how many cards they have left (fewest first; equal counts share a place).

Positions can repeat only while nothing leaves play for good (no card is drawn, burned or played
from the face-ups or face-downs, and nobody goes out): each state keeps the positions since the
last such progress, which are few in a game that moves on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

State = Any  # the engine's State (this module is below the engine, which imports it)

REPETITION_ENDS = 4  # the rules edition from which a repeated position ends the game
REPEATS = 3  # the time a position comes up that ends it

Position = tuple[Any, ...]
# What a position is: everything of a state but what the last action did (and the progress, which
# cannot change while positions repeat). Each is (field, how a JSON value of it is made a tuple again).
_FIELDS = ("hands", "face_ups", "face_downs", "pile", "direction", "current", "detour", "swaps_left", "swap_own",
           "swapped", "revealed", "known")


def position(state: State) -> Position:
    return tuple(getattr(state, name) for name in _FIELDS)


def progress(state: State) -> tuple[int, ...]:
    """What only ever moves one way: once it changes, no earlier position can come back."""
    return (len(state.pick_up), len(state.burned), len(state.finished), sum(map(len, state.face_ups)),
            sum(map(len, state.face_downs)))


class Seen:
    """The positions since the last progress, oldest first, with their hashes (made in this process,
    so never written out) to count them quickly."""

    __slots__ = ("hashes", "positions")

    def __init__(self, positions: tuple[Position, ...] = (), hashes: tuple[int, ...] | None = None) -> None:
        self.positions = positions
        self.hashes = tuple(map(hash, positions)) if hashes is None else hashes

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Seen) and self.positions == other.positions

    def __hash__(self) -> int:
        return hash(self.hashes)

    def __bool__(self) -> bool:
        return bool(self.positions)

    def after(self, before: State, state: State) -> Seen:
        """These positions with ``state``'s, or only it after progress since ``before``."""
        here = position(state)
        if progress(before) != progress(state):
            return Seen((here,))
        return Seen((*self.positions, here), (*self.hashes, hash(here)))

    def repeated(self) -> bool:
        """Whether the newest position has now come up for the ``REPEATS``-th time."""
        if not self.hashes or self.hashes.count(self.hashes[-1]) < REPEATS:
            return False
        newest, mark = self.positions[-1], self.hashes[-1]
        return sum(1 for h, p in zip(self.hashes, self.positions) if h == mark and p == newest) >= REPEATS


NOTHING_SEEN = Seen()


def standing(state: State) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Each seat's place (1 first) and score (how many players placed after it): those out in the
    order they went out, then the rest by cards left, fewest first, equal counts sharing a place."""
    n = state.players
    left = [len(state.hands[s]) + len(state.face_ups[s]) + len(state.face_downs[s]) for s in range(n)]
    out = {s: k for k, s in enumerate(state.finished)}
    key = [(0, out[s]) if s in out else (1, left[s]) for s in range(n)]
    places = tuple(1 + sum(1 for other in key if other < key[s]) for s in range(n))
    scores = tuple(float(sum(1 for other in places if other > places[s])) for s in range(n))
    return places, scores


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def seen_to_json(seen: Seen) -> list[Any]:
    def lists(value: Any) -> Any:
        return [lists(v) for v in value] if isinstance(value, tuple) else value

    return [lists(p) for p in seen.positions]


def seen_from_json(data: Sequence[Any]) -> Seen:
    return Seen(tuple(_tuples(p) for p in data)) if data else NOTHING_SEEN
