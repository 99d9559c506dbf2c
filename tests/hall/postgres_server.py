"""A throwaway PostgreSQL server for the store's tests, when the machine has PostgreSQL's programs.

    with throwaway_postgres() as url:   # postgresql+psycopg://postgres@/postgres?host=/tmp/...
        ...

It lives in a temporary folder, listens only on a Unix socket in that folder (no port of the
machine is taken), and is stopped and deleted at the end. As root, PostgreSQL runs as the
``postgres`` user (it refuses to run as root). :func:`why_not` says in words why none can start.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from parlour.cli.cluster import postgres_programs

PORT = 5432  # only names the socket file: the server listens on no TCP port


def binaries() -> str | None:
    """The folder of the newest installed PostgreSQL's programs (initdb, pg_ctl), or None."""
    found = postgres_programs()
    return str(found) if found else None


def why_not() -> str | None:
    """Why no throwaway server can start here, or None when one can."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[postgres]')"
    if binaries() is None:
        return "PostgreSQL's programs are not installed (apt-get install postgresql)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser to start PostgreSQL as its own user"
    return None


def _run(command: list[str], as_postgres: bool) -> None:
    if as_postgres:
        command = ["runuser", "-u", "postgres", "--", *command]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)


@contextmanager
def throwaway_postgres() -> Iterator[str]:
    """Start a server in a temporary folder; yields its SQLAlchemy URL; stops and deletes it."""
    reason = why_not()
    if reason is not None:
        raise RuntimeError(reason)
    bin_dir = binaries()
    as_postgres = os.geteuid() == 0
    folder = tempfile.mkdtemp(prefix="parlour-pg-")
    data = os.path.join(folder, "data")
    if as_postgres:
        shutil.chown(folder, "postgres", "postgres")
    try:
        _run([f"{bin_dir}/initdb", "-D", data, "-U", "postgres", "--auth=trust", "--no-sync",
              "-E", "UTF8", "--locale=C"], as_postgres)
        options = f"-c listen_addresses='' -k {folder} -p {PORT} -c fsync=off -c full_page_writes=off"
        _run([f"{bin_dir}/pg_ctl", "-D", data, "-o", options, "-l", os.path.join(folder, "log"),
              "-w", "-t", "60", "start"], as_postgres)
        try:
            yield f"postgresql+psycopg://postgres@/postgres?host={folder}&port={PORT}"
        finally:
            _run([f"{bin_dir}/pg_ctl", "-D", data, "-m", "fast", "-w", "stop"], as_postgres)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
