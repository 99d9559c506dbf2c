"""The cluster's broadcast (hall/cluster/node.py ``Fanout``) on a real Redis: a room this process
leads is not subscribed to (only it commits the room's changes, and each of its publishes came back
to it to be read and dropped); once the room follows another process it is subscribed again and
the copy told to catch up; and a hall process that leads a watched room holds no subscription of it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis_server import RedisServer
from test_limits import run_apart
from test_postgres import empty_database
from test_several_halls import Client, Game, Halls, new_game

from parlour.hall.cluster.node import Fanout
from parlour.hall.cluster.redis_broadcast import CHANNEL_PREFIX, RedisBroadcast
from parlour.hall.room.chat import chat_key

WITHIN = 20.0  # seconds a test waits for what must happen before it calls it lost (not a timing test)


def subscribers(url: str, key: str) -> int:
    with redis.Redis.from_url(url) as client:
        return int(dict(client.pubsub_numsub(CHANNEL_PREFIX + key))[(CHANNEL_PREFIX + key).encode()])


async def until(done, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + WITHIN
    while not done():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


def test_a_led_room_is_not_heard_on_redis_until_it_follows_again_and_then_catches_up(redis_server: RedisServer):
    async def play() -> list[tuple[str, bytes | None]]:
        heard: list[tuple[str, bytes | None]] = []
        fanout = Fanout(redis_server.url, lambda key, payload: heard.append((key, payload)),
                        asyncio.get_running_loop())
        other = RedisBroadcast(redis_server.url)
        try:
            fanout.subscribe("ROOM1", lambda: None)
            fanout.subscribe(chat_key("ROOM1"), lambda: None)
            await until(lambda: ("ROOM1", None) in heard, "the room's subscription never came into place")
            fanout.leading("ROOM1", True)
            await until(lambda: subscribers(redis_server.url, "ROOM1") == 0, "still subscribed to a led room")
            assert subscribers(redis_server.url, chat_key("ROOM1")) == 1  # moderators hide lines from anywhere
            fanout.publish("ROOM1", b'{"turn": 1}')  # published for the others, not heard back here
            fanout.subscribe("ROOM1", lambda: None)  # another watcher of the led room: still not subscribed
            heard.clear()
            fanout.leading("ROOM1", False)  # another process took it: hear it again, and catch up
            await until(lambda: ("ROOM1", None) in heard, "the room's copy was not told to catch up")
            assert subscribers(redis_server.url, "ROOM1") == 1
            other.publish("ROOM1", b'{"turn": 2}')
            await until(lambda: ("ROOM1", b'{"turn": 2}') in heard, "the new owner's change was not heard")
            return heard
        finally:
            other.close()
            await asyncio.to_thread(fanout.close)

    heard = run_apart(play())
    assert [key for key, _ in heard if key == "ROOM1"] == ["ROOM1", "ROOM1"]  # never our own publish


def test_what_one_turn_of_the_event_loop_publishes_goes_to_redis_in_one_handoff_in_order(redis_server):
    """A group commit's moves are acknowledged in one turn of the event loop: their publishes wake
    the Redis sender thread once, not once a move, and the other processes hear each, in order."""
    async def play() -> tuple[int, list[bytes | None]]:
        fanout = Fanout(redis_server.url, lambda key, payload: None, asyncio.get_running_loop())
        heard: list[bytes | None] = []
        other = RedisBroadcast(redis_server.url, heard=lambda key, payload: heard.append(payload))
        handoffs = 0
        tell = fanout.redis.tell_others_all

        def counted(changes: list[tuple[str, bytes | None]]) -> None:
            nonlocal handoffs
            handoffs += 1
            tell(changes)

        fanout.redis.tell_others_all = counted  # type: ignore[method-assign]
        try:
            other.subscribe("ROOM1", lambda: None)
            await until(lambda: subscribers(redis_server.url, "ROOM1") == 1, "the other process never subscribed")
            for n in range(50):  # one turn of the loop
                fanout.publish("ROOM1", str(n).encode())
            await until(lambda: len([p for p in heard if p is not None]) == 50, "not every change was heard")
            return handoffs, [p for p in heard if p is not None]
        finally:
            other.close()
            await asyncio.to_thread(fanout.close)

    handoffs, heard = run_apart(play())
    assert handoffs == 1 and heard == [str(n).encode() for n in range(50)]


@pytest.fixture
def halls(postgres_url: str, redis_server: RedisServer, tmp_path: Path) -> Iterator[Halls]:
    running = Halls(empty_database(postgres_url), redis_server.url, tmp_path)
    yield running
    running.close()


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_the_hall_that_leads_a_watched_room_holds_no_subscription_of_it_and_a_replica_does(halls, redis_server):
    halls.start(2)
    code, tokens = new_game(halls, seats=(0, 0))
    clients = [Client(halls.ws(0, code), token) for token in tokens]
    spectator = Client(halls.ws(1, code))
    Game(clients).play(moves=4)
    assert halls.owner(code)[0] == 0
    deadline = time.monotonic() + WITHIN
    while subscribers(redis_server.url, code) != 1:  # the spectator's hall only
        assert time.monotonic() < deadline, f"{subscribers(redis_server.url, code)} subscriptions of the room"
        time.sleep(0.05)
    turn = clients[0].state["turn"]  # type: ignore[index]
    spectator.until(lambda state: state["turn"] == turn)  # the replica still hears every move
    for client in (*clients, spectator):
        client.close()
