"""Where rooms are kept: a small interface, and its one implementation on SQLAlchemy Core.

The hall writes a room when it is created, when its seats or status change, and one row per
accepted action. A room is rebuilt on start from its record and its actions (seed, options,
actions), so nothing else needs keeping.

Writes go through one writer thread that commits them in groups: everything queued while the
previous transaction was committing goes into the next one, so under load one fsync covers many
moves across many rooms, and each caller's future resolves only once its transaction committed.

>>> store = SqlStore("sqlite://")      # doctest: +SKIP
>>> await store.create_room(record)    # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

import sqlalchemy as sa
from sqlalchemy.pool import StaticPool

from .wire import dumps

metadata = sa.MetaData()

rooms_table = sa.Table(
    "rooms", metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.Text, nullable=False),       # JSON object
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # waiting | playing | over
    sa.Column("turn_timer", sa.Float, nullable=True),
    sa.Column("host_token", sa.String(64), nullable=False),  # sha256 hex of the host token
    sa.Column("seats", sa.Text, nullable=False),         # JSON list of seat records
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("rematch", sa.String(16), nullable=True),  # the room its players were invited to next
)

actions_table = sa.Table(
    "actions", metadata,
    sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
    sa.Column("turn", sa.Integer, primary_key=True, autoincrement=False),  # 0 for the first action
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.Text, nullable=False),        # the game's JSON action
    sa.Column("by", sa.String(16), nullable=False),      # player | bot | timer
    sa.Column("at", sa.Float, nullable=False),
)

# -- players (hall/players.py): accounts, their sessions, ratings, and who played where ----------
accounts_table = sa.Table(
    "accounts", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(32), nullable=False),             # as shown
    sa.Column("name_key", sa.String(128), nullable=False, unique=True),  # casefolded: unique regardless of case
    sa.Column("kind", sa.String(8), nullable=False),              # human | bot
    sa.Column("password", sa.String(255), nullable=True),         # Argon2id hash; None for a bot
    sa.Column("created", sa.Float, nullable=False),
)

sessions_table = sa.Table(
    "sessions", metadata,
    sa.Column("token", sa.String(64), primary_key=True),          # sha256 hex of the cookie's value
    sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)

ratings_table = sa.Table(
    "ratings", metadata,
    sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),                # what is shown and ranked: mu - 3 sigma
    sa.Column("games", sa.Integer, nullable=False),               # rated games
    sa.Column("updated", sa.Float, nullable=False),
    sa.Index("ratings_by_game", "game", "rating"),
)

room_players_table = sa.Table(
    "room_players", metadata,
    sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("forfeit", sa.Boolean, nullable=False),             # the seat went to a bot mid-game
    sa.Column("rank", sa.Integer, nullable=True),                 # once the game is over; 1 won
    sa.Column("change", sa.Float, nullable=True),                 # the rating it gave, if rated
)

# -- the cluster (hall/cluster/leases.py): which hall process applies a room ---------------------
room_leases_table = sa.Table(
    "room_leases", metadata,
    sa.Column("code", sa.String(16), primary_key=True),   # a room's code (no foreign key: a lease may come first)
    sa.Column("owner", sa.String(64), nullable=False),    # the hall process that holds it
    sa.Column("token", sa.BigInteger, nullable=False),    # the fencing token: +1 each time it changes hands
    sa.Column("expires", sa.Float, nullable=False),       # unless renewed before (the hall's clock)
)

cluster_settings_table = sa.Table(
    "cluster_settings", metadata,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.String(128), nullable=False),    # e.g. the secret the halls forward with
)

# -- the table (hall/table.py): each room's chat, system lines included ---------------------------
chat_table = sa.Table(
    "chat_lines", metadata,
    sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=False),  # 0 for the room's first line
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),    # player | spectator | system
    sa.Column("seat", sa.Integer, nullable=True),        # the writer's seat; None: a spectator, the hall
    sa.Column("name", sa.String(64), nullable=True),     # the writer's name as shown then
    sa.Column("text", sa.Text, nullable=False),
)


@dataclass
class ChatLine:
    """One line of a room's chat, as stored and as sent (``to_json``)."""

    n: int
    at: float
    kind: str
    seat: int | None
    name: str | None
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "at": self.at, "kind": self.kind, "seat": self.seat, "name": self.name,
                "text": self.text}


