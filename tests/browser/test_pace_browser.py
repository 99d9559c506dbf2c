"""Turn-based games in a real browser, at 1280 x 800 and 390 x 844: create a turn-based room from
the lobby, play a move, see the deadline; "My games" with your turn first; the notification
settings page with a real SMTP server behind the hall (aiosmtpd): an address saved, confirmed by
the link the mail holds; and the service worker showing a push message Chromium delivers to it.

Headless Chromium has no push service: ``pushManager.subscribe`` fails there, so the page's
"Turn on push here" is checked to say so in words; the hall's side of Web Push is tested against
a local push service in tests/hall/test_push.py. Screenshots: pace-*-desktop, pace-*-phone."""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parents[1] / "hall"))
from hallserver import served_hall  # noqa: E402
from notifykit import SmtpServer, body_of, wait_for  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

PASSWORD = "a long enough secret"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
LOG_LINES = "#log li:not(.log-empty)"
PLAYERS = itertools.count(1)


@pytest.fixture(scope="module")
def smtp() -> Iterator[SmtpServer]:
    with SmtpServer() as server:
        yield server


@pytest.fixture(scope="module")
def mail_hall(tmp_path_factory: pytest.TempPathFactory, smtp: SmtpServer) -> Iterator[str]:
    """A hall of its own that mails through ``smtp`` (the session's hall sends no mail)."""
    with served_hall(tmp_path_factory.mktemp("mailhall") / "hall.sqlite3", "--smtp", f"smtp://127.0.0.1:{smtp.port}",
                     "--mail-from", "hall@parlour.test", "--public-url", "{base}") as base:
        yield base


@pytest.fixture(params=list(SIZES))
def person(request, browser, mail_hall):
    """A browser context of ``size`` whose player has signed up; (page, size name)."""
    size = request.param
    context = browser.new_context(viewport=SIZES[size], base_url=mail_hall, is_mobile=size == "phone",
                                  has_touch=size == "phone")
    context.set_default_timeout(15_000)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/signin")
    page.fill("#signup-name", f"Ana-{size}-{next(PLAYERS)}")  # one hall for the module: a name each
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_url("**/me")
    yield page, size
    context.close()
    assert not errors, errors


