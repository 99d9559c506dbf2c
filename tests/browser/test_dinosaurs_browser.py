"""Happy Little Dinosaurs in a real browser through the real hall: one person against a survivor
and a random bot, played to the end with the keyboard and the mouse. Screenshots go to
test-output/screenshots/dinosaurs-*.png."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

MINE = "#hld-prompt.hld-prompt-mine"


def test_three_player_game_against_two_bots(open_page, hall, screenshot):
    room = httpx.post(f"{hall}/api/rooms", json={
        "game": "dinosaurs", "options": {}, "host_name": "Ana", "take_seat": 0, "turn_timer": None,
        "seats": [{"kind": "open"}, {"kind": "bot", "bot": "survivor"}, {"kind": "bot", "bot": "random"}]}).json()
    code = room["code"]
    page = open_page("/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"parlour.room.{code}", json.dumps({"seat": 0, "seat_token": room["seat_token"],
                                                      "host_token": room["host_token"], "name": "Ana"})])
    page.goto(f"/r/{code}")
    httpx.post(f"{hall}/api/rooms/{code}/start", headers={"Authorization": f"Bearer {room['host_token']}"}
               ).raise_for_status()
    expect(page.locator(MINE)).to_contain_text("Choose your dinosaur")
    page.keyboard.press("1")
    expect(page.locator("#hld-hand .hld-card")).to_have_count(5)
    expect(page.locator("#hld-disaster")).to_contain_text("The Disaster")
    # every card of the hand says what it is and, if it has one, its effect in words
    for text in page.locator("#hld-hand .hld-card").all_text_contents():
        assert "Point card" in text or "Instant" in text
    screenshot(page, "dinosaurs-choose")

    # the first Point card by the mouse: face down, named to me alone until the reveal (or revealed
    # already, when both bots had chosen)
    first = page.locator("#hld-hand button.hld-card").first.get_attribute("data-card")
    page.locator("#hld-hand button.hld-card").first.click()
    page.wait_for_function("""(card) => document.querySelector(`#hld-hand .hld-card[data-card="${card}"]`) === null""",
                           arg=first)
    mine = page.locator('.hld-player[data-seat="0"] .hld-table')
    expect(mine).to_contain_text(re.compile("Face down: |" + re.escape(page.locator(
        f'.hld-front[data-card="{first}"] .hld-name').first.text_content() if page.locator(
        f'.hld-front[data-card="{first}"]').count() else "Face down: ")))
    seen = {"effect": False, "scoring": False, "last": False}
    for step in range(600):
        if page.locator("#hld-result").count():
            break
        if page.locator("#hld-last").count():
            seen["last"] = True
        prompt = page.locator(MINE)
        if not prompt.count():
            page.wait_for_timeout(50)
            continue
        text = prompt.inner_text()
        if "Scoring" in text:
            if not seen["scoring"]:
                screenshot(page, "dinosaurs-reveal")  # the revealed cards, round scores, the Instant window
            seen["scoring"] = True
        if "Use your" in text:
            seen["effect"] = True
        turn = page.locator(".hld-choice").first.get_attribute("data-action")
        # play a Point card or take a card by keyboard; pass the rest with P
        if turn and json.loads(turn)["type"] in ("play", "take", "dinosaur"):
            page.keyboard.press("1")
        elif prompt.locator("button", has_text="Pick up to 3").count():
            page.keyboard.press("1")
            page.keyboard.press("Enter")
        else:
            page.keyboard.press("p")
        page.wait_for_timeout(30)
    expect(page.locator("#hld-result")).to_be_visible()
    assert seen["scoring"] and seen["last"], seen
    status = httpx.get(f"{hall}/api/rooms/{code}").json()
    assert status["status"] == "over"
    replay = httpx.get(f"{hall}/api/rooms/{code}/replay").json()
    winners = [replay["names"][w] for w in replay["result"]["winners"]]
    expect(page.locator("#hld-result")).to_contain_text(winners[0])
    scores = [int(s) for s in replay["result"]["scores"]]
    assert [int(t) for t in page.locator(".seat-score").all_inner_texts()] == scores
    screenshot(page, "dinosaurs-final")

    # the replay draws the same board read-only, step by step
    page.click("#replay-link")
    moves = len(replay["actions"])
    expect(page.locator("#step-counter")).to_have_text(f"start · {moves} moves")
    for _ in range(12):
        page.keyboard.press("ArrowRight")
    expect(page.locator(".hld-player")).to_have_count(3)
    expect(page.locator(".hld-choice")).to_have_count(0)
    expect(page.locator("#hld-hand")).to_have_count(0)  # a replay shows nobody's hand
    screenshot(page, "dinosaurs-replay")
    page.keyboard.press("End")
    expect(page.locator("#hld-result")).to_contain_text(winners[0])
