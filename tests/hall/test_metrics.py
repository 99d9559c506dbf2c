"""GET /metrics (hall/web/metrics.py, hall/observe.py): who may read it, what it counts, and a real
Prometheus (Debian's package) scraping a hall and finding the move counter."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from hallkit import Socket, started_room

from parlour.cli.processes import free_port, start_server
from parlour.hall.web.metrics import may_see, networks


def sample(text: str, name: str, **labels: str) -> float:
    """The value of metric ``name`` with exactly ``labels`` in a scrape's text (0 when absent)."""
    for line in text.splitlines():
        found = re.fullmatch(r"([a-z_]+)(?:\{(.*)\})? (\S+)", line)
        if found and found[1] == name and dict(re.findall(r'(\w+)="([^"]*)"', found[2] or "")) == labels:
            return float(found[3])
    return 0.0


def scrape(client) -> httpx.Response:
    """GET /metrics from 127.0.0.1 (the fixture's client calls itself "testclient", not an address)."""
    return TestClient(client.app, client=("127.0.0.1", 50000)).get("/metrics")


def test_a_move_is_counted_with_its_ack_and_commit_and_the_rooms_are_read_off_the_hall(client):
    before = scrape(client)
    assert before.status_code == 200 and before.headers["content-type"].startswith("text/plain")
    code, tokens, _ = started_room(client)
    with Socket(client, code) as seat:
        seat.hello(tokens[0])
        state = seat.state
        seat.send({"type": "act", "id": 1, "turn": state["turn"], "action": {"type": "skip"}})
        seat.expect("ack")
        seat.send({"type": "act", "id": 2, "turn": state["turn"], "action": {"type": "skip"}})
        assert seat.expect("error")["code"] in ("stale", "not_your_turn")
        after = scrape(client).text

    moves = sample(after, "parlour_moves_total", game="patchwork", by="player")
    assert moves == sample(before.text, "parlour_moves_total", game="patchwork", by="player") + 1
    assert sample(after, "parlour_ack_seconds_count") == sample(before.text, "parlour_ack_seconds_count") + 1
    commits = "parlour_store_commit_seconds_count"
    assert sample(after, commits) > sample(before.text, commits)
    refusals = [c for c in ("stale", "not_your_turn") if sample(after, "parlour_refusals_total", code=c)
                > sample(before.text, "parlour_refusals_total", code=c)]
    assert refusals, after
    assert sample(after, "parlour_rooms", game="patchwork", status="playing", pace="live") >= 1
    assert sample(after, "parlour_websocket_connections") >= 1
    assert sample(after, "parlour_draining") == 0
    assert "process_cpu_seconds_total" in after


def test_quota_hits_are_counted(client):
    before = sample(scrape(client).text, "parlour_quota_hits_total", quota="rooms")
    answers = [client.post("/api/rooms", json={"game": "patchwork", "seats": [{"kind": "open"}] * 2}).status_code
               for _ in range(12)]
    assert 429 in answers
    assert sample(scrape(client).text, "parlour_quota_hits_total", quota="rooms") > before


def test_refusals_at_the_edge_are_counted_by_code(client):
    before = scrape(client).text
    too_large = client.post("/api/rooms", content=b"x" * (65 * 1024), headers={"content-type": "application/json"})
    assert too_large.status_code == 413
    unreadable = client.post("/api/rooms", content=b"[" * 500, headers={"content-type": "application/json"})
    assert unreadable.status_code == 422
    after = scrape(client).text
    for code in ("too_large", "bad_request"):
        assert sample(after, "parlour_refusals_total", code=code) == sample(before, "parlour_refusals_total",
                                                                            code=code) + 1, code


def test_only_loopback_without_a_proxy_or_the_networks_named_may_read_them():
    scope = {"client": ("127.0.0.1", 5000), "headers": []}
    assert may_see(scope, [])
    assert may_see({**scope, "client": ("::1", 5000)}, [])
    # through a proxy: the proxy is on loopback, the client may be anyone
    assert not may_see({**scope, "headers": [(b"x-forwarded-for", b"127.0.0.1")]}, [])
    assert not may_see({**scope, "headers": [(b"forwarded", b"for=127.0.0.1")]}, [])
    assert not may_see({"client": ("203.0.113.9", 5000), "headers": []}, [])
    assert may_see({"client": ("10.1.2.3", 5000), "headers": []}, networks(["10.0.0.0/8"]))
    assert not may_see({"client": ("10.1.2.3", 5000), "headers": []}, networks(["192.0.2.7"]))
    assert not may_see({"client": None, "headers": []}, [])
    with pytest.raises(ValueError, match="--metrics-from takes an address or a network"):
        networks(["everyone"])


