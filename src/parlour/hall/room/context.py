"""All that a room may use of its surroundings, given to it by the hall.

A room sees no :class:`~parlour.hall.hall.Hall`, no cluster and no web: tests can build one with
a context of their own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..broadcast import Broadcast
from ..clock import Clock
from ..store import Store
from .bots import BotPool
from .timer import Deadlines

if TYPE_CHECKING:
    from .commands import Answer, Command


@dataclass(frozen=True)
class RoomContext:
    clock: Clock
    store: Store
    broadcast: Callable[[], Broadcast]  # the hall's broadcast (a cluster's is made when the hall starts)
    spawn: Callable[[Coroutine[Any, Any, Any]], None]  # a background task that the hall cancels on stop
    new_seed: Callable[..., int]  # new_seed(*labels): fresh, or fixed by the hall's seed in tests
    bots: BotPool
    deadlines: Deadlines
    # execute(code, command): a command for a room, run where the room is applied (the hall routes it)
    execute: Callable[[str, Command], Awaitable[Answer]]
    # asked(code, seats): people of a turn-based room were asked to move anew (the notifications listen)
    asked: Callable[[str, list[int]], None] = lambda code, seats: None
    # seconds a waiting room's host may be gone before any seated player may start it (None: room/leaving.py's
    # HOST_AWAY, a minute; `parlour serve --host-away`, shorter in tests)
    host_away: float | None = None
