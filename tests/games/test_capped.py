"""A game that reaches its cap on actions (``Game.max_actions``) ends as its rules document decides
(docs/rules/<game>.md, one line each). Palace's ruling is tested with its decisions
(tests/games/palace/test_palace_decisions.py); the other games end as a draw."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from parlour.games import all_games

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
DRAW = ("- A game that reaches the cap on actions (`Game.max_actions`, 5,000) ends there as a draw, every player"
        " first with a score of 0.5")


@pytest.mark.parametrize("game_id", ["patchwork", "prestige_cities", "dinosaurs", "empire"])
def test_a_game_at_its_cap_on_actions_ends_as_a_draw(game_id):
    """docs/rules/<game>.md: "A game that reaches the cap on actions (`Game.max_actions`, 5,000) ends there
    as a draw, every player first with a score of 0.5 ..." """
    assert DRAW in (DOCS / f"{game_id}.md").read_text()
    game = all_games()[game_id]
    assert game.max_actions == 5000
    rng = random.Random(3)
    for players in {game.min_players, game.max_players}:
        state = game.start(players, {}, 3)
        for _ in range(3):  # a game under way: its rules have not ended it
            if game.is_over(state):
                break
            seat = min(game.to_act(state))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        result = game.capped(state, players)
        assert result.ranks == (1,) * players and result.scores == (0.5,) * players
        assert result.reason == "the game reached its cap of 5,000 actions before its rules ended it: a draw"
        assert result.details == {"capped": 5000}


def test_palace_has_its_own_ruling_in_its_document():
    text = (DOCS / "palace.md").read_text()
    assert "- A game that reaches the cap on actions (`Game.max_actions`, 4,000" in text
    assert "ends there as a repetition does" in text
