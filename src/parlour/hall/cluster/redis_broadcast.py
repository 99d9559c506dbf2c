"""The :class:`~parlour.hall.broadcast.Broadcast` across processes, over Redis publish/subscribe.

    broadcast = RedisBroadcast("redis://127.0.0.1:6379/0", deliver=loop.call_soon_threadsafe)
    hall = Hall(store, games, clock, broadcast)

A message says "room X changed" (the listener asks for its own snapshot) and may carry what was
committed (a payload), which ``heard(code, payload)``, when given, receives in the order it was
published. A message without a payload means "look at the store": so messages can be merged into
one without harm, and this is what makes Redis failures survivable: the publishes Redis could not
take are retried until it can, merged into one plain message a room; a process whose subscription
broke subscribes again and then hears of each of its rooms once without a payload, since it may have
missed changes while cut off. Each room is also heard of once, without a payload, as soon as its
subscription is in place in Redis, so a change made between a listener's first snapshot and its
subscription is not missed.

Listeners of this process are called at once by :meth:`RedisBroadcast.publish`, exactly as with
:class:`~parlour.hall.broadcast.LocalBroadcast`; those called because of another process's message
go through ``deliver`` (by default called on the subscriber thread; the hall passes its event loop's
``call_soon_threadsafe``).
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import uuid
from collections.abc import Callable
from functools import partial

import redis

from ..broadcast import Broadcast, Listener, LocalBroadcast

log = logging.getLogger(__name__)

CHANNEL_PREFIX = "parlour:room:"
POLL = 0.1  # seconds the subscriber waits for a message before it looks at its subscriptions again
BACKOFF_FIRST, BACKOFF_LAST = 0.05, 2.0  # seconds between attempts while Redis cannot be reached
PIPELINE = 1000  # publishes sent in one round trip at most
REDIS_ERRORS = (redis.ConnectionError, redis.TimeoutError, OSError)


def call_here(listener: Listener) -> None:
    listener()


class RedisBroadcast(Broadcast):
    """Listeners in this process, told of changes published by any process on the same Redis."""

    def __init__(self, url: str, deliver: Callable[[Listener], object] = call_here,
                 channel_prefix: str = CHANNEL_PREFIX,
                 heard: Callable[[str, bytes | None], None] | None = None) -> None:
        """``heard``: called (through ``deliver``) for each message from another process, with its
        room and payload, instead of the room's listeners."""
        self._redis = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self._deliver = deliver
        self._heard = heard
        self._prefix = channel_prefix
        self._origin = uuid.uuid4().hex.encode()  # our own messages come back to us: skip them
        self._local = LocalBroadcast()
        self._lock = threading.Lock()  # guards _local between the caller and the subscriber thread
        self._subscriptions_changed = threading.Event()
        self._outbox: queue.SimpleQueue[list[tuple[str, bytes | None]] | None] = queue.SimpleQueue()
        self._closed = threading.Event()
        self._threads = [threading.Thread(target=self._listen, name="redis-broadcast-listen", daemon=True),
                         threading.Thread(target=self._send, name="redis-broadcast-send", daemon=True)]
        for thread in self._threads:
            thread.start()

    # -- the Broadcast interface (called by the hall, on its own thread) --

    def subscribe(self, code: str, listener: Listener) -> None:
        with self._lock:
            self._local.subscribe(code, listener)
        self._subscriptions_changed.set()

    def unsubscribe(self, code: str, listener: Listener) -> None:
        with self._lock:
            self._local.unsubscribe(code, listener)
        self._subscriptions_changed.set()

    def publish(self, code: str, payload: bytes | None = None) -> None:
        for listener in self._listeners(code):
            listener()
        self.tell_others(code, payload)

    def tell_others(self, code: str, payload: bytes | None = None) -> None:
        """Tell only the other processes that room ``code`` changed (in the background)."""
        self._outbox.put([(code, payload)])

    def tell_others_all(self, changes: list[tuple[str, bytes | None]]) -> None:
        """:meth:`tell_others` of each of ``changes`` (room, payload), in order, waking the sender
        thread once."""
        if changes:
            self._outbox.put(changes)

    def ping(self) -> None:
        """Returns once Redis answered; raises if it cannot be reached (blocking)."""
        self._redis.ping()

    def close(self) -> None:
        self._closed.set()
        self._outbox.put(None)
        for thread in self._threads:
            thread.join(timeout=10)
        self._redis.close()

    # -- the two threads --

    def _listeners(self, code: str) -> list[Listener]:
        with self._lock:
            return self._local.listeners(code)

    def _wanted(self) -> set[bytes]:
        with self._lock:
            return {(self._prefix + code).encode() for code in self._local.codes()}

    def _code(self, channel: bytes) -> str:
        return channel.decode()[len(self._prefix):]

    def _listen(self) -> None:
        """Keep one subscription per room with listeners here; call them when another process
        publishes, and once whenever a subscription is (again) in place."""
        backoff = BACKOFF_FIRST
        while not self._closed.is_set():
            pubsub = self._redis.pubsub()  # type: ignore[no-untyped-call]  # redis-py leaves it unannotated
            subscribed: set[bytes] = set()
            self._subscriptions_changed.set()
            try:
                while not self._closed.is_set():
                    if self._subscriptions_changed.is_set():
                        self._subscriptions_changed.clear()
                        wanted = self._wanted()
                        if wanted - subscribed:
                            pubsub.subscribe(*(wanted - subscribed))
                        if subscribed - wanted:
                            pubsub.unsubscribe(*(subscribed - wanted))
                        subscribed = wanted
                    message = pubsub.get_message(timeout=POLL)
                    if message is None:
                        continue
                    backoff = BACKOFF_FIRST
                    if message["type"] == "subscribe":
                        self._tell(self._code(message["channel"]), None)
                    elif message["type"] == "message":
                        origin, _, payload = message["data"].partition(b"\n")
                        if origin != self._origin:
                            self._tell(self._code(message["channel"]), payload or None)
            except REDIS_ERRORS as broken:
                log.warning("Redis subscription lost (%s); subscribing again in %.2fs", broken, backoff)
                self._closed.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_LAST)
            finally:
                with contextlib.suppress(*REDIS_ERRORS):
                    pubsub.close()

    def _tell(self, code: str, payload: bytes | None) -> None:
        if self._heard is not None:
            self._deliver(partial(self._heard, code, payload))
            return
        for listener in self._listeners(code):
            self._deliver(listener)

    def _send(self) -> None:
        """Publish each change in order, everything queued since the last round trip in one
        pipeline; keep what Redis refused (or might not have taken), merged into one plain message
        a room (look at the store), and try again."""
        pending: list[tuple[str, bytes | None]] = []
        backoff = BACKOFF_FIRST
        while True:
            item = self._outbox.get() if not pending else self._next_or_none()
            while item is not None:
                pending += item
                item = self._next_or_none()
            if self._closed.is_set():
                return
            try:
                while pending:  # what queued up meanwhile, in one round trip (a group commit's changes)
                    pipe = self._redis.pipeline(transaction=False)
                    for code, payload in pending[:PIPELINE]:
                        pipe.publish(self._prefix + code,
                                     self._origin if payload is None else self._origin + b"\n" + payload)
                    pipe.execute()
                    del pending[:PIPELINE]
                backoff = BACKOFF_FIRST
            except REDIS_ERRORS as broken:
                pending = [(code, None) for code in dict.fromkeys(code for code, _ in pending)]
                log.warning("Redis refused a publish (%s); %d room(s) to tell again in %.2fs",
                            broken, len(pending), backoff)
                self._closed.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_LAST)

    def _next_or_none(self) -> list[tuple[str, bytes | None]] | None:
        try:
            return self._outbox.get_nowait()
        except queue.Empty:
            return None
