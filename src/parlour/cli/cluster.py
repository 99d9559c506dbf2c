"""``parlour cluster``: a local cluster in one command, PostgreSQL, Redis and nginx in front of N halls.

    parlour cluster --servers 2                       # under var/cluster, open at http://127.0.0.1:8000/
    parlour cluster --servers 3 --dir /tmp/c --port 8080

Every part is a standard program of the machine, run in the foreground as a child of this command,
with everything it writes inside one folder (``--dir``)::

    postgres/data         PostgreSQL's data directory (initdb on the first run, reused after)
    postgres/             its Unix socket and postgres.log; it listens on 127.0.0.1, a free port
    redis/redis.conf      Redis: 127.0.0.1, a free port, nothing kept on disk; redis.log
    halls/hall-K.log      ``parlour serve --redis`` number K, on 127.0.0.1, a free port
    nginx/nginx.conf      nginx in front of the halls, on 127.0.0.1:--port; logs/, tmp/, nginx.log beside it

The parts start in that order, each once the previous one answers; Ctrl-C (SIGINT) or SIGTERM
stops them in the reverse order (nginx, the halls, Redis, PostgreSQL), each within
``STOP_WITHIN`` seconds or killed. A part that fails to start stops the ones already started, and
the command says which part failed and why. Each part also gets the signal that stops it if this
command dies without stopping it (``setpriv --pdeathsig``), so a killed ``parlour cluster`` leaves
nothing running either.

:class:`Cluster` is what ``parlour bench hall --servers N`` measures, the same code.
"""

from __future__ import annotations

import argparse
import glob
import grp
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from ..core import ParlourError
from .nginx import CONNECTIONS_PER_ADDRESS, nginx_conf, nginx_program
from .processes import free_port, hall_answers, hall_ready, serve_command, stop_process

START_WITHIN = 60.0  # seconds a starting part has to answer (initdb excluded); not a timing test
STOP_WITHIN = 30.0  # seconds a part has to stop before it is killed
MAX_SERVERS = 32
DATABASE = "parlour"
DB_USER = "postgres"  # the role initdb makes; loopback connections are trusted (a local cluster)
LOG_TAIL = 12  # lines of a part's log quoted when it fails
RELOADED_WITHIN = 1.0  # seconds given to nginx's new workers to take over after a reload


class PartFailed(ParlourError):
    """A part of the cluster did not start, or stopped on its own: which, and why in words."""


