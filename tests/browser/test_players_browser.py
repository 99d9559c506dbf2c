"""Players in a real browser: sign up, play a whole game against a bot, see the rating and the
game in the history, then sign in from a second browser (a phone) and get back a game in
progress. Screenshots: players-signin, players-profile, players-leaderboard, players-my-games-phone,
players-room-phone (test-output/screenshots/)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

PASSWORD = "a long enough secret"
PHONE = {"width": 390, "height": 844}


def empire_against_the_detective(page) -> str:
    """From the lobby, a started room of Empire: me at seat 1, the detective at seat 2."""
    page.goto("/")
    page.click('.game-card[data-game="empire"] button')
    # signed in, the seat takes the account's name: the form asks for none (issue 28.4)
    expect(page.locator("#signed-in-as")).to_have_text("Ana")
    expect(page.locator("#player-name")).to_have_count(0)
    page.select_option('select[name="seat-1"]', "bot:detective")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/r/*")
    page.click("#start")
    expect(page.locator(".em-board")).to_have_attribute("data-step", "turn")  # seat 1 moves first
    return page.url.rsplit("/", 1)[1]


def test_sign_up_play_a_bot_see_the_rating_and_pick_up_a_game_on_another_device(open_page, browser, hall,
                                                                               screenshot):
    ana = open_page("/signin")
    expect(ana.locator("#signin-form")).to_be_visible()
    screenshot(ana, "players-signin")
    ana.fill("#signup-name", "Ana")
    ana.fill("#signup-password", PASSWORD)
    ana.click("#signup-form button[type=submit]")
    ana.wait_for_url("**/me")
    expect(ana.locator("#account .account-name")).to_have_text("Ana")
    expect(ana.locator("#playing")).to_contain_text("No game in progress")
    assert "parlour_session" not in ana.evaluate("document.cookie")  # HttpOnly: no script reads it

    # a whole game against the detective: name a suspect on the first turn (right: a win; wrong: a loss)
    finished = empire_against_the_detective(ana)
    expect(ana.locator(".seat-row.mine .seat-name")).to_have_text("Ana")
    ana.keyboard.press("n")
    ana.keyboard.press("x")
    expect(ana.locator(".em-board")).to_have_attribute("data-step", "over")

    ana.goto("/players/Ana")
    expect(ana.locator("#profile-name")).to_have_text("Ana")
    row = ana.locator("#ratings tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(0)).to_have_text("Empire")
    expect(row.locator("td").nth(2)).to_have_text("1")  # one rated game
    # a familiar positive scale, provisional after one game (issue 28.6): 1500 + 20 x ordinal
    expect(row.locator("td").nth(1)).to_have_text(re.compile(r"^1[3-6]\d\d\?$"))
    recent = ana.locator(f'.game-row[data-code="{finished}"]')
    expect(recent).to_contain_text(re.compile("Won|2nd of 2"))
    expect(recent.locator(".rating-change")).to_have_text(re.compile(r"^[+−]\d+$"))  # whole points
    expect(recent.get_by_role("link", name="Replay")).to_have_attribute("href", f"/r/{finished}/replay")
    screenshot(ana, "players-profile")
    ana.goto("/leaderboard/empire")
    names = ana.locator("#leaderboard tbody tr td:nth-child(2) a")
    expect(names).to_have_count(2)
    assert sorted(names.all_inner_texts()) == ["Ana", "bot:detective"]
    for cell in ana.locator("#leaderboard tbody tr td:nth-child(3)").all_inner_texts():
        assert re.fullmatch(r"1[3-6]\d\d\?", cell), cell
    expect(ana.locator("#ratings-help")).not_to_contain_text("fixed points")
    expect(ana.locator("#ratings-help")).to_contain_text("move")
    screenshot(ana, "players-leaderboard")

    # a game left in progress, then picked up on a phone where Ana signs in: no seat token there
    playing = empire_against_the_detective(ana)
    phone = browser.new_context(viewport=PHONE, base_url=hall, is_mobile=True, has_touch=True)
    phone.set_default_timeout(10_000)
    try:
        bo = open_page("/signin?next=/me", context=phone)
        bo.fill("#signin-name", "ana")
        bo.fill("#signin-password", "not the password")
        bo.click("#signin-form button[type=submit]")
        expect(bo.locator("#signin-form .form-error")).to_have_text("wrong name or password")
        bo.fill("#signin-password", PASSWORD)
        bo.click("#signin-form button[type=submit]")
        bo.wait_for_url("**/me")
        game = bo.locator(f'#playing .game-row[data-code="{playing}"]')
        expect(game.locator(".badge-turn")).to_have_text("Your turn")
        expect(bo.locator(f'#finished .game-row[data-code="{finished}"]')).to_have_count(1)
        screenshot(bo, "players-my-games-phone")
        game.get_by_role("link", name="Open").click()
        bo.wait_for_url(f"**/r/{playing}")
        expect(bo.locator(".em-board")).to_have_attribute("data-step", "turn")
        expect(bo.locator(".seat-row.mine .seat-name")).to_have_text("Ana")
        assert bo.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('parlour.room.'))") == []
        screenshot(bo, "players-room-phone", full_page=False)
        bo.goto("/me")
        bo.locator("#account #sign-out").click()
        bo.wait_for_url(re.compile(r"/$"))
        expect(bo.locator("#sign-in-link")).to_be_visible()
    finally:
        phone.close()
