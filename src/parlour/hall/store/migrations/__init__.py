"""The store's schema, versioned with Alembic: one revision per change, in ``versions/``.

>>> prepare(engine)    # doctest: +SKIP
['0001', '0002']

A new database is made at the newest revision; one made before migrations (main at 655da15: the
tables ``rooms`` and ``actions`` and no version) is taken to be at ``0001``, which is exactly that
schema; an older one is brought up to date, or refused in words when the caller says not to; one
at a revision this code does not know (made by a newer Parlour) is refused.

To change the tables: change them in ``store/schema.py``, then
``parlour db revision -m "what changed"`` writes the revision from the difference between the
code and a database at the newest revision; read it, fix what it got wrong, and commit it.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from ....core import ParlourError

FOLDER = Path(__file__).parent
BEFORE_MIGRATIONS = "0001"  # the revision a database made before migrations is at
# What such a database holds: its tables and their columns.
FIRST_TABLES = {"rooms": {"code", "game", "players", "options", "seed", "status", "turn_timer", "host_token",
                          "seats", "created"},
                "actions": {"code", "turn", "seat", "action", "by", "at"}}


class SchemaError(ParlourError):
    """The database's schema is not the one this code needs, and was not changed; says what to do."""


def config(connection: sa.Connection | None = None, url: str | None = None) -> Config:
    """Alembic's configuration for the store: no ini file, the scripts in this package."""
    cfg = Config()
    cfg.set_main_option("script_location", str(FOLDER))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    cfg.attributes["connection"] = connection
    return cfg


@lru_cache(maxsize=1)
def scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(config())


def head() -> str:
    """The newest revision."""
    found = scripts().get_current_head()
    assert found is not None
    return found


def revisions() -> list[str]:
    """Every revision, oldest first."""
    return [script.revision for script in scripts().walk_revisions()][::-1]


def current(connection: sa.Connection) -> str | None:
    """The revision the database is at (None: made before migrations, or empty)."""
    return MigrationContext.configure(connection).get_current_revision()


def prepare(engine: sa.Engine, upgrade: bool = True) -> list[str]:
    """Make the database's schema the newest; returns the revisions applied, oldest first.

    ``upgrade`` False: a database that has a schema but an older one is refused with
    :class:`SchemaError` (an empty one is still made). A database of a newer Parlour is always
    refused, since this code cannot know what its revisions did."""
    shown = engine.url.render_as_string(hide_password=True)
    with engine.connect() as connection:
        revision = current(connection)
        tables = set(sa.inspect(connection).get_table_names())
        columns = {table: {c["name"] for c in sa.inspect(connection).get_columns(table)}
                   for table in FIRST_TABLES if table in tables}
    newest = head()
    if revision == newest:
        return []
    known = revisions()
    if revision is not None and revision not in known:
        raise SchemaError(f"the store {shown} is at revision {revision}, which this Parlour does not know:"
                          f" a newer Parlour made it (this one reaches {newest}); run that one")
    start = revision
    if revision is None and columns:
        if columns != FIRST_TABLES:
            raise SchemaError(f"the store {shown} has tables {sorted(columns)} without a schema version, and"
                              " they are not the ones Parlour made before migrations: it was left alone")
        start = BEFORE_MIGRATIONS
    if start is not None and not upgrade:
        raise SchemaError(f"the store {shown} is at revision {start}, and this Parlour needs {newest}: run"
                          f" `parlour db upgrade --db URL` first (or `parlour serve` without --no-upgrade)")
    with engine.begin() as connection:
        cfg = config(connection)
        if revision is None and start is not None:
            command.stamp(cfg, start)
        command.upgrade(cfg, "head")
    return known[known.index(start) + 1:] if start is not None else known
