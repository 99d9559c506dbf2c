"""A throwaway Redis server for the multi-process hall's tests, when the machine has Debian's.

    with throwaway_redis() as server:   # server.url == "redis://127.0.0.1:PORT/0"
        ...
        server.restart()                # stopped and started again on the same port, empty

It lives in a temporary folder, listens only on 127.0.0.1 on a free port, keeps nothing on disk
(no snapshots, no append-only file), and is stopped and deleted at the end. :func:`why_not` says in
words why none can start.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from parlour.cli.processes import free_port, stop_process

START_WITHIN = 30.0  # seconds a starting server has before it counts as broken (not a timing test)


def why_not() -> str | None:
    """Why no throwaway server can start here, or None when one can."""
    try:
        import redis  # noqa: F401
    except ImportError:
        return "redis-py is not installed (pip install -e '.[postgres]')"
    if shutil.which("redis-server") is None:
        return "redis-server is not installed (apt-get install redis-server)"
    return None


class RedisServer:
    """One redis-server process in ``folder``; ``url`` stays the same across :meth:`restart`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        import redis

        command = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.folder),
                   "--save", "", "--appendonly", "no", "--daemonize", "no",
                   "--logfile", str(self.folder / "redis.log")]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + START_WITHIN
        while True:
            if self.process.poll() is not None:
                log = (self.folder / "redis.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"redis-server exited with {self.process.returncode}: {log}")
            try:
                with redis.Redis.from_url(self.url, socket_timeout=1) as client:
                    client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"redis-server did not answer on port {self.port}") from None
                time.sleep(0.02)

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process, within=START_WITHIN)
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


@contextmanager
def throwaway_redis() -> Iterator[RedisServer]:
    """Start a server in a temporary folder; yields it; stops it and deletes the folder."""
    reason = why_not()
    if reason is not None:
        raise RuntimeError(reason)
    folder = Path(tempfile.mkdtemp(prefix="parlour-redis-"))
    server = RedisServer(folder)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