def test_a_request_through_a_proxy_is_refused_in_words(client):
    local = TestClient(client.app, client=("127.0.0.1", 50000))
    refused = local.get("/metrics", headers={"X-Forwarded-For": "198.51.100.4"})
    assert refused.status_code == 403 and "proxy" in refused.text
    assert local.get("/metrics").status_code == 200
    assert client.get("/metrics").status_code == 403  # "testclient" is no address at all


PROMETHEUS = shutil.which("prometheus")


@pytest.mark.slow
@pytest.mark.timeout(180)
@pytest.mark.skipif(PROMETHEUS is None, reason="no Prometheus (apt-get install prometheus; make test does)")
def test_a_real_prometheus_scrapes_a_hall_and_finds_the_move_counter():
    folder = Path(tempfile.mkdtemp(prefix="parlour-prometheus-"))
    hall_port, prometheus_port = free_port(), free_port()
    hall = start_server(f"sqlite:///{folder / 'hall.sqlite3'}", hall_port)
    prometheus = None
    try:
        base = f"http://127.0.0.1:{hall_port}"
        room = httpx.post(f"{base}/api/rooms", json={"game": "patchwork", "seats": [
            {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}, timeout=10).json()
        started = httpx.post(f"{base}/api/rooms/{room['code']}/start",
                             headers={"Authorization": f"Bearer {room['host_token']}"}, timeout=10)
        assert started.status_code == 200, started.text
        (folder / "prometheus.yml").write_text(
            "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
            "scrape_configs:\n  - job_name: parlour\n    static_configs:\n"
            f"      - targets: ['127.0.0.1:{hall_port}']\n")
        with open(folder / "prometheus.log", "wb") as log:
            prometheus = subprocess.Popen([PROMETHEUS, f"--config.file={folder / 'prometheus.yml'}",
                                           f"--storage.tsdb.path={folder / 'data'}",
                                           f"--web.listen-address=127.0.0.1:{prometheus_port}"],
                                          stdout=log, stderr=subprocess.STDOUT)
        found, deadline = [], time.monotonic() + 120
        while not found and time.monotonic() < deadline:
            assert prometheus.poll() is None, (folder / "prometheus.log").read_text()
            try:
                answer = httpx.get(f"http://127.0.0.1:{prometheus_port}/api/v1/query",
                                   params={"query": 'parlour_moves_total{game="patchwork",by="bot"}'}, timeout=5)
                found = [r for r in answer.json()["data"]["result"] if float(r["value"][1]) > 0]
            except (httpx.TransportError, KeyError, ValueError):
                pass
            time.sleep(0.5)
        assert found, f"Prometheus never saw a move: {(folder / 'prometheus.log').read_text()[-2000:]}"
        assert found[0]["metric"]["job"] == "parlour"
        targets = httpx.get(f"http://127.0.0.1:{prometheus_port}/api/v1/targets", timeout=5).json()
        assert targets["data"]["activeTargets"][0]["health"] == "up"
    finally:
        if prometheus is not None:
            prometheus.terminate()
            prometheus.wait(30)
        hall.terminate()
        hall.wait(30)
        shutil.rmtree(folder, ignore_errors=True)


def test_the_hall_times_its_event_loop_and_its_garbage_collector(client):
    """A stall of the whole process (a callback holding the loop, a pass of the collector) is in
    /metrics: the event loop's lag, sampled every 20 ms, and every collector pass by generation."""
    import gc

    before = scrape(client).text
    time.sleep(0.3)  # the app's loop runs in the test client's thread meanwhile
    gc.collect(0)
    gc.collect(2)
    after = scrape(client).text
    lag = "parlour_event_loop_lag_seconds_count"
    assert sample(after, lag) >= sample(before, lag) + 5  # about 15 samples in 0.3 s
    for generation in ("0", "2"):
        passes = "parlour_gc_pause_seconds_count"
        assert sample(after, passes, generation=generation) > sample(before, passes, generation=generation)
