"""Accounts and their sessions: the SQL of :mod:`parlour.hall.accounts` (which hashes, throttles
and decides; this only reads and writes the rows)."""

from __future__ import annotations

import sqlalchemy as sa

from .records import Account
from .schema import accounts_table, sessions_table
from .writes import Write


def by_key(conn: sa.Connection, key: str) -> tuple[Account, str | None] | None:
    """The account whose ``name_key`` is ``key``, with its password hash, or None."""
    row = conn.execute(sa.select(accounts_table).where(accounts_table.c.name_key == key)).first()
    return None if row is None else (Account(row.id, row.name, row.kind), row.password)


def by_session(conn: sa.Connection, token_hash: str, now: float) -> Account | None:
    """The account of the session whose token hashes to ``token_hash``, unless it expired by ``now``."""
    query = (sa.select(accounts_table.c.id, accounts_table.c.name, accounts_table.c.kind)
             .join(sessions_table, sessions_table.c.account == accounts_table.c.id)
             .where(sessions_table.c.token == token_hash, sessions_table.c.expires > now))
    row = conn.execute(query).first()
    return None if row is None else Account(row.id, row.name, row.kind)


INSERT_ACCOUNT = accounts_table.insert()
DELETE_EXPIRED = sessions_table.delete().where(sessions_table.c.account == sa.bindparam("who"),
                                               sessions_table.c.expires <= sa.bindparam("now"))
INSERT_SESSION = sessions_table.insert()
DELETE_SESSION = sessions_table.delete().where(sessions_table.c.token == sa.bindparam("gone"))
UPDATE_PASSWORD = accounts_table.update().where(accounts_table.c.id == sa.bindparam("who")).values(
    password=sa.bindparam("hashed"))
DELETE_OTHER_SESSIONS = sessions_table.delete().where(sessions_table.c.account == sa.bindparam("who"),
                                                      sessions_table.c.token != sa.bindparam("kept"))


def adding(name: str, key: str, kind: str, password: str | None, created: float) -> list[Write]:
    return [(INSERT_ACCOUNT, dict(name=name, name_key=key, kind=kind, password=password, created=created))]


def opening(account: int, token_hash: str, created: float, expires: float) -> list[Write]:
    """A new session; the account's expired ones go as it comes."""
    return [(DELETE_EXPIRED, {"who": account, "now": created}),
            (INSERT_SESSION, dict(token=token_hash, account=account, created=created, expires=expires))]


def closing(token_hash: str) -> list[Write]:
    return [(DELETE_SESSION, {"gone": token_hash})]


def new_password(account: int, hashed: str, kept_session: str) -> list[Write]:
    """The account's new password hash; every session but ``kept_session`` (a token hash) ends."""
    return [(UPDATE_PASSWORD, {"who": account, "hashed": hashed}),
            (DELETE_OTHER_SESSIONS, {"who": account, "kept": kept_session})]
