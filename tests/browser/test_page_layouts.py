"""Every game page at a laptop's 1280 x 800 and a phone's 390 x 844, every seat named with the
32 characters a name may have: nothing sticks out of the board (at 1280) or out of the screen,
the controls of my turn are on the screen when it starts, on a phone whose turn it is shows above
the board, and the room's code is whole in the top bar; a finger places a Patchwork patch in two
taps (it has no hover to preview with). Screenshots (what the screen shows when my turn starts):
layout-<game>-1280, layout-<game>-390, layout-lobby-390, layout-waiting-390."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
# the bots of each room, seat 0 being me: a full table where the game allows one
TABLES = {"patchwork": ["greedy"], "empire": ["detective"], "dinosaurs": ["survivor", "survivor"],
          "prestige_cities": ["greedy", "greedy"], "palace": ["shark", "shark", "shark"]}
# 32 characters, the longest name there is, in one word that cannot wrap
LONG_NAMES = [f"{n}{'Wolfeschlegelsteinhausenbergerdorff'[:31]}" for n in range(6)]
BOARD_SELECTOR = {"patchwork": ".pw-quilt", "empire": ".em-board", "dinosaurs": ".hld-players",
                  "prestige_cities": ".pc-city", "palace": "#pa-centre"}


def seated_room(hall: str, page, game: str, bots: list[str], start: bool = True,
                names: list[str] | None = None) -> str:
    """A room of `game` with me (Ana, or names[0]) in seat 0 and `bots` in the others (named
    names[1:] if given); my tokens in the page's storage."""
    names = names or ["Ana"] + [None] * len(bots)
    room = httpx.post(f"{hall}/api/rooms", json={
        "game": game, "options": {}, "host_name": names[0], "take_seat": 0,
        "seats": [{"kind": "open"}] + [{"kind": "bot", "bot": bot, "name": name}
                                       for bot, name in zip(bots, names[1:])]}).json()
    page.goto("/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"parlour.room.{room['code']}", json.dumps({"seat": room["seat"], "seat_token": room["seat_token"],
                                                               "host_token": room["host_token"], "name": "Ana"})])
    if start:
        httpx.post(f"{hall}/api/rooms/{room['code']}/start", headers={"Authorization": f"Bearer {room['host_token']}"})
    page.goto(f"/r/{room['code']}")
    return room["code"]


LOW_CONTRAST = (Path(__file__).parent / "contrast.js").read_text()


def low_contrast(page) -> list[str]:
    """The texts on the page under 4.5:1 against their background (none may be)."""
    return page.evaluate(LOW_CONTRAST)


