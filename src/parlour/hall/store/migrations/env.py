"""Alembic's entry point for the store's migrations; :mod:`parlour.hall.store.migrations` runs it.

It works on the connection handed over in ``config.attributes["connection"]`` (inside its
transaction), or else on a new engine for the ``sqlalchemy.url`` option.
It reads the tables from :mod:`..schema` and makes an engine with :mod:`..engine`, never the store
itself (which runs the migrations).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from parlour.hall.store.engine import make_engine
from parlour.hall.store.schema import metadata

MIGRATION_LOCK = 7_004_150  # PostgreSQL advisory lock: one server process upgrades at a time


def run(connection: sa.Connection) -> None:
    # SQLite alters a table by copying it ("batch" mode); PostgreSQL alters it in place.
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite", compare_type=True)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        context.run_migrations()


def run_online() -> None:
    given = context.config.attributes.get("connection")
    if given is not None:
        run(given)
        return
    engine = make_engine(context.config.get_main_option("sqlalchemy.url") or "")
    try:
        with engine.connect() as connection:
            run(connection)
            connection.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise SystemExit("the store's migrations run on a database, not as SQL to print")
run_online()
