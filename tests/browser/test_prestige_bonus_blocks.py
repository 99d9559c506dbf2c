"""Prestige Cities' Deck 1 extra blocks are an offer (rules edition 3, docs/rules/prestige_cities.md), in a
real browser: a solo game built with Industry over the WebSocket until Titan of Industry offers its two
Culture blocks; the page shows "No more blocks" at 1280 x 800 and on a phone, and one block clicked then
"No more blocks" builds that one alone."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from playwright.sync_api import expect
from websockets.sync.client import ClientConnection, connect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]
PHONE = {"width": 390, "height": 844}
PACE = 0.04  # seconds between actions: one connection may send 30 messages a second (docs/protocol.md)


@contextmanager
def hello(hall: str, room: dict) -> Iterator[ClientConnection]:
    with connect(f"{hall.replace('http', 'ws')}/ws/rooms/{room['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": room["seat_token"], "legal": True}))
        yield ws


def next_state(ws) -> dict:
    while True:
        message = json.loads(ws.recv(timeout=20))
        if message["type"] == "state":
            return message


def solo_room_offered_the_bonus_blocks(hall: str) -> dict:
    """A started solo room whose seat is now offered Titan of Industry's Culture blocks."""
    body = {"game": "prestige_cities", "options": {"deck1": "titan_of_industry"}, "host_name": "Ana", "take_seat": 0,
            "seats": [{"kind": "open"}]}
    room = httpx.post(f"{hall}/api/rooms", json=body).json()
    httpx.post(f"{hall}/api/rooms/{room['code']}/start", headers={"Authorization": f"Bearer {room['host_token']}"})
    with hello(hall, room) as ws:
        for sent in range(80):
            message = next_state(ws)
            assert not message.get("result"), "the game ended before anybody reached 10 Industry"
            while not message.get("legal"):
                message = next_state(ws)
            task, legal = message["view"]["task"], message["legal"]
            if task["kind"] == "build" and task["block"] == "culture" and {"type": "stop"} in legal:
                assert message["view"]["bonus_cards"][0]["winners"] == [0]
                return room
            industry = [a for a in legal if a.get("block") == "industry"]
            action = industry[0] if industry else legal[0]
            time.sleep(PACE)
            ws.send(json.dumps({"type": "act", "id": sent, "turn": message["turn"], "action": action}))
    raise AssertionError("Titan of Industry was not reached in 80 actions")


def test_the_bonus_blocks_may_be_stopped_after_one(open_page, hall, screenshot):
    room = solo_room_offered_the_bonus_blocks(hall)
    remembered = json.dumps({"seat": 0, "seat_token": room["seat_token"], "host_token": room["host_token"],
                             "name": "Ana"})
    page = open_page("/")
    for size in (PHONE, {"width": 1280, "height": 800}):
        page.set_viewport_size(size)
        page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                      [f"parlour.room.{room['code']}", remembered])
        page.goto(f"/r/{room['code']}")
        expect(page.locator(".pc-stop")).to_contain_text("No more blocks")
        expect(page.locator("#pc-hint")).to_contain_text("Bonus card: up to 2 more Culture blocks")
        expect(page.locator("#pc-hint")).to_contain_text("No more blocks (S) to stop without any")
        screenshot(page, f"prestige-bonus-offer-{size['width']}")
    page.locator(".pc-cell.pc-ok").first.click()
    expect(page.locator(".pc-pending")).to_have_count(1)
    expect(page.locator(".pc-confirm")).to_be_disabled()  # one of two
    page.mouse.move(0, 0)  # off the board, where hovering a square explains it instead
    page.keyboard.press("Enter")  # asks for the other, or No more blocks
    expect(page.locator("#pc-hint")).to_contain_text("or press No more blocks (S) to build only 1 block")
    screenshot(page, "prestige-bonus-one-chosen")
    page.locator(".pc-stop").click()
    expect(page.locator(".pc-stop")).to_have_count(0)
    with hello(hall, room) as ws:
        view = next_state(ws)["view"]
    assert view["cities"][0]["counts"]["culture"] == 1 and view["bonus_cards"][0]["winners"] == [0]
    assert view["cities"][0]["bonus"] == 5
    assert not (view["task"] and view["task"]["kind"] == "build" and view["task"].get("block") == "culture")
