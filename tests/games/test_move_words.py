"""Every game names a move in words, to the seat that may make it and from its view alone
(``GameEntry.describer``: the terminal's list of moves, the coach's hint, the analysis' better move):
over random games, every legal move of every seat to act gets words, never the raw form."""

from __future__ import annotations

import random

import pytest

from parlour.games import entries

GAMES = list(entries())


@pytest.mark.parametrize("game_id", GAMES)
def test_every_legal_move_has_words(game_id: str) -> None:
    found = entries()[game_id]
    game = found.game
    words = found.describer([f"Player {n + 1}" for n in range(game.max_players)])
    assert words is not None, f"{game.name} has no words for its moves"
    rng = random.Random(7)
    named = 0
    for seed in range(6):
        players = game.max_players if seed % 2 else game.min_players
        state = game.start(players, game.stored_options(None), seed)
        for _ in range(400):
            if game.is_over(state):
                break
            mover = sorted(game.to_act(state))[0]
            view, legal = game.view(state, mover), game.legal_actions(state, mover)
            said = [words(action, view, mover) for action in legal]
            assert all(isinstance(w, str) and w and "{" not in w and "·" not in w for w in said), said[:5]
            if game_id == "patchwork":  # two copies of a card may share their words; two placements never
                assert len(set(said)) == len(said), sorted(w for w in said if said.count(w) > 1)[:4]
            named += len(said)
            state = game.apply(state, mover, rng.choice(legal))
    assert named >= 50


def test_patchwork_names_a_purchase_its_price_and_where_it_goes() -> None:
    found = entries()["patchwork"]
    game = found.game
    words = found.describer(["Ana", "Bo"])
    assert words is not None
    state = game.start(2, game.stored_options(None), 1)
    view = game.view(state, 0)
    assert words({"type": "skip"}, view, 0) == "skip ahead 1 space and take 1 button"
    assert words({"type": "play", "patch": 23, "rotation": 0, "flip": False, "x": 0, "y": 0}, view, 0) == (
        "buy patch 23 (2 buttons, 1 space) and sew it in with its top-left corner at column 1, row 1")
    assert words({"type": "play", "patch": 12, "rotation": 3, "flip": True, "x": 3, "y": 4}, view, 0) == (
        "buy patch 12 (5 buttons, 5 spaces, income 2) and sew it in, flipped and turned once anticlockwise,"
        " with its top-left corner at column 4, row 5")
    assert words({"type": "play", "patch": -1, "rotation": 0, "flip": False, "x": 8, "y": 2}, view, 0) == (
        "sew the special patch onto the square at column 9, row 3")
