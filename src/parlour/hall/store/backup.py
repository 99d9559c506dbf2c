"""Backups of the store, taken while the hall plays on, and their restore (``parlour db backup``,
``parlour db restore``).

    counted = backup("sqlite:///var/parlour.sqlite3", Path("parlour.backup"))
    counted = restore("sqlite:///var/restored.sqlite3", Path("parlour.backup"))

Each engine's own tool makes a consistent copy without stopping anyone: SQLite's online backup API
(in WAL mode readers never block the writer, so the hall commits moves while the copy is made;
the copy is the database as of one instant), PostgreSQL's ``pg_dump`` (one snapshot, its custom
format) and ``pg_restore``. A backup is written to a temporary file beside ``FILE`` and renamed
when complete, so a backup that fails leaves no half file behind.

A restore never merges: into a store that holds anything (a room, an account...) it is refused
in words unless ``replace`` says to throw that away first; it is all or nothing (SQLite's backup
API into the file; PostgreSQL's restore in one transaction). The restored store may be older than
this code's schema: the hall brings it up to date as it starts. Both return what the store holds
then, table by table (:func:`counts`), for the operator to compare.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import sqlalchemy as sa

from .engine import make_engine
from .records import StoreError
from .schema import (
    accounts_table,
    actions_table,
    chat_table,
    ratings_table,
    room_players_table,
    rooms_table,
    sessions_table,
)

SQLITE_MAGIC = b"SQLite format 3\0"
PG_DUMP_MAGIC = b"PGDMP"
# What a store holds, in words, for the counts shown after a backup or a restore.
COUNTED = {"rooms": rooms_table, "actions": actions_table, "accounts": accounts_table, "sessions": sessions_table,
           "ratings": ratings_table, "players in rooms": room_players_table, "chat lines": chat_table}


def counts(engine: sa.Engine) -> dict[str, int]:
    """How many rows each of the store's tables holds (0 for a table not made yet)."""
    found = {}
    with engine.connect() as connection:
        present = set(sa.inspect(connection).get_table_names())
        for name, table in COUNTED.items():
            found[name] = (connection.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()
                           if table.name in present else 0)
    return found


def sqlite_path(url: str) -> Path | None:
    """The file of a ``sqlite:///path`` URL; None for another engine. An in-memory one is refused."""
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise StoreError("an in-memory SQLite store has nothing to back up or restore: give a file")
    return Path(parsed.database)


def backup(url: str, file: Path) -> dict[str, int]:
    """Copy the store at ``url`` into ``file`` while the hall goes on; returns the copy's counts
    (SQLite), or the store's as the copy ended (PostgreSQL: a dump is counted only by a restore)."""
    path = sqlite_path(url)
    partial = file.with_name(file.name + ".partial")
    try:
        if path is not None:
            if not path.exists():
                raise StoreError(f"there is no SQLite store at {path}")
            partial.unlink(missing_ok=True)
            source, copy = sqlite3.connect(path, timeout=30), sqlite3.connect(partial)
            try:
                source.backup(copy)  # all pages in one step: one consistent instant, the writer never waits
                copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            finally:
                source.close()
                copy.close()
            counted = _counts_of(f"sqlite:///{partial}")
        else:
            _postgres("pg_dump", url, ["--format=custom", "--no-owner", "--no-privileges", f"--file={partial}"])
            counted = _counts_of(url)
        os.replace(partial, file)
    finally:
        partial.unlink(missing_ok=True)
    return counted


def restore(url: str, file: Path, *, replace: bool = False) -> dict[str, int]:
    """Put the backup ``file`` into the store at ``url``: refused if the store holds anything,
    unless ``replace``; returns the restored store's counts."""
    if not file.is_file():
        raise StoreError(f"there is no backup file {file}")
    with open(file, "rb") as opened:
        head = opened.read(len(SQLITE_MAGIC))
    path = sqlite_path(url)
    kind = "SQLite" if head.startswith(SQLITE_MAGIC) else "PostgreSQL" if head.startswith(PG_DUMP_MAGIC) else None
    if kind is None:
        raise StoreError(f"{file} is not a backup of a store (neither an SQLite database nor pg_dump's custom format)")
    if (kind == "SQLite") != (path is not None):
        raise StoreError(f"{file} is a backup of a {kind} store: restore it into a {kind} store"
                         " (to move between engines, restore it into its own engine and copy the rows)")
    if path is None or path.exists():
        held = {name: n for name, n in _counts_of(url).items() if n}
        if held and not replace:
            what = ", ".join(f"{n} {name}" for name, n in held.items())
            raise StoreError(f"the store at {safe(url)} is not empty ({what}): nothing was restored. A restore"
                             " never merges; to throw its content away and restore, add --replace")
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        source, target = sqlite3.connect(file), sqlite3.connect(path, timeout=30)
        try:
            source.backup(target)  # the whole file replaced at once, in the target's own transaction
            target.execute("PRAGMA journal_mode=WAL")  # as the hall keeps it
        finally:
            source.close()
            target.close()
    else:
        _postgres("pg_restore", url, ["--clean", "--if-exists", "--no-owner", "--no-privileges",
                                      "--single-transaction", "--exit-on-error", str(file)])
    return _counts_of(url)


def _counts_of(url: str) -> dict[str, int]:
    engine = make_engine(url)
    try:
        return counts(engine)
    finally:
        engine.dispose()


def safe(url: str) -> str:
    """``url`` without its password, to be shown."""
    return sa.engine.make_url(url).render_as_string(hide_password=True)


def postgres_tool(name: str) -> str:
    """The newest installed PostgreSQL's ``pg_dump`` or ``pg_restore`` (Debian's folders first)."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                   key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0)
    program = found[-1] if found else shutil.which(name)
    if program is None:
        raise StoreError(f"{name} is not installed (apt-get install postgresql-client)")
    return program


def _postgres(tool: str, url: str, arguments: list[str]) -> None:
    """Run ``pg_dump`` or ``pg_restore`` on the database of ``url``; its connection goes through
    the environment (PGHOST, PGPASSWORD...), never the command line, where ``ps`` would show it."""
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "postgresql":
        raise StoreError(f"backups know SQLite and PostgreSQL stores, not {parsed.get_backend_name()}")
    query = {key: value if isinstance(value, str) else value[-1] for key, value in parsed.query.items()}
    environment = dict(os.environ)
    for variable, value in (("PGHOST", parsed.host or query.get("host")), ("PGPORT", parsed.port or query.get("port")),
                            ("PGUSER", parsed.username), ("PGPASSWORD", parsed.password),
                            ("PGDATABASE", parsed.database)):
        if value is not None:
            environment[variable] = str(value)
    database = ["--dbname", parsed.database or "postgres"]
    done = subprocess.run([postgres_tool(tool), *database, *arguments], env=environment, capture_output=True,
                          text=True)
    if done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip())[-2000:]
        raise StoreError(f"{tool} failed on {safe(url)}: {said}")
