"""Who played what: "My games", profiles and leaderboards (the SQL behind the players' pages)."""

from __future__ import annotations

import json

import sqlalchemy as sa

from .records import GamesPlayed, Leader, PlayedGame, Rating
from .schema import accounts_table, ratings_table, room_players_table, rooms_table


def games_of(conn: sa.Connection, account: int, finished: bool, limit: int | None) -> list[PlayedGame]:
    """The rooms ``account`` holds a seat in, finished (or else not yet), newest first."""
    rp, rooms = room_players_table, rooms_table
    query = (sa.select(rooms.c.code, rooms.c.game, rooms.c.status, rooms.c.seats, rooms.c.created, rp.c.seat,
                       rp.c.rank, rp.c.change)
             .join(rp, rp.c.code == rooms.c.code)
             .where(rp.c.account == account, (rooms.c.status == "over") if finished else (rooms.c.status != "over"))
             .order_by(rooms.c.created.desc()))
    if limit is not None:
        query = query.limit(limit)
    return [PlayedGame(row.code, row.game, row.status, json.loads(row.seats), row.created, row.seat, row.rank,
                       row.change) for row in conn.execute(query)]


def played_by(conn: sa.Connection, account: int) -> list[GamesPlayed]:
    """Per game, the finished games ``account`` played and those it won."""
    rp, rooms = room_players_table, rooms_table
    query = (sa.select(rooms.c.game, sa.func.count().label("played"),
                       sa.func.sum(sa.case((rp.c.rank == 1, 1), else_=0)).label("won"))
             .join(rp, rp.c.code == rooms.c.code)
             .where(rp.c.account == account, rooms.c.status == "over")
             .group_by(rooms.c.game).order_by(rooms.c.game))
    return [GamesPlayed(row.game, row.played, row.won) for row in conn.execute(query)]


def ratings_of(conn: sa.Connection, account: int) -> list[Rating]:
    rt = ratings_table
    query = (sa.select(rt.c.game, rt.c.rating, rt.c.mu, rt.c.sigma, rt.c.games)
             .where(rt.c.account == account).order_by(rt.c.game))
    return [Rating(row.game, row.rating, row.mu, row.sigma, row.games) for row in conn.execute(query)]


def leaderboard(conn: sa.Connection, game: str, limit: int) -> list[Leader]:
    """The ``limit`` best rated in ``game``, best first (ties by name)."""
    rt, accounts = ratings_table, accounts_table
    query = (sa.select(accounts.c.name, accounts.c.kind, rt.c.rating, rt.c.games)
             .join(accounts, accounts.c.id == rt.c.account)
             .where(rt.c.game == game).order_by(rt.c.rating.desc(), accounts.c.name_key).limit(limit))
    return [Leader(place, row.name, row.kind, row.rating, row.games)
            for place, row in enumerate(conn.execute(query), 1)]
