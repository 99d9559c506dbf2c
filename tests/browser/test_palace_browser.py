"""Palace in a real browser through the real hall: a 4-player game, you against three `shark` bots,
played to the finishing order with the mouse and the keyboard."""

from __future__ import annotations

import json

import httpx
import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


def palace_room(hall: str, page) -> str:
    """A Palace room with me in seat 0 and three sharks, started; my tokens in the page's storage."""
    room = httpx.post(f"{hall}/api/rooms", json={
        "game": "palace", "options": {}, "host_name": "Ana", "take_seat": 0,
        "seats": [{"kind": "open"}] + [{"kind": "bot", "bot": "shark"}] * 3}).json()
    page.goto("/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"parlour.room.{room['code']}", json.dumps({"seat": room["seat"], "seat_token": room["seat_token"],
                                                               "host_token": room["host_token"], "name": "Ana"})])
    httpx.post(f"{hall}/api/rooms/{room['code']}/start", headers={"Authorization": f"Bearer {room['host_token']}"})
    page.goto(f"/r/{room['code']}")
    return room["code"]


def test_four_player_palace_against_three_sharks(open_page, hall, screenshot):
    page = open_page("/")
    code = palace_room(hall, page)
    expect(page.locator(".pa-player")).to_have_count(3)
    expect(page.locator("#pa-centre")).to_be_visible()
    expect(page.locator("#pa-hand .pa-card")).to_have_count(3)
    assert page.locator(".pa-player").first.locator(".pa-back").count() >= 3 + 1  # face-downs and hand backs
    shots = {"start"}
    screenshot(page, "palace-start")
    moves = 0
    for _ in range(600):
        if page.locator("#pa-final").count():
            break
        turn = httpx.get(f"{hall}/api/rooms/{code}").json()["turn"]
        page.wait_for_function("() => !!document.querySelector('#pa-actions') || !!document.getElementById('pa-final')")
        if page.locator("#pa-final").count():
            break
        if page.locator(".pa-swap").count():
            if "swap" not in shots:  # the Cardinal's prompt
                shots.add("swap")
                screenshot(page, "palace-swap")
            if moves % 2:
                page.keyboard.press("n")
            else:
                page.locator(".pa-swap").first.click()
        elif page.locator(".pa-as-choice").count() and not page.locator(".pa-play").count():
            page.locator(".pa-as-choice").last.click()
        elif page.locator(".pa-take").count():
            page.keyboard.press("t")
        elif page.locator(".pa-flip").count():
            page.keyboard.press("f")
        else:
            cards = page.locator("#pa-hand button.pa-card:not(.pa-unplayable)")
            if not cards.count():
                cards = page.locator("#pa-me button.pa-card:not(.pa-unplayable):not(.pa-back)")
            values = [c.split()[0] for c in cards.all_inner_texts()]
            first = cards.first
            first.click()
            # a second card of the same value joins the selection when there is one
            if len(values) > 1 and values[1] == values[0] and values[0] not in ("Joker",):
                cards.nth(1).focus()
                page.keyboard.press("Enter")
            expect(page.locator(".pa-selected").first).to_be_visible()
            if "selected" not in shots and len(values) > 1 and values[1] == values[0]:
                shots.add("selected")
                screenshot(page, "palace-selected")
            if page.locator(".pa-play").count():
                page.keyboard.press("p")
            else:
                page.locator(".pa-as-choice").last.click()
        moves += 1
        page.wait_for_function(
            "([turn, code]) => fetch(`/api/rooms/${code}`).then(r => r.json()).then(s => s.turn > turn)",
            arg=[turn, code], polling=100)
        if moves == 12:
            screenshot(page, "palace-mid-game")
    expect(page.locator("#pa-final")).to_be_visible()
    # the verdict comes into view below the sticky top bar, wherever the page was (issue 28.5)
    page.wait_for_timeout(300)
    final, bar = page.locator("#pa-final").bounding_box(), page.locator(".topbar").bounding_box()
    assert bar["y"] + bar["height"] - 1 <= final["y"] < page.viewport_size["height"] - 40, (final, bar)
    screenshot(page, "palace-final-in-view", full_page=False)
    replay = httpx.get(f"{hall}/api/rooms/{code}/replay").json()
    order = replay["result"]["details"]["finishing_order"]
    names = replay["names"]
    shown = [t.strip().split(" — ")[0] for t in page.locator(".pa-final-place").all_inner_texts()]
    named = lambda s: "You" if s == 0 else names[s] + (f" {s + 1}" if names.count(names[s]) > 1 else "")  # noqa: E731
    assert shown == [named(s) for s in order]
    # the finished game says what the number beside each name counts
    expect(page.locator("#pa-final th").nth(2)).to_have_text("Cards left")
    expect(page.locator("#pa-final")).to_contain_text("counts the cards that player still holds")
    assert moves > 3
    screenshot(page, "palace-final")
