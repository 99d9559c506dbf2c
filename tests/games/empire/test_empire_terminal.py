"""Empire in the terminal (`parlour play empire`): the log speaks to the player as "you" with the
verbs that go with it, and the final table writes scores as whole numbers (issue 28.9)."""

from __future__ import annotations

import random

from rich.console import Console

from parlour.core import LogEntry
from parlour.core.words import addressed
from parlour.games.empire import GAME
from parlour.games.empire.terminal import render_result


def played(seed: int) -> tuple[object, list[LogEntry]]:
    state = GAME.start(2, {}, seed)
    rng = random.Random(seed)
    log: list[LogEntry] = []
    while not GAME.is_over(state):
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)), log)
    return state, log


def test_the_log_says_you_pay_you_draw_and_you_end_your_turn():
    told = [addressed(entry.text, 0, ["You", "Ben"]) for seed in range(12) for entry in played(seed)[1]
            if entry.visible_to(0)]
    assert any(line.startswith("You pay ") for line in told)
    assert any(line.startswith("You draw ") for line in told)
    wrong = [line for line in told if any(f"You {verb}" in line or f"you {verb}" in line
                                          for verb in ("pays", "draws", "ends", "claims", "takes", "loses", "is "))]
    assert not wrong, wrong[:5]
    assert not [line for line in told if "their" in line and line.startswith("You")]


def test_a_turn_ended_by_a_challenge_is_told_in_the_second_person():
    assert addressed("{p0} ends their turn", 0, ["Ana", "Ben"]) == "You end your turn"
    assert addressed("{p1} ends their turn", 0, ["Ana", "Ben"]) == "Ben ends their turn"
    assert (addressed("{p1} pays 1 coin and guesses that {p0} is the Urchin (1): wrong, so {p0} takes 2 coins", 0,
                      ["Ana", "Ben"])
            == "Ben pays 1 coin and guesses that you are the Urchin (1): wrong, so you take 2 coins")


def test_the_final_table_writes_whole_scores():
    state, _ = played(3)
    console = Console(width=100, record=True)
    console.print(render_result(GAME.view(state, 0), ["You", "Ben"]))
    text = console.export_text()
    assert ".0" not in text, text
    rows = [line.split("│") for line in text.splitlines() if "You" in line or "Ben" in line]
    assert sorted(row[4].strip() for row in rows if len(row) > 4) == ["0", "1"], text
