"""Prestige Cities' catastrophe with no group as large as the die, in a real browser: the first block
clicked picks the smaller group, which is then all there is to remove (docs/rules/prestige_cities.md).
A solo game is played over the WebSocket, building away from the starting blocks, until such a
catastrophe strikes; the removal itself is made with the mouse, at 1280 x 800 and on a phone."""

from __future__ import annotations

import json

import httpx
import pytest
from hallserver import served_hall
from playwright.sync_api import expect
from websockets.sync.client import connect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]
PHONE = {"width": 390, "height": 844}
TRIES = 60  # actions into a deal before trying another


LETTER = {"industry": "I", "residential": "R"}


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory):
    """A hall of this module's own: the test looks for a deal (--seed 2026: a room's deal follows from
    how many rooms the hall made before it), which must not depend on the other modules' rooms. Its
    connections may send as fast as they like (not 30 messages a second): the search for the deal
    sends each action as soon as the state before it came, never waiting for the rate."""
    with served_hall(tmp_path_factory.mktemp("catastrophe") / "hall.sqlite3", "--limit", "hashing_share=100",
                     "--limit", "connection_messages=1000000/second") as base:
        yield base


def choose(task: dict, legal: list[dict]) -> dict:
    """Grow Residential and Industry groups in the bottom right, away from the starting blocks (which
    stay groups of one): so a later catastrophe finds groups of several sizes, none as large as the die."""
    if task["kind"] == "remove":
        return legal[0]
    builds = [a for a in legal if a.get("block") in LETTER]
    return builds[-1] if builds else legal[-1]


def singletons(rows: list[str], letter: str) -> list[tuple[int, int]]:
    """The squares of ``letter`` with no side-neighbour of the same letter."""
    def at(r: int, c: int) -> str:
        return rows[r][c] if 0 <= r < len(rows) and 0 <= c < len(rows[r]) else ""
    return [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row)
            if ch == letter and all(at(r + dr, c + dc) != letter for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))]


def solo_room_at_a_whole_group_removal(hall: str) -> tuple[dict, tuple[int, int], int]:
    """A started solo room whose seat must now remove a smaller group whole, with a group of one and a
    larger one to choose from: (room, the single block's square, the largest group's size)."""
    for _ in range(60):
        room = httpx.post(f"{hall}/api/rooms", json={"game": "prestige_cities", "options": {}, "host_name": "Ana",
                                                     "take_seat": 0, "seats": [{"kind": "open"}]}).json()
        httpx.post(f"{hall}/api/rooms/{room['code']}/start", headers={"Authorization": f"Bearer {room['host_token']}"})
        with connect(f"{hall.replace('http', 'ws')}/ws/rooms/{room['code']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": room["seat_token"], "legal": True}))
            sent = 0
            while sent < TRIES:
                message = json.loads(ws.recv(timeout=20))
                if message["type"] != "state":
                    continue
                if message.get("result"):
                    break  # the game ended without one: another deal
                if not message.get("legal"):
                    continue
                task = message["view"]["task"]
                if task["kind"] == "remove" and task["whole"] and task["left"] > 1:
                    alone = singletons(message["view"]["cities"][0]["rows"], LETTER[task["block"]])
                    if alone:
                        return room, alone[0], task["left"]
                action = choose(task, message["legal"])
                ws.send(json.dumps({"type": "act", "id": sent, "turn": message["turn"], "action": action}))
                sent += 1
    raise AssertionError("no catastrophe with groups of several sizes, none as large as the die, in 60 solo deals")


def test_the_first_block_picks_the_smaller_group_to_remove_whole(open_page, hall, screenshot):
    room, (row, col), largest = solo_room_at_a_whole_group_removal(hall)
    remembered = json.dumps({"seat": 0, "seat_token": room["seat_token"], "host_token": room["host_token"],
                             "name": "Ana"})
    page = open_page("/")
    for size in (PHONE, None):
        if size:
            page.set_viewport_size(size)
        else:
            page.set_viewport_size({"width": 1280, "height": 800})
        page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                      [f"parlour.room.{room['code']}", remembered])
        page.goto(f"/r/{room['code']}")
        expect(page.locator(".pc-board-title")).to_contain_text("catastrophe target")
        expect(page.locator("#pc-hint")).to_contain_text("pick one of its groups to remove whole")
        screenshot(page, f"prestige-whole-group-{'390' if size else '1280'}")
    turn = httpx.get(f"{hall}/api/rooms/{room['code']}").json()["turn"]
    page.locator(f".pc-cell.pc-ok[data-row='{row}'][data-col='{col}']").click()
    expect(page.locator(".pc-pending")).to_have_count(1)
    confirm = page.locator(".pc-confirm")
    expect(confirm).to_be_enabled()  # a group of one, though the largest has more: it is the whole removal
    assert largest > 1
    screenshot(page, "prestige-whole-group-picked")
    confirm.click()
    expect(page.locator(".pc-board-title")).not_to_contain_text("catastrophe target")
    assert httpx.get(f"{hall}/api/rooms/{room['code']}").json()["turn"] > turn
