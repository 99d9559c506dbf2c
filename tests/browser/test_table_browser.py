"""The table in the browser: the live lobby, the alerts of a turn (chime, mute switch, the
connection-lost banner). Screenshots: lobby-live, connection-lost-390."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect
from test_page_layouts import PHONE, seated_room

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

LOG_LINES = "#log li:not(.log-empty)"
# counts the tones the page makes: each chime is oscillators started on an AudioContext
COUNT_TONES = """
window.tones = 0;
const make = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.tones += 1; return make.call(this); };
"""


def test_the_lobby_lists_a_game_in_progress_and_opens_it_for_a_spectator(open_page, hall, screenshot):
    room = httpx.post(f"{hall}/api/rooms", json={
        "game": "palace", "host_name": "Ana", "take_seat": 0,
        "seats": [{"kind": "open"}, {"kind": "bot", "bot": "shark"}, {"kind": "bot", "bot": "shark"}]}).json()
    code = room["code"]
    httpx.post(f"{hall}/api/rooms/{code}/start", headers={"Authorization": f"Bearer {room['host_token']}"})
    waiting = httpx.post(f"{hall}/api/rooms", json={"game": "patchwork", "seats": [{"kind": "open"}] * 2}).json()
    lobby = open_page("/")
    row = lobby.locator(f'#playing-rooms .room-row[data-code="{code}"]')
    expect(row).to_contain_text("Palace")
    expect(row).to_contain_text("Ana")
    expect(row).to_contain_text(re.compile(r"move \d+"))
    expect(lobby.locator(f'#open-rooms .room-row[data-code="{waiting["code"]}"]')).to_contain_text("Join")
    screenshot(lobby, "lobby-live")
    lobby.select_option("#room-filter", "patchwork")  # only Patchwork's rooms
    expect(row).to_have_count(0)
    expect(lobby.locator(f'#open-rooms .room-row[data-code="{waiting["code"]}"]')).to_have_count(1)
    lobby.select_option("#room-filter", "palace")
    expect(lobby.locator(f'#open-rooms .room-row[data-code="{waiting["code"]}"]')).to_have_count(0)
    row.click()
    expect(lobby).to_have_url(re.compile(f"/r/{code}$"))
    expect(lobby.locator(".badge", has_text="watching")).to_be_visible()
    expect(lobby.locator("#pa-centre")).to_be_visible()
    expect(lobby.locator("#turn-status")).to_contain_text("You are watching")


def skip_until_my_turn_again(page) -> None:
    """Skip ahead (S), sewing any special patch won on the way (Enter), until the bot has moved
    and it is my turn again."""
    start = page.locator(LOG_LINES).count()
    for _ in range(10):
        expect(page.locator("#pw-skip, .pw-special-offer").first).to_be_visible()  # the board's keys are bound
        page.keyboard.press("Enter" if page.locator(".pw-special-offer").count() else "s")
        page.wait_for_function("""(n) => {
            const lines = [...document.querySelectorAll('#log li:not(.log-empty)')].slice(n);
            return document.querySelector('#turn-status .my-turn') && lines.length
              && (lines.some((line) => !line.textContent.includes('Ana')) || document.querySelector('.pw-special-offer'));
        }""", arg=start)
        if not page.locator(".pw-special-offer").count():
            return
    raise AssertionError("the bot never moved")


def test_my_turn_chimes_unless_muted_and_a_lost_connection_says_so(open_page, hall, screenshot):
    page = open_page("/")
    page.add_init_script(COUNT_TONES)
    sockets, online = [], [True]

    def route(ws) -> None:  # the page's WebSocket, through a switch the test holds
        sockets.append(ws)
        if online[0]:
            ws.connect_to_server()
    page.route_web_socket(re.compile(r"/ws/rooms/"), route)
    seated_room(hall, page, "patchwork", ["greedy"])
    expect(page.locator("#turn-status")).to_contain_text("Your turn")
    expect(page.locator("#notify-me")).to_be_visible()  # asked on a click, never on load
    assert page.evaluate("Notification.permission") == "default"
    assert page.evaluate("window.tones") == 0  # opening the page on my turn makes no sound
    skip_until_my_turn_again(page)
    assert page.evaluate("window.tones") == 2  # a chime of two notes

    switch = page.locator("#sound-switch")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    page.reload()  # the switch is remembered
    expect(page.locator("#sound-switch")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#turn-status")).to_contain_text("Your turn")
    skip_until_my_turn_again(page)
    assert page.evaluate("window.tones") == 0

    # the connection drops: a banner, the board greyed out, and no "Your turn" while nothing can be played
    page.set_viewport_size(PHONE)
    online[0] = False
    sockets[-1].close()
    banner = page.locator("#offline-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Connection lost")
    expect(page.locator("#turn-status")).not_to_contain_text("Your turn")
    expect(page.locator("body")).to_have_class(re.compile("offline"))
    assert page.evaluate("getComputedStyle(document.querySelector('#board')).pointerEvents") == "none"
    assert page.evaluate("document.title").startswith("Patchwork")  # no ▶ in the tab's title either
    screenshot(page, "connection-lost-390", full_page=False)
    online[0] = True
    sockets[-1].close()  # the next try goes through
    expect(banner).to_be_hidden()
    expect(page.locator("#turn-status")).to_contain_text("Your turn")
    expect(page.locator("body")).not_to_have_class(re.compile("offline"))
