"""The hall's rates and quotas: how often a client may do what, counted in memory.

    guard = Guard(Limits())
    guard.take("rooms", "203.0.113.7")   # raises RateLimited (retry_after seconds) past the quota

The rates and quotas are :class:`Limits`, one value per hall, set by ``parlour serve --limit
NAME=VALUE`` (docs/protocol.md lists them all). Rates are counted by the maintained ``limits``
library (fixed windows in memory), per client address and per connection; they start again
with the process. WebSocket messages, checked for every move, are counted with the same windows
and answers at less cost (:class:`Window`, :class:`Windows`): per connection on the connection,
per address in the guard.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter

from ..core import ParlourError
from . import observe


@dataclass(frozen=True)
class Limits:
    """The rates and quotas of one hall, in the ``limits`` library's notation ("10/minute",
    several joined by ";"). Per client address unless the name says otherwise."""

    rest: str = "20/second;600/minute"  # REST calls under /api
    rooms: str = "10/minute;60/hour"  # rooms created
    joins: str = "30/minute"  # seats taken
    bot_rooms: int = 4  # unfinished rooms with a bot seat, made or given bots from one address
    sockets: int = 32  # WebSocket connections open at once
    connections: int = 64  # HTTP connections open at once, WebSockets included (counted by the server, cli/edge.py)
    messages: str = "200/second"  # WebSocket messages, all of an address's connections together
    connection_messages: str = "30/second;600/minute"  # WebSocket messages on one connection
    chat: str = "5/10second;40/minute"  # chat lines said by one seat, signed-in player or spectator's address
    chat_address: str = "10/10second;80/minute"  # chat lines said from one address, in every room together
    replay_frames: str = "1000/10second;6000/minute"  # replay frames made (core/replays.py page_cost)
    flood: int = 100  # messages refused for rate on one connection before it is closed
    games_per_player: int = 50  # unfinished games a signed-in player may be seated in at once
    bot_games: int = 4  # games one bot account plays at once (hall/challenges.py); a bot may ask for fewer
    challenges: str = "10/minute;100/hour"  # challenges sent (to bot accounts and to people), per address
    exempt: str = ""  # addresses, comma-separated, that no per-address quota counts (a trusted proxy's checks)
    hashing_ms: int = 2000  # milliseconds of password hashing a minute (sign-ins: ~150-200 each; hall/accounts.py)
    hashing_share: int = 25  # percent of the time the whole hall may spend hashing passwords (all addresses)

    @classmethod
    def lifted(cls) -> Limits:
        """No quota per client address (a load test from one machine); the sizes, the
        per-connection rate and the outgoing queues stay bounded."""
        return cls(rest="1000000/second", rooms="1000000/second", joins="1000000/second", bot_rooms=1_000_000,
                   sockets=1_000_000, messages="1000000/second", connections=1_000_000, hashing_ms=1_000_000_000,
                   hashing_share=100, chat_address="1000000/second", replay_frames="1000000/second",
                   challenges="1000000/second")

    def with_settings(self, settings: list[str]) -> Limits:
        """These limits with ``NAME=VALUE`` settings applied; :class:`ValueError` in words."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for setting in settings:
            name, _, value = setting.partition("=")
            name = name.strip().replace("-", "_")
            if name not in fields or not value:
                raise ValueError(f"{setting!r}: a limit is NAME=VALUE, NAME one of {', '.join(fields)}")
            if name == "exempt":
                changes[name] = value
            elif fields[name].type == "int":
                if not value.isdigit():
                    raise ValueError(f"{setting!r}: {name} is a whole number")
                changes[name] = int(value)
            else:
                try:
                    parse_many(value)
                except ValueError:
                    raise ValueError(f"{setting!r}: {name} is a rate such as 10/minute or 5/second;100/hour") from None
                changes[name] = value
        return dataclasses.replace(self, **changes)


