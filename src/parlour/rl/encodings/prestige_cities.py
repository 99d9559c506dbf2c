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
from ...games.prestige_cities.engine import (
    AFTER,
    BLIGHT_TASK,
    BLOCK_INDEX,
    BLOCKS,
    BUILD,
    CARDS,
    CHOOSE,
    COLS,
    CONVERT,
    DIE_BLOCKS,
    ERAS,
    FINAL,
    GOLDEN,
    LETTERS,
    OVER,
    PICK,
    REMOVE,
    SQUARES,
)
from ..encoding import CatalogueCodec, Layout, ObservationEncoder, Tokens

MAX_PLAYERS = 6
ERA_IDS = tuple(ERAS)
PHASES = (CHOOSE, AFTER, FINAL, OVER)
TASKS = (PICK, BUILD, GOLDEN, REMOVE, BLIGHT_TASK, CONVERT)
BONUS_CARDS = tuple((deck, card) for deck in sorted(CARDS) for card in CARDS[deck])


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
                                                " 20), empty squares / 72", (-5.0, 5.0)),
    ("terrain", SQUARES + 1, "the mountains' squares, then whether the Ocean expansion is in play"),
    ("options", 2, "Blight expansion, pregame round (0/1)"),
    ("phase", len(PHASES), "one-hot: choose, after, final, over"),
    ("era", len(ERA_IDS), "one-hot: the era card in play"),
    ("eras_played", len(ERA_IDS), "era cards played already"),
    ("eras_set_aside", len(ERA_IDS), "era cards set aside"),
    ("dice", 2 * len(DIE_BLOCKS), "per die (industry, commerce, residential, culture, parks): value / 6,"
                                  " usable this era"),
    ("round", 3, "round / 30, rounds of this deck / 16, era cards left / 16", (0.0, 4.0)),
    ("bonus_cards", len(BONUS_CARDS), "the four bonus cards of this game, by deck then card"),
    ("bonus_winners", 4 * MAX_PLAYERS, "per bonus deck 1-4, who took it (seats from the seat's)"),
    ("targets", MAX_PLAYERS, "one-hot: the city whose group this seat removes in a catastrophe"),
    ("task", len(TASKS), "one-hot: the seat's task now: pick, build, golden, remove, blight, convert"),
    ("task_block", len(BLOCKS), "one-hot: the block it builds, removes or converts from"),
    ("task_to", len(BLOCKS), "one-hot: the block a conversion makes"),
    ("task_choices", len(BLOCKS), "blocks the seat may choose from (pick: count / 6; golden: 1)", (0.0, 2.0)),
    ("task_numbers", 3, "blocks left / 10, tasks queued / 10, the blight goes next to squares (0/1)",
     (0.0, 4.0)),
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

    def heads(self, view: View, actions: Sequence[Action]) -> list[int]:
        """As :meth:`encode` for each action, by arithmetic."""
        starts, stop = self.starts, self.size - 1
        return [stop if a["type"] == "stop" else
                starts[a["block"] if a["type"] == "build" else a["type"]] + a["row"] * COLS + a["col"]
                for a in actions]


# a city's squares: the offset of each letter's plane (-1: no block), and each square's place in
# the cities block, city after city from the seat's
PLANE_OFFSET = np.full(256, -1, dtype=np.intp)
for _plane, _letter in enumerate(LETTERS):
    PLANE_OFFSET[ord(_letter)] = _plane * SQUARES
CITY_SQUARES = np.array([LAYOUT["cities"].start + r * CITY + square
                         for r in range(MAX_PLAYERS) for square in range(SQUARES)], dtype=np.intp)
CITY_NUMBER, TERRAIN, OPTIONS, DICE, ROUND, WINNERS, TARGETS, TASK_CHOICES, TASK_NUMBERS, GROUP, TASK_GROUP = (
    LAYOUT[b].start for b in ("city_numbers", "terrain", "options", "dice", "round", "bonus_winners", "targets",
                              "task_choices", "task_numbers", "group", "task_group"))
