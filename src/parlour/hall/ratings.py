"""Ratings: OpenSkill (Plackett-Luce) per game, settled in the transaction of a game's last action.

Who is rated: every seat held by a signed-in player (``room_players``) and every seat a built-in
bot held from the start, as the account ``bot:<bot name>`` (made on its first rated game). A game
is rated when every seat is one of those: one seat of a guest, or of a bot that stood in for a
guest, and nobody's rating moves (the signed-in players still get the game and its place in their
history). A player whose seat went to a bot mid-game forfeits: ranked below everyone else. An
account at two seats (two ``random`` bots) rates the others but is not itself changed. What is
shown and ranked is the ordinal ``mu - 3 sigma`` (0 for a new player).

    writes = settle_writes(room_code, "patchwork", seat_records, result.ranks, clock.now())
    await store.append_action(code, record, status="over", also=writes)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from .store import Write, accounts_table, ratings_table, room_players_table

BOT_PREFIX = "bot:"


@lru_cache(maxsize=1)
def model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def bot_account_name(bot: str) -> str:
    return f"{BOT_PREFIX}{bot}"


def insert_missing(conn: sa.Connection, table: sa.Table, rows: list[dict[str, Any]], *keys: str) -> None:
    """Insert the ``rows`` whose ``keys`` are not in ``table`` yet, skipping the others, also when
    another transaction inserts them meanwhile (halls of a cluster settle games at once): the
    database's own ``INSERT ... ON CONFLICT DO NOTHING``, which waits for that transaction."""
    if not rows:
        return
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    conn.execute(insert(table).values(rows).on_conflict_do_nothing(index_elements=list(keys)))


def bot_account(conn: sa.Connection, bot: str, now: float) -> int:
    """The id of the bot's account, made if it has none yet."""
    name = bot_account_name(bot)
    find = sa.select(accounts_table.c.id).where(accounts_table.c.name_key == name.casefold())
    found = conn.execute(find).scalar()
    if found is None:
        insert_missing(conn, accounts_table, [dict(name=name, name_key=name.casefold(), kind="bot", password=None,
                                                   created=now)], "name_key")
        found = conn.execute(find).scalar_one()
    return found


def final_ranks(ranks: Sequence[int], forfeits: set[int]) -> list[int]:
    """The game's ranks with every forfeiting seat placed after all the others (tied among them).

    >>> final_ranks([1, 2, 3], {0})
    [3, 1, 2]
    """
    kept = sorted({r for i, r in enumerate(ranks) if i not in forfeits})
    dense = {r: k + 1 for k, r in enumerate(kept)}
    return [len(kept) + 1 if i in forfeits else dense[r] for i, r in enumerate(ranks)]


def settle_writes(code: str, game: str, seats: list[dict[str, Any]], ranks: Sequence[int],
                  now: float) -> list[Write]:
    """The writes that record a finished game's places and ratings (see the module's doc)."""
    return [lambda conn: settle(conn, code, game, seats, ranks, now)]


def settle(conn: sa.Connection, code: str, game: str, seats: list[dict[str, Any]], ranks: Sequence[int],
           now: float) -> None:
    rp = room_players_table
    held = {row.seat: row for row in conn.execute(sa.select(rp).where(rp.c.code == code))}
    accounts: dict[int, int] = {}  # seat -> account rated there
    rated = True
    for seat, record in enumerate(seats):
        if seat in held:
            accounts[seat] = held[seat].account
        elif record.get("kind") == "bot" and not record.get("replaced") and record.get("bot"):
            accounts[seat] = bot_account(conn, record["bot"], now)
            conn.execute(rp.insert().values(code=code, seat=seat, account=accounts[seat], forfeit=False))
        else:
            rated = False  # a guest's seat
    if not accounts:
        return
    forfeits = {seat for seat, row in held.items() if row.forfeit}
    places = final_ranks(ranks, forfeits)
    changes: dict[int, float] = {}
    if rated and len(accounts) >= 2:
        changes = _rate(conn, game, accounts, places, now)
    for seat, account in accounts.items():
        conn.execute(rp.update().where(rp.c.code == code, rp.c.seat == seat).values(
            rank=places[seat], change=changes.get(seat)))


def _rate(conn: sa.Connection, game: str, accounts: dict[int, int], places: list[int],
          now: float) -> dict[int, float]:
    """Rate the seats in ``accounts`` by ``places``; returns each changed seat's rating change.

    The rows of the accounts it changes are made first if missing (a new player's rating, 0
    games) and locked, in one order, for the rest of the transaction: another hall process
    settling a game of the same players at the same moment waits, then rates from these results
    instead of overwriting them (PostgreSQL; SQLite has one writer at a time anyway)."""
    rt = ratings_table
    twice = {account for account, n in Counter(accounts.values()).items() if n > 1}
    changed = sorted(set(accounts.values()) - twice)
    new = model().rating()
    insert_missing(conn, rt, [dict(account=account, game=game, mu=new.mu, sigma=new.sigma, rating=new.ordinal(),
                                   games=0, updated=now) for account in changed], "account", "game")
    stored = {row.account: row for row in conn.execute(sa.select(rt).where(
        rt.c.game == game, rt.c.account.in_(set(accounts.values()))).order_by(rt.c.account).with_for_update())}
    seats = sorted(accounts)
    before = [model().rating(mu=stored[accounts[s]].mu, sigma=stored[accounts[s]].sigma)
              if accounts[s] in stored else model().rating() for s in seats]
    after = model().rate([[rating] for rating in before], ranks=[places[s] for s in seats])
    changes: dict[int, float] = {}
    for seat, old, (rating,) in zip(seats, before, after):
        account = accounts[seat]
        if account in twice:
            continue
        conn.execute(rt.update().where(rt.c.account == account, rt.c.game == game).values(
            mu=rating.mu, sigma=rating.sigma, rating=rating.ordinal(), games=stored[account].games + 1, updated=now))
        changes[seat] = rating.ordinal() - old.ordinal()
    return changes
