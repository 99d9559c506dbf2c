"""A challenge between people in real browsers: Bo waits in the lobby, Ana challenges him from his
profile, his lobby shows the challenge, he accepts, and both land in the started game at their
seats. Screenshots: challenge-profile, challenge-lobby, challenge-lobby-phone (test-output/screenshots/)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

PASSWORD = "a long enough secret"
PHONE = {"width": 390, "height": 844}


def sign_up(page, name: str) -> None:
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_url("**/me")


def test_a_person_challenges_another_from_a_profile_and_both_play(open_page, browser, hall, screenshot):
    bo = open_page("/signin")
    sign_up(bo, "Bruno")
    bo.goto("/")  # in the lobby: challengeable while it is open
    ana = open_page("/signin")
    sign_up(ana, "Alma")
    ana.goto("/players/Bruno")
    expect(ana.locator(".challenge-card")).to_be_visible()
    ana.select_option("#challenge-game", "patchwork")
    screenshot(ana, "challenge-profile")
    ana.click("#challenge-button")
    expect(ana.locator("#challenge-status")).to_contain_text("Waiting for Bruno to accept")
    row = bo.locator(".challenge-row")
    expect(row).to_contain_text("Alma challenges you to Patchwork", timeout=15_000)
    screenshot(bo, "challenge-lobby")
    row.get_by_role("button", name="Accept").click()
    bo.wait_for_url("**/r/*")
    ana.wait_for_url("**/r/*", timeout=15_000)
    assert ana.url == bo.url
    expect(bo.locator(".seat-row.mine .seat-name")).to_have_text("Bruno")
    expect(ana.locator(".seat-row.mine .seat-name")).to_have_text("Alma")
    ana.goto("/")  # Ana's profile card is only for others: her own profile has none
    ana.goto("/players/Alma")
    expect(ana.locator("#profile-name")).to_have_text("Alma")
    expect(ana.locator(".challenge-card")).to_have_count(0)
    phone = browser.new_context(viewport=PHONE, base_url=hall)
    try:
        small = phone.new_page()
        small.goto("/signin")
        sign_up(small, "Carla")
        small.goto("/")
        ana.goto("/players/Carla")
        ana.select_option("#challenge-game", "palace")
        ana.click("#challenge-button")
        card = small.locator(".challenges-card")
        expect(card).to_contain_text("Alma challenges you to Palace", timeout=15_000)
        card.scroll_into_view_if_needed()
        screenshot(small, "challenge-lobby-phone")
        card.get_by_role("button", name="Decline").click()
        expect(ana.locator("#challenge-status")).to_contain_text("Carla declined the challenge", timeout=15_000)
        expect(card).to_be_hidden()
    finally:
        phone.close()
