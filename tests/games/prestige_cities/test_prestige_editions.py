"""Old games replay as they were played: random games with Blight recorded by the engine before rules
edition 3 (commit c2cfabd, tests/games/prestige_cities/old_cities/record.py), under editions 1 and 2,
replay through today's engine with the same legal actions at every step, the same end and scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from old_cities.record import digest, legal_lines, state_digest
from prestige_states import GAME

HERE = Path(__file__).parent / "old_cities"
RECORDS = {edition: json.loads((HERE / f"edition{edition}.json").read_text()) for edition in (1, 2)}


def _replayed(record, options):
    state = GAME.start(record["players"], GAME.stored_options(options), record["seed"])
    legal = []
    for seat, action in record["actions"]:
        legal.append(legal_lines(GAME, state, seat))
        state = GAME.apply(state, seat, action)
    return digest(legal), state_digest(GAME, state), list(GAME.result(state).scores), state


@pytest.mark.parametrize("edition", [1, 2])
def test_old_games_replay_as_they_were_played(edition):
    for record in RECORDS[edition]["games"]:
        legal, final, scores, state = _replayed(record, record["options"])
        assert state.config.edition == edition
        assert (legal, final, scores) == (record["legal"], record["final"], record["scores"])


def test_the_recorded_games_tell_the_editions_apart():
    """The check above can fail: the same actions replayed by the next edition list other legal actions
    (a Deck 1 card's blocks may stop in edition 3; edition 2 counts more blocks toward Blight)."""
    for edition in (1, 2):
        differ = 0
        for record in RECORDS[edition]["games"]:
            try:
                legal, final, _, _ = _replayed(record, {**record["options"], "edition": edition + 1})
            except Exception:  # an action the next edition refuses, or a seat with nothing to do
                differ += 1
                continue
            differ += (legal, final) != (record["legal"], record["final"])
        assert differ >= len(RECORDS[edition]["games"]) // 2