@dataclass
class ActionRecord:
    turn: int
    seat: int
    action: dict[str, Any]
    by: str
    at: float


@dataclass
class RoomRecord:
    """A room as stored. ``seats`` are JSON-ready dicts: ``{kind, name, bot, token}`` where
    ``token`` is the sha256 of the seat token (never the token itself)."""

    code: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    status: str
    turn_timer: float | None
    host_token: str
    seats: list[dict[str, Any]]
    created: float
    actions: list[ActionRecord] = field(default_factory=list)
    rematch: str | None = None  # the code of the room its players were invited to next


# One write: a statement with its parameters, or a function that reads and writes on the
# transaction's connection (what must see the rows as they are, such as a rating update).
Write = Union[tuple[Any, dict[str, Any]], Callable[[sa.Connection], None]]


class StoreError(Exception):
    """The store could not write; the change it carried did not happen."""


class Store(ABC):
    """What the hall asks of storage. Each coroutine returns once the write is committed."""

    @abstractmethod
    def load(self, *, finished: bool = True) -> list[RoomRecord]:
        """The rooms with their actions in order, oldest first; ``finished`` False: only the rooms
        whose game is not over (what the hall keeps in memory from its start)."""

    @abstractmethod
    def load_room(self, code: str, from_turn: int = 0) -> RoomRecord | None:
        """One room with its actions in order (those from turn ``from_turn`` on), or None if there
        is none by that code."""

    @abstractmethod
    async def create_room(self, room: RoomRecord, also: Sequence[Write] = ()) -> None: ...

    @abstractmethod
    async def update_room(self, code: str, *, seats: list[dict[str, Any]] | None = None,
                          status: str | None = None, rematch: str | None = None, also: Sequence[Write] = ()) -> None:
        """Change a room; ``also``: more writes in the same transaction (who holds a seat)."""

    @abstractmethod
    async def append_action(self, code: str, action: ActionRecord, status: str | None = None,
                            also: Sequence[Write] = ()) -> None:
        """Store one accepted action (and the room's new status with it, in the same transaction;
        ``also``: more writes in it, such as the ratings a finished game gives)."""

    @abstractmethod
    def read(self, query: Callable[[sa.Connection], Any]) -> Any:
        """``query(connection)``'s answer, on a connection of its own (reads see committed rows)."""

    @abstractmethod
    async def write(self, writes: list[Write]) -> None:
        """``writes`` in one committed transaction."""

    @abstractmethod
    def load_chat(self, code: str, last: int) -> list[ChatLine]:
        """The room's ``last`` newest chat lines, oldest first."""

    @abstractmethod
    async def append_chat(self, code: str, line: ChatLine, also: Sequence[Write] = ()) -> None: ...

    def close(self) -> None:
        """Finish pending writes and let go of resources."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # FULL: every commit is fsynced, so an acknowledged move survives even a power cut.
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def make_engine(url: str) -> sa.Engine:
    """An engine for ``url``: SQLite (WAL) for ``sqlite:///path``, PostgreSQL for
    ``postgresql+psycopg://...`` (install the ``postgres`` extra)."""
    if url.startswith("sqlite"):
        kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
        if url in ("sqlite://", "sqlite:///:memory:"):
            kwargs["poolclass"] = StaticPool  # one shared in-memory database
        engine = sa.create_engine(url, **kwargs)
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return sa.create_engine(url, pool_pre_ping=True)


# Every write is one of these statements with its parameters; a batch runs each run of the same
# statement as one executemany, so a thousand moves cost one statement, not a thousand.
INSERT_ROOM = rooms_table.insert()
UPDATE_SEATS = rooms_table.update().where(rooms_table.c.code == sa.bindparam("room")).values(
    seats=sa.bindparam("new_seats"))
UPDATE_STATUS = rooms_table.update().where(rooms_table.c.code == sa.bindparam("room")).values(
    status=sa.bindparam("new_status"))
