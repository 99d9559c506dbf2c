"""The database engine of a store URL: SQLite (WAL, every commit fsynced) or PostgreSQL.

Apart from :mod:`.sql` so that the migrations (:mod:`.migrations`, which the store runs) can make
an engine of their own without importing the store back.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.pool import StaticPool


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
