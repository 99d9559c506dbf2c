"""Prestige Cities for learning agents: the engine already makes a placement of several blocks a
sequence of one-square actions (the first names the die), so every action is one token: the kind
of action and the square.

Square (row, col) of the 9x8 city is ``row * 8 + col``; cities and seats are counted from the seat
(0 its own city, 1 the next seat's...), six of them whatever the number of players.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core import Action, View
from ...games.prestige_cities.engine import (AFTER, BLIGHT_TASK, BLOCK_INDEX, BLOCKS, BUILD, CARDS, CHOOSE, COLS,
                                             CONVERT, DIE_BLOCKS, ERAS, FINAL, GOLDEN, LETTERS, OVER, PICK,
                                             REMOVE, SQUARES)
from ..encoding import CatalogueCodec, Layout, ObservationEncoder, Tokens, one_hot, relative

MAX_PLAYERS = 6
ERA_IDS = tuple(ERAS)
PHASES = (CHOOSE, AFTER, FINAL, OVER)
TASKS = (PICK, BUILD, GOLDEN, REMOVE, BLIGHT_TASK, CONVERT)
BONUS_CARDS = tuple((deck, card) for deck in sorted(CARDS) for card in CARDS[deck])
PLANE = {letter: b for b, letter in enumerate(LETTERS)}


def _catalogue() -> list[Action]:
    actions: list[Action] = [{"type": "build", "block": BLOCKS[b], "row": sq // COLS, "col": sq % COLS}
                             for b in DIE_BLOCKS for sq in range(SQUARES)]
    for kind in (REMOVE, BLIGHT_TASK, CONVERT):
        actions += [{"type": kind, "row": sq // COLS, "col": sq % COLS} for sq in range(SQUARES)]
    actions.append({"type": "stop"})
    return actions


CITY = len(BLOCKS) * SQUARES
CITY_NUMBERS = 8
LAYOUT = Layout([
    ("cities", MAX_PLAYERS * CITY, "per city from the seat's, six 72-square planes (industry, commerce,"
                                   " residential, culture, parks, blight): 1 where that block stands;"
                                   " while the others choose, their cities as they were before this era"),
    ("city_numbers", MAX_PLAYERS * CITY_NUMBERS, "per city from the seat's: in the game, still choosing,"
                                                " culture, wealth, happiness, bonus, overall score (each /"
                                                " 20), empty squares / 72"),
    ("terrain", SQUARES + 1, "the mountains' squares, then whether the Ocean expansion is in play"),
    ("options", 2, "Blight expansion, pregame round (0/1)"),
    ("phase", len(PHASES), "one-hot: choose, after, final, over"),
    ("era", len(ERA_IDS), "one-hot: the era card in play"),
    ("eras_played", len(ERA_IDS), "era cards played already"),
    ("eras_set_aside", len(ERA_IDS), "era cards set aside"),
    ("dice", 2 * len(DIE_BLOCKS), "per die (industry, commerce, residential, culture, parks): value / 6,"
                                  " usable this era"),
    ("round", 3, "round / 30, rounds of this deck / 16, era cards left / 16"),
    ("bonus_cards", len(BONUS_CARDS), "the four bonus cards of this game, by deck then card"),
    ("bonus_winners", 4 * MAX_PLAYERS, "per bonus deck 1-4, who took it (seats from the seat's)"),
    ("targets", MAX_PLAYERS, "one-hot: the city whose group this seat removes in a catastrophe"),
    ("task", len(TASKS), "one-hot: the seat's task now: pick, build, golden, remove, blight, convert"),
    ("task_block", len(BLOCKS), "one-hot: the block it builds, removes or converts from"),
    ("task_to", len(BLOCKS), "one-hot: the block a conversion makes"),
    ("task_choices", len(BLOCKS), "blocks the seat may choose from (pick: count / 6; golden: 1)"),
    ("task_numbers", 3, "blocks left / 10, tasks queued / 10, the blight goes next to squares (0/1)"),
    ("group", SQUARES, "the squares of the group the seat is growing"),
    ("task_group", SQUARES, "the squares of the group the task names (removal, conversion)"),
])


class PrestigeCitiesActions(CatalogueCodec):
    """``block * 72 + square`` builds (industry, commerce, residential, culture, parks), then
    ``360 + kind * 72 + square`` removes, blights and converts, then ``stop``."""

    def __init__(self) -> None:
        super().__init__(_catalogue())
        self.starts = {BLOCKS[b]: k * SQUARES for k, b in enumerate(DIE_BLOCKS)}
        for k, kind in enumerate((REMOVE, BLIGHT_TASK, CONVERT)):
            self.starts[kind] = (len(DIE_BLOCKS) + k) * SQUARES

    def encode_all(self, view: View, actions: Sequence[Action]) -> list[Tokens]:
        starts, stop = self.starts, self.size - 1
        return [(stop,) if a["type"] == "stop" else
                (starts[a["block"] if a["type"] == "build" else a["type"]] + a["row"] * COLS + a["col"],)
                for a in actions]


class PrestigeCitiesObservation(ObservationEncoder):
    layout = LAYOUT

    def encode(self, view: View, seat: int, chosen: Tokens = ()) -> np.ndarray:
        out = LAYOUT.zeros()
        n = view["players"]
        cities, numbers = LAYOUT["cities"].start, LAYOUT["city_numbers"].start
        for i, city in enumerate(view["cities"]):
            r = relative(seat, i, n)
            base = cities + r * CITY
            for row, letters in enumerate(city["rows"]):
                for col, letter in enumerate(letters):
                    b = PLANE.get(letter)
                    if b is not None:
                        out[base + b * SQUARES + row * COLS + col] = 1.0
            out[numbers + r * CITY_NUMBERS:numbers + (r + 1) * CITY_NUMBERS] = (
                1.0, city["choosing"], city["culture"] / 20, city["wealth"] / 20, city["happiness"] / 20,
                city["bonus"] / 20, city["overall"] / 20, city["empty"] / SQUARES)
        terrain = LAYOUT["terrain"].start
        for row, col in view["board"]["mountains"]:
            out[terrain + row * COLS + col] = 1.0
        out[terrain + SQUARES] = view["board"]["ocean"]
        out[LAYOUT["options"]] = (view["options"]["blight"], view["options"]["pregame"])
        one_hot(out, LAYOUT["phase"], PHASES.index(view["phase"]))
        one_hot(out, LAYOUT["era"], ERA_IDS.index(view["era"]["id"]))
        for block, eras in (("eras_played", view["deck"]["played"]), ("eras_set_aside", view["deck"]["set_aside"])):
            start = LAYOUT[block].start
            for era in eras:
                out[start + ERA_IDS.index(era)] = 1.0
        dice = LAYOUT["dice"].start
        for k, die in enumerate(view["dice"]):
            out[dice + 2 * k:dice + 2 * k + 2] = (die["value"] / 6, die["usable"])
        out[LAYOUT["round"]] = (view["round"] / 30, view["deck_rounds"] / 16, view["deck"]["left"] / 16)
        cards, winners = LAYOUT["bonus_cards"].start, LAYOUT["bonus_winners"].start
        for card in view["bonus_cards"]:
            out[cards + BONUS_CARDS.index((card["deck"], card["id"]))] = 1.0
            for w in card["winners"] or ():
                out[winners + (card["deck"] - 1) * MAX_PLAYERS + relative(seat, w, n)] = 1.0
        if view["targets"]:
            one_hot(out, LAYOUT["targets"], relative(seat, view["targets"][seat], n))
        self._task(out, view, seat, n)
        group = LAYOUT["group"].start
        for row, col in view["group"]:
            out[group + row * COLS + col] = 1.0
        return out

    @staticmethod
    def _task(out: np.ndarray, view: View, seat: int, n: int) -> None:
        task = view["task"]
        out[LAYOUT["task_numbers"].start + 1] = len(view["queue"]) / 10
        if task is None:
            return
        kind = task["kind"]
        one_hot(out, LAYOUT["task"], TASKS.index(kind))
        if "block" in task:
            one_hot(out, LAYOUT["task_block"], BLOCK_INDEX[task["block"]])
        if "to" in task:
            one_hot(out, LAYOUT["task_to"], BLOCK_INDEX[task["to"]])
        choices = LAYOUT["task_choices"].start
        for choice in task.get("choices", ()):
            out[choices + BLOCK_INDEX[choice["block"]]] = choice["count"] / 6
        for block in task.get("blocks", ()):
            out[choices + BLOCK_INDEX[block]] = 1.0
        numbers = LAYOUT["task_numbers"].start
        out[numbers] = task.get("left", 0) / 10
        out[numbers + 2] = bool(task.get("near"))
        if kind in (REMOVE, CONVERT):
            start = LAYOUT["task_group"].start
            for row, col in task["group"]:
                out[start + row * COLS + col] = 1.0


ACTIONS = PrestigeCitiesActions()
OBSERVATION = PrestigeCitiesObservation()
