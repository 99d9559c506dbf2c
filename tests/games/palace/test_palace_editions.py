"""Old games replay as they were played: random games recorded with the engine of each rules edition
(tests/games/palace/old_games/record.py; edition 1 by the engine of commit 430ba53, the last before the
option existed, stored without the option as such games are; edition 2 by the engine before edition 3)
replay through today's engine with the same legal actions at every step and the same end."""

from __future__ import annotations

from pathlib import Path

import pytest
from palace_states import GAME

from editions import differing, records, replayed

RECORDS = records(Path(__file__).parent / "old_games")


@pytest.mark.parametrize("edition", [1, 2])
def test_old_games_replay_as_they_were_played(edition):
    for record in RECORDS[edition]["games"]:
        legal, final, state = replayed(GAME, record, record["options"], "edition")
        finished = list(state.finished)
        assert state.edition == edition
        assert (legal, final, finished) == (record["legal"], record["final"], record["finished"])


def test_the_recorded_games_tell_the_editions_apart():
    """The check above can fail: the same actions replayed by the next edition list other legal actions
    (edition 1's games) or end otherwise or not at all (edition 2's, whose stack burns gave another turn)."""
    for edition in (1, 2):
        differ = differing(GAME, RECORDS[edition]["games"], edition + 1, "edition")
        assert differ >= len(RECORDS[edition]["games"]) // 2


def test_a_stored_game_keeps_its_edition():
    """A game stored without the option replays by edition 1, and its state keeps the edition."""
    state = GAME.start(4, GAME.stored_options({}), seed=5)
    assert state.edition == 1 and GAME.state_from_json(GAME.state_to_json(state)).edition == 1
    assert GAME.view(state, None)["edition"] == 1
