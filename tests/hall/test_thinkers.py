"""Issue 13 and issue 18 item 4: bots that think choose in worker processes, within a budget, so
that a room of search bots never holds the server's event loop."""

from __future__ import annotations

import os

import pytest
from hallkit import Socket, bot, host, new_room

from parlour.games import all_games
from parlour.hall.room.thinkers import ThinkerFailed, Thinkers


def test_search_bots_move_in_a_worker_process(client):
    room = new_room(client, seats=[bot("mcts"), bot("hard")])
    client.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"]))
    hall = client.app.state.hall
    with Socket(client, room["code"]) as watcher:
        watcher.hello()
        watcher.until(lambda state: state["turn"] >= 3, limit=50)
    workers = list(hall.bots.thinkers._all)
    assert workers and all(w.process.pid != os.getpid() and w.process.is_alive() for w in workers)
    assert len(client.app.state.hall.rooms[room["code"]].records) >= 3


def test_a_quick_bot_stays_in_the_server_threads(client):
    room = new_room(client, seats=[bot("greedy"), bot("greedy")])
    client.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"]))
    with Socket(client, room["code"]) as watcher:
        watcher.hello()
        watcher.until(lambda state: state["turn"] >= 3, limit=50)
    assert not client.app.state.hall.bots.thinkers._all  # no worker was started for it


def test_any_registered_thinking_bot_is_built_by_name_in_the_worker():
    game = all_games()["palace"]
    state = game.start(2, {}, 3)
    seat = min(game.to_act(state))
    legal = game.legal_actions(state, seat)
    thinkers = Thinkers(workers=1, budget=0.2)
    thinkers.deadline = 60  # this test is about building bots by name, not about time: a loaded machine
    try:                    # may take seconds to start the worker and import the games
        for name in ("hard", "mcts"):
            assert thinkers.choose("palace", name, 7, game.view(state, seat), seat, legal) in legal
        with pytest.raises(ThinkerFailed, match="has no bot"):
            thinkers.choose("palace", "no-such-bot", 7, game.view(state, seat), seat, legal)
    finally:
        thinkers.close()


def test_a_worker_that_overruns_its_budget_is_ended_and_replaced():
    game = all_games()["patchwork"]
    state = game.start(2, {}, 1)
    legal = game.legal_actions(state, 0)
    thinkers = Thinkers(workers=1, budget=1.0)
    thinkers.deadline = 0.05  # far less than the second the search takes
    try:
        with pytest.raises(ThinkerFailed, match="overran"):
            thinkers.choose("patchwork", "mcts", 1, game.view(state, 0), 0, legal)
        assert not thinkers._all  # the worker was ended
        thinkers.deadline = 60
        thinkers.budget = 0.1
        assert thinkers.choose("patchwork", "mcts", 1, game.view(state, 0), 0, legal) in legal  # a new one
    finally:
        thinkers.close()
