"""A real hall for the browser tests: `parlour serve` on a fresh SQLite file, on a free 127.0.0.1
port, started and waited for once (the session's hall in conftest.py, and halls of a module's own).

    with served_hall(tmp / "hall.sqlite3", "--smtp", "smtp://...", "--public-url", "{base}") as base:
        ...  # "{base}" in an option is the hall's own URL
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from parlour.cli.processes import free_port, stop_process


def die_with_parent() -> None:
    """The server ends when the test process does, however it ends (Linux)."""
    with contextlib.suppress(OSError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@contextlib.contextmanager
def served_hall(db: Path, *options: str) -> Iterator[str]:
    """The base URL of a hall serving ``db`` (the same deals every run: seed 2026; no client quotas,
    since every test comes from this machine), with ``options`` besides; stopped afterwards."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", f"sqlite:///{db}", "--quiet", "--no-client-quotas", "--seed", "2026",
         *(option.format(base=base) for option in options)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=die_with_parent if os.name == "posix" else None)
    try:
        for _ in range(200):
            try:
                if httpx.get(f"{base}/api/games", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if server.poll() is not None:
                raise RuntimeError(f"the hall did not start: {server.stdout.read().decode()}")  # type: ignore[union-attr]
            time.sleep(0.05)
        else:
            raise RuntimeError("the hall did not answer within 10 seconds")
        yield base
    finally:
        stop_process(server)
