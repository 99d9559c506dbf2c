"""A room goes to the hall process its people reach (docs/scaling.md, "Where a room is applied").

    node.handover.forwarded_here(room)   # web/internal.py, after applying a forwarded command

nginx sends a room's REST calls and sockets to one hall by its code, and the first hall asked to
change a room takes its lease, so a room is normally applied where its people are. It stops being
so when a hall fails or restarts: its rooms are taken over by the others (node.py), and once it is
back nginx sends their people to it again, which then forwards every move of theirs to the hall
that took the lease, for as long as that hall lives.

So a hall that applies a forwarded command of a room nobody is connected to here (no player, no
spectator), from a process to which somebody is (the forwarded request says how many), gives the
room up: under the room's lock and the node's claim lock the room follows,
and its lease is released. The process that forwarded the command takes the lease with its next
one (as it takes any room nobody holds), or its look for rooms nobody holds does within a second;
this process leaves the room out of its own looks for ``KEEP_AWAY`` seconds, so that it is the
other one's. Nothing acknowledged is at stake: whoever commits next carries a newer fencing token,
and a command that reaches this process meanwhile is answered "moved" and sent on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from typing import Any, Protocol

from .. import observe
from ..room import Room
from ..store import Lease, Leases

log = logging.getLogger(__name__)

KEEP_AWAY = 10.0  # seconds this process does not take back a room it gave up


class Holder(Protocol):
    """What a handover uses of this process's node (node.py ``Node``)."""

    held: dict[str, Lease]
    leases: Leases

    @property
    def draining(self) -> bool: ...

    def claim_lock(self, code: str) -> asyncio.Lock: ...

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None: ...


class Handover:
    """The rooms this process gave to the process their people reach."""

    def __init__(self, node: Holder) -> None:
        self.node = node
        self._given: dict[str, float] = {}  # code -> when (time.monotonic)

    def forwarded_here(self, room: Room, watched_there: str) -> None:
        """A command of ``room`` from another process, which has ``watched_there`` connections to
        the room (its word, a number), was applied here: if nobody is connected to the room here
        and somebody is there, give it up (in the background)."""
        node = self.node
        if (room.leading and room.watchers == 0 and watched_there.isdigit() and int(watched_there[:6]) > 0
                and room.status != "over" and not node.draining):
            node.spawn(self._give(room))

    def kept_away(self, code: str) -> bool:
        """Whether this process gave ``code`` up lately (its look for rooms nobody holds skips it)."""
        given = self._given.get(code)
        if given is None:
            return False
        if time.monotonic() - given > KEEP_AWAY:
            del self._given[code]
            return False
        return True

    async def _give(self, room: Room) -> None:
        node = self.node
        async with node.claim_lock(room.code):
            async with room.lock:
                if not room.leading or room.watchers or node.draining:
                    return  # someone connected here meanwhile, or it was lost or given already
                room.lost_ownership()
            lease = node.held.pop(room.code, None)
            self._given[room.code] = time.monotonic()
            if lease is not None:
                try:
                    await asyncio.to_thread(node.leases.release, lease)
                except Exception as error:  # the database is away: the lease expires by itself
                    log.warning("room %s's lease could not be given up: %s", room.code, error)
        observe.HANDOVERS.inc()