class RateLimited(ParlourError):
    """A quota or rate ran out; ``retry_after`` is the seconds until it allows one more."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after

    @property
    def retry_seconds(self) -> int:
        """``Retry-After`` as HTTP has it: whole seconds, at least 1."""
        return max(1, math.ceil(self.retry_after))


# What each rate counts, in the words of a refusal.
COUNTED = {"rest": "requests", "rooms": "new rooms", "joins": "seats taken", "messages": "messages",
           "connection_messages": "messages on this connection", "chat": "chat lines",
           "chat_address": "chat lines from your address", "replay_frames": "replay frames",
           "challenges": "challenges"}
PER_CONNECTION = {"connection_messages", "chat"}  # every other rate counts per client address


class Guard:
    """The hall's rates and quotas, counted in memory (they start again with the process)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._rates = {name: parse_many(getattr(limits, name)) for name in COUNTED}
        self._limiter = FixedWindowRateLimiter(MemoryStorage())  # a moving window cost twice the CPU per message
        self._messages = Windows("messages", self._rates["messages"])  # counted for every move: Window's cost
        self.exempt = frozenset(address_key(a.strip()) for a in limits.exempt.split(",") if a.strip())
        self.sockets: dict[str, int] = {}  # open WebSocket connections by address
        self._bot_rooms: dict[str, dict[str, Callable[[], bool]]] = {}  # address -> room code -> still on?

    def take(self, name: str, key: str, cost: int = 1) -> None:
        """Count ``cost`` of ``name`` for ``key`` (an address, a connection), or :class:`RateLimited`."""
        if key in self.exempt and name not in PER_CONNECTION:
            return
        if name == "messages":
            self._messages.take(key, cost)
            return
        for item in self._rates[name]:
            if not self._limiter.hit(item, name, key, cost=cost):
                observe.quota_hit(name)
                raise refusal(name, item, self._retry_after(item, name, key))

    def own_rate(self, name: str) -> Window:
        """The counts of ``name`` (a rate per connection) for one connection, kept by it."""
        return Window(name, self._rates[name])

    def message(self, rate: Window, address: str) -> None:
        """One WebSocket message: counted by its connection's own ``rate`` (:meth:`own_rate` of
        ``connection_messages``), then by its address; :class:`RateLimited` past either."""
        rate.take()
        self.take("messages", address)

    def check(self, name: str, key: str) -> None:
        """:class:`RateLimited` if ``key`` has no ``name`` left now; nothing is counted (a request
        refused before it is read, when its cost is known only once it is)."""
        if key in self.exempt and name not in PER_CONNECTION:
            return
        for item in self._rates[name]:
            if not self._limiter.test(item, name, key):
                raise refusal(name, item, self._retry_after(item, name, key))

    def _retry_after(self, item: RateLimitItem, *keys: str) -> float:
        reset = self._limiter.get_window_stats(item, *keys).reset_time
        return max(0.0, reset - time.time())

    # -- connections and bot rooms: counted while they last -------------------------------------
    def open_socket(self, address: str) -> bool:
        """One more connection from ``address``; False (and not counted) past the cap."""
        count = self.sockets.get(address, 0)
        if count >= self.limits.sockets and address not in self.exempt:
            observe.quota_hit("sockets")
            return False
        self.sockets[address] = count + 1
        return True

    def close_socket(self, address: str) -> None:
        count = self.sockets.get(address, 0) - 1
        if count > 0:
            self.sockets[address] = count
        else:
            self.sockets.pop(address, None)

    def check_bot_room(self, address: str, code: str | None = None) -> None:
        """:class:`RateLimited` if ``address`` already has its share of unfinished bot rooms
        (``code``: a room of theirs that would become one, which counts once)."""
        if address in self.exempt:
            return
        rooms = self._bot_rooms.get(address, {})
        for other in [c for c, on in rooms.items() if not on()]:
            del rooms[other]
        if code not in rooms and len(rooms) >= self.limits.bot_rooms:
            observe.quota_hit("bot_rooms")
            raise RateLimited(f"at most {self.limits.bot_rooms} unfinished rooms with bots per player:"
                              " finish or resign one first (the lobby's My games lists yours); a game"
                              " nobody is at stops counting after 10 minutes", 60.0)

    def add_bot_room(self, address: str, code: str, still_on: Callable[[], bool]) -> None:
        """Count room ``code`` among the unfinished bot rooms of ``address`` while ``still_on()``."""
        self._bot_rooms.setdefault(address, {})[code] = still_on

    def new_room(self, address: str, with_bots: bool) -> None:
        """Count a new room made from ``address``: :class:`RateLimited` past the rate of new rooms,
        or, for one ``with_bots``, past the address's share of unfinished bot rooms (checked first;
        nothing is counted then). Once made, a room with bots is added with :meth:`add_bot_room`."""
        if with_bots:
            self.check_bot_room(address)
        self.take("rooms", address)


