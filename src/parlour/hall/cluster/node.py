"""One hall process among several sharing every room (docs/scaling.md).

    node = Node(store, "redis://127.0.0.1:6379/0", "127.0.0.1:8101")
    hall = Hall(store, games, clock, cluster=node)   # the hall starts and stops the node

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
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import httpx
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..broadcast import Broadcast, Listener, LocalBroadcast
from ..store import LENGTH, Lease, Store
from .redis_broadcast import RedisBroadcast

if TYPE_CHECKING:
    from ..rooms import Hall, Room

log = logging.getLogger(__name__)

RENEW_EVERY = LENGTH / 3.5  # seconds between two renewals of this process's leases (a lease lasts LENGTH)
TAKE_EVERY = 1.0  # seconds between two looks for rooms being played that nobody holds
CONNECT_WITHIN = 2.0  # seconds to reach an owner before it counts as gone
ANSWER_WITHIN = 10.0  # seconds an owner has to answer a forwarded request once it has it
FORWARD_WITHIN = 3 * LENGTH  # seconds a change may spend finding its room's owner before "retry"
SECRET_HEADER = "x-parlour-cluster"
INTERNAL = "/internal/cluster/rooms"


class Fanout(Broadcast):
    """The hall's broadcast across processes: listeners here are called at once, as with
    :class:`LocalBroadcast`; a change made here is also published on Redis; a change another
    process published (or a Redis subscription coming back, when changes may have been missed)
    calls ``heard(key)`` on the hall's event loop, which catches the room up from the store and
    then calls :meth:`publish_here`."""

    def __init__(self, redis_url: str, heard: Callable[[str], None], loop: asyncio.AbstractEventLoop) -> None:
        self.here = LocalBroadcast()
        self.redis = RedisBroadcast(redis_url, deliver=loop.call_soon_threadsafe)
        self._heard = heard
        self._remote: dict[str, Listener] = {}  # one Redis listener per key with listeners here

    def subscribe(self, code: str, listener: Listener) -> None:
        self.here.subscribe(code, listener)
        if code not in self._remote:
            self._remote[code] = partial(self._heard, code)
            self.redis.subscribe(code, self._remote[code])

    def unsubscribe(self, code: str, listener: Listener) -> None:
        self.here.unsubscribe(code, listener)
        if not self.here.listeners(code) and code in self._remote:
            self.redis.unsubscribe(code, self._remote.pop(code))

    def publish(self, code: str) -> None:
        self.here.publish(code)
        self.redis.tell_others(code)

    def publish_here(self, code: str) -> None:
        self.here.publish(code)

    def close(self) -> None:
        self.redis.close()


def address_of(owner: str) -> str:
    """The ``host:port`` a lease's owner (``host:port/nonce``) answers forwarded requests on."""
    return owner.rsplit("/", 1)[0]


