"""Empire in a real browser through the real hall: a player against the detective bot, by the
keyboard and the mouse, to the end of the game. Screenshots: empire-start, empire-reveal,
empire-challenge, empire-final (test-output/screenshots/)."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

LOG_LINES = "#log li:not(.log-empty)"


def board_state(page) -> tuple[str, str, int]:
    """(step, main action done or open, log lines) read at one instant."""
    return tuple(page.evaluate(
        "(selector) => { const b = document.querySelector('.em-board');"
        " return [b.dataset.step, b.dataset.main, document.querySelectorAll(selector).length]; }", LOG_LINES))


def wait_for_change(page, count: int) -> None:
    page.wait_for_function(
        "([selector, n]) => document.querySelectorAll(selector).length > n"
        " || document.querySelector('.em-board[data-step=over]')", arg=[LOG_LINES, count], timeout=30_000)


def test_a_game_of_empire_against_the_detective(open_page, hall, screenshot):
    ana = open_page("/")
    ana.click('.game-card[data-game="empire"] button')
    ana.fill("#player-name", "Ana")
    ana.select_option('select[name="seat-1"]', "bot:detective")
    ana.click("#create button[type=submit]")
    ana.wait_for_url("**/r/*")
    code = ana.url.rsplit("/", 1)[1]
    ana.click("#start")
    board = ana.locator(".em-board")
    expect(board).to_have_attribute("data-step", "turn")  # player 1 moves first

    # what I hold, what I see: my role card, both coins, four face-down revelatory cards, the culprit
    mine = int(ana.locator('[data-role="mine"] .em-number').inner_text())
    expect(ana.locator(".em-player .em-coins b")).to_have_text(["2", "2"])
    expect(ana.locator(".em-slot .em-back")).to_have_count(6)  # A to D, the culprit, the deck
    expect(ana.locator('[data-role="opponent"].em-back')).to_have_count(1)
    expect(ana.locator(".em-suspect")).to_have_count(15)
    expect(ana.locator(f'.em-suspect[data-role="{mine}"]')).to_have_class(re.compile("em-cleared"))
    expect(ana.locator(".em-suspect.em-cleared")).to_have_count(1)
    expect(ana.get_by_role("button", name=re.compile("Spy · 8"))).to_be_disabled()  # 2 coins
    screenshot(ana, "empire-start")

    # income by key, then a Reveal of A and C picked with the mouse: two cards turn face up for me
    count = ana.locator(LOG_LINES).count()
    ana.keyboard.press("i")
    wait_for_change(ana, count)
    expect(ana.locator(".em-player-me .em-coins b")).to_have_text("3")
    ana.locator('.em-slot[data-slot="0"] button').click()
    ana.locator('.em-slot[data-slot="2"] button').click()
    count = ana.locator(LOG_LINES).count()
    ana.get_by_role("button", name=re.compile("Reveal A \\+ C")).click()
    wait_for_change(ana, count)
    expect(ana.locator('.em-slot[data-slot="0"] .em-face')).to_have_count(1)
    expect(ana.locator('.em-slot[data-slot="2"] .em-face')).to_have_count(1)
    expect(ana.locator('.em-slot[data-slot="1"] .em-back')).to_have_count(1)
    expect(ana.locator(".em-suspect.em-cleared")).to_have_count(3)
    expect(ana.locator(".em-eye")).to_have_count(2)
    screenshot(ana, "empire-reveal")
    # a spectator sees which cards were looked at, never what they are, nor anybody's role
    watcher = open_page(f"/r/{code}")
    expect(watcher.locator(".em-board")).to_have_attribute("data-step", "waiting")
    expect(watcher.locator(".em-eye")).to_have_count(2)
    expect(watcher.locator(".em-table .em-face")).to_have_count(0)
    expect(watcher.locator(".em-actions button")).to_have_count(0)
    watcher.close()
    ana.keyboard.press("e")

    challenged = guessed = False
    for _ in range(300):
        expect(board).not_to_have_attribute("data-step", "waiting", timeout=30_000)
        step, main, count = board_state(ana)
        if step == "over":
            break
        if step == "waiting":  # the bot moved again between the two looks
            continue
        if step == "respond":
            expect(ana.locator(".em-prompt h3")).to_contain_text("detective claims")
            if not challenged:
                ana.keyboard.press("c")
                wait_for_change(ana, count)
                banner = ana.locator(".em-challenge")
                expect(banner).to_be_visible()
                expect(banner.locator(".em-card.em-face")).to_have_count(2)
                expect(ana.locator(".em-pile-list .em-card")).not_to_have_count(0)
                ana.wait_for_timeout(600)  # let the two cards finish turning over, for the picture
                screenshot(ana, "empire-challenge")
                challenged = True
                continue
            if not guessed:  # pick a suspect in the notebook with the keyboard, then guess it
                ana.keyboard.press("n")
                picked = ana.locator(".em-suspect.em-picked")
                expect(picked).to_have_count(1)
                expect(picked).not_to_have_class(re.compile("em-cleared"))
                name = picked.locator(".em-suspect-name").inner_text()
                ana.keyboard.press("g")
                wait_for_change(ana, count)
                expect(ana.locator("#log")).to_contain_text(f"guesses that detective is the {name}")
                guessed = True
                continue
            ana.keyboard.press("p")
        elif step == "turn":
            ana.keyboard.press("e" if main == "done" else "i")
        elif step == "keep":
            ana.keyboard.press("k")
        elif step == "collect" or step == "draw":
            ana.locator(".em-choices button").first.click()
        elif step == "accuse_chance":
            ana.get_by_role("button", name="Do not accuse").click()
        else:
            raise AssertionError(f"unexpected step {step!r}")
        wait_for_change(ana, count)
    expect(board).to_have_attribute("data-step", "over")
    assert challenged and guessed, "the detective claimed fewer than two times"
    replay = httpx.get(f"{hall}/api/rooms/{code}/replay").json()
    culprit = replay["result"]["details"]["culprit"]
    expect(ana.locator('[data-role="culprit"] .em-number')).to_have_text(str(culprit))
    expect(ana.locator(".em-over")).to_contain_text(f"({culprit})")
    expect(ana.locator("#turn-status")).to_contain_text(re.compile("win|tie"))
    screenshot(ana, "empire-final")
