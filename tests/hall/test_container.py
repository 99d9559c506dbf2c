"""The Containerfile and compose.yaml (docs/operations.md).

No container registry is reachable from these machines, so the image is built with Debian's podman
on a Debian base made here with mmdebstrap (kept as ``localhost/parlour-base:bookworm`` for the next
run), from wheels built here (an offline build). Its container then migrates a store, serves it with
``--no-upgrade``, answers its health check, plays, shows its metrics, and drains on SIGTERM. The
test skips, saying why, only where this cannot run: no podman or mmdebstrap, no Debian mirror, or no
container runtime that works here.

compose.yaml's other services (PostgreSQL, Redis, nginx, Prometheus) come from registry images, so
the stack itself is not started here: it is checked statically (its structure, the order of its
services, every ``parlour`` command in it against the real argument parser), and its nginx and
Prometheus configurations by ``nginx -t`` and ``promtool check config``.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from parlour.cli import build_parser
from parlour.cli.nginx import nginx_program
from parlour.cli.processes import free_port

ROOT = Path(__file__).resolve().parents[2]
BASE = "localhost/parlour-base:bookworm"
# What podman needs in this sandbox: no raising of resource limits (no CAP_SYS_RESOURCE here), and
# the host's network (no bridge needed for a test on loopback)
RUN_FLAGS = ["--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096", "--network", "host"]
# podman schedules the image's HEALTHCHECK with a systemd timer, and there
# is no systemd here: the timer is left off and the tests run the check themselves (podman healthcheck run)
NO_TIMER = ["--health-interval", "disable"]


def podman(*arguments: str, timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["podman", *arguments], capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(f"podman {' '.join(arguments[:3])}... failed: {done.stderr[-3000:]}")
    return done


@pytest.fixture(scope="module")
def runtime() -> str:
    """A container runtime that works here, with the Debian base image made if missing."""
    if shutil.which("podman") is None:
        pytest.skip("podman is not installed (apt-get install podman)")
    if podman("image", "exists", BASE, check=False).returncode != 0:
        if shutil.which("mmdebstrap") is None:
            pytest.skip("mmdebstrap is not installed (apt-get install mmdebstrap), and no base image is here")
        with tempfile.TemporaryDirectory() as folder:
            tar = Path(folder) / "base.tar"
            made = subprocess.run(["mmdebstrap", "--variant=apt", "--include=python3,python3-venv,ca-certificates",
                                   "bookworm", str(tar)], capture_output=True, text=True, timeout=900)
            if made.returncode != 0:
                pytest.skip(f"mmdebstrap could not make a Debian base (no mirror?): {made.stderr[-1000:]}")
            podman("import", str(tar), BASE)
    tried = []
    for candidate in ("runc", "crun"):
        if shutil.which(candidate) is None:
            tried.append(f"{candidate}: not installed")
            continue
        done = podman("--runtime", candidate, "run", "--rm", *RUN_FLAGS, BASE, "true", check=False, timeout=120)
        if done.returncode == 0:
            return candidate
        tried.append(f"{candidate}: {done.stderr.strip()[-300:]}")
    pytest.skip(f"no container runtime works here: {'; '.join(tried)}")


@pytest.fixture(scope="module")
def image(runtime: str) -> Iterator[str]:
    """The hall's image, built from the Containerfile on the local base from wheels made here."""
    tag = f"localhost/parlour-test:{os.getpid()}"
    with tempfile.TemporaryDirectory() as folder:
        context = Path(folder)
        for name in ("pyproject.toml", "README.md", "Containerfile", ".dockerignore"):
            shutil.copy(ROOT / name, context / name)
        shutil.copytree(ROOT / "src", context / "src", ignore=shutil.ignore_patterns("__pycache__"))
        pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
        subprocess.run([*pip, "wheel", "--wheel-dir", str(context / "wheels"), f"{context}[postgres]"], check=True,
                       capture_output=True, timeout=600)
        # Debian's Python is 3.11.2, and redis-py needs async-timeout below 3.11.3 (this one may be newer)
        subprocess.run([*pip, "download", "--no-deps", "--dest", str(context / "wheels"), "async-timeout>=4.0.3"],
                       check=True, capture_output=True, timeout=600)
        podman("build", "--runtime", runtime, *RUN_FLAGS, "--format", "docker", "--build-arg", f"BASE={BASE}",
               "-f", str(context / "Containerfile"), "-t", tag, str(context), timeout=1200)
    yield tag
    podman("rmi", "-f", tag, check=False)


