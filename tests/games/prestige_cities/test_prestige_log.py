"""Prestige Cities' log in words (issue 28.9): squares counted from 1 as the rules page counts
them, and an era's line lists only the dice that era rolls."""

from __future__ import annotations

import random
import re

from parlour.core import LogEntry
from parlour.games.prestige_cities import GAME
from parlour.games.prestige_cities.engine import DIE_COLORS, ERA_DICE, ERAS


def era_lines(seeds: range) -> list[str]:
    lines: list[str] = []
    for seed in seeds:
        state = GAME.start(2, {"pregame": False}, seed)
        rng = random.Random(seed)
        log: list[LogEntry] = []
        while not GAME.is_over(state):
            seat = min(GAME.to_act(state))
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)), log)
        lines += [entry.render(["Ana", "Ben"]) for entry in log]
    return lines


def test_an_era_lists_only_the_dice_it_rolls():
    lines = [line for line in era_lines(range(6)) if line.startswith("Round ")]
    by_name = {era["name"]: era_id for era_id, era in ERAS.items()}
    checked = 0
    for line in lines:
        name = next(n for n in sorted(by_name, key=len, reverse=True) if line.startswith("Round ") and f": {n}" in line)
        dice = re.search(r"Dice: (.*)\.$", line)
        colours = [DIE_COLORS[b] for b in ERA_DICE[by_name[name]]]
        if not colours:
            assert dice is None, line
            continue
        assert dice, line
        assert [d.rsplit(" ", 1)[0] for d in dice.group(1).split(", ")] == colours, line
        checked += len(colours) < len(DIE_COLORS)
    assert checked, "no era of fewer dice came up"
    assert not [line for line in lines if "!." in line or "?." in line], "a name ending in ! takes no full stop"


def test_war_rolls_yellow_alone():
    war = [line for line in era_lines(range(12)) if ": War! " in line]
    assert war, "no War! era came up"
    assert all(re.search(r"Only yellow is rolled\. Dice: yellow \d\.$", line) for line in war), war


def test_squares_are_counted_from_1_at_the_top_left():
    state = GAME.start(1, {"pregame": True}, 5)
    legal = GAME.legal_actions(state, 0)
    corner = [a for a in legal if a.get("row") == 0 and a.get("col") == 0]
    action = corner[0] if corner else min(legal, key=lambda a: (a.get("row", 99), a.get("col", 99)))
    log: list[LogEntry] = []
    GAME.apply(state, 0, action, log)
    text = " ".join(entry.render(["Ana"]) for entry in log)
    assert f"row {action['row'] + 1}, column {action['col'] + 1}" in text, (action, text)
