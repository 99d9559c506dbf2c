"""Build Patchwork situations directly, for scenario tests."""

from __future__ import annotations

from parlour.games import get
from parlour.games.patchwork.engine import FULL, SIZE, SPECIAL_TIMES, State

GAME = get("patchwork")


def make_state(*, circle: tuple[int, ...] = tuple(range(33)), quilts: tuple[int, int] = (0, 0),
               buttons: tuple[int, int] = (5, 5), time: tuple[int, int] = (0, 0),
               income: tuple[int, int] = (0, 0), pending: tuple[tuple[int, ...], ...] = ((), ()),
               specials_left: tuple[int, ...] = SPECIAL_TIMES, bonus: int | None = None, last: int = 0,
               first_home: int | None = None, placed: tuple[tuple, tuple] = ((), ())) -> State:
    """A state with the given pieces; the rest as at the start of a game with the circle in id order."""
    return State(tuple(circle), tuple(quilts), tuple(buttons), tuple(time), tuple(income),
                 tuple(tuple(p) for p in pending), tuple(specials_left), bonus, last, first_home,
                 tuple(placed))


def bit(x: int, y: int) -> int:
    return 1 << (y * SIZE + x)


def squares(quilt: int) -> set[tuple[int, int]]:
    """The patched squares of ``quilt`` as (x, y)."""
    return {(i % SIZE, i // SIZE) for i in range(SIZE * SIZE) if quilt >> i & 1}


def picture(*rows: str, x: int = 0, y: int = 0) -> set[tuple[int, int]]:
    """The squares marked 'O' in ``rows``, drawn with their top-left corner at (x, y)."""
    return {(x + c, y + r) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "O"}


def full_except(*free: tuple[int, int]) -> int:
    """A quilt with every square patched except ``free``."""
    quilt = FULL
    for x, y in free:
        quilt &= ~bit(x, y)
    return quilt


def play(patch: int, x: int, y: int, rotation: int = 0, flip: bool = False) -> dict:
    return {"type": "play", "patch": patch, "rotation": rotation, "flip": flip, "x": x, "y": y}


SKIP = {"type": "skip"}