def new_turn_based_room(page, second_seat: str) -> str:
    page.goto("/")
    page.click('.game-card[data-game="empire"] button')
    expect(page.locator("#signed-in-as")).to_be_visible()  # signed in: the seat takes the account's name
    page.select_option('select[name="seat-1"]', second_seat)
    page.select_option("#pace", "turn-based")
    expect(page.locator("#turn-timer")).to_have_value("86400")  # a day a move, by default
    expect(page.locator('label[for="turn-timer"]')).to_contain_text("When it runs out, the others choose")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/r/*")
    return page.url.rsplit("/", 1)[1]


def test_a_turn_based_room_shows_its_deadline_and_my_games_put_my_turn_first(person, screenshot):
    page, size = person
    waiting = new_turn_based_room(page, "open")  # waits for a friend: listed apart in the lobby
    expect(page.locator("#app")).to_contain_text("turn-based, 1 day a move")
    page.goto("/")
    expect(page.locator(f'#turn-based-rooms .room-row[data-code="{waiting}"]')).to_contain_text("1 day a move")
    expect(page.locator(f'#open-rooms .room-row[data-code="{waiting}"]')).to_have_count(0)
    screenshot(page, f"pace-lobby-{size}")

    code = new_turn_based_room(page, "bot:detective")
    page.click("#start")
    board = page.locator(".em-board")
    expect(board).to_have_attribute("data-step", "turn")
    timer = page.locator(".timer.deadline")
    expect(timer).to_have_text(re.compile(r"^You have until \w+ \d\d:\d\d( [AP]M)?$"))
    count = page.locator(LOG_LINES).count()
    page.keyboard.press("i")  # income, then end the turn: the detective moves, then it is my turn again
    page.wait_for_function("([s, n]) => document.querySelectorAll(s).length > n", arg=[LOG_LINES, count])
    page.keyboard.press("e")
    page.wait_for_function("([s, n]) => document.querySelectorAll(s).length >= n + 3", arg=[LOG_LINES, count])
    expect(page.locator(".status-head.my-turn")).to_have_count(1)  # the detective's move asks me again
    expect(timer).to_have_text(re.compile(r"^You have until \w+ \d\d:\d\d( [AP]M)?$"))
    page.locator(".timer.deadline").scroll_into_view_if_needed()
    screenshot(page, f"pace-room-{size}", full_page=False)

    page.goto("/me")
    rows = page.locator("#playing .game-row")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_attribute("data-code", code)  # my turn first
    expect(rows.nth(0).locator(".badge-turn")).to_have_text("Your turn")
    expect(rows.nth(0).locator(".deadline")).to_have_text(re.compile(r"^until \w+ \d\d:\d\d( [AP]M)?$"))
    expect(rows.nth(1)).to_have_attribute("data-code", waiting)
    screenshot(page, f"pace-my-games-{size}")


def test_the_notification_settings_page_saves_an_address_that_its_link_confirms(person, smtp, screenshot):
    page, size = person
    page.goto("/me")
    page.click("#notification-settings")
    page.wait_for_url("**/me/notifications")
    expect(page.locator("#email-state")).to_have_text("No address: no mail is sent to you.")
    page.fill("#email", "not an address")
    page.click("#save-settings")
    expect(page.locator("#settings-message")).to_contain_text("is not an e-mail address")  # the hall's words
    address = f"ana-{size}@example.org"
    page.fill("#email", address)
    page.check("#turns")
    page.click("#save-settings")
    expect(page.locator("#settings-message")).to_have_text("Saved.")
    expect(page.locator("#email-state")).to_contain_text(f"follow the link sent to {address}")
    page.click("#test-alert")
    expect(page.locator("#settings-message")).to_contain_text("is not confirmed yet")
    screenshot(page, f"pace-alerts-{size}")
    mail = wait_for(lambda: smtp.mails_to(address))[0]
    link = re.search(r"http://\S+/confirm\?t=\S+", body_of(mail))
    assert link, body_of(mail)
    page.goto(link.group(0))
    expect(page.locator("h1")).to_have_text("Address confirmed")
    page.goto("/me/notifications")
    expect(page.locator("#email-state")).to_have_text(f"Alerts go to {address}.")
    expect(page.locator("#turns")).to_be_checked()
    page.click("#test-alert")
    expect(page.locator("#settings-message")).to_contain_text("A test alert is on its way (mail)")
    wait_for(lambda: [m for m in smtp.mails_to(address) if "test alert" in body_of(m)])

    # push: the service worker shows what it is sent; subscribing needs a push service headless Chromium lacks
    page.context.grant_permissions(["notifications"])
    page.click("#push-on")
    expect(page.locator("#push-message")).to_contain_text("Push could not be turned on")
    registration = page.evaluate("navigator.serviceWorker.getRegistration('/').then((r) => !!r && r.scope)")
    assert registration == page.url.split("/me/")[0] + "/"
    cdp = page.context.new_cdp_session(page)
    versions: list[dict] = []
    cdp.on("ServiceWorker.workerVersionUpdated", lambda event: versions.extend(event["versions"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(100):  # Playwright hands over CDP events while it is called: wait through it
        if any(v.get("status") == "activated" for v in versions):
            break
        page.wait_for_timeout(100)
    worker = next((v for v in versions if v.get("status") == "activated"), None)
    assert worker is not None, versions
    origin = page.url.split("/me/")[0]
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": origin, "registrationId": worker["registrationId"],
                                                  "data": '{"title": "Your turn in Empire", "body": "Bo moved.",'
                                                          f' "url": "{origin}/me"}}'})
    page.wait_for_function("navigator.serviceWorker.getRegistration('/').then((r) => r.getNotifications())"
                           ".then((n) => n.length > 0)")
    shown = page.evaluate("navigator.serviceWorker.getRegistration('/').then((r) => r.getNotifications())"
                          ".then((n) => n.map((x) => [x.title, x.body, x.data.url]))")
    assert shown == [["Your turn in Empire", "Bo moved.", f"{origin}/me"]]
