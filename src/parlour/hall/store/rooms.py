"""Rooms, their actions and their chat: the SQL of what the hall keeps of a game (reads, and the
writes :class:`~.sql.SqlStore` groups into its transactions), and the lobby's paging."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from ..wire import dumps
from .records import ActionRecord, ChatLine, RoomRecord, SeatHolder, SeatLeft, SeatRecord
from .schema import actions_table, chat_table, room_players_table, rooms_table
from .writes import Write

# Every write is one of these statements with its parameters; a batch runs each run of the same
# statement as one executemany, so a thousand moves cost one statement, not a thousand.
INSERT_ROOM = rooms_table.insert()
UPDATE_SEATS = rooms_table.update().where(rooms_table.c.code == sa.bindparam("room")).values(
    seats=sa.bindparam("new_seats"))
UPDATE_STATUS = rooms_table.update().where(rooms_table.c.code == sa.bindparam("room")).values(
    status=sa.bindparam("new_status"))
UPDATE_REMATCH = rooms_table.update().where(rooms_table.c.code == sa.bindparam("room")).values(
    rematch=sa.bindparam("new_rematch"))
UPDATE_VOTE = rooms_table.update().where(rooms_table.c.code == sa.bindparam("room")).values(
    vote=sa.bindparam("new_vote"))
INSERT_ACTION = actions_table.insert()
DELETE_ACTION = actions_table.delete().where(actions_table.c.code == sa.bindparam("room"),
                                             actions_table.c.turn == sa.bindparam("at_turn"))
_PLAYER_AT = (room_players_table.c.code == sa.bindparam("room")) & (room_players_table.c.seat == sa.bindparam("at"))
INSERT_PLAYER = room_players_table.insert()
FORFEIT_PLAYER = room_players_table.update().where(_PLAYER_AT).values(forfeit=True)
DELETE_PLAYER = room_players_table.delete().where(_PLAYER_AT)
INSERT_CHAT = chat_table.insert()
CHAT_KEPT = 1000  # the newest lines of a room's chat kept; an older one goes as each new one comes
FORGET_CHAT = chat_table.delete().where(chat_table.c.code == sa.bindparam("room"),
                                        chat_table.c.n <= sa.bindparam("upto"))


# -- writing ----------------------------------------------------------------------------------------
def creating(room: RoomRecord) -> Write:
    return (INSERT_ROOM, dict(
        code=room.code, game=room.game, players=room.players, options=json.dumps(room.options),
        seed=room.seed, status=room.status, turn_timer=room.turn_timer, host_token=room.host_token,
        seats=json.dumps(room.seats), created=room.created, pace=None if room.pace == "live" else room.pace,
        deadline=room.deadline, coach=room.coach or None))


def updating(code: str, seats: list[SeatRecord] | None, status: str | None, rematch: str | None,
             vote: dict[str, Any] | None = None) -> list[Write]:
    """The writes of a room's changes (None: unchanged); ``vote``: the players' vote under way,
    ``{}`` when there is none any more."""
    writes: list[Write] = []
    if seats is not None:
        writes.append((UPDATE_SEATS, {"room": code, "new_seats": json.dumps(seats)}))
    if status is not None:
        writes.append((UPDATE_STATUS, {"room": code, "new_status": status}))
    if rematch is not None:
        writes.append((UPDATE_REMATCH, {"room": code, "new_rematch": rematch}))
    if vote is not None:
        writes.append((UPDATE_VOTE, {"room": code, "new_vote": json.dumps(vote) if vote else None}))
    return writes


def acting(code: str, action: ActionRecord, encoded: bytes | None = None) -> Write:
    """The write that keeps ``action`` of room ``code`` (``encoded``: its action as JSON, if made already)."""
    text = dumps(action.action) if encoded is None else encoded.decode()
    return (INSERT_ACTION, dict(code=code, turn=action.turn, seat=action.seat, action=text, by=action.by, at=action.at))


def taking_back(code: str, turn: int) -> Write:
    """The write that takes back action ``turn`` of room ``code`` (its last: hall/room/takeback.py)."""
    return (DELETE_ACTION, {"room": code, "at_turn": turn})


def holding(code: str, taken: SeatHolder) -> Write:
    """The write that notes ``taken.account`` plays at ``taken.seat`` of room ``code``."""
    return (INSERT_PLAYER, dict(code=code, seat=taken.seat, account=taken.account, forfeit=False))


def releasing(code: str, left: SeatLeft) -> Write:
    """A signed-in player's seat goes to a bot: mid-game they forfeit; before it they just leave."""
    return (FORFEIT_PLAYER if left.forfeit else DELETE_PLAYER, {"room": code, "at": left.seat})


