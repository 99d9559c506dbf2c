"""The table in the browser: the live lobby, the alerts of a turn (chime, mute switch, the
connection-lost banner). Screenshots: lobby-live, connection-lost-390."""

from __future__ import annotations

import json
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
              && (lines.some((line) => !line.textContent.includes('Ana'))
                  || document.querySelector('.pw-special-offer'));
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


def seat_in(page, code: str, room: dict, seat_token: str, host_token: str | None = None) -> None:
    """Opens room `code` in `page` as the player of `seat_token` (the browser keeps it, as after a join)."""
    page.goto("/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"parlour.room.{code}", json.dumps({"seat_token": seat_token, "host_token": host_token})])
    page.goto(f"/r/{code}")


def test_two_people_chat_and_the_chat_is_there_after_a_reload(open_page, hall, screenshot):
    room = httpx.post(f"{hall}/api/rooms", json={
        "game": "patchwork", "host_name": "Ana", "take_seat": 0, "seats": [{"kind": "open"}] * 2}).json()
    code = room["code"]
    ana = open_page("/")
    seat_in(ana, code, room, room["seat_token"], room["host_token"])
    bo = open_page(f"/r/{code}")
    bo.fill("#join-name", "Bo")
    bo.click('.seat-row[data-seat="1"] button:has-text("Take this seat")')
    expect(ana.locator("#chat .chat-system").last).to_have_text("Bo took seat 2")  # the hall's lines, set apart
    ana.fill("#chat-text", "<b>hello</b> Bo, ready?")
    ana.keyboard.press("Enter")
    said = bo.locator("#chat .chat-said").last
    expect(said).to_contain_text("Ana")
    expect(said.locator(".chat-text")).to_have_text("<b>hello</b> Bo, ready?")  # text, never HTML
    bo.fill("#chat-text", "ready!")
    bo.click("#chat button[type=submit]")
    expect(ana.locator("#chat .chat-said").last).to_contain_text("Bo ready!")
    ana.click("#start")
    expect(bo.locator("#chat .chat-system").last).to_have_text("the game started")
    bo.reload()  # the chat comes back from the room, in the order it was said
    expect(bo.locator("#chat li")).to_have_text(["Ana took seat 1", "Bo took seat 2", "Ana <b>hello</b> Bo, ready?",
                                                 "Bo ready!", "the game started"])
    expect(bo.locator(".pw-quilt").first).to_be_visible()
    bo.locator("#chat").scroll_into_view_if_needed()
    screenshot(bo, "chat")


END_BY_ACCUSING = """async ([code, token]) => new Promise((done) => {
    const ws = new WebSocket(`ws://${location.host}/ws/rooms/${code}`);
    ws.onopen = () => ws.send(JSON.stringify({type: "hello", token}));
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      const accuse = {type: "act", id: "end", turn: msg.turn, action: {type: "accuse", role: 1}};
      if (msg.type === "state") ws.send(JSON.stringify(accuse));
      if (msg.id === "end") { ws.close(); done(msg.type); }
    };
})"""


def test_a_rematch_offered_by_one_player_and_accepted_by_the_other(open_page, hall, screenshot):
    room = httpx.post(f"{hall}/api/rooms", json={
        "game": "empire", "host_name": "Ana", "take_seat": 0, "turn_timer": 60, "seats": [{"kind": "open"}] * 2}).json()
    code = room["code"]
    bo_token = httpx.post(f"{hall}/api/rooms/{code}/join", json={"name": "Bo"}).json()["seat_token"]
    httpx.post(f"{hall}/api/rooms/{code}/start", headers={"Authorization": f"Bearer {room['host_token']}"})
    ana, bo = open_page("/"), open_page("/")
    seat_in(ana, code, room, room["seat_token"], room["host_token"])
    seat_in(bo, code, room, bo_token)
    expect(ana.locator(".em-board")).to_be_visible()
    assert ana.evaluate(END_BY_ACCUSING, [code, room["seat_token"]]) == "ack"  # Ana's accusation ends the game
    expect(bo.locator("#rematch")).to_have_text("Play again")
    bo.click("#rematch")
    expect(bo).not_to_have_url(re.compile(f"/r/{code}$"))
    again = bo.url.rsplit("/", 1)[1]
    expect(bo.locator('.seat-row[data-seat="0"] .seat-name')).to_have_text("Bo")  # seat 2 moved to seat 1
    expect(bo.locator('.seat-row[data-seat="1"]')).to_contain_text("kept for Ana")
    expect(bo.locator(".options-list")).to_contain_text("60 seconds")  # the same turn timer
    join = ana.locator("#rematch")
    expect(join).to_have_text("Join the rematch")  # the old room is invited: one click
    screenshot(ana, "rematch-offered")
    join.click()
    expect(ana).to_have_url(re.compile(f"/r/{again}$"))
    # everyone is in: the rematch starts by itself, nobody clicks Start (issue 28.11)
    expect(ana.locator(".em-board")).to_be_visible()
    expect(bo.locator(".em-board")).to_be_visible()
    expect(bo.locator('.seat-row[data-seat="1"] .seat-name')).to_have_text("Ana")
    expect(ana.locator("#turn-status")).to_contain_text(re.compile("Your turn|Bo to play"))
    screenshot(bo, "rematch-started")


def test_a_finished_games_replay_shows_every_seats_hand_or_one_seats_view(open_page, hall, screenshot):
    room = httpx.post(f"{hall}/api/rooms", json={
        "game": "empire", "host_name": "Ana", "take_seat": 0, "seats": [{"kind": "open"}, {"kind": "open"}]}).json()
    code = room["code"]
    httpx.post(f"{hall}/api/rooms/{code}/join", json={"name": "Bo"})
    httpx.post(f"{hall}/api/rooms/{code}/start", headers={"Authorization": f"Bearer {room['host_token']}"})
    page = open_page("/")
    page.goto("/")
    assert page.evaluate(END_BY_ACCUSING, [code, room["seat_token"]]) == "ack"
    page.goto(f"/r/{code}/replay")
    # everything, from the first move: both players' roles, each on its own board
    expect(page.locator(".replay-seat")).to_have_count(2)
    expect(page.locator("#step-counter")).to_have_text("start · 1 move")
    expect(page.locator(".replay-seat-title")).to_have_text(["Ana’s view", "Bo’s view"])
    expect(page.locator(".replay-seat").nth(1)).to_contain_text("You (Bo)")
    expect(page.locator(".replay-result")).to_be_hidden()  # the winner only at the end
    screenshot(page, "replay-everything")
    page.select_option("#replay-view", "table")  # as the table saw it: one board, no one's role
    expect(page.locator(".replay-seat")).to_have_count(0)
    expect(page.locator("#board")).not_to_contain_text("your role")
    page.select_option("#replay-view", "1")  # as Bo saw it
    expect(page.locator("#board")).to_contain_text("You (Bo)")
    expect(page.locator("#board")).not_to_contain_text("You (Ana)")
    page.keyboard.press("End")
    # the accusation names role 1, right or wrong by the room's random deal: who won is the store's word
    ranks = httpx.get(f"{hall}/api/rooms/{code}/replay").json()["result"]["ranks"]
    expect(page.locator(".replay-result")).to_contain_text("Ana won" if ranks[0] == 1 else "Bo won")
