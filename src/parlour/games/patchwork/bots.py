"""Patchwork's heuristic player."""

from __future__ import annotations

from ...core import Action, Bot, View
from .engine import FULL, INCOME_TIMES, LAST_SPACE, PATCHES, SIZE, SPECIAL, Patch, fits, has_bonus_square

_LEFT_EDGE = sum(1 << (y * SIZE) for y in range(SIZE))
_RIGHT_EDGE = _LEFT_EDGE << (SIZE - 1)


def _adjacent(mask: int) -> int:
    """Squares orthogonally next to a square of ``mask`` (which may themselves be in it)."""
    return (((mask << 1) & ~_LEFT_EDGE) | ((mask >> 1) & ~_RIGHT_EDGE) | (mask << SIZE) | (mask >> SIZE)) & FULL


SQUARES_MINUS_ROW = SIZE * (SIZE - 1)


def _fit_quality(quilt: int, mask: int) -> float:
    """Higher for a snug placement: sides touching patches or the border, few isolated holes."""
    after = quilt | mask
    empty = FULL & ~after
    # sides of the new patch that touch the border or an existing patch
    border = ((mask & _LEFT_EDGE).bit_count() + (mask & _RIGHT_EDGE).bit_count()
              + (mask & ((1 << SIZE) - 1)).bit_count() + (mask >> SQUARES_MINUS_ROW).bit_count())
    touching = (_adjacent(mask) & quilt).bit_count()
    # empty squares with no empty neighbour can only be filled by a special patch
    lonely = (empty & ~_adjacent(empty)).bit_count()
    return border + touching - 3.0 * lonely


def purchase_value(p: Patch, pid: int, time: int) -> float:
    """What buying ``p`` at ``time`` is worth before placing it: squares covered, income for the
    paydays still ahead, buttons and time spent (shared with the search bot's hooks)."""
    end = min(time + p.time, LAST_SPACE)
    paydays = sum(1 for t in INCOME_TIMES if t > end)
    base = (2 * p.size + p.income * (paydays + sum(1 for t in INCOME_TIMES if time < t <= end))
            - p.price - (end - time))
    # early in the game cheap small patches waste space that big ones would fill better
    if pid >= 0 and time < 20:
        base += 0.3 * p.size
    return base


def skip_value(time: int, opponent_time: int) -> float:
    """What SKIP is worth on the same scale: a button a space, less a little for the lost tempo."""
    return (min(opponent_time + 1, LAST_SPACE) - time) * 1.0 - 0.5


class GreedyBot(Bot):
    """Weighs each purchase now: squares covered, income for the paydays still ahead, buttons and
    time spent, and how snugly the patch packs into the quilt. A fair opponent for a newcomer."""

    name = "greedy"

    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        me = view["players"][seat]
        quilt = sum(1 << (y * SIZE + x) for y, row in enumerate(me["quilt"]) for x, ch in enumerate(row)
                    if ch == "O")
        time, buttons = me["time"], me["buttons"]
        opponent_time = view["players"][1 - seat]["time"]
        best: Action | None = None
        best_value = float("-inf")
        bonus_open = not any(player["bonus"] for player in view["players"])
        if me["special_patches"]:
            candidates = [(SPECIAL, me["special_patches"][0])]
        else:
            candidates = [(PATCHES[p], p) for p in view["offer"] if PATCHES[p].price <= buttons]
        for p, pid in candidates:
            base = purchase_value(p, pid, time)
            for o in p.orientations:
                corners = fits(quilt, o)
                while corners:
                    low = corners & -corners
                    corners ^= low
                    mask = o.mask * low
                    value = base + 0.6 * _fit_quality(quilt, mask)
                    if bonus_open and has_bonus_square(quilt | mask):
                        value += 7
                    if value > best_value:
                        index = low.bit_length() - 1
                        best_value = value
                        best = {"type": "play", "patch": pid, "rotation": o.rotation, "flip": o.flip,
                                "x": index % SIZE, "y": index // SIZE}
        if not me["special_patches"] and (best is None or skip_value(time, opponent_time) > best_value):
            return {"type": "skip"}
        assert best is not None, "a seat holding a special patch always has a free square"
        return best


class BeginnerBot(Bot):
    """Buys a patch it can afford, any of them alike, and lays it in the first place it fits,
    top-left first; skips only when it can buy nothing."""

    name = "beginner"

    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        plays = [a for a in legal if a["type"] == "play"]
        if not plays:
            return legal[0]
        patch = self.rng.choice(sorted({a["patch"] for a in plays}))
        return min((a for a in plays if a["patch"] == patch),
                   key=lambda a: (a["y"], a["x"], a["rotation"], a["flip"]))
