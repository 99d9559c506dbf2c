"""One hall process among several sharing every room (docs/scaling.md).

    node = Node(store, "redis://127.0.0.1:6379/0", "127.0.0.1:8101")
    hall = Hall(store, games, clock, ownership=node)   # the hall starts and stops the node

The node is the hall's :class:`~parlour.hall.hall.Ownership`: the hall asks it where each command
runs, and it tells a room when it leads it (:meth:`Room.became_owner`) and when it follows
(:meth:`Room.lost_ownership`); the room never asks.

A room is applied by the process that holds its lease (:mod:`..store.leases`), its **owner**: every
commit of the room there carries the lease's fencing check. Any other process that has the room in
memory holds a **replica**, read from the store and caught up from it whenever Redis says the room
changed (:class:`Fanout`). A change asked of a replica (a move, a join, a chat line...) is taken
over by this process when nobody holds the room's lease, else forwarded over HTTP to the owner,
whose answer (after its commit, or a refusal in words) is the answer; an owner that does not answer
is waited out until its lease expires, and the room is then taken over here.

The owner renews its leases every ``RENEW_EVERY`` seconds in one statement; a room left out was
taken by another process, and becomes a replica here. Every ``TAKE_EVERY`` seconds each process
takes the rooms being played that nobody holds (their owner died), so their bots and turn timers
go on without waiting for a client.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import httpx

from ...core import ParlourError
from .. import observe
from ..broadcast import Broadcast, Listener, LocalBroadcast
from ..errors import HallError
from ..hall import Hall
from ..room import Room
from ..room.commands import (
    Answer,
    Command,
    answer_from_json,
    command_name,
    command_to_json,
)
from ..store import LENGTH, Lease, Store
from .handover import Handover
from .presence import Presence
from .redis_broadcast import RedisBroadcast

log = logging.getLogger(__name__)

RENEW_EVERY = LENGTH / 3.5  # seconds between two renewals of this process's leases (a lease lasts LENGTH)
TAKE_EVERY = 1.0  # seconds between two looks for rooms being played that nobody holds
CONNECT_WITHIN = 2.0  # seconds to reach an owner before it counts as gone
ANSWER_WITHIN = 10.0  # seconds an owner has to answer a forwarded request once it has it
FORWARD_WITHIN = 3 * LENGTH  # seconds a change may spend finding its room's owner before "retry"
PROBE_WITHIN = 2.0  # seconds Redis has to answer GET /readyz's ping
SECRET_HEADER = "x-parlour-cluster"
WATCHED_HEADER = "x-parlour-watched"  # a forwarded command's: the connections to its room at the forwarder
SECRET_ENV = "PARLOUR_CLUSTER_SECRET"  # the secret the halls forward with: from the environment, never the store
SECRET_MIN = 16
INTERNAL = "/internal/cluster/rooms"


class Fanout(Broadcast):
    """The hall's broadcast across processes: listeners here are called at once, as with
    :class:`LocalBroadcast`; a change made here is also published on Redis, with what was
    committed; a change another process published (or a Redis subscription coming back, when
    changes may have been missed: no payload) calls ``heard(key, payload)`` on the hall's event
    loop, which applies it to the copy here (or catches the copy up from the store) and then
    calls :meth:`publish_here`.

    A room this process leads is not subscribed to on Redis (its chat is: a moderator at any
    process may hide a line): only its owner commits its changes, and each publish came back to
    the owner to be read and dropped. Once the room follows another process it is subscribed to
    again, and the subscription's coming into place (no payload) catches the copy up."""

    carries_payloads = True

    def __init__(self, redis_url: str, heard: Callable[[str, bytes | None], None],
                 loop: asyncio.AbstractEventLoop) -> None:
        self.here = LocalBroadcast()
        self.redis = RedisBroadcast(redis_url, deliver=loop.call_soon_threadsafe, heard=heard)
        self._remote: set[str] = set()  # the keys with listeners here, subscribed on Redis
        self._led: set[str] = set()  # the rooms this process leads: not subscribed on Redis
        self._loop = loop
        self._told: list[tuple[str, bytes | None]] = []  # published in this turn of the event loop

    def subscribe(self, code: str, listener: Listener) -> None:
        self.here.subscribe(code, listener)
        self._hear(code)

    def unsubscribe(self, code: str, listener: Listener) -> None:
        self.here.unsubscribe(code, listener)
        if not self.here.listeners(code):
            self._deafen(code)

    def leading(self, code: str, leads: bool) -> None:
        if leads:
            self._led.add(code)
            self._deafen(code)
        else:
            self._led.discard(code)
            if self.here.listeners(code):
                self._hear(code)

    def _hear(self, code: str) -> None:
        if code not in self._remote and code not in self._led:
            self._remote.add(code)
            self.redis.subscribe(code, _on_redis)

    def _deafen(self, code: str) -> None:
        if code in self._remote:
            self._remote.discard(code)
            self.redis.unsubscribe(code, _on_redis)

    def publish(self, code: str, payload: bytes | None = None) -> None:
        """Listeners here at once; Redis gets what this turn of the event loop published (a group
        commit's moves are acknowledged in one) together, handed to its sender thread once."""
        self.here.publish(code)
        if self._loop.is_closed():  # stopping: no turn of the loop comes any more
            self.redis.tell_others(code, payload)
            return
        if not self._told:
            self._loop.call_soon(self._tell)
        self._told.append((code, payload))

    def _tell(self) -> None:
        told, self._told = self._told, []
        self.redis.tell_others_all(told)

    def publish_here(self, code: str) -> None:
        self.here.publish(code)

    def close(self) -> None:
        """(On a thread, the hall's event loop waiting for it: nothing is published meanwhile.)"""
        self._tell()
        self.redis.close()


