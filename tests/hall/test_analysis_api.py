"""A finished game's analysis in the hall (issue 33): refused in words while the game runs, made on
first request in the analysis worker with its progress told, stored once made (a restarted hall
serves it without making it again), a cap per person on the queue, and the page."""

from __future__ import annotations

import time
from typing import Any

from hallkit import Socket, bot, host, new_room, started_room

from parlour.bots.analysis import LABELS
from parlour.hall import analyses


def finished(client: Any, game: str = "dinosaurs") -> str:
    room = new_room(client, game, seats=[bot("random"), bot("medium")])
    code = room["code"]
    with Socket(client, code) as watcher:
        watcher.hello(None)
        assert client.post(f"/api/rooms/{code}/start", headers=host(room["host_token"])).status_code == 200
        watcher.until(lambda s: s["result"] is not None)
    return str(code)


def made(client: Any, code: str, seconds: float = 120.0) -> dict[str, Any]:
    """The analysis of ``code``, asked for until it is made; every answer on the way is pending."""
    deadline = time.monotonic() + seconds
    while True:
        answer = client.get(f"/api/rooms/{code}/analysis")
        assert answer.status_code == 200, answer.text
        body = answer.json()
        if body["status"] == "made":
            return dict(body)
        assert body["status"] == "pending", body
        assert 0 <= body["done"] <= body["total"]
        assert isinstance(body["waiting"], bool) and 0 <= body["waited"] <= body["patience"] + 60
        assert time.monotonic() < deadline, "the analysis was not made in time"
        time.sleep(0.2)


def test_a_running_game_is_not_analysed(client):
    code, _, _ = started_room(client)
    answer = client.get(f"/api/rooms/{code}/analysis")
    assert answer.status_code == 409 and "still being played" in answer.json()["detail"]
    assert client.get("/api/rooms/NOSUCH/analysis").status_code == 404


def test_a_finished_game_is_analysed_once_and_kept(make_client):
    client = make_client()
    code = finished(client)
    replay = client.get(f"/api/rooms/{code}/replay").json()
    body = made(client, code)
    assert [m["turn"] for m in body["moves"]] == list(range(1, len(replay["actions"]) + 1))
    assert [m["seat"] for m in body["moves"]] == [seat for seat, _ in replay["actions"]]
    assert all(m["label"] in LABELS for m in body["moves"])
    assert body["names"] == replay["names"] and body["game"] == "dinosaurs"
    assert sum(sum(counts.values()) for counts in body["summary"]) == len(body["moves"])
    restarted = make_client()  # the same store: the analysis is read, not made again
    again = restarted.get(f"/api/rooms/{code}/analysis").json()
    assert again["status"] == "made" and again["moves"] == body["moves"] and again["made"] == body["made"]


def test_one_person_may_queue_only_a_few_analyses(client, monkeypatch):
    monkeypatch.setattr(analyses, "PER_REQUESTER", 1)
    first, second = finished(client), finished(client)
    assert client.get(f"/api/rooms/{first}/analysis").json()["status"] == "pending"  # queued just now
    refused = client.get(f"/api/rooms/{second}/analysis")  # the worker takes seconds to start: still queued
    assert refused.status_code == 429 and "analyses being made" in refused.json()["detail"]
    made(client, first)
    assert made(client, second)["status"] == "made"  # once the first is made, the next may be asked for


def test_the_analysis_page_is_served(client):
    answer = client.get("/r/abcdef/analysis", follow_redirects=False)
    assert answer.status_code == 308 and answer.headers["location"] == "/r/ABCDEF/analysis"
    page = client.get("/r/ABCDEF/analysis")
    assert page.status_code == 200 and "/static/analysis.js" in page.text
