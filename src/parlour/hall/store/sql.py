"""The store on SQLAlchemy Core: SQLite by default, PostgreSQL by URL, same code.

Writes go through one writer thread that commits them in groups: everything queued while the
previous transaction was committing goes into the next one, so under load one fsync covers many
moves across many rooms, and each caller's future resolves only once its transaction committed.
Reads run on a small pool of reader threads, never on the event loop; the ``*_blocking`` ones
(and :meth:`SqlStore.read`, ``load``, ``load_room``) are for callers off the loop: start-up, tools,
tests.

>>> store = SqlStore("sqlite://")      # doctest: +SKIP
>>> await store.create_room(record)    # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import sqlalchemy as sa

from .. import observe
from . import accounts, analyses, history, rooms
from .bots import BotRows
from .engine import make_engine
from .leases import LENGTH, Leases, fence
from .migrations import prepare
from .moderation import ModerationRows
from .notifications import Deadline, NotifySql, deadline_write
from .ratings import flagged, settling
from .records import (
    Account,
    ActionRecord,
    AnalysisRecord,
    ChatLine,
    FlaggedPair,
    GamesPlayed,
    Leader,
    Lease,
    PlayedGame,
    Rating,
    RoomRecord,
    SeatHolder,
    SeatLeft,
    SeatRecord,
    Settlement,
    StoreError,
)
from .social import SocialRows
from .writes import Write, execute

__all__ = ["READERS", "SqlStore", "make_engine"]

T = TypeVar("T")
READERS = 4  # threads reading for the event loop (each holds a pooled connection while it reads)


class SqlStore(NotifySql):
    """The :class:`~parlour.hall.store.Store` on SQLAlchemy Core."""

    def __init__(self, url: str, *, upgrade: bool = True) -> None:
        """``upgrade`` False: refuse (:class:`~parlour.hall.store.migrations.SchemaError`) a database
        whose schema is older than this code's, rather than bring it up to date."""
        self.url = url
        self.engine = make_engine(url)
        try:
            self.upgraded = prepare(self.engine, upgrade)  # the revisions applied just now
        except Exception:
            self.engine.dispose()
            raise
        self._queue: queue.SimpleQueue[tuple[list[Write], asyncio.Future[None]] | None] = queue.SimpleQueue()
        self._conn: sa.Connection | None = None  # the writer thread's own
        self._writer = threading.Thread(target=self._write_loop, name="parlour-store-writer", daemon=True)
        self._writer.start()
        self._readers = ThreadPoolExecutor(READERS, thread_name_prefix="parlour-store-reader")
        self.batches = 0  # transactions committed
        self.social = SocialRows(self._read, self.write)  # friends, blocks, invitations, your data
        self.moderation = ModerationRows(self._read, self.write)  # reports, sanctions, the log
        self.writes = 0
        self.bots = BotRows(self._read, self.write)  # bot accounts and their API tokens (store/bots.py)

    # -- reading: rooms and their chat --------------------------------------------------------
    def load_blocking(self, *, finished: bool = True) -> list[RoomRecord]:
        return rooms.load_all(self.engine, finished)

    load = load_blocking  # the name tests and tools off any event loop use

    def load_room(self, code: str, from_turn: int = 0) -> RoomRecord | None:
        """:meth:`room`, blocking: for tests and tools off any event loop."""
        return rooms.load_one(self.engine, code, from_turn)

    async def room(self, code: str, from_turn: int = 0) -> RoomRecord | None:
        return await self._off_loop(rooms.load_one, self.engine, code, from_turn)

    async def room_exists(self, code: str) -> bool:
        return await self._read(lambda conn: rooms.exists(conn, code))

    async def chat(self, code: str, last: int) -> list[ChatLine]:
        return await self._read(lambda conn: rooms.chat(conn, code, last))

    async def lobby_page(self, status: str, game: str | None, offset: int, limit: int) -> list[str]:
        return await self._read(lambda conn: rooms.lobby_page(conn, status, game, offset, limit))

    # -- reading: players ------------------------------------------------------------------------
    async def account_by_name(self, key: str) -> tuple[Account, str | None] | None:
        return await self._read(lambda conn: accounts.by_key(conn, key))

    async def account_by_session(self, token_hash: str, now: float) -> Account | None:
        return await self._read(lambda conn: accounts.by_session(conn, token_hash, now))

    async def games_of(self, account: int, *, finished: bool, limit: int | None = None) -> list[PlayedGame]:
        return await self._read(lambda conn: history.games_of(conn, account, finished, limit))

    async def played_by(self, account: int) -> list[GamesPlayed]:
        return await self._read(lambda conn: history.played_by(conn, account))

    async def ratings_of(self, account: int) -> list[Rating]:
        return await self._read(lambda conn: history.ratings_of(conn, account))

    async def leaderboard(self, game: str, limit: int) -> list[Leader]:
        return await self._read(lambda conn: history.leaderboard(conn, game, limit))

    async def analysis(self, code: str) -> AnalysisRecord | None:
        return await self._read(lambda conn: analyses.load(conn, code))

    async def flagged_pairs(self, limit: int) -> list[FlaggedPair]:
        return await self._read(lambda conn: flagged(conn, limit))

    # -- reading: the cluster (blocking: at start-up, or on a thread) ------------------------------
    def leases(self, now: Callable[[], float], length: float = LENGTH) -> Leases:
        return Leases(self.engine, now, length)

    # -- writing ------------------------------------------------------------------------------
    async def create_room(self, room: RoomRecord, *, holder: SeatHolder | None = None,
                          first_line: ChatLine | None = None) -> None:
        writes = [rooms.creating(room)]
        if holder is not None:
            writes.append(rooms.holding(room.code, holder))
        if first_line is not None:
            writes += rooms.chatting(room.code, first_line)
        await self.write(writes)

    async def update_room(self, code: str, *, seats: list[SeatRecord] | None = None, status: str | None = None,
                          rematch: str | None = None, taken: SeatHolder | None = None,
                          left: SeatLeft | Sequence[SeatLeft] | None = None, lease: Lease | None = None,
                          settle: Settlement | None = None, deadline: Deadline | None = None,
                          vote: dict[str, Any] | None = None) -> None:
        writes = rooms.updating(code, seats, status, rematch, vote)
        if deadline is not None:
            writes.append(deadline_write(code, deadline))
        if taken is not None:
            writes.append(rooms.holding(code, taken))
        for gone in [left] if isinstance(left, SeatLeft) else left or ():
            writes.append(rooms.releasing(code, gone))
        if settle is not None:  # after the forfeits it counts
            writes.append(settling(settle))
        if lease is not None:
            writes.append(fence(lease))
        if writes:
            await self.write(writes)

    def append_action(self, code: str, action: ActionRecord, *, status: str | None = None,
                      lease: Lease | None = None, settle: Settlement | None = None,
                      deadline: Deadline | None = None, encoded: bytes | None = None) -> asyncio.Future[None]:
        writes = [rooms.acting(code, action, encoded), *rooms.updating(code, None, status, None)]
        if deadline is not None:
            writes.append(deadline_write(code, deadline))
        if settle is not None:
            writes.append(settling(settle))
        if lease is not None:
            writes.append(fence(lease))
        return self.submit(writes, commit=True)

    async def take_back(self, code: str, turn: int, *, lease: Lease | None = None) -> None:
        await self.write([rooms.taking_back(code, turn), *([fence(lease)] if lease is not None else [])])

    async def append_chat(self, code: str, line: ChatLine, *, lease: Lease | None = None) -> None:
        await self.write([*rooms.chatting(code, line), *([fence(lease)] if lease is not None else [])])

    async def add_account(self, name: str, key: str, kind: str, password: str | None, created: float) -> None:
        await self.write(accounts.adding(name, key, kind, password, created))

    async def open_session(self, account: int, token_hash: str, created: float, expires: float) -> None:
        await self.write(accounts.opening(account, token_hash, created, expires))

    async def close_session(self, token_hash: str) -> None:
        await self.write(accounts.closing(token_hash))

    async def change_password(self, account: int, hashed: str, kept_session: str) -> None:
        await self.write(accounts.new_password(account, hashed, kept_session))

    async def save_analysis(self, analysis: AnalysisRecord) -> None:
        await self.write([analyses.saving(analysis)])

    async def renew_leases(self, owner: str, tokens: dict[str, int], now: Callable[[], float],
                           length: float = LENGTH) -> dict[str, float]:
        renewed: dict[str, float] = {}
        await self.write([self.leases(now, length).renewing(owner, tokens, renewed)])
        return renewed

    async def ping(self) -> None:
        await self._read(lambda conn: conn.execute(sa.select(1)).scalar_one())

    # -- the SQL underneath: reads on the reader threads, writes through the writer -------------
    async def _read(self, query: Callable[[sa.Connection], T]) -> T:
        """``query(connection)``'s answer, on a reader thread's connection (it sees committed rows)."""
        return await self._off_loop(self.read, query)

    def read(self, query: Callable[[sa.Connection], T]) -> T:
        """``query(connection)``'s answer, on a connection of its own: blocking, for tools and tests."""
        with self.engine.connect() as connection:
            return query(connection)

    async def _off_loop(self, function: Callable[..., T], *args: object) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._readers, function, *args)

    async def write(self, writes: list[Write]) -> None:
        """``writes`` in one transaction, committed (with others queued meanwhile) by the writer."""
        await self.submit(writes)

    def submit(self, writes: list[Write], commit: bool = False) -> asyncio.Future[None]:
        """``writes`` queued for the writer; the future ends once they committed (or failed), and a
        caller that stops waiting for it does not stop the commit. ``commit``: a :class:`Commit`,
        which waits cannot be cancelled."""
        loop = asyncio.get_running_loop()
        future = Commit(loop=loop) if commit else loop.create_future()
        self._queue.put((writes, future))
        return future

    def _write_loop(self) -> None:
        try:
            while True:
                item = self._queue.get()
                if item is None:
                    return
                batch = [item]
                while True:  # group commit: take everything that queued up meanwhile
                    try:
                        more = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        self._commit(batch)
                        return
                    batch.append(more)
                self._commit(batch)
        finally:
            if self._conn is not None:
                self._conn.close()

    def _transaction(self, writes: list[Write]) -> None:
        """``writes`` in one committed transaction, on the writer's own connection, kept open
        between transactions: taking one from the pool and giving it back (with its reset) each
        time cost more CPU than the writes themselves. A connection that failed is let go, and
        the next transaction opens another."""
        if self._conn is None:
            self._conn = self.engine.connect()
        try:
            with self._conn.begin():
                execute(self._conn, writes)
        except Exception:
            if self._conn.invalidated or self._conn.closed:
                self._conn = None
            raise

    def _commit(self, batch: list[tuple[list[Write], asyncio.Future[None]]]) -> None:
        began = time.perf_counter()
        try:
            self._transaction([write for writes, _ in batch for write in writes])
        except Exception:
            # One bad write must not sink the others: retry each alone, failing only the bad one.
            for writes, future in batch:
                try:
                    self._transaction(writes)
                except Exception as error:
                    refused = StoreError(f"the store could not save this: {error}")
                    refused.__cause__ = error  # e.g. a lost lease (store/leases.py)
                    observe.FAILED_COMMITS.inc()
                    _settle(future, refused)
                else:
                    observe.COMMITTED_WRITES.inc()
                    _settle(future, None)
            return
        observe.COMMIT_SECONDS.observe(time.perf_counter() - began)
        observe.COMMITTED_WRITES.inc(len(batch))
        self.batches += 1
        self.writes += len(batch)
        for _, future in batch:
            _settle(future, None)

    def close(self) -> None:
        """Finish pending writes and let go of resources."""
        if self._writer.is_alive():
            self._queue.put(None)
            self._writer.join()
        self._readers.shutdown(wait=True)
        self.engine.dispose()


class Commit(asyncio.Future[None]):
    """A commit under way, which cannot be cancelled: the writer makes it whoever waits. A task
    cancelled while it waits for one gets its :class:`asyncio.CancelledError` once the commit
    ended (asyncio's task, finding the future it waits for not cancelled, throws it in then), and
    can still take what the store took (hall/room/acting.py: a move). Nothing else is made for it:
    ``asyncio.shield`` made a future and two callbacks a move, and of a coroutine, a task."""

    def cancel(self, msg: Any = None) -> bool:
        return False


def _settle(future: asyncio.Future[None], error: Exception | None) -> None:
    def settle() -> None:
        if future.done():
            return
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)
    with contextlib.suppress(RuntimeError):  # the loop is gone (shutting down): nobody waits for this answer
        future.get_loop().call_soon_threadsafe(settle)