def page_width(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


def sticking_out_of_board(page) -> list[str]:
    """The visible elements of the board whose right edge passes the board's (none may)."""
    return page.evaluate("""() => {
        const board = document.querySelector('#board').getBoundingClientRect();
        const out = [];
        for (const e of document.querySelectorAll('#board *')) {
          const r = e.getBoundingClientRect();
          if (r.width && r.height && r.right > board.right + 1) out.push(`${e.tagName}.${e.getAttribute('class')}`);
        }
        return out.slice(0, 5);
    }""")


def controls_off_screen(page) -> dict | None:
    """Where the board's controls ([data-controls]) are, when they are not wholly on the screen
    below the top bar; None when they are."""
    return page.evaluate("""() => {
        const box = document.querySelector('#board [data-controls]').getBoundingClientRect();
        const top = document.querySelector('.topbar').getBoundingClientRect().bottom;
        const inside = box.top >= top - 1 && box.bottom <= innerHeight + 1;
        return inside ? null : {top: box.top, bottom: box.bottom, bar: top, screen: innerHeight};
    }""")


def code_cut_off(page) -> bool:
    """Whether the room's code in the top bar is cut (its text wider than its box, or out of the bar)."""
    return page.evaluate("""() => {
        const code = document.querySelector('.topbar-code'), bar = document.querySelector('.topbar');
        return code.scrollWidth > code.clientWidth + 1
          || code.getBoundingClientRect().right > bar.getBoundingClientRect().right;
    }""")


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_game_page_fits_a_phone_and_a_laptop_with_the_controls_on_screen(open_page, hall, screenshot, game):
    page = open_page("/")
    for size in (PHONE, LAPTOP):
        page.set_viewport_size(size)
        if size is PHONE:
            code = seated_room(hall, page, game, TABLES[game], names=LONG_NAMES[:len(TABLES[game]) + 1])
        else:
            page.reload()
        expect(page.locator(BOARD_SELECTOR[game]).first).to_be_visible()
        # measured once the board's own stylesheet has arrived (a sheet is listed once it is loaded)
        page.wait_for_function("() => [...document.styleSheets].some((s) => (s.href || '').endsWith('/renderer.css'))")
        expect(page.locator("#turn-status")).to_contain_text("Your turn")  # the bots move until it is mine
        page.wait_for_function("() => document.querySelector('#board [data-controls]')")
        assert controls_off_screen(page) is None
        assert page_width(page) <= size["width"]
        expect(page.locator(".topbar-code")).to_contain_text(code)
        assert not code_cut_off(page)
        assert low_contrast(page) == []
        if size is PHONE:
            status, board = page.locator("#turn-status").bounding_box(), page.locator("#board").bounding_box()
            assert status["y"] < board["y"]  # whose turn it is, without scrolling past the board
        else:
            assert sticking_out_of_board(page) == []
        screenshot(page, f"layout-{game}-{size['width']}", full_page=False)


def test_the_lobby_and_a_waiting_room_fit_a_phone(open_page, hall, screenshot):
    page = open_page("/")
    page.set_viewport_size(PHONE)
    page.click('.game-card[data-game="dinosaurs"] button')  # the longest name, on the submit button too
    expect(page.locator("#create button[type=submit]")).to_contain_text("Happy Little Dinosaurs")
    assert page_width(page) <= PHONE["width"]
    assert low_contrast(page) == []
    screenshot(page, "layout-lobby-390")
    seated_room(hall, page, "palace", ["shark"], start=False)
    expect(page.locator("#start")).to_be_visible()
    assert page_width(page) <= PHONE["width"]
    assert low_contrast(page) == []
    screenshot(page, "layout-waiting-390")


def quilt_centre(page) -> tuple[float, float]:
    """The middle of my quilt on the screen, once the page has stopped moving (two frames alike)."""
    quilt = page.locator(".pw-side-me .pw-quilt")
    box, before = quilt.bounding_box(), None
    while box != before:
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        box, before = quilt.bounding_box(), box
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_on_a_phone_the_first_tap_shows_the_patch_and_the_second_sews_it(browser, hall):
    # a finger has no hover: a tap that sewed at once would sew where the player could not see
    context = browser.new_context(viewport=PHONE, base_url=hall, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        seated_room(hall, page, "patchwork", ["greedy"])
        for _ in range(10):  # the room's seed is random: skip ahead until a patch on offer is affordable
            page.wait_for_function("() => document.querySelector('.pw-my-turn')")
            if page.locator(".pw-offer:not(.unable)").count():
                break
            moves = page.locator("#log li:not(.log-empty)").count()
            page.locator("#pw-skip").tap()  # the first tap says what skipping ahead gains...
            expect(page.locator("#explain-tip")).to_contain_text("Tap again to choose.")
            page.locator("#pw-skip").tap()  # ...the second skips (issue 28.3)
            page.wait_for_function("(n) => document.querySelectorAll('#log li:not(.log-empty)').length > n", arg=moves)
        offer = page.locator(".pw-offer:not(.unable)").first
        moves = page.locator("#log li:not(.log-empty)").count()
        offer.tap()
        expect(offer).to_have_class(re.compile("picked"))
        page.touchscreen.tap(*quilt_centre(page))
        # shown where the finger was, and neither being sent (busy) nor sent (no patch in hand)
        assert page.evaluate("() => [!!document.querySelector('.pw-busy'),"
                             " !!document.querySelector('.pw-offer.picked'),"
                             " !!document.querySelector('.pw-side-me .pw-ghost')]") == [False, True, True]
        expect(page.locator("#board")).to_contain_text("tap it again")  # a finger has no Enter key
        page.touchscreen.tap(*quilt_centre(page))  # the same square of the quilt, wherever the page put it
        expect(page.locator("#log li:not(.log-empty)").nth(moves)).to_contain_text("Ana bought patch")
        assert errors == []
    finally:
        context.close()
