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
from functools import lru_cache
from typing import Any, Sequence

import sqlalchemy as sa

from .store import Write, accounts_table, ratings_table, room_players_table

BOT_PREFIX = "bot:"


@lru_cache(maxsize=1)
def model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def bot_account_name(bot: str) -> str:
    return f"{BOT_PREFIX}{bot}"


def bot_account(conn: sa.Connection, bot: str, now: float) -> int:
    """The id of the bot's account, made if it has none yet."""
    name = bot_account_name(bot)
    found = conn.execute(sa.select(accounts_table.c.id).where(accounts_table.c.name_key == name.casefold())).first()
    if found is not None:
        return found.id
    return conn.execute(accounts_table.insert().values(
        name=name, name_key=name.casefold(), kind="bot", password=None, created=now)).inserted_primary_key[0]


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
    """Rate the seats in ``accounts`` by ``places``; returns each changed seat's rating change."""
    rt = ratings_table
    stored = {row.account: row for row in conn.execute(sa.select(rt).where(
        rt.c.game == game, rt.c.account.in_(set(accounts.values()))))}
    seats = sorted(accounts)
    before = [model().rating(mu=stored[accounts[s]].mu, sigma=stored[accounts[s]].sigma)
              if accounts[s] in stored else model().rating() for s in seats]
    after = model().rate([[rating] for rating in before], ranks=[places[s] for s in seats])
    twice = {account for account, n in Counter(accounts.values()).items() if n > 1}
    changes: dict[int, float] = {}
    for seat, old, (new,) in zip(seats, before, after):
        account = accounts[seat]
        if account in twice:
            continue
        values = dict(mu=new.mu, sigma=new.sigma, rating=new.ordinal(), updated=now)
        if account in stored:
            conn.execute(rt.update().where(rt.c.account == account, rt.c.game == game).values(
                games=stored[account].games + 1, **values))
        else:
            conn.execute(rt.insert().values(account=account, game=game, games=1, **values))
        changes[seat] = new.ordinal() - old.ordinal()
    return changes
