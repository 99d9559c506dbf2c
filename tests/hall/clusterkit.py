"""``parlour cluster`` (PostgreSQL, Redis, nginx and halls) started as a subprocess for a test, in a
folder PostgreSQL's own user can reach; shared by the tests that play through a running cluster."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from parlour.cli.processes import descendants

WITHIN = 120.0  # seconds a cluster has to come up or go down before the test calls it broken (not a timing test)


class Running:
    """``parlour cluster`` as a subprocess in a session of its own, its output in a file; as a
    context manager, killed with all it started on the way out unless it was stopped."""

    def __init__(self, folder: Path, servers: int, port: int) -> None:
        self.out = folder / f"out-{port}-{servers}.txt"
        with open(self.out, "wb") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "parlour.cli", "cluster", "--servers", str(servers),
                                             "--dir", str(folder / "cluster"), "--port", str(port)],
                                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.base = f"http://127.0.0.1:{port}"

    def __enter__(self) -> Running:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.kill()

    def output(self) -> str:
        return self.out.read_text(errors="replace")

    def wait_open(self) -> None:
        deadline = time.monotonic() + WITHIN
        while "Parlour is open at" not in self.output():
            assert self.process.poll() is None, f"the cluster stopped: {self.output()}"
            assert time.monotonic() < deadline, f"the cluster did not open: {self.output()}"
            time.sleep(0.1)

    def tree(self) -> list[int]:
        """The cluster command and every process under it (PostgreSQL, Redis, nginx, halls, workers)."""
        return descendants(self.process.pid)

    def stop(self, number: signal.Signals) -> int:
        self.process.send_signal(number)
        return self.process.wait(WITHIN)

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