class Window:
    """One key's counts of a rate (``30/second;600/minute``): the fixed windows of the ``limits``
    library, with its answers (a window starts at the first count after the last one ended; what
    is refused is counted too), without its shared table's locks, key strings and the thread that
    forgets ended windows. A connection keeps its own (its message rate; they go with it)."""

    __slots__ = ("name", "items", "bounds", "counts", "ends")

    def __init__(self, name: str, items: list[RateLimitItem]) -> None:
        self.name, self.items = name, items
        self.bounds = [(i, item.amount, item.get_expiry()) for i, item in enumerate(items)]
        self.counts = [0] * len(items)
        self.ends = [0.0] * len(items)  # when each window ends (time.time(), as ``limits`` counts)

    def take(self, cost: int = 1, now: float | None = None) -> None:
        """Count ``cost``, or :class:`RateLimited`."""
        now = time.time() if now is None else now
        counts, ends = self.counts, self.ends
        for i, amount, expiry in self.bounds:
            if ends[i] <= now:  # the window ended: a new one starts with this count
                counts[i], ends[i] = cost, now + expiry
            else:
                counts[i] += cost
            if counts[i] > amount:
                observe.quota_hit(self.name)
                raise refusal(self.name, self.items[i], max(0.0, ends[i] - now))


class Windows:
    """A rate's :class:`Window` for each key (a client address), each forgotten once its windows
    have ended and it is the least recently counted (memory stays bounded as with ``limits``)."""

    def __init__(self, name: str, items: list[RateLimitItem]) -> None:
        self.name, self.items = name, items
        self._by_key: OrderedDict[str, Window] = OrderedDict()

    def take(self, key: str, cost: int = 1) -> None:
        """Count ``cost`` for ``key``, or :class:`RateLimited`."""
        now = time.time()
        by_key = self._by_key
        while by_key:  # forget what has ended, oldest first
            oldest = next(iter(by_key.values()))
            if max(oldest.ends) > now:
                break
            by_key.popitem(last=False)
        window = by_key.get(key)
        if window is None:
            window = by_key[key] = Window(self.name, self.items)
        else:
            by_key.move_to_end(key)
        window.take(cost, now)

    def __len__(self) -> int:
        return len(self._by_key)


def refusal(name: str, item: RateLimitItem, retry: float) -> RateLimited:
    """Past ``item`` of the rate ``name``, ``retry`` seconds before one more is allowed, in words."""
    return RateLimited(f"too many {COUNTED[name]}: at most {describe(item)}; try again in {max(1, math.ceil(retry))} s",
                       retry)


def describe(item: RateLimitItem) -> str:
    """``10/minute`` as words: "10 per minute"."""
    per = item.GRANULARITY.name if item.multiples == 1 else f"{item.multiples} {item.GRANULARITY.name}s"
    return f"{item.amount} per {per}"


IPV6_NETWORK = 64  # an IPv6 client is counted by its /64: one host usually holds the whole network


def address_key(address: str) -> str:
    """What a client's quotas are counted by: its IPv4 address, or its IPv6 address's /64 network
    (an IPv4 address written as IPv6, ``::ffff:203.0.113.7``, is the IPv4 one).

    >>> address_key("2001:db8:1:2:aaaa::1")
    '2001:db8:1:2::/64'
    """
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address  # not an address ("testclient", "unknown"): as it is
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_NETWORK), strict=False))
    return str(parsed)
