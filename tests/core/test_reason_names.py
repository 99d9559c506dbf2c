"""Every game's result reason names seats as {p0}, {p1}... (never "player 2"), so that people read
the players' names in it, as in the log."""

from __future__ import annotations

import re

import pytest

from contract import play_random
from parlour.games import all_games

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_reasons_name_seats_by_placeholder(game_id):
    game = all_games()[game_id]
    for seed in (1, 2):
        players = max(game.min_players, min(3, game.max_players))
        state, _ = play_random(game, players, seed)
        result = game.result(state)
        assert result.reason and not re.search(r"\bplayer \d", result.reason, re.IGNORECASE), result.reason
        shown = result.render_reason(NAMES[:players])
        assert "{" not in shown and shown == result.to_json(NAMES[:players])["reason"]


def test_palace_says_the_finishing_order_by_name():
    game = all_games()["palace"]
    state, _ = play_random(game, 3, 5)
    order = [NAMES[s] for s in game.result(state).details["finishing_order"]]
    assert game.result(state).render_reason(NAMES[:3]) == (
        f"went out in this order: {order[0]}, {order[1]}; {order[2]} was left holding cards")


def test_empire_says_who_accused_by_name():
    game = all_games()["empire"]
    state = game.start(2, {}, 1)
    state = game.apply(state, 0, {"type": "accuse", "role": 1})
    assert re.fullmatch(r"Ana accused the \w+ \(1\) (rightly|wrongly)", game.result(state).render_reason(NAMES[:2]))
