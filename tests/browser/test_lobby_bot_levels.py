"""The lobby's seat menu offers every game's bot levels first, medium by default, each with its
line on how it plays, on a laptop and on a phone."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(60)]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["laptop", "phone"])
def test_seat_menu_lists_the_levels_with_how_they_play(open_page, screenshot, hall, size):
    notes = {g["id"]: g["bot_notes"] for g in httpx.get(f"{hall}/api/games").json()}
    page = open_page("/")
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.select_option("#game-choice", "palace")
    seat = page.locator('select[name="seat-1"]')
    values = seat.locator("option").evaluate_all("options => options.map(o => o.value)")
    assert values[2:5] == ["bot:easy", "bot:medium", "bot:hard"]
    expect(seat).to_have_value("bot:medium")
    note = page.locator(".seat-choice", has=seat).locator(".seat-note")
    expect(note).to_have_text(notes["palace"]["medium"])
    seat.select_option("bot:hard")
    expect(note).to_have_text(notes["palace"]["hard"])
    screenshot(page, f"lobby-bot-levels-{size[0]}")
    page.select_option('select[name="seat-0"]', "open")
    page.select_option('select[name="seat-1"]', "you")  # seat 0 was open already: nothing moves
    expect(note).to_be_hidden()
