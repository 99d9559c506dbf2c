"""The analysis page in Chromium at a desk's and a phone's size (issue 33): a finished game's chart
of each player's chance of winning, its bad moves marked and each one's better move in words, and
a link from a move to the board as its player saw it."""

from __future__ import annotations

import time

import httpx
from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}


def finished_room(hall: str) -> str:
    """A Dinosaurs game between a random bot and the medium one, played to its end."""
    room = httpx.post(f"{hall}/api/rooms", json={"game": "dinosaurs", "seats": [
        {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "medium"}]}).json()
    code = room["code"]
    started = httpx.post(f"{hall}/api/rooms/{code}/start", headers={"Authorization": f"Bearer {room['host_token']}"})
    assert started.status_code == 200, started.text
    for _ in range(600):
        if httpx.get(f"{hall}/api/rooms/{code}").json()["status"] == "over":
            return str(code)
        time.sleep(0.1)
    raise AssertionError("the bots did not finish their game in a minute")


def test_a_finished_game_s_analysis_shows_its_chart_and_its_blunders(open_page, hall, screenshot):
    code = finished_room(hall)
    for size, name in ((DESK, "desk"), (PHONE, "phone")):
        page = open_page(f"/r/{code}/analysis")
        page.set_viewport_size(size)
        expect(page.locator("#analysis-chart")).to_be_visible(timeout=120_000)  # made on first request
        analysis = httpx.get(f"{hall}/api/rooms/{code}/analysis").json()
        moves = analysis["moves"]
        expect(page.locator(".analysis-move")).to_have_count(len(moves))
        bad = [m for m in moves if m["label"] in ("inaccuracy", "mistake", "blunder")]
        assert bad, "a random player's game with no bad move at all"
        expect(page.locator(".chart-mark")).to_have_count(len(bad))
        worst = max(bad, key=lambda m: m["loss"])
        row = page.locator(f"#move-{worst['turn']}")
        expect(row).to_contain_text(worst["label"].capitalize())
        expect(row).to_contain_text("Better:")
        expect(row.locator(".analysis-better strong")).to_have_text(worst["best_words"])  # in words, not raw
        expect(page.locator("main")).to_contain_text("never from the cards revealed later")
        box = page.locator("#analysis-chart").bounding_box()
        assert box["width"] <= size["width"] and box["height"] > 80  # the chart fits the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]  # nothing off to the side
        page.locator(".chart-mark >> nth=0").click()  # a mark on the chart picks its move in the list
        expect(page.locator(".analysis-move.picked")).to_have_count(1)
        screenshot(page, f"analysis-{name}")
        # "See": the replay as that player saw the game before the move
        row.locator(".analysis-see").click()
        expect(page.locator("#step-counter")).to_have_text(f"move {worst['turn'] - 1} of {len(moves)}")
        expect(page.locator("#replay-view")).to_have_value(str(worst["seat"]))


def test_an_analysis_waiting_for_a_busy_hall_says_so(open_page, screenshot):
    """While live games keep the hall busy, analyses wait for them (hall/pacing.py): the page says
    why the progress stands still and how long it may still wait."""
    waiting = {"status": "pending", "done": 0, "total": 48, "ahead": 1, "waiting": True, "waited": 75.0,
               "patience": 300.0, "names": ["Ana", "Ben"], "game": "patchwork"}
    for size, name in ((DESK, "desk"), (PHONE, "phone")):
        page = open_page("/")
        page.set_viewport_size(size)
        page.route("**/api/rooms/ABCDEF/analysis", lambda route: route.fulfill(json=waiting))
        page.goto("/r/ABCDEF/analysis")
        expect(page.locator("#analysis-pending")).to_contain_text("0 of 48 moves judged; 1 game ahead of this one.")
        expect(page.locator("#analysis-waiting")).to_have_text(
            "The hall is busy with live games, and they come first: the analysis waits for a quieter moment"
            " (4 minutes at most), then goes on slowly if it has to.")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        screenshot(page, f"analysis-waiting-{name}")
