"""Patchwork for learning agents: one token per action, the offer's patches named by their place.

A placement is one token: which patch (the first, second or third of the offer, or the special
patch the seat must place), how it is laid (rotation and flip), and where its top-left corner
goes. Patch ids move around the circle, so a token names the patch by its place in the offer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from ...core import Action, Game, View
from ...games.patchwork.engine import LAST_SPACE, PATCHES, SIZE, SPECIAL_TIMES, SQUARES, Patchwork
from ..encoding import ActionCodec, Choices, EncodingError, Layout, ObservationEncoder, Tokens

SLOTS = ("offer 1", "offer 2", "offer 3", "special patch")
LAYS = 8  # rotation 0-3, then the same flipped
PER_SLOT = LAYS * SQUARES
SKIP = 0
SHAPE = 5  # every patch fits in 5x5


assert (4 * SQUARES, SQUARES, SIZE) == (324, 81, 9)  # the literals of PatchworkActions' heads and choices


class PatchworkActions(ActionCodec):
    """``0`` skip; ``1 + slot * 648 + (4 * flip + rotation) * 81 + y * 9 + x`` a placement."""

    size = 1 + len(SLOTS) * PER_SLOT

    def __init__(self) -> None:
        names = ["skip"]
        for slot in SLOTS:
            for lay in range(LAYS):
                for square in range(SQUARES):
                    names.append(f"play {slot} rotation {lay % 4}{' flipped' if lay >= 4 else ''}"
                                 f" at x={square % SIZE}, y={square // SIZE}")
        self.names = tuple(names)

    def encode(self, view: View, action: Action) -> Tokens:
        kind = action.get("type")
        if kind == "skip":
            return (SKIP,)
        if kind != "play":
            raise EncodingError(f"Patchwork has no action {kind!r}")
        patch = action["patch"]
        if patch < 0:
            slot = 3
        elif patch in view["offer"]:
            slot = view["offer"].index(patch)
        else:
            raise EncodingError(f"patch {patch} is not on offer")
        lay = 4 * bool(action.get("flip", False)) + action.get("rotation", 0)
        return (1 + slot * PER_SLOT + lay * SQUARES + action["y"] * SIZE + action["x"],)

    def heads(self, view: View, actions: Sequence[Action]) -> list[int]:
        """As :meth:`encode`, for the engine's own listing (every field there, flip a bool)."""
        start = self.starts(view)
        return [start[a["patch"]] + 324 * a["flip"] + 81 * a["rotation"] + 9 * a["y"] + a["x"] if len(a) > 1 else SKIP
                for a in actions]  # 324, 81, 9: a flip's, a rotation's, a row's tokens (LAYS, SQUARES, SIZE)

    def choices(self, game: Game[Any], state: Any, seat: int, view: View) -> Choices:
        """The engine's placements (each orientation's corners as bits) are the tokens of its
        actions, ``corners << token of corner 0``: the mask in a few big-integer operations and one
        pass in NumPy, where reading ~78 actions one by one costs more than the engine's listing."""
        engine = cast(Patchwork, game)  # the codec of Patchwork's actions is only ever given Patchwork
        placements = engine.placements(state, seat)
        legal = engine.placed_actions(state, seat, placements)
        start = self.starts(view)
        bases = [start[pid] + 324 * o.flip + 81 * o.rotation for pid, o, _ in placements]
        bits = 0
        listed = 0
        for base, (_, _, corners) in zip(bases, placements):
            bits |= corners << base
            listed += corners.bit_count()
        if len(legal) == listed + 1:  # SKIP, after the placements
            bits |= 1 << SKIP
        elif len(legal) != listed:
            return Choices.of(self, view, legal)
        return Placed(self, view, legal, bits, bases, [corners for _, _, corners in placements])

    @staticmethod
    def starts(view: View) -> dict[int, int]:
        """The token of each patch the seat may play, laid unturned at (0, 0)."""
        start = dict(SPECIAL_STARTS)
        for k, pid in enumerate(view["offer"]):
            start[pid] = 1 + k * PER_SLOT
        return start