UPDATE_REMATCH = rooms_table.update().where(rooms_table.c.code == sa.bindparam("room")).values(
    rematch=sa.bindparam("new_rematch"))
INSERT_ACTION = actions_table.insert()
_PLAYER_AT = (room_players_table.c.code == sa.bindparam("room")) & (room_players_table.c.seat == sa.bindparam("at"))
INSERT_PLAYER = room_players_table.insert()
FORFEIT_PLAYER = room_players_table.update().where(_PLAYER_AT).values(forfeit=True)
DELETE_PLAYER = room_players_table.delete().where(_PLAYER_AT)
INSERT_CHAT = chat_table.insert()


def holding(code: str, seat: int, account: int | None) -> list[Write]:
    """The writes that note ``account`` plays at ``seat`` of room ``code`` (none for a guest)."""
    if account is None:
        return []
    return [(INSERT_PLAYER, dict(code=code, seat=seat, account=account, forfeit=False))]


def chat_line(code: str, line: ChatLine) -> Write:
    """The write that keeps ``line`` of room ``code``'s chat."""
    return (INSERT_CHAT, dict(code=code, n=line.n, at=line.at, kind=line.kind, seat=line.seat, name=line.name,
                              text=line.text))


def forfeiting(code: str, seat: int, account: int | None, status: str) -> list[Write]:
    """A signed-in player's seat goes to a bot: mid-game they forfeit; before it they just leave."""
    if account is None or status == "over":
        return []
    return [(FORFEIT_PLAYER if status == "playing" else DELETE_PLAYER, {"room": code, "at": seat})]


