"""A finished game's places and ratings, in the transaction of its last action (the rules, pure,
are :mod:`parlour.hall.ratings`'; this is the read-modify-write around them).

Who is rated: every seat a signed-in player holds (``room_players``) and every seat the
settlement's ``bots`` names, as that bot's account (made on its first rated game). The game is
rated when every seat is one of those; the signed-in players get their place either way. An
account at two seats rates the others but is not itself changed.

Two players who meet too often are not rated: once two signed-in players have had
``rater.pair_games`` rated games of one game together within ``rater.pair_period`` seconds, their
next games together are not rated (for anyone at the table), and the pair is flagged for the
moderators (:func:`flagged`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from ..text import name_key
from .records import FlaggedPair, Rater, Settlement, Skill
from .schema import accounts_table, flagged_pairs_table, rated_pairs_table, ratings_table, room_players_table
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
    find = sa.select(accounts_table.c.id).where(accounts_table.c.name_key == name_key(name))
    found = conn.execute(find).scalar()
    if found is None:
        insert_missing(conn, accounts_table, [dict(name=name, name_key=name_key(name), kind="bot", password=None,
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
    if rated and len(accounts) >= 2 and _pairs_allow(conn, settlement, sorted({row.account for row in held.values()})):
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


def _pairs_allow(conn: sa.Connection, settlement: Settlement, players: list[int]) -> bool:
    """Whether the signed-in ``players`` of a game may be rated by it: no two of them had
    ``pair_games`` rated games of it together in the last ``pair_period`` seconds. If they may, the
    game is counted for each pair; if not, every pair over the count is flagged."""
    rp, fp, game, now = rated_pairs_table, flagged_pairs_table, settlement.game, settlement.at
    pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1:]]
    since = now - settlement.rater.pair_period
    over = [(a, b) for a, b in pairs if conn.execute(
        sa.select(sa.func.count()).select_from(rp).where(rp.c.first == a, rp.c.second == b, rp.c.game == game,
                                                         rp.c.at > since)).scalar_one() >= settlement.rater.pair_games]
    if not over:
        for a, b in pairs:
            conn.execute(rp.insert().values(code=settlement.code, first=a, second=b, game=game, at=now))
        return True
    for a, b in over:
        insert_missing(conn, fp, [dict(first=a, second=b, game=game, since=now, last=now, unrated=0,
                                       last_code=settlement.code)], "first", "second", "game")
        conn.execute(fp.update().where(fp.c.first == a, fp.c.second == b, fp.c.game == game).values(
            last=now, unrated=fp.c.unrated + 1, last_code=settlement.code))
    return False


def flagged(conn: sa.Connection, limit: int) -> list[FlaggedPair]:
    """The pairs of players flagged for meeting more often than is rated, latest first."""
    fp, first, second = flagged_pairs_table, accounts_table.alias("first_account"), accounts_table.alias("second")
    query = (sa.select(first.c.name.label("first"), second.c.name.label("second"), fp.c.game, fp.c.since,
                       fp.c.last, fp.c.unrated, fp.c.last_code)
             .join(first, first.c.id == fp.c.first).join(second, second.c.id == fp.c.second)
             .order_by(fp.c.last.desc()).limit(limit))
    return [FlaggedPair(row.first, row.second, row.game, row.since, row.last, row.unrated, row.last_code)
            for row in conn.execute(query)]
