"""Prestige Cities in a real browser through the real hall: two people and the greedy bot play
eras with the mouse and the keyboard (dice, connected groups with undo, a refused square, the
catastrophe turn on the target's city), with the scores table and another city opened by a click.
(It lives here to share the hall's browser fixtures; the game's other tests are in
tests/games/prestige_cities/.)"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]
CATASTROPHES = ("Industrial Disaster", "The Great Fire")


def create_room(page) -> str:
    page.select_option("#game-choice", "prestige_cities")
    page.fill("#player-name", "Ana")
    page.select_option("#players", "3")
    page.select_option('select[name="seat-1"]', "open")
    page.select_option('select[name="seat-2"]', "bot:greedy")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/r/*")
    return page.url.rsplit("/", 1)[1]


def era_of(page) -> str:
    return page.locator("#pc-era-name").inner_text()


def play_my_part(page, use_keys: bool, seen: dict) -> bool:
    """Plays this seat's whole task of the moment; False when it has nothing to do."""
    board = page.locator(".pc-city-live")
    if not board.count():
        return False
    title = page.locator(".pc-board-title").inner_text()
    if "catastrophe target" in title:
        seen["catastrophe"] = True
    if page.locator(".pc-choice").count():
        if use_keys:
            page.keyboard.press("1")
        else:
            page.locator(".pc-choice").first.click()
    if page.locator(".pc-stop").count():  # a conversion: keep nothing
        page.keyboard.press("s")
        return True
    confirm = page.locator(".pc-confirm")
    if (not seen["refused"] and page.locator(".pc-cell.pc-residential").count()
            and not page.locator(".pc-pending").count() and "catastrophe" not in title):
        before = page.locator(".pc-pending").count()
        page.locator(".pc-cell.pc-residential").first.click()  # a built square: refused on the spot
        expect(page.locator("#pc-hint")).to_have_class("pc-hint pc-hint-bad")
        assert page.locator(".pc-pending").count() == before
        seen["refused"] = True
    for _ in range(12):
        if not page.locator(".pc-city-live").count():
            return True  # a one-click task (Blight) was sent
        if confirm.count() and confirm.is_enabled():
            break
        ok = page.locator(".pc-ok")
        if not ok.count():
            if page.locator(".pc-choice").count():  # the Golden Age: the next block
                page.keyboard.press("1") if use_keys else page.locator(".pc-choice").first.click()
                continue
            break
        ok.first.click()
        if not seen["undo"] and page.locator(".pc-pending").count() == 1:
            page.keyboard.press("Backspace")
            expect(page.locator(".pc-pending")).to_have_count(0)
            seen["undo"] = True
            page.locator(".pc-ok").first.click()
            page.locator(".pc-pending").first.click()  # a second click takes a square back too
            expect(page.locator(".pc-pending")).to_have_count(0)
            page.locator(".pc-ok").first.click()
        if page.locator(".pc-choice").count() and not page.locator(".pc-confirm:enabled").count():
            page.keyboard.press("1") if use_keys else page.locator(".pc-choice").first.click()
    if confirm.count() and confirm.is_enabled():
        if use_keys:
            page.keyboard.press("Enter")
        else:
            confirm.click()
        # all_inner_texts does not wait: once the blocks are sent the button may be gone already
        if "Golden Age" in era_of(page) and any(re.search(r"Confirm \d of \d", text)
                                                for text in confirm.all_inner_texts()):
            seen["golden_asked"] = True  # fewer blocks than the Golden Age allows: it asks first
            expect(page.locator("#pc-hint")).to_contain_text("press Confirm again")
            expect(page.locator(".pc-pending")).not_to_have_count(0)
            page.keyboard.press("Enter") if use_keys else confirm.click()
        expect(page.locator(".pc-pending")).to_have_count(0)  # every block sent and acknowledged
    return True


def test_two_people_and_a_bot_play_eras_with_a_catastrophe(open_page, screenshot):
    ana = open_page("/")
    code = create_room(ana)
    ben = open_page(f"/r/{code}")
    ben.fill("#join-name", "Ben")
    ben.click('.seat-row[data-seat="1"] button:has-text("Take this seat")')
    expect(ana.locator('.seat-row[data-seat="1"] .seat-name')).to_have_text("Ben")
    ana.click("#start")
    expect(ana.locator(".pc-city")).to_have_count(1)
    expect(ana.locator("#pc-era-name")).to_have_text("Pregame")
    expect(ana.locator(".pc-die")).to_have_count(5)
    expect(ana.locator("#pc-scores tbody tr")).to_have_count(3)
    screenshot(ana, "prestige-start")

    seen = {"catastrophe": False, "refused": False, "undo": False}
    rounds = set()
    shot = False
    for _ in range(80):
        rounds.add(ana.locator(".pc-round").inner_text())
        if seen["catastrophe"] and len(rounds) >= 4:
            break
        if ana.locator("#pc-final").count():
            break
        moved = play_my_part(ana, use_keys=False, seen=seen)
        moved |= play_my_part(ben, use_keys=True, seen=seen)
        if seen["catastrophe"] and not shot:
            screenshot(ana, "prestige-catastrophe")
            shot = True
        if not moved:
            ana.wait_for_timeout(150)
    assert seen["refused"] and seen["undo"], seen
    assert seen["catastrophe"] or ana.locator("#pc-final").count(), "a catastrophe came up, or the game ended first"
    assert len(rounds) >= 4

    # the scores table is live and shared: both people see the same overall scores
    expect(ana.locator("#pc-scores .pc-overall")).to_have_count(3)
    if not ana.locator(".pc-city-live").count() and not ben.locator(".pc-city-live").count():
        overall = "#pc-scores .pc-overall"
        assert ana.locator(overall).all_inner_texts() == ben.locator(overall).all_inner_texts()
    # a click on a player opens their city (one not already on Ana's main board)
    other, name = (1, "Ben") if "greedy" in ana.locator(".pc-board-title").inner_text() else (2, "greedy")
    ana.locator(f'#pc-scores tr[data-seat="{other}"]').click()
    expect(ana.locator(".pc-other .pc-city")).to_be_visible()
    expect(ana.locator(".pc-other h3")).to_contain_text(name)
    expect(ana.locator(".pc-card")).to_have_count(4)
    screenshot(ana, "prestige-mid-game")