SPECIAL_STARTS = {-t: 1 + 3 * PER_SLOT for t in SPECIAL_TIMES}  # special patches' ids are minus their space
MASK_BYTES = (PatchworkActions.size + 7) // 8


class Placed(Choices):
    """Patchwork's choices from the engine's placements: the mask straight from their bits, each
    action found by counting the corners listed before it; the tokens of every action (``heads``)
    only if asked for."""

    def __init__(self, codec: PatchworkActions, view: View, legal: Sequence[Action], bits: int,
                 bases: list[int], corners: list[int]) -> None:
        self.codec, self.view, self.legal, self.size = codec, view, legal, codec.size
        self.bits, self.bases, self.corners = bits, bases, corners
        self.single, self._encoded, self._by_tokens = True, None, None
        self._heads: list[int] | None = None

    @property
    def heads(self) -> list[int]:  # type: ignore[override]
        if self._heads is None:
            self._heads = self.codec.heads(self.view, self.legal)
        return self._heads

    @property
    def by_head(self) -> dict[int, Action]:  # type: ignore[override]
        return dict(zip(self.heads, self.legal))

    def mask(self, prefix: Tokens) -> np.ndarray:
        if prefix:
            return np.zeros(self.size, dtype=np.int8)
        return np.unpackbits(np.frombuffer(self.bits.to_bytes(MASK_BYTES, "little"), np.uint8),
                             bitorder="little")[:self.size].view(np.int8)

    def tokens(self, prefix: Tokens) -> list[int]:
        return self.mask(prefix).view(bool).nonzero()[0].tolist()

    def allows(self, prefix: Tokens, token: int) -> bool:
        return not prefix and self.bits >> token & 1 == 1

    def action(self, tokens: Tokens) -> Action | None:
        if len(tokens) != 1 or not self.bits >> tokens[0] & 1:
            return None
        token = tokens[0]
        index = len(self.legal) - 1  # SKIP, listed last
        if token != SKIP:
            index = 0
            for base, corners in zip(self.bases, self.corners):
                if 0 <= token - base < SQUARES and corners >> (token - base) & 1:
                    index += (corners & ((1 << (token - base)) - 1)).bit_count()
                    break
                index += corners.bit_count()
        action = self.legal[index]
        if self.codec.encode(self.view, action) != (token,):  # never so while the engine lists in placements' order
            action = self.legal[self.heads.index(token)]
        return action


PLAYER = 7
LAYOUT = Layout([
    ("quilt_self", SQUARES, "the seat's quilt, square (x, y) at y * 9 + x: 1 patched, 0 empty"),
    ("quilt_opponent", SQUARES, "the opponent's quilt, the same way"),
    ("self", PLAYER, "the seat: buttons / 50, time / 53, income / 30, empty squares / 81, holds the"
                     " 7x7 bonus (0/1), special patches to place, score / 200", (-1.0, 5.0)),
    ("opponent", PLAYER, "the opponent, the same seven numbers", (-1.0, 5.0)),
    ("turn", 3, "the seat acts now, it moved last, the opponent moved last (0/1 each)"),
    ("first_home", 2, "the seat, the opponent reached the last space first (0/1 each)"),
    ("offer_ids", 3 * len(PATCHES), "for each of the 3 offered patches, one-hot of its id (33)"),
    ("offer_numbers", 3 * 4, "for each offered patch: price / 10, time / 6, income / 3, squares / 8"),
    ("offer_shapes", 3 * SHAPE * SHAPE, "for each offered patch, its shape unturned in a 5x5 grid"),
    ("circle", len(PATCHES), "per patch id: 1 - place in the circle / 33 while it is there, else 0"),
    ("specials_left", len(SPECIAL_TIMES), "per special patch space (20, 26, 32, 44, 50): still there"),
])