def chatting(code: str, line: ChatLine) -> list[Write]:
    """The writes that keep ``line`` of room ``code``'s chat, and forget the line ``CHAT_KEPT`` before it."""
    keep: Write = (INSERT_CHAT, dict(code=code, n=line.n, at=line.at, kind=line.kind, seat=line.seat, name=line.name,
                                     text=line.text, account=line.account, hidden=False))
    return [keep, (FORGET_CHAT, {"room": code, "upto": line.n - CHAT_KEPT})] if line.n >= CHAT_KEPT else [keep]


# -- reading ----------------------------------------------------------------------------------------
def load(engine: sa.Engine, which: Any = None, *actions: Any) -> list[RoomRecord]:
    """The rooms ``which`` selects (a condition on the rooms table; None: all), oldest first, with
    their actions (those ``actions``, conditions on the actions table, select, if given). The rooms'
    rows are read in the same transaction as their actions, so the two agree."""
    room_rows = sa.select(rooms_table).order_by(rooms_table.c.created)
    action_rows = sa.select(actions_table).order_by(actions_table.c.code, actions_table.c.turn)
    if actions:
        action_rows = action_rows.where(*actions)
    if which is not None:
        room_rows = room_rows.where(which)
        if not actions:
            action_rows = action_rows.where(actions_table.c.code.in_(sa.select(rooms_table.c.code).where(which)))
    with engine.connect() as conn, conn.begin():
        if conn.dialect.name == "postgresql":  # one snapshot for both reads
            conn.execute(sa.text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"))
        rooms = {row.code: RoomRecord(
            code=row.code, game=row.game, players=row.players, options=json.loads(row.options),
            seed=row.seed, status=row.status, turn_timer=row.turn_timer, host_token=row.host_token,
            seats=json.loads(row.seats), created=row.created, rematch=row.rematch, pace=row.pace or "live",
            deadline=row.deadline, coach=bool(row.coach), vote=json.loads(row.vote) if row.vote else None)
            for row in conn.execute(room_rows)}
        for row in conn.execute(action_rows):
            rooms[row.code].actions.append(ActionRecord(row.turn, row.seat, json.loads(row.action), row.by, row.at))
    return list(rooms.values())


def load_all(engine: sa.Engine, finished: bool) -> list[RoomRecord]:
    """Every room; ``finished`` False: only those whose game is not over."""
    return load(engine, None if finished else rooms_table.c.status != "over")


def load_one(engine: sa.Engine, code: str, from_turn: int = 0) -> RoomRecord | None:
    """Room ``code`` with its actions from turn ``from_turn`` on, or None."""
    if from_turn:
        found = load(engine, rooms_table.c.code == code, actions_table.c.code == code,
                     actions_table.c.turn >= from_turn)
    else:
        found = load(engine, rooms_table.c.code == code)
    return found[0] if found else None


def exists(conn: sa.Connection, code: str) -> bool:
    return conn.execute(sa.select(rooms_table.c.code).where(rooms_table.c.code == code)).first() is not None


def chat(conn: sa.Connection, code: str, last: int) -> list[ChatLine]:
    """Room ``code``'s ``last`` newest chat lines a moderator did not hide, oldest first."""
    rows = (sa.select(chat_table).where(chat_table.c.code == code, chat_table.c.hidden == sa.false())
            .order_by(chat_table.c.n.desc()).limit(last))
    lines = [ChatLine(row.n, row.at, row.kind, row.seat, row.name, row.text, row.account) for row in conn.execute(rows)]
    return lines[::-1]


def lobby_page(conn: sa.Connection, status: str, game: str | None, offset: int, limit: int) -> list[str]:
    """The codes of the rooms with ``status`` (of ``game``), newest first, ``limit`` from ``offset``."""
    query = sa.select(rooms_table.c.code).where(rooms_table.c.status == status)
    if game is not None:
        query = query.where(rooms_table.c.game == game)
    query = query.order_by(rooms_table.c.created.desc()).offset(offset).limit(limit)
    return list(conn.execute(query).scalars())