PHASE = LAYOUT.places("phase", {phase: i for i, phase in enumerate(PHASES)})
ERA_INDEX = {era: i for i, era in enumerate(ERA_IDS)}
ERA, ERAS_PLAYED, ERAS_SET_ASIDE = (LAYOUT.places(b, ERA_INDEX) for b in ("era", "eras_played", "eras_set_aside"))
BONUS_CARD = LAYOUT.places("bonus_cards", {card: i for i, card in enumerate(BONUS_CARDS)})
TASK = LAYOUT.places("task", {task: i for i, task in enumerate(TASKS)})
TASK_BLOCK, TASK_TO = (LAYOUT.places(b, BLOCK_INDEX) for b in ("task_block", "task_to"))


class PrestigeCitiesObservation(ObservationEncoder):
    layout = LAYOUT

    def encode(self, view: View, seat: int, chosen: Tokens = ()) -> np.ndarray:
        n = view["players"]
        cities = view["cities"]
        board, options, deck = view["board"], view["options"], view["deck"]
        places = [TERRAIN + row * COLS + col for row, col in board["mountains"]]
        for place, held in ((TERRAIN + SQUARES, board["ocean"]), (OPTIONS, options["blight"]),
                            (OPTIONS + 1, options["pregame"])):
            if held:
                places.append(place)
        places += (PHASE[view["phase"]], ERA[view["era"]["id"]])
        places += map(ERAS_PLAYED.__getitem__, deck["played"])
        places += map(ERAS_SET_ASIDE.__getitem__, deck["set_aside"])
        for card in view["bonus_cards"]:
            places.append(BONUS_CARD[card["deck"], card["id"]])
            winners = WINNERS + (card["deck"] - 1) * MAX_PLAYERS
            places += [winners + (w - seat) % n for w in card["winners"] or ()]
        if view["targets"]:
            places.append(TARGETS + (view["targets"][seat] - seat) % n)
        task = view["task"]
        if task is not None:
            places.append(TASK[task["kind"]])
            if "block" in task:
                places.append(TASK_BLOCK[task["block"]])
            if "to" in task:
                places.append(TASK_TO[task["to"]])
            if task["kind"] in (REMOVE, CONVERT):
                places += [TASK_GROUP + row * COLS + col for row, col in task["group"]]
        places += [GROUP + row * COLS + col for row, col in view["group"]]
        out = LAYOUT.ones(places)
        # every city's blocks at once: its rows' letters, city after city from the seat's
        letters = "".join(row for city in cities[seat:] + cities[:seat] for row in city["rows"]).encode()
        planes = PLANE_OFFSET[np.frombuffer(letters, dtype=np.uint8)]
        built = planes >= 0
        out[(CITY_SQUARES[:len(planes)] + planes)[built]] = 1.0
        for i, city in enumerate(cities):
            start = CITY_NUMBER + (i - seat) % n * CITY_NUMBERS
            out[start:start + CITY_NUMBERS] = (
                1.0, city["choosing"], city["culture"] / 20, city["wealth"] / 20, city["happiness"] / 20,
                city["bonus"] / 20, city["overall"] / 20, city["empty"] / SQUARES)
        for k, die in enumerate(view["dice"]):
            out[DICE + 2 * k] = die["value"] / 6
            out[DICE + 2 * k + 1] = die["usable"]
        out[ROUND:ROUND + 3] = (view["round"] / 30, view["deck_rounds"] / 16, deck["left"] / 16)
        out[TASK_NUMBERS + 1] = len(view["queue"]) / 10
        if task is not None:
            for choice in task.get("choices", ()):
                out[TASK_CHOICES + BLOCK_INDEX[choice["block"]]] = choice["count"] / 6
            for block in task.get("blocks", ()):
                out[TASK_CHOICES + BLOCK_INDEX[block]] = 1.0
            out[TASK_NUMBERS] = task.get("left", 0) / 10
            out[TASK_NUMBERS + 2] = bool(task.get("near"))
        return out


ACTIONS = PrestigeCitiesActions()
OBSERVATION = PrestigeCitiesObservation()
