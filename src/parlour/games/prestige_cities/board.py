"""Prestige Cities' board: the facts of the city and its blocks, a city as six bitboards, and the
connected groups of squares that placements, catastrophes and scores are made of.

A city is six bitboards, one per block type (Industry, Commerce, Residential, Culture, Parks,
Blight): square (row, col) is bit ``row * 8 + col``. Mountains (an expansion) are terrain common to
every city, kept apart from the blocks, so a Residential block built over a mountain is a bit of
both.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources

DATA = json.loads(resources.files(__package__).joinpath("prestige_cities.json").read_text())
ROWS: int = DATA["board"]["rows"]
COLS: int = DATA["board"]["cols"]
SQUARES = ROWS * COLS
FULL = (1 << SQUARES) - 1
# industry, commerce, residential, culture, parks, blight
BLOCKS: tuple[str, ...] = tuple(b["id"] for b in DATA["blocks"])
INDUSTRY, COMMERCE, RESIDENTIAL, CULTURE, PARKS, BLIGHT = range(6)
DIE_BLOCKS = (INDUSTRY, COMMERCE, RESIDENTIAL, CULTURE, PARKS)  # one die each
BLOCK_INDEX = {name: i for i, name in enumerate(BLOCKS)}
BLOCK_NAMES: tuple[str, ...] = tuple(b["name"] for b in DATA["blocks"])
DIE_COLORS: tuple[str, ...] = tuple(b["die"] for b in DATA["blocks"])
LETTERS: tuple[str, ...] = tuple(b["letter"] for b in DATA["blocks"])


def bit(row: int, col: int) -> int:
    return 1 << (row * COLS + col)


def mask_of(squares: Iterable[Iterable[int]]) -> int:
    return sum(bit(r, c) for r, c in squares)


def squares_of(mask: int) -> list[tuple[int, int]]:
    """The (row, col) of every square of ``mask``, in reading order."""
    out = []
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        out.append((i // COLS, i % COLS))
        mask ^= low
    return out


_r0, _r1 = DATA["board"]["inner_rows"]
_c0, _c1 = DATA["board"]["inner_cols"]
INNER = mask_of((r, c) for r in range(_r0, _r1 + 1) for c in range(_c0, _c1 + 1))
EDGE = mask_of((r, c) for r in range(ROWS) for c in range(COLS) if r in (0, ROWS - 1) or c in (0, COLS - 1))
SHORE = mask_of((ROWS - 1, c) for c in range(COLS))  # the bottom row touches the ocean (docs/rules)
MOUNTAINS = mask_of(DATA["mountains"])
_COL0 = mask_of((r, 0) for r in range(ROWS))
_COL_LAST = mask_of((r, COLS - 1) for r in range(ROWS))
_NOT_COL0 = FULL & ~_COL0
_NOT_COL_LAST = FULL & ~_COL_LAST


def neighbours(mask: int) -> int:
    """Squares orthogonally next to a square of ``mask`` (they may be in ``mask`` themselves)."""
    return ((((mask << 1) & _NOT_COL0) | ((mask >> 1) & _NOT_COL_LAST) | (mask << COLS) | (mask >> COLS))
            & FULL)


_KNOWN: dict[int, tuple[int, ...]] = {}  # the groups of masks met lately (emptied when it grows large)


def components(mask: int, parent: int = 0) -> tuple[int, ...]:
    """The orthogonally connected groups of ``mask``, largest first.

    ``parent``, a mask much like ``mask`` (a city's open squares the era before, say), saves work
    when its groups are known already: only those that lost squares are searched again, and squares
    that ``parent`` lacks join the groups they touch.
    """
    known = _KNOWN.get(mask)
    if known is not None:
        return known
    above = _KNOWN.get(parent) if parent else None
    if above is None:
        groups = _flood(mask)
    else:
        groups = []
        for group in above:
            left = group & mask
            if left == group:
                groups.append(group)
            elif left:
                groups += _split(left, group & ~mask)
        added = mask & ~parent
        if added:
            groups = _joined(groups, added)
    groups.sort(key=int.bit_count, reverse=True)
    if len(_KNOWN) >= 1 << 15:
        _KNOWN.clear()
    known = _KNOWN[mask] = tuple(groups)
    return known


def _flood(mask: int) -> list[int]:
    """The connected groups of ``mask``, each grown from its first square."""
    groups = []
    while mask:
        group = mask & -mask
        while True:
            grown = (group | neighbours(group)) & mask
            if grown == group:
                break
            group = grown
        groups.append(group)
        mask &= ~group
    return groups


def _split(left: int, taken: int) -> list[int]:
    """The connected groups of ``left``, what is left of one connected group once ``taken`` is gone.

    Each of them holds a square next to ``taken`` (the group was connected). So a group grown from
    one such square that reaches all the others is the whole of what is left: a few steps around
    ``taken`` usually show it, without searching every square again."""
    edge = neighbours(taken) & left
    groups = []
    while edge:
        group = edge & -edge
        while True:
            grown = (group | neighbours(group)) & left
            if not edge & ~grown:
                groups.append(left)
                return groups
            if grown == group:
                break
            group = grown
        groups.append(group)
        left &= ~group
        edge &= ~group
    return groups + _flood(left)  # nothing is left when ``taken`` touched the group


def _joined(groups: list[int], added: int) -> list[int]:
    """The connected groups once the squares ``added`` join the separate connected ``groups``."""
    for piece in _flood(added):
        reach = neighbours(piece)
        kept = []
        for group in groups:
            if group & reach:
                piece |= group
            else:
                kept.append(group)
        kept.append(piece)
        groups = kept
    return groups


def largest(mask: int, parent: int = 0) -> int:
    """The size of the largest connected group of ``mask`` (0 if empty); ``parent`` as for
    :func:`components`."""
    return components(mask, parent)[0].bit_count() if mask else 0


@lru_cache(maxsize=1 << 15)
def groups_of_at_least(mask: int, size: int) -> int:
    """The squares of ``mask`` lying in a connected group of ``size`` squares or more."""
    if size <= 1:
        return mask
    out = 0
    for group in components(mask):
        if group.bit_count() < size:
            break
        out |= group
    return out


# Each row of the city is one byte of a mask: the columns of its squares, for every byte.
_ROW = (1 << COLS) - 1
_ROW_COLUMNS = tuple(tuple(c for c in range(COLS) if byte >> c & 1) for byte in range(_ROW + 1))


def _nth_square(mask: int, k: int) -> int:
    """The index of the ``k``-th square of ``mask`` (from 0, in reading order), a row at a time."""
    if k < 3:  # near the start: drop the first squares
        while k:
            mask &= mask - 1
            k -= 1
        return (mask & -mask).bit_length() - 1
    shift = ((mask & -mask).bit_length() - 1) // COLS * COLS
    while True:
        columns = _ROW_COLUMNS[(mask >> shift) & _ROW]
        if k < len(columns):
            return shift + columns[k]
        k -= len(columns)
        shift += COLS


City = tuple[int, ...]  # six masks: one per block type, Industry to Blight


def built(city: City) -> int:
    return city[0] | city[1] | city[2] | city[3] | city[4] | city[5]


def empty_squares(city: City, terrain: int) -> int:
    """Squares with no block and no mountain."""
    return FULL & ~(built(city) | terrain)


def available(city: City, block: int, terrain: int) -> int:
    """Where a block of ``block`` may go: empty squares, and for Residential unbuilt mountains too."""
    free = FULL & ~(city[0] | city[1] | city[2] | city[3] | city[4] | city[5])
    return free if block == RESIDENTIAL else free & ~terrain


START_CITY = (mask_of(DATA["start"]["industry"]), 0, mask_of(DATA["start"]["residential"]), 0, 0, 0)


def city_rows(city: City, terrain: int = 0) -> list[str]:
    """The city as 9 rows of letters: I C R U P B for blocks, M for a bare mountain, '.' empty."""
    rows = []
    for r in range(ROWS):
        row = []
        for c in range(COLS):
            sq = bit(r, c)
            letter = "M" if terrain & sq else "."
            for b in range(6):
                if city[b] & sq:
                    letter = LETTERS[b]
                    break
            row.append(letter)
        rows.append("".join(row))
    return rows


def city_from_rows(rows: list[str]) -> City:
    masks = [0] * 6
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in LETTERS:
                masks[LETTERS.index(ch)] |= bit(r, c)
    return tuple(masks)


def where(row: int, col: int) -> str:
    """A square in words, counted from 1 at the top left as the rules page counts them."""
    return f"row {row + 1}, column {col + 1}"
