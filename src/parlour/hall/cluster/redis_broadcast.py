"""The :class:`~parlour.hall.broadcast.Broadcast` across processes, over Redis publish/subscribe.

    broadcast = RedisBroadcast("redis://127.0.0.1:6379/0", deliver=loop.call_soon_threadsafe)
    hall = Hall(store, games, clock, broadcast)

A message says only "room X changed" (the listener asks for its own snapshot), so it can be
repeated or merged without harm, and this is what makes Redis failures survivable: a publish that
Redis could not take is retried until it can; a process whose subscription broke subscribes again
and then calls each of its listeners once, since it may have missed changes while cut off. Every
listener is also called once as soon as its room's subscription is in place in Redis, so a change
made between a listener's first snapshot and its subscription is not missed.

Listeners of this process are called at once by :meth:`RedisBroadcast.publish`, exactly as with
:class:`~parlour.hall.broadcast.LocalBroadcast`; those called because of another process's message
go through ``deliver`` (by default called on the subscriber thread; the hall passes its event loop's
``call_soon_threadsafe``).
"""

from __future__ import annotations

import logging
import queue
import threading
import uuid
from collections.abc import Callable

import redis

from ..broadcast import Broadcast, Listener, LocalBroadcast

log = logging.getLogger(__name__)

CHANNEL_PREFIX = "parlour:room:"
POLL = 0.1  # seconds the subscriber waits for a message before it looks at its subscriptions again
BACKOFF_FIRST, BACKOFF_LAST = 0.05, 2.0  # seconds between attempts while Redis cannot be reached
REDIS_ERRORS = (redis.ConnectionError, redis.TimeoutError, OSError)


def call_here(listener: Listener) -> None:
    listener()


class RedisBroadcast(Broadcast):
    """Listeners in this process, told of changes published by any process on the same Redis."""

    def __init__(self, url: str, deliver: Callable[[Listener], object] = call_here,
                 channel_prefix: str = CHANNEL_PREFIX) -> None:
        self._redis = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self._deliver = deliver
        self._prefix = channel_prefix
        self._origin = uuid.uuid4().hex.encode()  # our own messages come back to us: skip them
        self._local = LocalBroadcast()
        self._lock = threading.Lock()  # guards _local between the caller and the subscriber thread
        self._subscriptions_changed = threading.Event()
        self._outbox: queue.SimpleQueue[str | None] = queue.SimpleQueue()
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

    def publish(self, code: str) -> None:
        for listener in self._listeners(code):
            listener()
        self.tell_others(code)

    def tell_others(self, code: str) -> None:
        """Tell only the other processes that room ``code`` changed (in the background)."""
        self._outbox.put(code)

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
            pubsub = self._redis.pubsub()
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
                    if message["type"] == "subscribe" or (message["type"] == "message"
                                                          and message["data"] != self._origin):
                        for listener in self._listeners(self._code(message["channel"])):
                            self._deliver(listener)
            except REDIS_ERRORS as broken:
                log.warning("Redis subscription lost (%s); subscribing again in %.2fs", broken, backoff)
                self._closed.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_LAST)
            finally:
                try:
                    pubsub.close()
                except REDIS_ERRORS:
                    pass

    def _send(self) -> None:
        """Publish each changed room, merging repeats; keep what Redis refused and try again."""
        pending: dict[str, None] = {}  # an ordered set of room codes
        backoff = BACKOFF_FIRST
        while True:
            code = self._outbox.get() if not pending else self._next_or_none()
            while code is not None:
                pending[code] = None
                code = self._next_or_none()
            if self._closed.is_set():
                return
            try:
                for code in list(pending):
                    self._redis.publish(self._prefix + code, self._origin)
                    del pending[code]
                backoff = BACKOFF_FIRST
            except REDIS_ERRORS as broken:
                log.warning("Redis refused a publish (%s); %d room(s) to tell again in %.2fs",
                            broken, len(pending), backoff)
                self._closed.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_LAST)

    def _next_or_none(self) -> str | None:
        try:
            return self._outbox.get_nowait()
        except queue.Empty:
            return None
