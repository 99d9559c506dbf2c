"""Bot accounts and their API tokens: the SQL of :mod:`parlour.hall.botaccounts` (which decides,
makes the tokens and hashes them; this only reads and writes the rows).

    rows = BotRows(store._read, store.write)      # SqlStore makes it: store.bots
    await rows.become_bot(account, token_hash, "first token", now)
    account = await rows.account_by_token(token_hash)
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from .records import Account, Leader, StoreError
from .rows import Rows
from .schema import accounts_table, api_tokens_table, ratings_table
from .writes import Write

BOT_KIND = "botacct"  # accounts.kind of a bot account ("bot" is a built-in bot's, hall/ratings.py)


@dataclass(frozen=True)
class ApiToken:
    """An API token as listed: never the token itself, which is shown once when it is made."""

    id: int
    label: str
    created: float
    last_used: float | None


class Refused(StoreError):
    """The rows say no (an account with a rated game, too many tokens): the message says why."""


def _rated_games(conn: sa.Connection, account: int) -> int:
    query = sa.select(sa.func.coalesce(sa.func.sum(ratings_table.c.games), 0)).where(
        ratings_table.c.account == account)
    return int(conn.execute(query).scalar_one())


def _token_count(conn: sa.Connection, account: int) -> int:
    query = sa.select(sa.func.count()).select_from(api_tokens_table).where(api_tokens_table.c.account == account)
    return int(conn.execute(query).scalar_one())


class BotRows(Rows):
    """The bot accounts' rows, read on the store's reader threads and written through its writer."""

    async def become_bot(self, account: int, token_hash: str, label: str, now: float) -> None:
        """``account`` (a person's, with no rated game) is a bot account from now on, with its first
        token; :class:`Refused` (nothing changed) if it has a rated game or is no person's."""

        def convert(conn: sa.Connection) -> None:
            kind = conn.execute(sa.select(accounts_table.c.kind).where(accounts_table.c.id == account)).scalar()
            if kind != "human":
                raise Refused("only a person's account can become a bot account" if kind != BOT_KIND
                              else "this account is a bot account already")
            if _rated_games(conn, account):
                raise Refused("an account that has played a rated game cannot become a bot account")
            conn.execute(accounts_table.update().where(accounts_table.c.id == account).values(kind=BOT_KIND))
            conn.execute(api_tokens_table.insert().values(account=account, token=token_hash, label=label,
                                                          created=now))

        await self._checked([convert])

    async def add_token(self, account: int, token_hash: str, label: str, now: float, most: int) -> None:
        """One more token of bot account ``account``; :class:`Refused` when it has ``most`` already."""

        def add(conn: sa.Connection) -> None:
            if _token_count(conn, account) >= most:
                raise Refused(f"a bot account has at most {most} tokens: revoke one first")
            conn.execute(api_tokens_table.insert().values(account=account, token=token_hash, label=label,
                                                          created=now))

        await self._checked([add])

    async def tokens(self, account: int) -> list[ApiToken]:
        t = api_tokens_table

        def query(conn: sa.Connection) -> list[ApiToken]:
            rows = conn.execute(sa.select(t.c.id, t.c.label, t.c.created, t.c.last_used)
                                .where(t.c.account == account).order_by(t.c.id))
            return [ApiToken(row.id, row.label, row.created, row.last_used) for row in rows]

        found: list[ApiToken] = await self._read(query)
        return found

    async def revoke(self, account: int, token_id: int) -> str | None:
        """Deletes token ``token_id`` of ``account``; its hash (to end what it opened), None if no such."""
        t = api_tokens_table

        def query(conn: sa.Connection) -> str | None:
            return conn.execute(sa.select(t.c.token).where(t.c.id == token_id, t.c.account == account)).scalar()

        digest: str | None = await self._read(query)
        if digest is not None:
            await self._checked([(t.delete().where(t.c.token == sa.bindparam("gone")), {"gone": digest})])
        return digest

    async def account_by_token(self, token_hash: str) -> Account | None:
        """The bot account a token (its hash) signs in, or None (no such token, or revoked)."""
        a, t = accounts_table, api_tokens_table

        def query(conn: sa.Connection) -> Account | None:
            row = conn.execute(sa.select(a.c.id, a.c.name, a.c.kind).join(t, t.c.account == a.c.id)
                               .where(t.c.token == token_hash, a.c.kind == BOT_KIND)).first()
            return None if row is None else Account(row.id, row.name, row.kind)

        found: Account | None = await self._read(query)
        return found

    async def used(self, token_hash: str, now: float) -> None:
        t = api_tokens_table
        await self._checked([(t.update().where(t.c.token == sa.bindparam("used_token")).values(
            last_used=sa.bindparam("at")), {"used_token": token_hash, "at": now})])

    async def leaderboard(self, game: str, limit: int) -> list[Leader]:
        """The ``limit`` best rated bot accounts in ``game``, best first (ties by name)."""
        rt, a = ratings_table, accounts_table

        def query(conn: sa.Connection) -> list[Leader]:
            rows = conn.execute(sa.select(a.c.name, a.c.kind, rt.c.rating, rt.c.games)
                                .join(a, a.c.id == rt.c.account)
                                .where(rt.c.game == game, a.c.kind == BOT_KIND)
                                .order_by(rt.c.rating.desc(), a.c.name_key).limit(limit))
            return [Leader(place, row.name, row.kind, row.rating, row.games) for place, row in enumerate(rows, 1)]

        found: list[Leader] = await self._read(query)
        return found

    async def _checked(self, writes: list[Write]) -> None:
        """``writes`` committed; a :class:`Refused` raised inside comes out as itself."""
        try:
            await self._write(writes)
        except StoreError as error:
            if isinstance(error.__cause__, Refused):
                raise error.__cause__ from None
            raise
