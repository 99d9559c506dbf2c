"""A room goes to the hall process its people reach (hall/cluster/handover.py): two real halls on a
throwaway PostgreSQL and Redis, the room's lease held by one, its players connected to the other
(as after a failover, once nginx sends them back to their hall)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis_server import RedisServer
from test_postgres import empty_database
from test_several_halls import Client, Game, Halls, assert_every_ack_is_stored_once, new_game

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]
WITHIN = 60.0  # seconds a test waits for what must happen before it calls it lost (not a timing test)


@pytest.fixture
def halls(postgres_url: str, redis_server: RedisServer, tmp_path: Path) -> Iterator[Halls]:
    running = Halls(empty_database(postgres_url), redis_server.url, tmp_path)
    yield running
    running.close()


def test_a_room_nobody_is_connected_to_at_its_owner_goes_to_the_hall_its_players_reach(halls):
    halls.start(2)
    code, tokens = new_game(halls, seats=(0, 0))  # joined and started through hall 0: it holds the lease
    owner, token = halls.owner(code)
    assert owner == 0
    spectator = Client(halls.ws(0, code))
    players = [Client(halls.ws(1, code), seat_token) for seat_token in tokens]
    game = Game(players)
    game.play(moves=6)  # forwarded to hall 0, where a spectator is connected: it keeps the room
    assert halls.owner(code) == (0, token)
    spectator.close()
    game.play(moves=4)  # nobody at hall 0 any more: the room goes to hall 1 with the next forwarded move
    deadline = time.monotonic() + WITHIN
    while halls.owner(code)[0] != 1:
        assert time.monotonic() < deadline, f"the room stayed with hall {halls.owner(code)[0]}"
        game.play(moves=1)
    moved_at = halls.owner(code)[1]
    assert moved_at > token
    game.play()  # to the end, applied where its players are
    record = assert_every_ack_is_stored_once(halls, code, game.acked)
    assert record.status == "over" and len(game.acked) == len(record.actions)
    assert halls.owner(code) == (1, moved_at)  # not taken back by hall 0
    for player in players:
        player.close()


def test_a_room_whose_owner_has_its_players_is_not_given_to_a_hall_that_forwards_a_spectators_chat(halls):
    halls.start(2)
    code, tokens = new_game(halls, seats=(0, 0))
    players = [Client(halls.ws(0, code), seat_token) for seat_token in tokens]
    spectator = Client(halls.ws(1, code), chat=True)
    game = Game(players)
    game.play(moves=2)
    spectator.ws.send(json.dumps({"type": "chat", "text": "hello from hall 1", "name": "Cy"}))
    deadline = time.monotonic() + WITHIN
    while not any(line["text"] == "hello from hall 1" for line in spectator.chat.values()):
        assert time.monotonic() < deadline, "the spectator's line did not come back"
        spectator.receive(0.5)
    game.play(moves=2)
    assert halls.owner(code)[0] == 0
    for client in (*players, spectator):
        client.close()


def test_a_room_stays_with_its_owner_when_the_forwarding_hall_has_nobody_connected_to_it(halls):
    """A REST join through another hall before anyone is connected anywhere: the room stays where
    it is (nobody's hall to go to)."""
    halls.start(2)
    code, _ = new_game(halls, seats=(0, 1))  # Bo's join and the start forwarded from hall 1
    assert halls.owner(code)[0] == 0
