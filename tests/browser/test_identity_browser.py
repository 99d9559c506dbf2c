"""Who is who, in a real browser (issue 27, items 8 and 10): after signing in, ``next`` never leads
off the site, however it is spelled; at the table a signed-in player's seat links to their profile
with a mark no guest gets. Screenshots: identity-seats, identity-seats-phone (test-output/screenshots/)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

PASSWORD = "a long enough secret"
PHONE = {"width": 390, "height": 844}
# The audit's probes and their kin: each reads as another site to a browser (each costs the hall a
# password hash: a few, within its budget)
OFF_SITE = ["/\\evil.example", "/%09/evil.example", "/%5C%5Cevil.example", "//evil.example", "https://evil.example/"]


def test_after_signing_in_next_never_leaves_the_site(open_page, hall):
    page = open_page("/signin")
    page.request.post(f"{hall}/api/accounts", data={"name": "Redirected", "password": PASSWORD})
    for target in [*OFF_SITE, "/leaderboard"]:
        page.goto(f"/signin?next={target}" if "%" in target else "/signin?" + page.evaluate(
            "(t) => new URLSearchParams({next: t}).toString()", target))
        page.fill("#signin-name", "Redirected")
        page.fill("#signin-password", PASSWORD)
        signed_in(page)
        expected = "/leaderboard" if target == "/leaderboard" else "/me"
        page.wait_for_url(f"{hall}{expected}")
        assert page.url.startswith(f"{hall}/"), (target, page.url)


def signed_in(page, tries: int = 10) -> None:
    """Submit the sign-in form until it goes through: the hall (shared by every browser test)
    hashes passwords within a budget, and says "try again in a few seconds" past it, as to anyone."""
    for _ in range(tries):
        page.click("#signin-form button[type=submit]")
        page.wait_for_function("() => location.pathname !== '/signin'"
                               " || document.querySelector('#signin-form .form-error').textContent !== ''")
        if page.evaluate("location.pathname") != "/signin":
            return
        assert "try again" in page.inner_text("#signin-form .form-error")
        page.wait_for_timeout(3000)
    raise AssertionError("the hall never let this sign-in through")


def test_a_signed_in_players_seat_links_to_their_profile_and_a_guests_does_not(open_page, browser, hall, screenshot):
    ana = open_page("/")
    assert ana.request.post(f"{hall}/api/accounts", data={"name": "Seated", "password": PASSWORD}).ok
    room = ana.request.post(f"{hall}/api/rooms", data={"game": "patchwork", "seats": [{"kind": "open"}] * 2,
                                                       "take_seat": 0}).json()
    guest = open_page("/")
    assert guest.request.post(f"{hall}/api/rooms/{room['code']}/join", data={"name": "Seated too"}).ok
    ana.goto(f"/r/{room['code']}")
    seats = ana.locator("#seats .seat-row")
    expect(seats).to_have_count(2)
    account = seats.nth(0).locator("a.seat-name.seat-account")
    expect(account).to_have_attribute("href", "/players/Seated")
    expect(seats.nth(0).locator(".badge-account")).to_be_visible()
    expect(seats.nth(1).locator(".seat-name")).to_have_text("Seated too")
    expect(seats.nth(1).locator("a")).to_have_count(0)
    expect(seats.nth(1).locator(".badge-account")).to_have_count(0)
    screenshot(ana, "identity-seats")
    phone = browser.new_context(viewport=PHONE, base_url=hall)
    try:
        page = phone.new_page()
        page.goto(f"/r/{room['code']}")
        expect(page.locator("#seats .seat-row").nth(0).locator(".badge-account")).to_be_visible()
        screenshot(page, "identity-seats-phone")
    finally:
        phone.close()