def postgres_programs() -> Path | None:
    """The folder of the newest installed PostgreSQL's programs (initdb, postgres), or None."""
    found = [Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/postgres")]
    found.sort(key=lambda folder: int(folder.parent.name) if folder.parent.name.isdigit() else 0)
    return found[-1] if found else None


def why_not() -> str | None:
    """What this machine lacks to run a cluster, in words, or None when it has it all."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "the hall's PostgreSQL driver is not installed (pip install -e '.[postgres]')"
    if postgres_programs() is None:
        return "PostgreSQL's programs are not installed (apt-get install postgresql)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root, and there is no 'postgres' user to run PostgreSQL as (it refuses root)"
    if shutil.which("redis-server") is None:
        return "redis-server is not installed (apt-get install redis-server)"
    if nginx_program() is None:
        return "nginx is not installed (apt-get install nginx)"
    return None


def closed_to(user: str, folder: Path) -> Path | None:
    """The first folder from the root down to ``folder`` that ``user`` may not enter, or None."""
    account = pwd.getpwnam(user)
    groups = {account.pw_gid, *(g.gr_gid for g in grp.getgrall() if user in g.gr_mem)}
    for path in [*reversed(folder.parents), folder]:
        mode = path.stat()
        if not (mode.st_mode & 0o001 or (mode.st_uid == account.pw_uid and mode.st_mode & 0o100)
                or (mode.st_gid in groups and mode.st_mode & 0o010)):
            return path
    return None


def tail(path: Path, lines: int = LOG_TAIL) -> str:
    try:
        text = path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return "(no log)"
    return "\n".join(text[-lines:]) or "(its log is empty)"


class Part:
    """One program of the cluster, running in the foreground as a child of this process, in a
    process group of its own (the terminal's Ctrl-C reaches only this command, which stops the
    parts in order)."""

    def __init__(self, name: str, command: Sequence[str], log: Path, stop_signal: signal.Signals = signal.SIGTERM,
                 user: str | None = None, env: dict[str, str] | None = None) -> None:
        self.name = name
        self.log = log
        self.stop_signal = stop_signal
        # stops when this process dies without stopping it: the kernel sends the signal when the
        # thread that started the part ends, so a cluster is started from a thread that outlives it
        setpriv = shutil.which("setpriv")
        orphaned = [setpriv, "--pdeathsig", stop_signal.name[3:], "--"] if setpriv else []
        with open(log, "ab") as out:
            self.process = subprocess.Popen([*orphaned, *command], stdin=subprocess.DEVNULL, stdout=out,
                                            stderr=subprocess.STDOUT, process_group=0, user=user, group=user,
                                            env={**os.environ, **env} if env else None)

    @property
    def pid(self) -> int:
        return self.process.pid

    def exited(self) -> str | None:
        """Why the part is not running, in words with its log's end, or None while it runs."""
        code = self.process.poll()
        if code is None:
            return None
        how = f"was killed by {signal.Signals(-code).name}" if code < 0 else f"exited with code {code}"
        return f"{self.name} {how}; the end of {self.log}:\n{tail(self.log)}"

    def wait_until(self, ready: Callable[[], bool], within: float = START_WITHIN) -> None:
        """Return once ``ready()``; :class:`PartFailed` if the part exits first or takes too long."""
        deadline = time.monotonic() + within
        while not ready():
            why = self.exited()
            if why is not None:
                raise PartFailed(why)
            if time.monotonic() > deadline:
                raise PartFailed(f"{self.name} did not answer within {within:.0f} s; the end of {self.log}:\n"
                                 f"{tail(self.log)}")
            time.sleep(0.05)

    def stop(self) -> None:
        stop_process(self.process, self.stop_signal, STOP_WITHIN)


def redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class Cluster:
    """PostgreSQL, Redis, ``servers`` halls and nginx in front of them, all under ``folder``::

        with Cluster(Path("var/cluster"), servers=2, port=8000) as cluster:
            print(cluster.address)          # http://127.0.0.1:8000/

    ``hall_options``: more ``parlour serve`` options for every hall (the benchmark lifts the
    per-address quotas); ``say``: where the parts' addresses are told as they come up;
    ``database``: the one the halls use (created when missing); ``per_address``: nginx's cap on
    one address's connections (None: none, for the benchmark's players from one machine).
    """

    def __init__(self, folder: Path, servers: int, port: int, hall_options: Sequence[str] = (),
                 say: Callable[[str], None] = print, database: str = DATABASE,
                 per_address: int | None = CONNECTIONS_PER_ADDRESS) -> None:
        if not 1 <= servers <= MAX_SERVERS:
            raise ParlourError(f"--servers must be 1 to {MAX_SERVERS}, not {servers}")
        if not 1 <= port <= 65535:
            raise ParlourError(f"--port must be 1 to 65535, not {port}")
        self.folder = folder.resolve()
        self.servers = servers
        self.port = port
        self.hall_options = tuple(hall_options)
        self.per_address = per_address
        self.say = say
        if not database.isidentifier():
            raise ParlourError(f"a database name is letters, digits and _, not {database!r}")
        self.database = database
        self.parts: list[Part] = []  # in the order they started
        self.db_url = ""
        self.redis_url = ""
        self.hall_ports: list[int] = []
        # anew at each start, to the halls in their environment (not argv, not the store): forwarding's, nginx's
        self.secrets = {"PARLOUR_CLUSTER_SECRET": secrets.token_urlsafe(32),
                        "PARLOUR_PROXY_SECRET": secrets.token_urlsafe(32)}
        self.hall_commands: list[list[str]] = []  # each hall's, to start it again (cli/rolling.py)
        self.down: set[int] = set()  # the halls' ports nginx sends nothing to (not ready, or restarting)

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def start(self) -> None:
        """Start every part in order, each once the one before answers; if one fails, stop those
        started and raise :class:`PartFailed`."""
        missing = why_not()
        if missing is not None:
            raise PartFailed(f"a cluster cannot start here: {missing}")
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            self._start_postgres()
            self._start_redis()
            self._start_halls()
            self._start_nginx()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Stop the parts in the reverse order of their start: no new client, then no hall, then
        the stores they wrote to."""
        while self.parts:
            self.parts.pop().stop()

    def failed(self) -> str | None:
        """Why a part stopped on its own, or None while every part runs."""
        return next((why for why in (p.exited() for p in self.parts) if why is not None), None)

    def reload_nginx(self) -> None:
        """nginx's configuration written again (the halls in :attr:`down` get nothing) and reloaded
        (SIGHUP: its old workers finish the connections they carry)."""
        (self.folder / "nginx" / "nginx.conf").write_text(self._nginx_conf())
        nginx = next((part for part in self.parts if part.name == "nginx"), None)
        if nginx is not None and nginx.exited() is None:
            nginx.process.send_signal(signal.SIGHUP)
            time.sleep(RELOADED_WITHIN)

    def restart_hall(self, number: int) -> str:
        """Hall ``number`` (from 1) stopped with SIGTERM, which drains it, and started again on its
        port, out of nginx's sight meanwhile when another hall can take its players; says how long."""
        port, command = self.hall_ports[number - 1], self.hall_commands[number - 1]
        index = next(i for i, part in enumerate(self.parts) if part.name == f"hall {number}")
        began = time.monotonic()
        if len(self.hall_ports) > 1:
            self.down.add(port)
            self.reload_nginx()
        self.parts[index].stop()
        stopped = time.monotonic()
        self.parts[index] = self._hall_part(number, command)
        self.parts[index].wait_until(partial(hall_ready, port))
        self.down.discard(port)
        self.reload_nginx()
        return (f"hall {number} (127.0.0.1:{port}) drained and stopped in {stopped - began:.1f} s, ready again"
                f" {time.monotonic() - stopped:.1f} s later")

    def pids(self) -> dict[str, int]:
        """Each running part's process id by name (a PostgreSQL's or nginx's workers are its children)."""
        return {part.name: part.pid for part in self.parts}

    # -- the parts -----------------------------------------------------------------------------
    def _start_postgres(self) -> None:
        import psycopg

        programs = postgres_programs()
        assert programs is not None  # why_not() said so
        home = self.folder / "postgres"
        data = home / "data"
        home.mkdir(exist_ok=True)
        user = None
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root: its own user owns its folder
            user = "postgres"
            closed = closed_to(user, home.parent)
            if closed is not None:
                raise PartFailed(f"PostgreSQL: its user {user!r} cannot enter {closed}, above {home}:"
                                 f" choose a --dir it can reach (or chmod o+x {closed})")
            shutil.chown(home, user, user)
        if not (data / "PG_VERSION").exists():
            self.say(f"PostgreSQL: a new data directory in {data}")
            done = subprocess.run([str(programs / "initdb"), "-D", str(data), "-U", DB_USER, "--auth=trust",
                                   "-E", "UTF8", "--locale=C"], capture_output=True, text=True, user=user, group=user)
            if done.returncode != 0:
                said = done.stderr.strip() or done.stdout.strip()
                raise PartFailed(f"PostgreSQL: initdb could not make {data}: {said}")
        port = free_port()
        part = Part("PostgreSQL", [str(programs / "postgres"), "-D", str(data), "-p", str(port),
                                   "-c", "listen_addresses=127.0.0.1", "-k", str(home)],
                    home / "postgres.log", signal.SIGINT, user)  # SIGINT: fast shutdown
        self.parts.append(part)

        def database_exists() -> bool:
            try:
                with psycopg.connect(host="127.0.0.1", port=port, user=DB_USER, dbname="postgres",
                                     connect_timeout=2, autocommit=True) as connection:
                    if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                          (self.database,)).fetchone() is None:
                        connection.execute(f"CREATE DATABASE {self.database}")
                return True
            except psycopg.OperationalError:
                return False

        part.wait_until(database_exists)
        self.db_url = f"postgresql+psycopg://{DB_USER}@127.0.0.1:{port}/{self.database}"
        self.say(f"PostgreSQL {programs.parent.name} on 127.0.0.1:{port}, database {self.database!r}"
                 f" (connections from 127.0.0.1 trusted without a password); its log: {part.log}")

    def _start_redis(self) -> None:
        program = shutil.which("redis-server")
        assert program is not None  # why_not() said so
        home = self.folder / "redis"
        home.mkdir(exist_ok=True)
        port = free_port()
        # Nothing on disk: Redis carries notices that a room changed, never state (docs/scaling.md)
        (home / "redis.conf").write_text(
            "# Written by `parlour cluster` at each start: edits are lost.\n"
            f"bind 127.0.0.1\nport {port}\nprotected-mode yes\ndaemonize no\ndir {home}\n"
            'save ""\nappendonly no\nlogfile ""\n')
        part = Part("Redis", [program, str(home / "redis.conf")], home / "redis.log")
        self.parts.append(part)
        part.wait_until(lambda: redis_answers(port))
        self.redis_url = f"redis://127.0.0.1:{port}/0"
        self.say(f"Redis on 127.0.0.1:{port} (nothing kept on disk); its log: {part.log}")

    def _hall_part(self, number: int, command: Sequence[str]) -> Part:
        """Hall ``number`` started (at the cluster's start and at each restart: the same secrets)."""
        return Part(f"hall {number}", command, self.folder / "halls" / f"hall-{number}.log", env=self.secrets)

    def _start_halls(self) -> None:
        home = self.folder / "halls"
        home.mkdir(exist_ok=True)
        self.hall_ports = [free_port() for _ in range(self.servers)]
        halls = []
        for number, port in enumerate(self.hall_ports, 1):
            options = ("--redis", self.redis_url, "--proxy", "127.0.0.1", *self.hall_options)
            command = [sys.executable, *serve_command(self.db_url, port, options)]
            self.hall_commands.append(command)
            halls.append(self._hall_part(number, command))
            self.parts.append(halls[-1])
            if number == 1:  # the first brings the store's schema up to date, alone
                halls[0].wait_until(lambda: hall_ready(self.hall_ports[0]))
        for hall, port in zip(halls, self.hall_ports):
            hall.wait_until(partial(hall_ready, port))
            self.say(f"{hall.name} on 127.0.0.1:{port}; its log: {hall.log}")

    def _nginx_conf(self) -> str:
        return nginx_conf(self.port, self.hall_ports, self.secrets["PARLOUR_PROXY_SECRET"], self.down,
                          self.per_address)

    def _start_nginx(self) -> None:
        program = nginx_program()
        assert program is not None  # why_not() said so
        home = self.folder / "nginx"
        (home / "logs").mkdir(parents=True, exist_ok=True)
        (home / "tmp").mkdir(exist_ok=True)
        conf = home / "nginx.conf"
        conf.touch(mode=0o600)  # it holds the proxy's secret
        conf.chmod(0o600)
        conf.write_text(self._nginx_conf())
        # -p: every relative path of the configuration is inside the folder; -e: so is the error
        # log nginx opens before it reads its configuration (never /var/log/nginx)
        part = Part("nginx", [program, "-p", f"{home}/", "-c", "nginx.conf", "-e", "logs/error.log"],
                    home / "nginx.log")  # what it says before its error log is open
        self.parts.append(part)
        part.wait_until(lambda: hall_answers(self.port))
        self.say(f"nginx on 127.0.0.1:{self.port} in front of {self.servers} hall(s); its configuration:"
                 f" {home / 'nginx.conf'}, its log: {home / 'logs' / 'error.log'}")


