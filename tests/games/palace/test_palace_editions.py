"""Old games replay as they were played: random games recorded with the engine of each rules edition
(tests/games/palace/old_games/record.py; edition 1 by the engine of commit 430ba53, the last before the
option existed, stored without the option as such games are; edition 2 by the engine before edition 3)
replay through today's engine with the same legal actions at every step and the same end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from old_games.record import digest, legal_lines, state_digest
from palace_states import GAME

HERE = Path(__file__).parent / "old_games"
RECORDS = {edition: json.loads((HERE / f"edition{edition}.json").read_text()) for edition in (1, 2)}


def _replayed(record, options):
    state = GAME.start(record["players"], GAME.stored_options(options), record["seed"])
    legal = []
    for seat, action in record["actions"]:
        legal.append(legal_lines(GAME, state, seat))
        state = GAME.apply(state, seat, action)
    return digest(legal), state_digest(GAME, state), list(state.finished), state


@pytest.mark.parametrize("edition", [1, 2])
def test_old_games_replay_as_they_were_played(edition):
    for record in RECORDS[edition]["games"]:
        legal, final, finished, state = _replayed(record, record["options"])
        assert state.edition == edition
        assert (legal, final, finished) == (record["legal"], record["final"], record["finished"])


def test_the_recorded_games_tell_the_editions_apart():
    """The check above can fail: the same actions replayed by the next edition list other legal actions
    (edition 1's games) or end otherwise or not at all (edition 2's, whose stack burns gave another turn)."""
    for edition in (1, 2):
        differ = 0
        for record in RECORDS[edition]["games"]:
            try:
                legal, final, _, _ = _replayed(record, {"edition": edition + 1})
            except Exception:  # an action the next edition refuses, or a turn that is not that seat's
                differ += 1
                continue
            differ += (legal, final) != (record["legal"], record["final"])
        assert differ >= len(RECORDS[edition]["games"]) // 2


def test_a_stored_game_keeps_its_edition():
    """A game stored without the option replays by edition 1, and its state keeps the edition."""
    state = GAME.start(4, GAME.stored_options({}), seed=5)
    assert state.edition == 1 and GAME.state_from_json(GAME.state_to_json(state)).edition == 1
    assert GAME.view(state, None)["edition"] == 1
