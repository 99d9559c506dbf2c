"""The Broadcast across processes over a real Redis: two RedisBroadcast instances stand for two
hall processes (each has its own connections and threads, as a process would)."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from redis_server import RedisServer

from parlour.hall.cluster.redis_broadcast import CHANNEL_PREFIX, RedisBroadcast

WITHIN = 20.0  # seconds a test waits for something that must happen before it calls it lost


class Counter:
    """A listener that counts its calls and lets a test wait for the next one."""

    def __init__(self) -> None:
        self.calls = 0
        self._changed = threading.Condition()

    def __call__(self) -> None:
        with self._changed:
            self.calls += 1
            self._changed.notify_all()

    def wait_beyond(self, calls: int) -> int:
        """Wait until called more than ``calls`` times; the count then."""
        with self._changed:
            assert self._changed.wait_for(lambda: self.calls > calls, timeout=WITHIN), \
                f"still {self.calls} call(s), expected more than {calls}"
            return self.calls


def subscribers(server: RedisServer, code: str) -> int:
    with redis.Redis.from_url(server.url) as client:
        return dict(client.pubsub_numsub(CHANNEL_PREFIX + code))[(CHANNEL_PREFIX + code).encode()]


def wait_for_subscribers(server: RedisServer, code: str, count: int) -> None:
    deadline = time.monotonic() + WITHIN
    while subscribers(server, code) != count:
        assert time.monotonic() < deadline, f"{subscribers(server, code)} subscriber(s), expected {count}"
        time.sleep(0.02)


def next_message(pubsub: Any) -> dict[str, Any]:
    message = pubsub.get_message(timeout=WITHIN)
    assert message is not None, "Redis sent nothing"
    return message


def listening(broadcast: RedisBroadcast, code: str) -> Counter:
    """A new listener of ``code``, once the room's subscription is in place in Redis (it is called
    then: the room's first listener in that process)."""
    listener = Counter()
    broadcast.subscribe(code, listener)
    listener.wait_beyond(0)
    return listener


@pytest.fixture
def halls(redis_server: RedisServer) -> Iterator[tuple[RedisBroadcast, RedisBroadcast]]:
    first, second = RedisBroadcast(redis_server.url), RedisBroadcast(redis_server.url)
    yield first, second
    first.close()
    second.close()


def test_a_change_published_by_one_process_reaches_the_listeners_of_another(halls) -> None:
    here, there = halls
    listener, elsewhere = listening(here, "ROOM1"), listening(here, "OTHER")
    there.publish("ROOM1")
    assert listener.wait_beyond(1) == 2
    there.publish("OTHER")
    elsewhere.wait_beyond(1)
    assert listener.calls == 2  # the other room's change did not call it


def test_a_publish_calls_the_listeners_of_its_own_process_at_once_and_only_once(halls, redis_server) -> None:
    here, there = halls
    listener, mark = listening(here, "ROOM1"), listening(here, "MARK")
    with redis.Redis.from_url(redis_server.url) as client, client.pubsub() as watcher:
        watcher.subscribe(CHANNEL_PREFIX + "ROOM1")
        here.publish("ROOM1")
        assert listener.calls == 2  # called by publish itself, before it returned
        assert next_message(watcher)["type"] == "subscribe"
        assert next_message(watcher)["type"] == "message"  # our message is in Redis, and comes back
    there.publish("ROOM1")
    there.publish("MARK")  # Redis sends these after ours, in order: when MARK arrives all were seen
    mark.wait_beyond(1)
    assert listener.calls == 3


def test_unsubscribed_listeners_are_not_called_and_the_last_one_leaves_the_channel(halls, redis_server) -> None:
    here, there = halls
    staying, mark = listening(here, "ROOM1"), listening(here, "MARK")
    leaving = Counter()
    here.subscribe("ROOM1", leaving)
    here.unsubscribe("ROOM1", leaving)
    there.publish("ROOM1")
    there.publish("MARK")
    mark.wait_beyond(1)  # delivered in order on one thread: ROOM1's change was handled before
    assert (staying.calls, leaving.calls) == (2, 0)
    wait_for_subscribers(redis_server, "ROOM1", 1)
    here.unsubscribe("ROOM1", staying)
    wait_for_subscribers(redis_server, "ROOM1", 0)


def test_after_redis_restarts_the_subscription_comes_back_and_missed_changes_are_told(halls, redis_server) -> None:
    here, there = halls
    listener = listening(here, "ROOM1")
    redis_server.stop()
    there.publish("ROOM1")  # Redis is down: kept and tried again
    redis_server.start()
    listener.wait_beyond(1)  # resubscribed (told once) or the retried publish arrived
    wait_for_subscribers(redis_server, "ROOM1", 1)
    calls = listener.calls
    there.publish("ROOM1")
    listener.wait_beyond(calls)


def test_changes_queued_together_go_to_redis_in_one_round_trip_each_in_order(halls, redis_server) -> None:
    """What queued up while the sender was busy (a group commit's changes) is published in one
    pipeline, not one round trip a change; the other process still hears each, in order."""
    here, there = halls
    heard: list[bytes | None] = []
    done = threading.Event()
    listener = RedisBroadcast(redis_server.url, heard=lambda code, payload: (
        heard.append(payload), payload == b"199" and done.set()))
    try:
        subscribed = Counter()
        listener.subscribe("ROOM1", subscribed)
        wait_for_subscribers(redis_server, "ROOM1", 1)
        pool = there._redis.connection_pool
        taken = 0
        get_connection = pool.get_connection

        def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal taken
            taken += 1
            return get_connection(*args, **kwargs)

        pool.get_connection = counted  # type: ignore[method-assign]  # one a round trip
        switching = sys.getswitchinterval()
        sys.setswitchinterval(1.0)  # the sender thread waits for this one to block: all 200 are queued
        try:
            for n in range(200):
                there.tell_others("ROOM1", str(n).encode())
        finally:
            sys.setswitchinterval(switching)
        assert done.wait(WITHIN)
        assert [payload for payload in heard if payload is not None] == [str(n).encode() for n in range(200)]
        assert taken <= 5, f"{taken} round trips for 200 changes"
    finally:
        listener.close()