# -- the command -------------------------------------------------------------------------------

def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("cluster", help="a local cluster: PostgreSQL, Redis and nginx in front of N halls",
                            description="Start PostgreSQL, Redis, N halls and nginx in front of them on 127.0.0.1,"
                                        " all under one folder; Ctrl-C stops them all. `parlour cluster restart"
                                        " --dir DIR` (or SIGHUP) restarts the halls of the one running there one"
                                        " by one, without a pause in play (cli/rolling.py).")
    parser.add_argument("action", nargs="?", choices=("start", "restart"), default="start",
                        help="start (default) a cluster; restart: the halls of the one running in --dir, one by one")
    parser.add_argument("--servers", type=int, default=2, help="hall processes (default 2)")
    parser.add_argument("--dir", default="var/cluster", help="the folder of every part's data, configuration"
                                                             " and logs (default var/cluster; reused by the next run)")
    parser.add_argument("--port", type=int, default=8000, help="nginx's port, the address to open (default 8000)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from . import rolling

    if args.action == "restart":
        return rolling.ask_restart(Path(args.dir))
    cluster = Cluster(Path(args.dir), args.servers, args.port, say=lambda line: print(line, flush=True))

    def interrupt(number: int, _: object) -> None:
        raise KeyboardInterrupt

    # Both set here: a command started in the background by a script inherits SIGINT ignored, and
    # Python then leaves it ignored instead of raising KeyboardInterrupt (Ctrl-C or kill -INT would
    # do nothing)
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, interrupt)
    outcome = 0
    try:
        cluster.start()
        print(f"Parlour is open at {cluster.address}  ({args.servers} hall(s) behind nginx, store on PostgreSQL;"
              " Ctrl-C stops them all)", flush=True)
        why = rolling.watch(cluster)
        print(f"parlour cluster: {why}\nstopping the others", file=sys.stderr, flush=True)
        outcome = 1
    except KeyboardInterrupt:
        print("stopping nginx, the halls, Redis and PostgreSQL", flush=True)
    finally:
        for number in (signal.SIGINT, signal.SIGTERM):  # stopping is bounded; a second Ctrl-C must not cut it short
            signal.signal(number, signal.SIG_IGN)
        cluster.stop()
    return outcome