def wait_ready(port: int, container: str) -> None:
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        state = podman("inspect", container, "--format", "{{.State.Status}}").stdout.strip()
        assert state == "running" and time.monotonic() < deadline, podman("logs", container).stderr[-3000:]
        time.sleep(0.5)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_the_image_migrates_serves_plays_answers_its_health_check_and_drains_on_sigterm(runtime, image):
    volume = f"parlour-test-{os.getpid()}"
    store = "sqlite:////var/lib/parlour/parlour.sqlite3"
    port = free_port()
    podman("volume", "create", volume)
    container = f"parlour-test-{os.getpid()}"
    try:
        run = ["--runtime", runtime, "run", *RUN_FLAGS, *NO_TIMER, "-v", f"{volume}:/var/lib/parlour"]
        migrated = podman(*run, "--rm", image, "db", "upgrade", "--db", store)
        assert "applied" in migrated.stdout, migrated.stdout
        podman(*run, "-d", "--name", container, "-e", f"PARLOUR_HEALTH_URL=http://127.0.0.1:{port}/readyz", image,
               "serve", "--host", "127.0.0.1", "--port", str(port), "--db", store, "--no-upgrade",
               "--log-format", "json", "--bot-workers", "1")
        wait_ready(port, container)
        base = f"http://127.0.0.1:{port}"
        room = httpx.post(f"{base}/api/rooms", json={"game": "patchwork", "seats": [
            {"kind": "bot", "bot": "random"}] * 2}, timeout=10).json()
        started = httpx.post(f"{base}/api/rooms/{room['code']}/start",
                             headers={"Authorization": f"Bearer {room['host_token']}"}, timeout=10)
        assert started.status_code == 200, started.text
        deadline = time.monotonic() + 60
        while "parlour_moves_total{by=\"bot\",game=\"patchwork\"}" not in httpx.get(f"{base}/metrics", timeout=5).text:
            assert time.monotonic() < deadline, "no move counted"
            time.sleep(0.5)
        # the image's own HEALTHCHECK (GET /readyz from inside the container)
        assert podman("healthcheck", "run", container, check=False).returncode == 0
        podman("stop", "--time", "40", container, timeout=120)
        logs = podman("logs", container).stdout
        assert "SIGTERM: draining" in logs and "Finished server process" in logs, logs[-3000:]
        assert podman("inspect", container, "--format", "{{.State.ExitCode}}").stdout.strip() == "0"
        # the store is in the volume: a new container serves the room
        podman("rm", "-v", container)
        podman(*run, "-d", "--name", container, image, "serve", "--host", "127.0.0.1", "--port", str(port),
               "--db", store, "--no-upgrade", "--bot-workers", "1")
        wait_ready(port, container)
        assert httpx.get(f"{base}/api/rooms/{room['code']}", timeout=10).json()["code"] == room["code"]
        user = podman("exec", container, "id", "-un").stdout.strip()
        assert user == "parlour"  # not root
    finally:
        podman("rm", "-f", "-v", container, check=False)
        podman("volume", "rm", "-f", volume, check=False)


