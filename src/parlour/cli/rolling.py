"""A running ``parlour cluster``'s halls: nginx kept to the ready ones, and restarted one by one.

    why = watch(cluster)              # until a part stops on its own; restarts on SIGHUP
    restart_halls(cluster)            # every hall in turn, play going on
    parlour cluster restart --dir var/cluster    # asks the cluster running there (ask_restart)

nginx (the open-source one) does not probe the halls itself, so :func:`watch` asks each hall's
``GET /readyz`` every ``WATCH_EVERY`` seconds and marks a hall that is not ready ``down`` in
nginx's configuration, reloaded at once (SIGHUP: nginx's old workers finish what they carry).

A hall restarts in four steps: nginx stops sending it anything (``down``, reloaded); it gets
SIGTERM and drains (hall/hall.py ``Hall.drain``: no new move there, its commits under way finish,
its leases are given up at once so the other halls take its rooms without waiting, and its
WebSockets are closed with 1012, so the browsers reconnect through nginx to another hall); it is
started again with the same command on the same port and waited for until ready; nginx sends it
players again. Then the next hall. With one hall there is nobody to take the rooms: its players
wait for it to come back (their clients reconnect on their own).
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from ..core import ParlourError
from .processes import hall_ready

WATCH_EVERY = 1.0  # seconds between two looks at the halls' readiness
RESTART_WITHIN = 300.0  # seconds `parlour cluster restart` waits for the cluster to say it is done
PID_FILE = "cluster.pid"
DONE_FILE = "restarted.json"

_asked: list[int] = []  # signals received: SIGHUP asks for a restart


class Halls(Protocol):
    """What this module uses of a running :class:`~.cluster.Cluster`."""

    folder: Path
    hall_ports: list[int]
    down: set[int]
    say: Callable[[str], None]

    def failed(self) -> str | None: ...

    def reload_nginx(self) -> None: ...

    def restart_hall(self, number: int) -> str: ...


def restart_halls(cluster: Halls) -> list[str]:
    """Restart every hall, one after the other; returns what happened, a line a hall."""
    said = []
    for number in range(1, len(cluster.hall_ports) + 1):
        said.append(cluster.restart_hall(number))
        cluster.say(said[-1])
    return said


def watch(cluster: Halls) -> str:
    """Keep nginx to the ready halls and restart them on SIGHUP, until a part stops on its own;
    returns why."""
    pid_file = cluster.folder / PID_FILE
    pid_file.write_text(f"{os.getpid()}\n")
    previous = signal.signal(signal.SIGHUP, lambda number, _: _asked.append(number))
    try:
        while (why := cluster.failed()) is None:
            if _asked:
                _asked.clear()
                began = time.time()
                said = restart_halls(cluster)
                (cluster.folder / DONE_FILE).write_text(json.dumps({"began": began, "ended": time.time(),
                                                                    "halls": said}))
            ready = {port for port in cluster.hall_ports if hall_ready(port)}
            down = set(cluster.hall_ports) - ready
            if down != cluster.down and ready:  # none ready: nginx keeps trying them all
                cluster.say(f"halls not ready, sent nothing: {sorted(down) or 'none'}")
                cluster.down = down
                cluster.reload_nginx()
            time.sleep(WATCH_EVERY)
        return why
    finally:
        signal.signal(signal.SIGHUP, previous)
        pid_file.unlink(missing_ok=True)


def ask_restart(folder: Path) -> int:
    """``parlour cluster restart``: SIGHUP to the cluster running in ``folder``, then wait until it
    says its halls were restarted."""
    try:
        pid = int((folder / PID_FILE).read_text())
    except (OSError, ValueError):
        raise ParlourError(f"no cluster runs in {folder} (no {PID_FILE} there): start one with parlour cluster"
                           f" --dir {folder}") from None
    done = folder / DONE_FILE
    before = done.stat().st_mtime if done.exists() else 0.0
    try:
        os.kill(pid, signal.SIGHUP)
    except ProcessLookupError:
        raise ParlourError(f"the cluster of {folder} (process {pid}) is no longer running") from None
    print(f"asked the cluster of {folder} (process {pid}) to restart its halls one by one", flush=True)
    deadline = time.monotonic() + RESTART_WITHIN
    while not done.exists() or done.stat().st_mtime <= before:
        if time.monotonic() > deadline:
            raise ParlourError(f"the cluster did not say it was done within {RESTART_WITHIN:.0f} s: see its output")
        time.sleep(0.2)
    for line in json.loads(done.read_text())["halls"]:
        print(line)
    return 0
