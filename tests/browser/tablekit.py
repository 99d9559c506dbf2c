"""Helpers for the table's browser tests (leaving a game, games ended early): the two sizes, a
room's seat kept in a page's browser, a started room of two people, and a page that fits."""

from __future__ import annotations

import json

import httpx
from playwright.sync_api import expect

SIZES = {"desk": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def fits(page) -> None:
    """Nothing is wider than the screen."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"] + 1


def seat_me(page, code: str, answer: dict, name: str) -> None:
    """Keeps the seat token of ``answer`` (a join or a new room) in the page's browser."""
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"parlour.room.{code}", json.dumps({"seat": answer["seat"], "seat_token": answer["seat_token"],
                                                       "host_token": answer.get("host_token"), "name": name})])


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def two_people(hall: str, page, game: str = "patchwork", bots: list[str] | None = None) -> tuple[str, dict, dict]:
    """A started room of ``game``: Ana (``page``, its seat kept there and its room opened) in seat 0,
    Bo in seat 1, ``bots`` in the rest; (code, Ana's new-room answer, Bo's join answer)."""
    seats = [{"kind": "open"}, {"kind": "open"}] + [{"kind": "bot", "bot": bot} for bot in bots or []]
    ana = httpx.post(f"{hall}/api/rooms",
                     json={"game": game, "seats": seats, "host_name": "Ana", "take_seat": 0}).json()
    code = ana["code"]
    bo = httpx.post(f"{hall}/api/rooms/{code}/join", json={"name": "Bo", "seat": 1}).json()
    httpx.post(f"{hall}/api/rooms/{code}/start", headers=auth(ana["host_token"])).raise_for_status()
    page.goto("/")
    seat_me(page, code, ana, "Ana")
    page.goto(f"/r/{code}")
    expect(page.locator("#board > *").first).to_be_visible()
    return code, ana, bo
