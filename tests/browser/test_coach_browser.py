"""The coach at the table in the browser (issue 33 item 4), at 1280 x 800 and on a 390 x 844 phone:
the lobby's Coach box; in a coached game of Empire against a bot, "Hint" draws the coach's move as
the board's own playable move (every other move disabled) with its chance of winning in one line;
a move the coach finds a mistake is held, the bot waits, and "Take it back" puts the board back as
it was. Screenshots: coach-lobby-*, coach-hint-*, coach-held-*, coach-taken-back-*."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import httpx
import pytest
from hallserver import served_hall
from playwright.sync_api import expect

from parlour.bots.analysis import judge, move_seed
from parlour.core import derive
from parlour.games import all_games
from parlour.hall.room.takeback import WRONG

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

SIZES = {"desk": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
INCOME = {"type": "income"}


@pytest.fixture
def coach_hall(tmp_path) -> Iterator[str]:
    """A hall of its own, so that its rooms' deals are known: room k is dealt by
    derive(2026, "room", k) (hall.py's new_seed with ``--seed 2026``)."""
    with served_hall(tmp_path / "hall.sqlite3") as base:
        yield base


def fits(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"] + 1


def coached_room(base: str, page) -> dict:
    """A started coached room of Empire, me (Ana) in seat 0 against the easy bot; my tokens kept."""
    room = httpx.post(f"{base}/api/rooms", json={
        "game": "empire", "host_name": "Ana", "take_seat": 0, "coach": True,
        "seats": [{"kind": "open"}, {"kind": "bot", "bot": "easy"}]}).json()
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"parlour.room.{room['code']}", json.dumps({"seat": 0, "seat_token": room["seat_token"],
                                                               "host_token": room["host_token"], "name": "Ana"})])
    httpx.post(f"{base}/api/rooms/{room['code']}/start", headers={"Authorization": f"Bearer {room['host_token']}"})
    return room


@pytest.mark.parametrize("size", SIZES)
def test_a_hint_then_a_mistake_taken_back_against_a_bot(browser, coach_hall, screenshot, size):
    context = browser.new_context(viewport=SIZES[size], base_url=coach_hall, is_mobile=size == "phone")
    context.set_default_timeout(20_000)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/")
    # the lobby offers the coach for live games only
    coach_box = page.locator("#coach")
    expect(coach_box).to_be_visible()
    page.locator("#pace").select_option("turn-based")
    expect(coach_box).to_be_hidden()
    page.locator("#pace").select_option("live")
    coach_box.check()
    page.locator("label.field-check", has=coach_box).scroll_into_view_if_needed()
    screenshot(page, f"coach-lobby-{size}", full_page=False)

    # room 1 of this hall: a hint on my first turn
    first = coached_room(coach_hall, page)
    page.goto(f"/r/{first['code']}")
    expect(page.locator("#turn-status")).to_contain_text("Your turn")
    expect(page.locator("#coach")).to_contain_text("this game is not rated")
    page.locator("#coach-hint").click()
    line = page.locator("#coach-line")
    expect(line).to_contain_text("% chance of winning")
    expect(line).to_contain_text("The coach would play the highlighted move")
    # the move in words ("take 1 coin (income)", "claim 2 coins"), not its raw form ("income")
    expect(page.locator("#coach-move")).to_have_text(re.compile(r"^\w+ \w+"))
    enabled = page.locator(".em-actions button:enabled")
    expect(enabled).to_have_count(1)  # only the coach's move is offered on the board
    hinted = enabled.inner_text()
    fits(page)
    page.locator("#coach").scroll_into_view_if_needed()
    screenshot(page, f"coach-hint-{size}", full_page=size == "desk")
    page.locator("#coach-hint").click()  # "Show all my moves": the board offers every move again
    expect(page.locator(".em-actions button:enabled")).not_to_have_count(1)
    assert hinted

    # room 2: taking income at the start is a mistake there, as the coach judges it from my view
    game = all_games()["empire"]
    seed = derive(2026, "room", 2).getrandbits(63)
    state = game.start(2, game.resolve_options({}, 2), seed)
    judged = judge(game, game.view(state, 0), 0, game.legal_actions(state, 0), INCOME, move_seed(seed, 1))
    assert judged.label in WRONG, judged
    second = coached_room(coach_hall, page)
    page.goto(f"/r/{second['code']}")
    expect(page.locator("#turn-status")).to_contain_text("Your turn")
    page.locator(".em-actions button", has_text="Income +1").click()
    held = page.locator("#coach-held")
    expect(held).to_contain_text(f"That looks like a {judged.label}")
    expect(held).to_contain_text(f"falls from {round(100 * judged.win_chance_before)}%")
    status = httpx.get(f"{coach_hall}/api/rooms/{second['code']}").json()
    assert status["turn"] == 1 and status["coach_hold"]["until"]  # held: nothing more happens
    fits(page)
    held.scroll_into_view_if_needed()
    screenshot(page, f"coach-held-{size}", full_page=size == "desk")
    page.locator("#coach-take-back").click()
    expect(held).to_have_count(0)
    expect(page.locator("#turn-status")).to_contain_text("Your turn")
    expect(page.locator(".em-actions button", has_text="Income +1")).to_be_enabled()
    assert httpx.get(f"{coach_hall}/api/rooms/{second['code']}").json()["turn"] == 0
    expect(page.locator("#chat, .chat").first).to_contain_text("took a move back")
    screenshot(page, f"coach-taken-back-{size}", full_page=size == "desk")
    context.close()
    assert not errors, errors
