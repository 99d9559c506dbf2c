"""Prestige Cities' tasks: what a seat must still do, as named records, in words and in JSON."""

from __future__ import annotations

from typing import Any, Final, Literal, NamedTuple

from .board import BLOCK_NAMES, BLOCKS, mask_of, squares_of, where

# Task kinds: what a seat must still do, first things first. Each task is a named tuple whose first
# field is its kind, so its JSON (a list, squares as [row, col] lists) and its value stay those of the
# plain tuples of before.
PICK: Final = "pick"
BUILD: Final = "build"
GOLDEN: Final = "golden"
REMOVE: Final = "remove"
BLIGHT_TASK: Final = "blight"
CONVERT: Final = "convert"


class Pick(NamedTuple):
    """Choose a die by building its first block: ``offers`` are (block, blocks to place)."""

    kind: Literal["pick"]
    offers: tuple[tuple[int, int], ...]


class Build(NamedTuple):
    """Grow one connected group of ``block``: ``left`` blocks still to build, the first of them on a
    square of ``start``; ``group`` the squares built so far; ``by_die`` false for a Deck 1 card's."""

    kind: Literal["build"]
    block: int
    left: int
    start: int
    group: int
    by_die: bool


class Golden(NamedTuple):
    """The Golden Age: one block of each type of ``blocks`` still to build, anywhere."""

    kind: Literal["golden"]
    blocks: tuple[int, ...]


class Remove(NamedTuple):
    """Remove ``left`` more blocks of ``block``, one connected group, from the city of ``target``;
    ``whole``: no group is as large as the die, so the first block picks a group to remove whole."""

    kind: Literal["remove"]
    target: int
    block: int
    left: int
    group: int
    whole: bool


class AddBlight(NamedTuple):
    """Add one Blight: ``near``, next to ``squares`` (anywhere free when there are none); otherwise
    on one of ``squares``."""

    kind: Literal["blight"]
    near: bool
    squares: int


class Convert(NamedTuple):
    """Convert up to ``left`` more blocks of ``frm`` to ``to`` (touching ``group`` if ``connected``),
    or stop."""

    kind: Literal["convert"]
    frm: int
    to: int
    left: int
    connected: bool
    group: int


Task = Pick | Build | Golden | Remove | AddBlight | Convert
Queue = tuple[Task, ...]


def offer_words(offers: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"{n} {BLOCK_NAMES[b]}" for b, n in offers)


def describe_task(task: Task, stoppable: bool = False) -> str:
    """What the task asks, in words (``stoppable``: it may end with a stop, see engine.may_stop)."""
    if isinstance(task, Pick):
        return f"choose a die and build its first block ({offer_words(task.offers)})"
    if isinstance(task, Build):
        if stoppable:
            return (f"build up to {task.left} more {BLOCK_NAMES[task.block]}, connected"
                    + (" to the group" if task.group else " to each other") + ", or stop")
        return f"build {task.left} more {BLOCK_NAMES[task.block]}, connected to the group"
    if isinstance(task, Golden):
        return f"build one block of each of {', '.join(BLOCK_NAMES[b] for b in task.blocks)}, anywhere"
    if isinstance(task, Remove):
        if task.whole:
            return (f"no group of {BLOCK_NAMES[task.block]} in player {task.target + 1}'s city is as large as the"
                    f" die: choose one of its groups (at most {task.left} block{'s' if task.left != 1 else ''})"
                    " and remove it whole")
        return (f"remove {task.left} more {BLOCK_NAMES[task.block]} from player {task.target + 1}'s city, one"
                " connected group")
    if isinstance(task, AddBlight):
        return ("add a Blight next to the blocks you just placed" if task.near
                else "add a Blight on one of the squares just emptied")
    return (f"convert up to {task.left} more {BLOCK_NAMES[task.frm]} to {BLOCK_NAMES[task.to]}"
            + (", connected" if task.connected else "") + ", or stop")


def step_words(seat: int, task: Task, block: int | None, square: int) -> str:
    """The log line of one step of ``task`` by ``seat`` (a PICK's step is its BUILD's)."""
    me = f"{{p{seat}}}"
    at = where(*squares_of(square)[0]) if square else ""
    if isinstance(task, Build) and not square:
        return f"{me} added no {'more ' if task.group else ''}{BLOCK_NAMES[task.block]} blocks of the bonus card."
    if isinstance(task, (Pick, Build, Golden)):
        return f"{me} built {BLOCK_NAMES[task.block if isinstance(task, Build) else block or 0]} at {at}."
    if isinstance(task, Remove):
        return f"{me} chose to remove {BLOCK_NAMES[task.block]} at {at} of {{p{task.target}}}'s city."
    if isinstance(task, AddBlight):
        return f"{me} added Blight at {at}."
    if not square:
        return f"{me} stopped converting."
    return f"{me} converted {BLOCK_NAMES[task.frm]} at {at} to {BLOCK_NAMES[task.to]}."


# Where a task holds a set of squares (a bitboard of up to 72 bits): in JSON it is a list of
# [row, col], since no JSON reader outside Python is bound to read integers beyond 2**53 exactly.
MASK_FIELDS = {BUILD: (3, 4), REMOVE: (4,), BLIGHT_TASK: (2,), CONVERT: (5,)}


def task_to_json(task: Task) -> list[Any]:
    if isinstance(task, Pick):
        return [PICK, [list(o) for o in task.offers]]
    if isinstance(task, Golden):
        return [GOLDEN, list(task.blocks)]
    masks = MASK_FIELDS[task.kind]
    fields: tuple[Any, ...] = task
    return [[list(sq) for sq in squares_of(field)] if i in masks else field for i, field in enumerate(fields)]


TASK_TYPES: dict[str, Any] = {BUILD: Build, REMOVE: Remove, BLIGHT_TASK: AddBlight, CONVERT: Convert}


def task_from_json(data: list[Any]) -> Task:
    """The task that :func:`task_to_json` wrote as ``data``."""
    kind = data[0]
    if kind == PICK:
        return Pick(PICK, tuple((b, n) for b, n in data[1]))
    if kind == GOLDEN:
        return Golden(GOLDEN, tuple(data[1]))
    masks = MASK_FIELDS[kind]
    task: Task = TASK_TYPES[kind](*(mask_of(field) if i in masks else field for i, field in enumerate(data)))
    return task


def describe_task_json(task: Task, stoppable: bool = False) -> dict[str, Any]:
    """The seat's current task for the renderer and JSON bots."""
    out: dict[str, Any] = {"kind": task.kind, "text": describe_task(task, stoppable)}
    if isinstance(task, Pick):
        out["choices"] = [{"block": BLOCKS[b], "count": n} for b, n in task.offers]
    elif isinstance(task, Build):
        out.update(block=BLOCKS[task.block], left=task.left, group=[list(sq) for sq in squares_of(task.group)])
    elif isinstance(task, Golden):
        out["blocks"] = [BLOCKS[b] for b in task.blocks]
    elif isinstance(task, Remove):
        out.update(target=task.target, block=BLOCKS[task.block], left=task.left,
                   group=[list(sq) for sq in squares_of(task.group)], whole=task.whole)
    elif isinstance(task, AddBlight):
        out["near"] = task.near
    else:
        out.update(block=BLOCKS[task.frm], to=BLOCKS[task.to], left=task.left, connected=task.connected,
                   group=[list(sq) for sq in squares_of(task.group)])
    return out