class SqlStore(Store):
    """The store on SQLAlchemy Core: SQLite by default, PostgreSQL by URL, same code."""

    def __init__(self, url: str, *, upgrade: bool = True) -> None:
        """``upgrade`` False: refuse (:class:`~parlour.hall.migrations.SchemaError`) a database
        whose schema is older than this code's, rather than bring it up to date."""
        from .migrations import prepare

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
        self.batches = 0  # transactions committed
        self.writes = 0

    # -- reading ----------------------------------------------------------------------------
    def load(self, *, finished: bool = True) -> list[RoomRecord]:
        return self._load(None if finished else rooms_table.c.status != "over")

    def load_room(self, code: str, from_turn: int = 0) -> RoomRecord | None:
        if from_turn:
            found = self._load(rooms_table.c.code == code, actions_table.c.code == code,
                               actions_table.c.turn >= from_turn)
        else:
            found = self._load(rooms_table.c.code == code)
        return found[0] if found else None

    def _load(self, which: Any = None, *actions: Any) -> list[RoomRecord]:
        """The rooms ``which`` selects (a condition on the rooms table; None: all), with their
        actions (those ``actions``, conditions on the actions table, select, if given). The rooms'
        rows are read in the same transaction as their actions, so the two agree."""
        room_rows = sa.select(rooms_table).order_by(rooms_table.c.created)
        action_rows = sa.select(actions_table).order_by(actions_table.c.code, actions_table.c.turn)
        if actions:
            action_rows = action_rows.where(*actions)
        if which is not None:
            room_rows = room_rows.where(which)
            if not actions:
                action_rows = action_rows.where(actions_table.c.code.in_(sa.select(rooms_table.c.code).where(which)))
        with self.engine.connect() as conn, conn.begin():
            if conn.dialect.name == "postgresql":  # one snapshot for both reads
                conn.execute(sa.text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"))
            rooms = {row.code: RoomRecord(
                code=row.code, game=row.game, players=row.players, options=json.loads(row.options),
                seed=row.seed, status=row.status, turn_timer=row.turn_timer, host_token=row.host_token,
                seats=json.loads(row.seats), created=row.created, rematch=row.rematch)
                for row in conn.execute(room_rows)}
            for row in conn.execute(action_rows):
                rooms[row.code].actions.append(
                    ActionRecord(row.turn, row.seat, json.loads(row.action), row.by, row.at))
        return list(rooms.values())

    # -- writing ----------------------------------------------------------------------------
    async def create_room(self, room: RoomRecord, also: Sequence[Write] = ()) -> None:
        await self.write([(INSERT_ROOM, dict(
            code=room.code, game=room.game, players=room.players, options=json.dumps(room.options),
            seed=room.seed, status=room.status, turn_timer=room.turn_timer, host_token=room.host_token,
            seats=json.dumps(room.seats), created=room.created)), *also])

    async def update_room(self, code: str, *, seats: list[dict[str, Any]] | None = None,
                          status: str | None = None, rematch: str | None = None, also: Sequence[Write] = ()) -> None:
        writes: list[Write] = []
        if seats is not None:
            writes.append((UPDATE_SEATS, {"room": code, "new_seats": json.dumps(seats)}))
        if status is not None:
            writes.append((UPDATE_STATUS, {"room": code, "new_status": status}))
        if rematch is not None:
            writes.append((UPDATE_REMATCH, {"room": code, "new_rematch": rematch}))
        writes.extend(also)
        if writes:
            await self.write(writes)

    async def append_action(self, code: str, action: ActionRecord, status: str | None = None,
                            also: Sequence[Write] = ()) -> None:
        writes: list[Write] = [(INSERT_ACTION, dict(code=code, turn=action.turn, seat=action.seat,
                                                    action=dumps(action.action), by=action.by, at=action.at))]
        if status is not None:
            writes.append((UPDATE_STATUS, {"room": code, "new_status": status}))
        writes.extend(also)
        await self.write(writes)

    def read(self, query: Callable[[sa.Connection], Any]) -> Any:
        """``query(connection)``'s answer, on a connection of its own (reads see committed rows)."""
        with self.engine.connect() as connection:
            return query(connection)

    def load_chat(self, code: str, last: int) -> list[ChatLine]:
        rows = (sa.select(chat_table).where(chat_table.c.code == code)
                .order_by(chat_table.c.n.desc()).limit(last))
        with self.engine.connect() as conn:
            lines = [ChatLine(row.n, row.at, row.kind, row.seat, row.name, row.text) for row in conn.execute(rows)]
        return lines[::-1]

    async def append_chat(self, code: str, line: ChatLine, also: Sequence[Write] = ()) -> None:
        await self.write([chat_line(code, line), *also])

    async def write(self, writes: list[Write]) -> None:
        """``writes`` in one transaction, committed (with others queued meanwhile) by the writer."""
        future = asyncio.get_running_loop().create_future()
        self._queue.put((writes, future))
        await future

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
                self._execute(self._conn, writes)
        except Exception:
            if self._conn.invalidated or self._conn.closed:
                self._conn = None
            raise

    @staticmethod
    def _execute(conn: sa.Connection, writes: list[Write]) -> None:
        run: list[dict[str, Any]] = []
        statement = None
        for write in writes:
            if callable(write):
                if run:
                    conn.execute(statement, run)
                    run, statement = [], None
                write(conn)
                continue
            next_statement, params = write
            if next_statement is not statement and run:
                conn.execute(statement, run)
                run = []
            statement = next_statement
            run.append(params)
        if run:
            conn.execute(statement, run)

    def _commit(self, batch: list[tuple[list[Write], asyncio.Future[None]]]) -> None:
        try:
            self._transaction([write for writes, _ in batch for write in writes])
        except Exception:
            # One bad write must not sink the others: retry each alone, failing only the bad one.
            for writes, future in batch:
                try:
                    self._transaction(writes)
                except Exception as error:
                    refused = StoreError(f"the store could not save this: {error}")
                    refused.__cause__ = error  # e.g. a lost lease (hall/cluster/leases.py)
                    _settle(future, refused)
                else:
                    _settle(future, None)
            return
        self.batches += 1
        self.writes += len(batch)
        for _, future in batch:
            _settle(future, None)

    def close(self) -> None:
        if self._writer.is_alive():
            self._queue.put(None)
            self._writer.join()
        self.engine.dispose()


def _settle(future: asyncio.Future[None], error: Exception | None) -> None:
    def settle() -> None:
        if future.done():
            return
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)
    try:
        future.get_loop().call_soon_threadsafe(settle)
    except RuntimeError:  # the loop is gone (shutting down): nobody waits for this answer
        pass