def _on_redis() -> None:
    """The Redis subscription's listener: what it hears goes to ``heard`` instead."""


def address_of(owner: str) -> str:
    """The ``host:port`` a lease's owner (``host:port/nonce``) answers forwarded requests on."""
    return owner.rsplit("/", 1)[0]


class Node:
    """This process's part in the cluster: its id, the leases it holds, the fan-out, forwarding.
    It is the hall's :class:`~parlour.hall.hall.Ownership`."""

    def __init__(self, store: Store, redis_url: str, address: str, secret: str | None = None) -> None:
        """``secret``: what the hall processes of the cluster forward each other's requests with,
        the same for all of them (default: $PARLOUR_CLUSTER_SECRET); never kept in the store."""
        secret = secret if secret is not None else os.environ.get(SECRET_ENV, "")
        if len(secret) < SECRET_MIN:
            raise ParlourError(f"a hall of a cluster needs the cluster's secret, the same for every hall, at least"
                               f" {SECRET_MIN} characters, in ${SECRET_ENV} (`parlour cluster` makes one)")
        self.store = store
        self.redis_url = redis_url
        self.address = address  # host:port where the other processes reach this one
        self.id = f"{address}/{secrets.token_hex(4)}"  # a restarted process is another owner
        self.leases = store.leases(time.time)  # blocking calls: on a thread, or when stopping
        self.secret = secret
        self.broadcast: Fanout | None = None
        self.presence: Presence | None = None  # who is connected at the other processes (presence.py)
        self.held: dict[str, Lease] = {}  # the leases of the rooms this process applies, by code
        self._claiming: dict[str, asyncio.Lock] = {}
        self._http: httpx.AsyncClient | None = None
        self._hall: Hall | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the hall's
        self._broken: set[str] = set()  # rooms nobody holds that this process could not take
        self.handover = Handover(self)  # rooms given to the process their people reach (handover.py)

    # -- the hall's Ownership ------------------------------------------------------------------------
    def adopt(self, room: Room) -> None:
        """A room read or made here follows the store until this process takes its lease."""

    async def start(self, hall: Hall) -> Broadcast:
        """Connect to Redis for ``hall`` (on its event loop, before it serves), take the rooms being
        played that nobody holds, then keep renewing and taking."""
        self._hall = hall
        self._loop = asyncio.get_running_loop()
        self.broadcast = Fanout(self.redis_url, hall.on_remote_change, self._loop)
        hall.broadcast = self.broadcast
        self._http = httpx.AsyncClient(timeout=httpx.Timeout(ANSWER_WITHIN, connect=CONNECT_WITHIN),
                                       headers={SECRET_HEADER: self.secret})
        self.presence = Presence(self.redis_url, self.id, hall)
        await self.take_unowned()
        hall.spawn(self._renew_loop())
        hall.spawn(self._take_loop())
        hall.spawn(self.presence.run())
        return self.broadcast

    async def stop(self) -> None:
        """Give up every room held here at once (another process takes them without waiting)."""
        for lease in list(self.held.values()):
            try:
                await asyncio.to_thread(self.leases.release, lease)
            except Exception:
                log.warning("room %s's lease could not be released: it expires by itself", lease.code)
        self.held.clear()
        if self._http is not None:
            await self._http.aclose()
        if self.broadcast is not None:
            await asyncio.to_thread(self.broadcast.close)
        if self.presence is not None:
            await asyncio.to_thread(self.presence.close)

    async def hand_over(self) -> None:
        """The hall drains: every lease held here is given up in one statement (the rooms already
        follow), and :meth:`claim` and :meth:`take_unowned` take no room from now on."""
        self.held.clear()
        try:
            released = await asyncio.to_thread(self.leases.release_all, self.id)
        except Exception as error:  # the database is away: the leases expire by themselves
            log.warning("could not give up this process's leases: %s", error)
        else:
            log.warning("draining: gave up %d room lease(s) to the other halls", released)

    async def trouble(self) -> str | None:
        if self.broadcast is None:
            return "not connected to Redis yet"
        try:
            await asyncio.wait_for(asyncio.to_thread(self.broadcast.redis.ping), PROBE_WITHIN)
        except Exception as error:
            return (f"degraded: Redis does not answer ({type(error).__name__}); the other halls' players see"
                    " this hall's moves late, when their halls read the store")
        return None

    async def look(self, rooms: Sequence[Room]) -> None:
        if self.presence is not None:
            await self.presence.look(rooms)

    def knows_presence(self, room: Room) -> bool:
        return self.presence is not None and self.presence.knows(room)

    @property
    def draining(self) -> bool:
        return self._hall is not None and self._hall.draining

    def let_go(self, room: Room) -> None:
        if self.broadcast is not None:
            self.broadcast.leading(room.code, False)  # forgotten here: no longer led
        lease = self.held.pop(room.code, None)
        self._claiming.pop(room.code, None)
        if lease is not None:
            self.release_later(lease)

    async def forward(self, room: Room, command: Command) -> Answer | None:
        """Where a command of ``room`` asked of this process is to be applied: None when this process
        owns the room (taken now if nobody held it), else the owner's answer once it applied it.
        Raises :class:`~parlour.hall.errors.HallError` with the owner's refusal, or ``retry`` when
        no owner could be reached in ``FORWARD_WITHIN`` seconds or the owner did not answer
        (nothing is known of the change then)."""
        deadline = time.monotonic() + FORWARD_WITHIN
        name, body = command_name(command), command_to_json(command)
        while True:
            holder = await self.claim(room)
            if holder is None:
                return None
            if holder.expires <= time.time() and self.draining:  # nobody yet: another hall takes it soon
                if time.monotonic() + TAKE_EVERY > deadline:
                    raise HallError("retry", f"room {room.code} is moving to another process of the hall:"
                                    " nothing was done; try again in a few seconds")
                await asyncio.sleep(TAKE_EVERY / 4)
                continue
            try:
                answer = await self._post(holder.owner, room.code, name, body, room.watchers)
            except (httpx.ConnectError, httpx.ConnectTimeout):
                observe.FORWARDS.labels("unreachable").inc()
                answer = None  # never delivered: the owner is gone; its lease will run out
            except httpx.HTTPError as error:
                observe.FORWARDS.labels("unanswered").inc()
                raise HallError("retry", f"the hall process that applies room {room.code} did not answer"
                                f" ({type(error).__name__}): look at the room's state, then try again") from None
            if answer is not None and "moved" not in answer:
                observe.FORWARDS.labels("refused" if "refused" in answer else "answered").inc()
                if "refused" in answer:
                    raise HallError(answer["refused"]["code"], answer["refused"]["message"])
                return answer_from_json(command, answer)
            wait = min(max(holder.expires - time.time(), 0.05), 1.0)
            if time.monotonic() + wait > deadline:
                raise HallError("retry", f"room {room.code} is moving to another process of the hall:"
                                " nothing was done; try again in a few seconds")
            await asyncio.sleep(wait)

    # -- owning rooms ----------------------------------------------------------------------------
    async def claim(self, room: Room) -> Lease | None:
        """Make this process the room's owner if nobody else holds it; None when it is ours now,
        else the lease another process holds."""
        async with self.claim_lock(room.code):
            if room.leading:
                return None
            if self.draining:  # this process is stopping: it takes no room, whoever holds it
                holder = await asyncio.to_thread(self.leases.holder, room.code)
                return holder or Lease(room.code, "", 0, 0.0)
            lease = await asyncio.to_thread(self.leases.acquire, room.code, self.id)
            if lease is None:
                holder = await asyncio.to_thread(self.leases.holder, room.code)
                if holder is not None and holder.owner != self.id:
                    return holder
                lease = await asyncio.to_thread(self.leases.acquire, room.code, self.id)
                if lease is None:  # taken between the two looks: ask again next time
                    return await asyncio.to_thread(self.leases.holder, room.code)
            # Held (and so renewed) once the room leads: a renewal meanwhile lets go of the held
            # leases of rooms that do not lead, which would leave this one to expire under it.
            await room.became_owner(lease)
            self.held[room.code] = lease
            return None

    def claim_lock(self, code: str) -> asyncio.Lock:
        """Held while this process takes or gives up room ``code``."""
        return self._claiming.setdefault(code, asyncio.Lock())

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """``work`` in the background on the hall's event loop (cancelled when the hall stops)."""
        assert self._hall is not None
        self._hall.spawn(work)

    async def _post(self, owner: str, code: str, name: str, body: dict[str, Any], watched: int) -> dict[str, Any]:
        """``watched``: the connections to the room here (handover.py)."""
        assert self._http is not None
        answer = await self._http.post(f"http://{address_of(owner)}{INTERNAL}/{code}/{name}", json=body,
                                       headers={WATCHED_HEADER: str(watched)})
        if answer.status_code != 200:
            raise httpx.HTTPStatusError(f"{answer.status_code}: {answer.text[:200]}", request=answer.request,
                                        response=answer)
        result: dict[str, Any] = answer.json()
        return result

    async def take_unowned(self) -> None:
        """Take over every room being played whose owner stopped renewing its lease."""
        assert self._hall is not None
        if self.draining:
            return
        for code in await asyncio.to_thread(self.leases.unowned):
            if code in self._broken or self.handover.kept_away(code):
                continue
            try:
                room = await self._hall.room(code)
                if not room.leading:
                    await self.claim(room)
            except Exception:  # e.g. it no longer replays: not tried again by this process
                log.exception("room %s could not be taken over", code)
                self._broken.add(code)

    async def _take_loop(self) -> None:
        while True:
            await asyncio.sleep(TAKE_EVERY)
            try:
                await self.take_unowned()
            except Exception as error:  # the database is away: try again next time
                log.warning("could not look for rooms nobody holds: %s", error)

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY)
            await self.renew()

    async def renew(self) -> None:
        """Renews the leases of the rooms this process leads; lets go of those it no longer does."""
        assert self._hall is not None
        rooms = self._hall.rooms
        for code in [c for c in self.held if c not in rooms or not rooms[c].leading]:
            del self.held[code]  # lost on a commit, or let go of
        held = {code: lease.token for code, lease in self.held.items()}
        if not held:
            return
        try:
            renewed = await self._hall.store.renew_leases(self.id, held, time.time)
        except Exception as error:  # the database is away: commits fail too; renew next time
            log.warning("could not renew %d lease(s): %s", len(held), error)
            return
        for code, token in held.items():
            lease = self.held.get(code)
            if lease is None or lease.token != token:
                continue
            if code in renewed:
                self.held[code] = Lease(code, self.id, token, renewed[code])
            else:
                log.warning("room %s was taken over by another process", code)
                del self.held[code]
                if code in rooms:
                    rooms[code].lost_ownership()

    def release_later(self, lease: Lease) -> None:
        """Give up the lease of a room this process lets go of (in the background on the hall's
        event loop; at once when called from elsewhere)."""
        assert self._hall is not None
        try:
            here = asyncio.get_running_loop() is self._loop
        except RuntimeError:
            here = False
        if here:
            self._hall.spawn(asyncio.to_thread(self.leases.release, lease))
        else:
            self.leases.release(lease)
