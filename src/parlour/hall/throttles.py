"""Throttles on guessing and on costly work: growing delays after failures (by the hall's clock),
and a budget of a core's seconds for password hashing (hall/accounts.py), in memory.

    guesses = Backoff(free=5, first=1.0, longest=900.0)
    guesses.check(("ana", "203.0.113.7"), clock.now())    # RateLimited while the key must wait
    guesses.failed(("ana", "203.0.113.7"), clock.now())   # the sixth failure in a row: wait 1 s, then 2, 4...

Sign-ins are throttled by name AND address together, so a stranger's failures never lock the
owner out from their own address (hall/accounts.py says the numbers).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass

from .quotas import RateLimited

KEYS_MAX = 100_000  # keys a throttle remembers; the oldest are forgotten first (memory stays bounded)


@dataclass
class _Failures:
    count: int
    last: float  # when the last failure was
    until: float  # no try before this


class Backoff:
    """Failures counted per key: past ``free`` of them in a row, each one more makes the key wait,
    ``first`` seconds, then twice as long each time, up to ``longest``. A key quiet for
    ``forget`` seconds (or one that succeeds) starts again from nothing."""

    def __init__(self, free: int, first: float, longest: float, forget: float = 3600.0,
                 keys_max: int = KEYS_MAX) -> None:
        self.free, self.first, self.longest, self.forget = free, first, longest, forget
        self.keys_max = keys_max
        self._failures: OrderedDict[Hashable, _Failures] = OrderedDict()

    def wait(self, key: Hashable, now: float) -> float:
        """Seconds ``key`` must still wait before it may try (0: it may)."""
        entry = self._failures.get(key)
        if entry is None:
            return 0.0
        if now - entry.last > self.forget:
            del self._failures[key]
            return 0.0
        return max(0.0, entry.until - now)

    def check(self, key: Hashable, now: float, what: str) -> None:
        """:class:`RateLimited` (saying ``what`` failed) while ``key`` must wait."""
        wait = self.wait(key, now)
        if wait > 0:
            raise RateLimited(f"too many {what}: try again in {seconds(wait)}", wait)

    def failed(self, key: Hashable, now: float) -> None:
        """One more failure of ``key``; past ``free`` in a row it must wait, longer each time."""
        self.wait(key, now)  # forgets an old entry
        entry = self._failures.pop(key, None) or _Failures(0, now, now)
        entry.count += 1
        entry.last = now
        past = entry.count - self.free
        if past > 0:
            entry.until = now + min(self.longest, self.first * 2 ** min(past - 1, 40))
        self._failures[key] = entry
        while len(self._failures) > self.keys_max:
            self._failures.popitem(last=False)

    def failures(self, key: Hashable, now: float) -> int:
        self.wait(key, now)
        entry = self._failures.get(key)
        return entry.count if entry else 0

    def succeeded(self, key: Hashable) -> None:
        self._failures.pop(key, None)


class Bucket:
    """Seconds of work allowed: ``capacity`` at most, ``rate`` more each second; work may be started
    while some is left, and its cost is taken after (the bucket may go below nothing)."""

    def __init__(self, capacity: float, rate: float, now: float) -> None:
        self.capacity, self.rate = capacity, rate
        self.left, self.at = capacity, now

    def fill(self, now: float) -> float:
        self.left = min(self.capacity, self.left + (now - self.at) * self.rate)
        self.at = now
        return self.left

    def wait(self, now: float) -> float:
        """Seconds until some work may start (0: now)."""
        left = self.fill(now)
        if left > 0:
            return 0.0
        return (-left) / self.rate + 0.01 if self.rate > 0 else 3600.0


class HashBudget:
    """How much of the machine password hashing may take, in seconds spent hashing (one hash at a
    time): per client address ``per_address`` seconds, refilled over ``window`` seconds;
    for the whole hall ``overall`` seconds, refilled at ``overall_rate`` a second; and at most
    ``waiting_max`` hashes waiting for their turn. Past any of them: :class:`RateLimited`, no hashing."""

    def __init__(self, per_address: float, window: float, overall: float, overall_rate: float,
                 waiting_max: int, exempt: frozenset[str] = frozenset(), keys_max: int = KEYS_MAX) -> None:
        """``exempt``: addresses no per-address share counts (the hall's overall cap still does)."""
        self.per_address, self.window, self.exempt = per_address, window, exempt
        self.waiting_max, self.keys_max = waiting_max, keys_max
        self.waiting = 0
        self.overall = Bucket(overall, overall_rate, time.monotonic())
        self._addresses: OrderedDict[str, Bucket] = OrderedDict()

    def _bucket(self, address: str, now: float) -> Bucket:
        bucket = self._addresses.pop(address, None) or Bucket(self.per_address, self.per_address / self.window, now)
        self._addresses[address] = bucket
        while len(self._addresses) > self.keys_max:
            self._addresses.popitem(last=False)
        return bucket

    def take(self, address: str) -> None:
        """:class:`RateLimited` unless a hash for ``address`` may start now."""
        now = time.monotonic()
        if self.waiting >= self.waiting_max or self.overall.wait(now) > 0:
            raise RateLimited("the hall is busy checking passwords: try again in a few seconds",
                              max(2.0, self.overall.wait(now)))
        wait = 0.0 if address in self.exempt else self._bucket(address, now).wait(now)
        if wait > 0:
            raise RateLimited(f"too many sign-ins from your address: try again in {seconds(wait)}", wait)

    def spent(self, address: str, cost: float) -> None:
        """A hash for ``address`` took ``cost`` seconds of a core."""
        now = time.monotonic()
        for bucket in (self.overall, *(() if address in self.exempt else (self._bucket(address, now),))):
            bucket.fill(now)
            bucket.left -= cost


def seconds(wait: float) -> str:
    """A wait in words: "3 s", "2 minutes"."""
    if wait < 90:
        return f"{max(1, math.ceil(wait))} s"
    minutes = math.ceil(wait / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