def test_compose_runs_migrations_first_and_every_parlour_command_in_it_parses():
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "migrate", "hall1", "hall2", "nginx", "prometheus"} <= set(services)
    for name in ("hall1", "hall2"):
        hall = services[name]
        assert hall["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert hall["depends_on"]["redis"]["condition"] == "service_healthy"
        assert "/readyz" in " ".join(hall["healthcheck"]["test"])
        assert "--no-upgrade" in hall["command"] and "--redis" in hall["command"]
        assert services["nginx"]["depends_on"][name]["condition"] == "service_healthy"
        assert hall["environment"]["PARLOUR_HALL_ADDRESS"] == f"{name}:8000"
        assert "PARLOUR_CLUSTER_SECRET" in hall["environment"]["PARLOUR_CLUSTER_SECRET"]  # from compose's caller
        proxy = hall["command"][hall["command"].index("--proxy") + 1]
        assert services["nginx"]["networks"]["parlour"]["ipv4_address"] == proxy
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("postgres", "redis"):
        assert services[name]["healthcheck"]["test"]
    parser = build_parser()
    for name in ("migrate", "hall1", "hall2"):
        args = parser.parse_args(services[name]["command"])  # the real options, or SystemExit
        assert args.db.startswith("postgresql+psycopg://parlour:")


@pytest.mark.skipif(nginx_program() is None, reason="nginx is not installed")
def test_composes_nginx_configuration_is_valid_and_never_passes_metrics_or_internal_on(tmp_path):
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "location = /metrics" in text and "location /internal/" in text
    # the halls' names resolve only inside compose's network: loopback stands in for them here
    (tmp_path / "nginx.conf").write_text(text.replace("hall1:8000", "127.0.0.1:1").replace("hall2:8000", "127.0.0.1:2")
                                         .replace("worker_processes auto;", "worker_processes 1;\npid nginx.pid;"))
    (tmp_path / "logs").mkdir()
    checked = subprocess.run([nginx_program(), "-t", "-p", f"{tmp_path}/", "-c", "nginx.conf", "-e", "logs/error.log"],
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.skipif(shutil.which("promtool") is None, reason="promtool is not installed (apt-get install prometheus)")
def test_composes_prometheus_configuration_is_valid():
    checked = subprocess.run(["promtool", "check", "config", str(ROOT / "deploy" / "prometheus.yml")],
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_two_hall_containers_share_the_rooms_and_one_hands_them_over_as_it_drains(runtime, image, redis_server,
                                                                                    tmp_path):
    """The image as compose.yaml uses it, on this machine's PostgreSQL (as `parlour cluster` starts
    it, on 127.0.0.1) and a throwaway Redis: migrations first, two halls with --redis and
    --no-upgrade; a bots' game led by the first hall goes on in the second when the first stops."""
    from parlour.cli.cluster import Cluster, why_not

    if why_not() is not None:
        pytest.skip(f"no PostgreSQL here: {why_not()}")
    folder = Path(tempfile.mkdtemp(prefix="parlour-container-pg-"))
    folder.chmod(0o755)
    postgres = Cluster(folder, servers=1, port=free_port(), say=lambda line: None)
    names = [f"parlour-test-{os.getpid()}-{n}" for n in (1, 2)]
    ports = [free_port(), free_port()]
    try:
        postgres._start_postgres()  # PostgreSQL alone, on 127.0.0.1 with loopback trusted
        run = ["--runtime", runtime, "run", *RUN_FLAGS, *NO_TIMER]
        secret = secrets.token_urlsafe(32)
        assert "applied" in podman(*run, "--rm", image, "db", "upgrade", "--db", postgres.db_url).stdout
        for name, port in zip(names, ports):
            podman(*run, "-d", "--name", name, "-e", f"PARLOUR_HALL_ADDRESS=127.0.0.1:{port}",
                   "-e", f"PARLOUR_CLUSTER_SECRET={secret}",
                   "-e", f"PARLOUR_HEALTH_URL=http://127.0.0.1:{port}/readyz", image, "serve", "--host", "127.0.0.1",
                   "--port", str(port), "--db", postgres.db_url, "--redis", redis_server.url, "--no-upgrade",
                   "--log-format", "json", "--bot-workers", "1")
        for name, port in zip(names, ports):
            wait_ready(port, name)
            assert httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5).json()["redis"] == "answers"
        first, second = (f"http://127.0.0.1:{port}" for port in ports)
        room = httpx.post(f"{first}/api/rooms", json={"game": "patchwork", "seats": [
            {"kind": "bot", "bot": "random"}] * 2}, timeout=10).json()
        started = httpx.post(f"{first}/api/rooms/{room['code']}/start",
                             headers={"Authorization": f"Bearer {room['host_token']}"}, timeout=10)
        assert started.status_code == 200, started.text
        time.sleep(1)
        podman("stop", "--time", "40", names[0], timeout=120)  # SIGTERM: the first hall drains
        logs = podman("logs", names[0]).stdout
        assert "gave up 1 room lease(s)" in logs, logs[-3000:]
        moved = httpx.get(f"{second}/api/rooms/{room['code']}", timeout=10).json()["turn"]
        deadline = time.monotonic() + 60
        while True:  # the second hall took the room over: its bots play on there
            now = httpx.get(f"{second}/api/rooms/{room['code']}", timeout=10).json()
            if now["status"] == "over" or now["turn"] > moved:
                break
            assert time.monotonic() < deadline, f"the game stopped at turn {moved} with its first hall"
            time.sleep(0.5)
    finally:
        for name in names:
            podman("rm", "-f", "-v", name, check=False)
        postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)