class Node:
    """This process's part in the cluster: its id, the leases it holds, the fan-out, forwarding."""

    def __init__(self, store: Store, redis_url: str, address: str) -> None:
        self.store = store
        self.redis_url = redis_url
        self.address = address  # host:port where the other processes reach this one
        self.id = f"{address}/{secrets.token_hex(4)}"  # a restarted process is another owner
        self.leases = store.leases(time.time)  # blocking calls: on a thread, or when stopping
        self.secret = store.shared_secret_blocking()  # made before the hall serves
        self.broadcast: Fanout | None = None
        self._http: httpx.AsyncClient | None = None
        self._hall: Hall | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the hall's
        self._broken: set[str] = set()  # rooms nobody holds that this process could not take

    # -- life ------------------------------------------------------------------------------------
    def connect(self, hall: Hall) -> Fanout:
        """The broadcast for ``hall`` (called on its event loop, before it serves)."""
        self._hall = hall
        self._loop = asyncio.get_running_loop()
        self.broadcast = Fanout(self.redis_url, hall.heard, self._loop)
        self._http = httpx.AsyncClient(timeout=httpx.Timeout(ANSWER_WITHIN, connect=CONNECT_WITHIN),
                                       headers={SECRET_HEADER: self.secret})
        return self.broadcast

    async def start(self) -> None:
        """Take the rooms being played that nobody holds, then keep renewing and taking."""
        assert self._hall is not None
        await self.take_unowned()
        self._hall.spawn(self._renew_loop())
        self._hall.spawn(self._take_loop())

    async def stop(self) -> None:
        """Give up every room held here at once (another process takes them without waiting)."""
        assert self._hall is not None
        held = [room.lease for room in self._hall.rooms.values() if room.lease is not None]
        for lease in held:
            try:
                await asyncio.to_thread(self.leases.release, lease)
            except Exception:
                log.warning("room %s's lease could not be released: it expires by itself", lease.code)
        if self._http is not None:
            await self._http.aclose()
        if self.broadcast is not None:
            await asyncio.to_thread(self.broadcast.close)

    # -- owning rooms ----------------------------------------------------------------------------
    async def claim(self, room: Room) -> Lease | None:
        """Make this process the room's owner if nobody else holds it; None when it is ours now,
        else the lease another process holds."""
        async with room.claiming:
            if room.lease is not None:
                return None
            lease = await asyncio.to_thread(self.leases.acquire, room.code, self.id)
            if lease is None:
                holder = await asyncio.to_thread(self.leases.holder, room.code)
                if holder is not None and holder.owner != self.id:
                    return holder
                lease = await asyncio.to_thread(self.leases.acquire, room.code, self.id)
                if lease is None:  # taken between the two looks: ask again next time
                    return await asyncio.to_thread(self.leases.holder, room.code)
            await room.own(lease)
            return None

    async def elsewhere(self, room: Room, op: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        """Where a change of ``room`` asked of this process is to be made: None when this process
        owns the room (taken now if nobody held it), else the owner's answer once it made the
        change. Raises :class:`~parlour.hall.rooms.HallError` with the owner's refusal, or
        ``retry`` when no owner could be reached in ``FORWARD_WITHIN`` seconds or the owner did
        not answer (nothing is known of the change then)."""
        from ..rooms import HallError

        deadline = time.monotonic() + FORWARD_WITHIN
        while True:
            holder = await self.claim(room)
            if holder is None:
                return None
            try:
                answer = await self._post(holder.owner, room.code, op, payload)
            except (httpx.ConnectError, httpx.ConnectTimeout):
                answer = None  # never delivered: the owner is gone; its lease will run out
            except httpx.HTTPError as error:
                raise HallError("retry", f"the hall process that applies room {room.code} did not answer"
                                f" ({type(error).__name__}): look at the room's state, then try again") from None
            if answer is not None and "moved" not in answer:
                if "refused" in answer:
                    raise HallError(answer["refused"]["code"], answer["refused"]["message"])
                return answer
            wait = min(max(holder.expires - time.time(), 0.05), 1.0)
            if time.monotonic() + wait > deadline:
                raise HallError("retry", f"room {room.code} is moving to another process of the hall:"
                                " nothing was done; try again in a few seconds")
            await asyncio.sleep(wait)

    async def _post(self, owner: str, code: str, op: str, payload: dict[str, Any]) -> dict[str, Any]:
        assert self._http is not None
        answer = await self._http.post(f"http://{address_of(owner)}{INTERNAL}/{code}/{op}", json=payload)
        if answer.status_code != 200:
            raise httpx.HTTPStatusError(f"{answer.status_code}: {answer.text[:200]}", request=answer.request,
                                        response=answer)
        return answer.json()

    async def take_unowned(self) -> None:
        """Take over every room being played whose owner stopped renewing its lease."""
        assert self._hall is not None
        for code in await asyncio.to_thread(self.leases.unowned):
            if code in self._broken:
                continue
            try:
                room = self._hall.room(code)
                if room.lease is None:
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
        assert self._hall is not None
        while True:
            await asyncio.sleep(RENEW_EVERY)
            held = {code: room.lease.token for code, room in self._hall.rooms.items() if room.lease is not None}
            if not held:
                continue
            try:
                renewed = await self._hall.store.renew_leases(self.id, held, time.time)
            except Exception as error:  # the database is away: commits fail too; renew next time
                log.warning("could not renew %d lease(s): %s", len(held), error)
                continue
            for code, token in held.items():
                room = self._hall.rooms.get(code)
                if room is None or room.lease is None or room.lease.token != token:
                    continue
                if code in renewed:
                    room.lease = Lease(code, self.id, token, renewed[code])
                else:
                    log.warning("room %s was taken over by another process", code)
                    room.lose()

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


# -- the owner's side of forwarding ------------------------------------------------------------------
def internal_router(hall: Hall) -> APIRouter:
    """``POST /internal/cluster/rooms/{code}/{op}``: a change of a room this process owns, asked by
    another process of the hall (with the shared secret). The answer says what the room answered:
    ``{"refused": {code, message}}``, ``{"moved": true}`` if the room is not (or no longer) held
    here, or the change's result."""
    from ..accounts import Account
    from ..rooms import HallError
    from ..table import rematch

    async def act(room: Room, body: dict[str, Any]) -> dict[str, Any]:
        return {"turn": await room.act(body["seat"], body["turn"], body["action"])}

    async def join(room: Room, body: dict[str, Any]) -> dict[str, Any]:
        account = Account(**body["account"]) if body.get("account") else None
        seat, token = await room.join(body["name"], body["seat"], body["token"], account)
        return {"seat": seat, "token": token}

    async def give_to_bot(room: Room, body: dict[str, Any]) -> dict[str, Any]:
        await room.give_to_bot(body["seat"], body["bot"], body["name"])
        return {}

    async def start(room: Room, body: dict[str, Any]) -> dict[str, Any]:
        await room.start()
        return {}

    async def offer_rematch(room: Room, body: dict[str, Any]) -> dict[str, Any]:
        new, host_token, seat, seat_token = await rematch(room, body["token"])
        return {"code": new.code, "host_token": host_token, "seat": seat, "seat_token": seat_token}

    async def chat(room: Room, body: dict[str, Any]) -> dict[str, Any]:
        line = await room.chat.add(body["kind"], body["seat"], body["name"], body["text"])
        return {"n": line.n}

    ops: dict[str, Callable[[Room, dict[str, Any]], Awaitable[dict[str, Any]]]] = {
        "act": act, "join": join, "give_to_bot": give_to_bot, "start": start, "rematch": offer_rematch,
        "chat": chat}
    router = APIRouter(include_in_schema=False)

    @router.post(INTERNAL + "/{code}/{op}")
    async def forwarded(code: str, op: str, request: Request) -> JSONResponse:
        node = hall.cluster
        given = request.headers.get(SECRET_HEADER, "")
        if node is None or not hmac.compare_digest(given.encode(), node.secret.encode()):
            return JSONResponse({"detail": "not a hall process of this cluster"}, status_code=403)
        if op not in ops:
            return JSONResponse({"detail": f"no such change: {op[:40]!r}"}, status_code=404)
        room = hall.rooms.get(code)
        if room is None or room.lease is None:
            return JSONResponse({"moved": True})
        try:
            return JSONResponse(await ops[op](room, await request.json()))
        except HallError as refused:
            return JSONResponse({"refused": {"code": refused.code, "message": str(refused)}})

    return router
