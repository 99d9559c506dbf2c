"""``parlour db``: the store's schema (Alembic migrations): where it is, bring it up to date, add
a revision; and its backups (:mod:`.backup`)."""

from __future__ import annotations

import argparse

from .serve import DEFAULT_DB, ensure_folder

JOBS = {
    "current": "the revision the store is at",
    "upgrade": "bring the store's schema to the newest revision",
    "revision": "write a new revision from the tables in the code (-m says what)",
    "backup": "copy the store into FILE while the hall plays on (docs/operations.md)",
    "restore": "put a backup FILE into an empty store (a restore never merges; --replace empties it first)",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("db", help="the store's schema (current, upgrade, revision) and backups (backup, restore)",
                            description="The store's schema, versioned with Alembic, and its backups.")
    jobs = parser.add_subparsers(dest="what", metavar="WHAT", required=True)
    for name, words in JOBS.items():
        job = jobs.add_parser(name, help=words, description=words[0].upper() + words[1:] + ".")
        job.add_argument("--db", default=DEFAULT_DB, help=f"the store's SQLAlchemy URL (default {DEFAULT_DB})")
        if name == "revision":
            job.add_argument("-m", "--message", help="what the change is, in a few words")
        if name in ("backup", "restore"):
            job.add_argument("file", nargs="?", metavar="FILE", help="the backup file")
        if name == "restore":
            job.add_argument("--replace", action="store_true",
                             help="throw away what the store holds, then restore (else a store that holds"
                                  " anything is refused)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..hall.store import make_engine, migrations

    if args.what == "revision":
        return revision(args.message)
    if args.what in ("backup", "restore"):
        from .backup import run as backup_or_restore

        return backup_or_restore(args)
    ensure_folder(args.db)
    engine = make_engine(args.db)
    try:
        if args.what == "upgrade":
            applied = migrations.prepare(engine)
            print(f"applied {', '.join(applied)}" if applied else "already up to date", end="")
            print(f" (revision {migrations.head()})")
        else:
            with engine.connect() as connection:
                at = migrations.current(connection)
            print(f"{at or 'no revision (empty, or made before migrations)'}; the newest is {migrations.head()}")
    finally:
        engine.dispose()
    return 0


def revision(message: str | None) -> int:
    """A new revision file: what the code's tables have that a database at the newest lacks."""
    import tempfile
    from pathlib import Path

    from alembic import command

    from ..core import ParlourError
    from ..hall.store import make_engine, migrations

    if not message:
        raise ParlourError("say what the revision changes: parlour db revision -m 'chat lines'")
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{Path(folder) / 'head.sqlite3'}")
        migrations.prepare(engine)
        number = f"{len(migrations.revisions()) + 1:04d}"
        with engine.begin() as connection:
            command.revision(migrations.config(connection), message, autogenerate=True, rev_id=number)
        engine.dispose()
    return 0