def _shape_grid(pid: int) -> list[float]:
    """The patch's shape unturned, in a 5x5 grid row by row: 1.0 where it has a square."""
    rows = PATCHES[pid].orientations[0].rows
    return [float(y < len(rows) and x < len(rows[y]) and rows[y][x] == "O") for y in range(SHAPE) for x in range(SHAPE)]


def _offered(k: int, pid: int) -> np.ndarray:
    """The offer's three blocks (ids, numbers, shapes) as they are when patch ``pid`` is its ``k``-th
    patch and there is no other: the offer is the sum of its patches'."""
    ids, numbers, shapes = (LAYOUT[b].start - LAYOUT["offer_ids"].start
                            for b in ("offer_ids", "offer_numbers", "offer_shapes"))
    p = PATCHES[pid]
    block = np.zeros(OFFER_SIZE, dtype=np.float32)
    block[ids + k * len(PATCHES) + pid] = 1.0
    block[numbers + 4 * k:numbers + 4 * k + 4] = (p.price / 10, p.time / 6, p.income / 3, p.size / 8)
    block[shapes + k * SHAPE * SHAPE:shapes + (k + 1) * SHAPE * SHAPE] = _shape_grid(pid)
    return block


OFFER, OFFER_SIZE = LAYOUT["offer_ids"].start, LAYOUT["offer_shapes"].stop - LAYOUT["offer_ids"].start
OFFERED = tuple(tuple(_offered(k, p.id) for p in PATCHES) for k in range(3))
PATCHED = bytes.maketrans(b"O.", b"\x01\x00")  # the view's quilt rows: 1 patched, 0 empty
PLACES = 1 - np.arange(len(PATCHES), dtype=np.float32) / len(PATCHES)  # the circle's places, first 1
QUILTS, NUMBERS, CIRCLE = LAYOUT["quilt_self"].start, LAYOUT["self"].start, LAYOUT["circle"].start
SPECIALS_LEFT = LAYOUT.places("specials_left", {t: i for i, t in enumerate(SPECIAL_TIMES)})


class PatchworkObservation(ObservationEncoder):
    layout = LAYOUT

    def encode(self, view: View, seat: int, chosen: Tokens = ()) -> np.ndarray:
        out = LAYOUT.zeros()
        me, other = view["players"][seat], view["players"][1 - seat]
        quilts = ("".join(me["quilt"]) + "".join(other["quilt"])).encode().translate(PATCHED)
        out[QUILTS:QUILTS + 2 * SQUARES] = np.frombuffer(quilts, dtype=np.uint8)
        mover, home = view["last_mover"], view["first_home"]
        # self, opponent, turn and first_home follow each other
        out[NUMBERS:NUMBERS + 2 * PLAYER + 5] = (
            me["buttons"] / 50, me["time"] / LAST_SPACE, me["income"] / 30, me["empty"] / SQUARES, me["bonus"],
            len(me["special_patches"]), me["score"] / 200,
            other["buttons"] / 50, other["time"] / LAST_SPACE, other["income"] / 30, other["empty"] / SQUARES,
            other["bonus"], len(other["special_patches"]), other["score"] / 200,
            seat in view["to_act"], mover == seat, mover == 1 - seat, home == seat, home is not None and home != seat)
        offer = view["offer"]
        if offer:
            block = OFFERED[0][offer[0]]
            for k in range(1, len(offer)):
                block = block + OFFERED[k][offer[k]]
            out[OFFER:OFFER + OFFER_SIZE] = block
        circle = view["circle"]
        out[CIRCLE:CIRCLE + len(PATCHES)][np.fromiter(circle, np.intp, len(circle))] = PLACES[:len(circle)]
        for t in view["specials_left"]:
            out[SPECIALS_LEFT[t]] = 1.0
        return out


ACTIONS = PatchworkActions()
OBSERVATION = PatchworkObservation()
