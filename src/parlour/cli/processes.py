"""The processes of the CLI's benchmarks and local cluster: free ports, ``parlour serve`` started
and waited for, a process stopped (killed if it will not), and the process tree under a process
with its memory and CPU time (from /proc).

Used by ``parlour bench hall``, ``parlour bench abuse`` and ``parlour cluster`` alike (and by the
tests that start halls of their own); it imports none of them.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_command(db_url: str, port: int, options: tuple[str, ...] = ()) -> list[str]:
    """The arguments after Python's own that run ``parlour serve`` on 127.0.0.1:``port``."""
    return ["-m", "parlour.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db_url, *options]


def hall_answers(port: int) -> bool:
    """Whether a hall (or the proxy in front of halls) on 127.0.0.1:``port`` serves its catalogue."""
    import httpx

    try:
        return httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200
    except httpx.TransportError:
        return False


def hall_ready(port: int) -> bool:
    """Whether the hall on 127.0.0.1:``port`` says it is ready for players (GET /readyz)."""
    import httpx

    try:
        return httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200
    except httpx.TransportError:
        return False


def start_server(db_url: str, port: int, options: tuple[str, ...] = ("--no-client-quotas",),
                 log: Path | None = None, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """``parlour serve`` on 127.0.0.1:``port`` as a process of its own, once it answers; by
    default without per-address quotas, since every room comes from this one machine. ``log``:
    a file for what it writes on stderr (by default a temporary one, read if it fails to start);
    ``env``: variables added to this process's environment for it."""
    # a file, not a pipe: nobody reads it while the server runs (which keeps its own descriptor)
    with tempfile.TemporaryFile() if log is None else open(log, "w+b") as errors:
        server = subprocess.Popen([sys.executable, *serve_command(db_url, port, ("--quiet", *options))],
                                  stdout=subprocess.DEVNULL, stderr=errors, env={**os.environ, **(env or {})})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if hall_answers(port):
                return server
            if server.poll() is not None:
                errors.seek(0)
                raise RuntimeError(f"the server did not start: {errors.read().decode(errors='replace')}")
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not answer within 30 seconds")


def stop_process(process: subprocess.Popen[bytes], number: int = signal.SIGTERM, within: float = 10.0) -> int:
    """Ask ``process`` to stop with the signal ``number``, and kill it if it has not stopped within
    ``within`` seconds; its exit status."""
    if process.poll() is None:
        process.send_signal(number)
        try:
            return process.wait(within)
        except subprocess.TimeoutExpired:
            process.kill()
    return process.wait()


def processes() -> dict[int, list[str]]:
    """Every process of the machine: its id -> the fields of /proc/ID/stat after its name
    (state, parent, ...); empty where /proc is missing."""
    table = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            table[int(stat.parent.name)] = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
    return table


def descendants(pid: int, table: dict[int, list[str]] | None = None) -> list[int]:
    """``pid`` and every living process under it (children, their children, ...)."""
    table = processes() if table is None else table
    children: dict[int, list[int]] = {}
    for number, fields in table.items():
        children.setdefault(int(fields[1]), []).append(number)
    found, todo = [], [pid]
    while todo:
        number = todo.pop()
        found.append(number)
        todo.extend(children.get(number, ()))
    return found


def resident_bytes(pid: int) -> int:
    """The resident memory of process ``pid`` alone; 0 where /proc is missing."""
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by process ``pid`` and its children, living or ended
    (a hall's bot workers, PostgreSQL's backends, nginx's workers); 0 where /proc is missing."""
    table = processes()
    # each one's own time, and that of its children that ended and were waited for
    ticks = sum(sum(int(f) for f in table[n][11:15]) for n in descendants(pid, table) if n in table)
    return ticks / os.sysconf("SC_CLK_TCK")
