"""A game that declares ``same_view_but_seat`` (parlour.core.Game) shows every seat the spectators'
view with its own ``"seat"``, keys in the same order: the hall then makes one view a change for all
of a room's seats (hall/room/audience.py), and each seat's JSON must be, byte for byte, what the
game's own view of it encodes to."""

from __future__ import annotations

import random

import pytest

from parlour.games import all_games
from parlour.hall.wire import dumps_bytes

DECLARED = sorted(game_id for game_id, game in all_games().items() if game.same_view_but_seat)


def test_patchwork_declares_it() -> None:
    assert "patchwork" in DECLARED


@pytest.mark.parametrize("game_id", DECLARED)
def test_every_seats_view_is_the_spectators_with_its_seat(game_id: str) -> None:
    game = all_games()[game_id]
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        for players in sorted({game.min_players, game.max_players}):
            state = game.start(players, {}, seed)
            while True:
                spectators = game.view(state, None)
                for seat in range(players):
                    assert dumps_bytes(game.view(state, seat)) == dumps_bytes({**spectators, "seat": seat})
                checked += 1
                if game.is_over(state):
                    break
                seat = min(game.to_act(state))
                state = game.apply(state, seat, game.random_action(state, seat, rng))
    assert checked > 100  # whole games, to their ends
