"""A finished game's places and ratings, in the transaction of its last action (the rules, pure,
are :mod:`parlour.hall.ratings`'; this is the read-modify-write around them).

Who is rated: every seat a signed-in player holds (``room_players``) and every seat the
settlement's ``bots`` names, as that bot's account (made on its first rated game). The game is
rated when every seat is one of those; the signed-in players get their place either way. An
account at two seats rates the others but is not itself changed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from .records import Rater, Settlement, Skill
from .schema import accounts_table, ratings_table, room_players_table
from .writes import Write


def settling(settlement: Settlement) -> Write:
    """The write that settles a finished game (see the module's doc)."""
    return lambda conn: settle(conn, settlement)


def insert_missing(conn: sa.Connection, table: sa.Table, rows: list[dict[str, Any]], *keys: str) -> None:
    """Insert the ``rows`` whose ``keys`` are not in ``table`` yet, skipping the others, also when
    another transaction inserts them meanwhile (halls of a cluster settle games at once): the
    database's own ``INSERT ... ON CONFLICT DO NOTHING``, which waits for that transaction."""
    if not rows:
        return
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    conn.execute(insert(table).values(rows).on_conflict_do_nothing(index_elements=list(keys)))


def bot_account(conn: sa.Connection, name: str, now: float) -> int:
    """The id of the bot's account called ``name``, made if it has none yet."""
    find = sa.select(accounts_table.c.id).where(accounts_table.c.name_key == name.casefold())
    found = conn.execute(find).scalar()
    if found is None:
        insert_missing(conn, accounts_table, [dict(name=name, name_key=name.casefold(), kind="bot", password=None,
                                                   created=now)], "name_key")
        found = conn.execute(find).scalar_one()
    return int(found)


def settle(conn: sa.Connection, settlement: Settlement) -> None:
    rp, code = room_players_table, settlement.code
    held = {row.seat: row for row in conn.execute(sa.select(rp).where(rp.c.code == code))}
    accounts: dict[int, int] = {}  # seat -> account rated there
    rated = True
    for seat in range(settlement.players):
        if seat in held:
            accounts[seat] = held[seat].account
        elif seat in settlement.bots:
            accounts[seat] = bot_account(conn, settlement.bots[seat], settlement.at)
            conn.execute(rp.insert().values(code=code, seat=seat, account=accounts[seat], forfeit=False))
        else:
            rated = False  # a guest's seat
    if not accounts:
        return
    forfeits = {seat for seat, row in held.items() if row.forfeit}
    places = settlement.rater.places(settlement.ranks, forfeits)
    changes: dict[int, float] = {}
    if rated and len(accounts) >= 2:
        changes = _rate(conn, settlement.game, accounts, places, settlement.at, settlement.rater, settlement.only)
    for seat in accounts:
        conn.execute(rp.update().where(rp.c.code == code, rp.c.seat == seat).values(
            rank=places[seat], change=changes.get(seat)))


def _rate(conn: sa.Connection, game: str, accounts: dict[int, int], places: list[int], now: float,
          rater: Rater, only: frozenset[int] | None = None) -> dict[int, float]:
    """Rate the seats in ``accounts`` by ``places``; returns each changed seat's rating change.

    The rows of the accounts it changes are made first if missing (a new player's rating, 0
    games) and locked, in one order, for the rest of the transaction: another hall process
    settling a game of the same players at the same moment waits, then rates from these results
    instead of overwriting them (PostgreSQL; SQLite has one writer at a time anyway)."""
    rt = ratings_table
    twice = {account for account, n in Counter(accounts.values()).items() if n > 1}
    if only is not None:  # the others are rated against, not changed (hall/ratings.py: unrewarded)
        twice |= {account for seat, account in accounts.items() if seat not in only}
    changed = sorted(set(accounts.values()) - twice)
    new = rater.skill()
    insert_missing(conn, rt, [dict(account=account, game=game, mu=new.mu, sigma=new.sigma, rating=new.rating,
                                   games=0, updated=now) for account in changed], "account", "game")
    stored = {row.account: row for row in conn.execute(sa.select(rt).where(
        rt.c.game == game, rt.c.account.in_(set(accounts.values()))).order_by(rt.c.account).with_for_update())}
    seats = sorted(accounts)
    before = [rater.skill(stored[accounts[s]].mu, stored[accounts[s]].sigma) if accounts[s] in stored
              else rater.skill() for s in seats]
    after: list[Skill] = rater.rate(before, [places[s] for s in seats])
    changes: dict[int, float] = {}
    for seat, old, rating in zip(seats, before, after):
        account = accounts[seat]
        if account in twice:
            continue
        conn.execute(rt.update().where(rt.c.account == account, rt.c.game == game).values(
            mu=rating.mu, sigma=rating.sigma, rating=rating.rating, games=stored[account].games + 1, updated=now))
        changes[seat] = rating.rating - old.rating
    return changes
