"""Prestige Cities' heuristic player."""

from __future__ import annotations

from typing import Any

from ...core import Action, Bot, View
from .engine import (
    BLIGHT,
    BLOCK_INDEX,
    BLOCKS,
    COLS,
    INNER,
    RESIDENTIAL,
    City,
    bit,
    category_scores,
    city_from_rows,
    neighbours,
)


def _value(city: City, ocean: bool) -> float:
    """How good a city looks: the overall score (two lowest categories), plus a little of the
    highest one, so that growth which does not yet count is still preferred to none."""
    c, w, h = category_scores(city, ocean)
    return c + w + h - max(c, w, h) + 0.3 * (c + w + h) - 0.05 * _stranded(city)


def _stranded(city: City) -> int:
    """Empty squares with no empty neighbour: only a 1 or a Golden Age can fill them."""
    taken = city[0] | city[1] | city[2] | city[3] | city[4] | city[5]
    empty = ((1 << (9 * COLS)) - 1) & ~taken
    return (empty & ~neighbours(empty)).bit_count()


def _with(city: City, block: int, square: int) -> City:
    """``city`` with ``square`` made a block of ``block`` (whatever was there before is replaced)."""
    masks = [m & ~square for m in city]
    masks[block] |= square
    return tuple(masks)


def _without(city: City, square: int) -> City:
    return tuple(m & ~square for m in city)


def _square(action: Action) -> int:
    return bit(action["row"], action["col"])


class GreedyBot(Bot):
    """Plans each placement to raise its own overall score: for every die it may use, it grows the
    best group one block at a time from its few most promising first squares and keeps the die and
    start whose group ends best. It removes what hurts its target most, puts Blight where it hurts
    least and converts only blocks that pay."""

    name = "greedy"
    starts = 6  # first squares tried to the end for each die

    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        ocean = view["options"]["ocean"]
        self._terrain = sum(bit(r, c) for r, c in view["board"]["mountains"])
        me = city_from_rows(view["cities"][seat]["rows"])
        task = view["task"] or {}
        kind = task.get("kind")
        if kind == "remove":
            target = city_from_rows(view["cities"][task["target"]]["rows"])
            for r, c in task["group"]:
                target = _without(target, bit(r, c))
            return min(legal, key=lambda a: (_value(_without(target, _square(a)), ocean), a["row"], a["col"]))
        if kind == "blight":
            return max(legal, key=lambda a: (self._worth(_with(me, BLIGHT, _square(a)), ocean), -a["row"], -a["col"]))
        if kind == "convert":
            to = BLOCK_INDEX[task["to"]]
            now = self._worth(me, ocean)
            squares = [a for a in legal if a["type"] == "convert"]
            best = max(squares, key=lambda a: self._worth(_with(me, to, _square(a)), ocean), default=None)
            if best is not None and self._worth(_with(me, to, _square(best)), ocean) > now:
                return best
            return {"type": "stop"}
        if kind == "pick":
            return self._pick(me, task, legal, ocean)
        # a group under way, a Golden Age block, a bonus card's blocks: the best next block now
        builds = [a for a in legal if a["type"] == "build"]
        best = max(builds, key=lambda a: (self._gain(me, a, ocean), -a["row"], -a["col"]))
        if len(builds) < len(legal) and self._gain(me, best, ocean) <= self._worth(me, ocean):
            return {"type": "stop"}  # a bonus card's blocks may be declined: only those that pay
        return best

    def _gain(self, city: City, action: Action, ocean: bool) -> float:
        block = BLOCK_INDEX[action["block"]]
        square = _square(action)
        after = _with(city, block, square)
        value = self._worth(after, ocean)
        # where a block counts later: Culture and Commerce inside, Industry away from homes
        if block in (BLOCK_INDEX["culture"], BLOCK_INDEX["commerce"]) and square & INNER:
            value += 0.2
        if block == BLOCK_INDEX["industry"] and square & neighbours(city[RESIDENTIAL]):
            value -= 0.2
        return value

    def _pick(self, city: City, task: dict[str, Any], legal: list[Action], ocean: bool) -> Action:
        counts = {c["block"]: c["count"] for c in task["choices"]}
        by_block: dict[str, list[Action]] = {}
        for action in legal:
            by_block.setdefault(action["block"], []).append(action)
        ranked = [sorted(firsts, key=lambda a: -self._gain(city, a, ocean))[:self.starts]
                  for firsts in by_block.values()]
        best: tuple[float, int, Action] | None = None
        # the best start of every die first, then the second best...: a bot in a hurry stops early
        for k in range(self.starts):
            if k and self._hurry():
                break
            for die, firsts in enumerate(ranked):
                if k < len(firsts):
                    first = firsts[k]
                    value = self._grow(city, BLOCK_INDEX[first["block"]], _square(first), counts[first["block"]], ocean)
                    item = (value, -(die * self.starts + k), first)  # ties: the earlier die, the better start
                    if best is None or item[:2] > best[:2]:
                        best = item
        assert best is not None
        return best[2]

    def _hurry(self) -> bool:
        """Whether to stop trying more first squares (the greedy bot never hurries)."""
        return False

    def _grow(self, city: City, block: int, first: int, count: int, ocean: bool) -> float:
        """The value of the city after greedily growing a group of ``count`` from ``first``."""
        group = first
        city = _with(city, block, first)
        taken = city[0] | city[1] | city[2] | city[3] | city[4] | city[5]
        for _ in range(count - 1):
            options = neighbours(group) & ~taken & ((1 << (9 * COLS)) - 1)
            if block != RESIDENTIAL:
                options &= ~self._terrain
            best_value, best_square = None, 0
            while options:
                square = options & -options
                options ^= square
                value = self._gain(city, {"block": BLOCKS[block], "row": (square.bit_length() - 1) // COLS,
                                          "col": (square.bit_length() - 1) % COLS}, ocean)
                if best_value is None or value > best_value:
                    best_value, best_square = value, square
            if not best_square:
                break
            group |= best_square
            taken |= best_square
            city = _with(city, block, best_square)
        return self._worth(city, ocean)

    def _worth(self, city: City, ocean: bool) -> float:
        """How good this seat's own city looks (the search bot adds the bonus cards)."""
        return _value(city, ocean)

    _terrain = 0  # the mountains, read from each view


class PlannerlessBot(GreedyBot):
    """Takes any die it may use, lays each block where it raises its score most right now, with no
    plan for the rest of the group, and never converts: a first city."""

    name = "plannerless"

    def _pick(self, city: City, task: dict[str, Any], legal: list[Action], ocean: bool) -> Action:
        block = self.rng.choice(sorted({a["block"] for a in legal}))
        return max((a for a in legal if a["block"] == block),
                   key=lambda a: (self._gain(city, a, ocean), -a["row"], -a["col"]))

    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        task = view["task"] or {}
        if task.get("kind") == "convert":
            return next((a for a in legal if a["type"] == "stop"), legal[0])
        return super().choose(view, seat, legal)
