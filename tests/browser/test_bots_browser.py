"""Bots online in a real browser: a bot account's program connects (parlour bot connect), the lobby
lists it with its games, a signed-in person challenges it with one click and lands in the started
game, where its seat shows as a bot. Screenshots: bots-lobby, bots-lobby-phone, bots-room, bots-profile
(test-output/screenshots/)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import httpx
import pytest
from playwright.sync_api import expect

from parlour.cli.processes import stop_process

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

PASSWORD = "a long enough secret"
PHONE = {"width": 390, "height": 844}


def test_a_person_challenges_a_bot_online_from_the_lobby(open_page, browser, hall, screenshot, tmp_path):
    owner = httpx.Client(base_url=hall, timeout=30)
    assert owner.post("/api/accounts", json={"name": "Robo", "password": PASSWORD}).status_code == 201
    token = owner.post("/api/me/bot").json()["token"]
    with open(tmp_path / "connect.log", "wb") as log:
        program = subprocess.Popen([sys.executable, "-m", "parlour.cli", "bot", "connect", "--hall", hall, "--token",
                                    token, "--games", "patchwork,palace", "--logs", str(tmp_path), "--",
                                    "builtin:medium"], stdout=subprocess.DEVNULL, stderr=log)
    try:
        for _ in range(600):  # a loaded machine may take a while to start a Python program
            if any(b["name"] == "Robo" for b in owner.get("/api/bots").json()):
                break
            time.sleep(0.1)
        else:
            raise AssertionError(f"Robo never came online: {(tmp_path / 'connect.log').read_text()}")
        ana = open_page("/signin")
        ana.fill("#signup-name", "Cleo")
        ana.fill("#signup-password", PASSWORD)
        ana.click("#signup-form button[type=submit]")
        ana.wait_for_url("**/me")
        ana.goto("/")
        row = ana.locator('.bot-row[data-bot="Robo"]')
        expect(row).to_be_visible(timeout=15_000)
        expect(row.locator(".bot-games button")).to_have_count(2)
        expect(row).to_contain_text("Patchwork")
        screenshot(ana, "bots-lobby")
        phone = browser.new_context(viewport=PHONE, base_url=hall)
        try:
            small = phone.new_page()
            small.goto("/")
            expect(small.locator('.bot-row[data-bot="Robo"]')).to_be_visible(timeout=15_000)
            small.locator("#online-bots").scroll_into_view_if_needed()
            screenshot(small, "bots-lobby-phone")
            small.locator('.bot-row[data-bot="Robo"] .bot-games button', has_text="Patchwork").click()
            expect(small.locator(".bots-card .form-error")).to_have_text("Sign in to challenge a bot.")
        finally:
            phone.close()
        row.locator(".bot-games button", has_text="Patchwork").click()
        ana.wait_for_url("**/r/*")
        bot_seat = ana.locator(".seat-row", has_text="Robo")
        expect(bot_seat.locator(".badge-bot")).to_be_visible()
        expect(ana.locator(".seat-row.mine .seat-name")).to_have_text("Cleo")
        screenshot(ana, "bots-room")
        ana.goto("/")  # the game being played, in the lobby: the bot account's seat looks like a bot's
        expect(ana.locator(".room-row .seat-chip.seat-bot", has_text="Robo")).to_be_visible(timeout=15_000)
        ana.goto("/leaderboard/patchwork")  # the bots' own leaderboard, beside everyone's
        expect(ana.locator(".card", has_text="Bot accounts")).to_contain_text("No bot account has a rated game")
        ana.goto("/players/Robo")
        expect(ana.locator(".badge-bot")).to_have_text("bot account")
        screenshot(ana, "bots-profile")
    finally:
        stop_process(program, signal.SIGINT)
