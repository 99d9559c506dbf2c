"""Old games replay as they were played: random games with Blight recorded by the engine before rules
edition 3 (commit c2cfabd, tests/games/prestige_cities/old_cities/record.py), under editions 1 and 2,
replay through today's engine with the same legal actions at every step, the same end and scores."""

from __future__ import annotations

from pathlib import Path

import pytest
from prestige_states import GAME

from editions import differing, records, replayed

RECORDS = records(Path(__file__).parent / "old_cities")


@pytest.mark.parametrize("edition", [1, 2])
def test_old_games_replay_as_they_were_played(edition):
    for record in RECORDS[edition]["games"]:
        legal, final, state = replayed(GAME, record, record["options"], "reached")
        scores = list(GAME.result(state).scores)
        assert state.config.edition == edition
        assert (legal, final, scores) == (record["legal"], record["final"], record["scores"])


def test_the_recorded_games_tell_the_editions_apart():
    """The check above can fail: the same actions replayed by the next edition list other legal actions
    (a Deck 1 card's blocks may stop in edition 3; edition 2 counts more blocks toward Blight)."""
    for edition in (1, 2):
        differ = differing(GAME, RECORDS[edition]["games"], edition + 1, "reached")
        assert differ >= len(RECORDS[edition]["games"]) // 2
