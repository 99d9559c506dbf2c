"""Issue 28: the Dinosaurs status card (the Disaster panel at the top left of the board) names the
state of the game, also after an early end. A game ended before its rules ended it (a resignation,
a vote to end it) keeps the game's view as it was, phase and all, so the card said "Before the first
round · Choosing dinosaurs" (or "Round 2" with the round's Disaster) under the verdict that the game
was over. At 1280 x 800 and 390 x 844; screenshots dinosaurs-status-card-{resigned,voted}-<size>."""

from __future__ import annotations

import json

import httpx
import pytest
from playwright.sync_api import expect
from tablekit import SIZES, auth, fits, two_people
from test_page_layouts import seated_room
from websockets.sync.client import connect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

CARD = "#hld-disaster"


def choose_a_dinosaur(hall: str, code: str, token: str) -> None:
    """The seat of ``token`` chooses the first dinosaur it is offered, over the room's socket."""
    with connect(f"{hall.replace('http', 'ws')}/ws/rooms/{code}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "legal": True}))
        while True:
            message = json.loads(ws.recv(timeout=20))
            if message["type"] == "state" and message.get("legal"):
                break
        dinosaur = next(a for a in message["legal"] if a["type"] == "dinosaur")
        ws.send(json.dumps({"type": "act", "id": 1, "turn": message["turn"], "action": dinosaur}))
        while (answer := json.loads(ws.recv(timeout=20)))["type"] not in ("ack", "error"):
            pass
        assert answer["type"] == "ack", answer


@pytest.mark.parametrize("size", SIZES)
def test_the_card_says_the_game_ended_before_the_first_round_after_a_resignation(open_page, hall, screenshot, size):
    """Ana resigns while the dinosaurs are being chosen: the game, left to a bot alone, is over."""
    page = open_page("/")
    page.set_viewport_size(SIZES[size])
    code = seated_room(hall, page, "dinosaurs", ["survivor"])
    card = page.locator(CARD)
    expect(card).to_contain_text("Choosing dinosaurs")  # the state before the end, as the card names it
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('parlour.room.{code}')).seat_token")
    assert httpx.post(f"{hall}/api/rooms/{code}/resign", headers=auth(token)).json()["status"] == "over"
    expect(page.locator("#board [data-verdict]")).to_contain_text("ended early")
    expect(card).to_contain_text("Game over")
    expect(card).to_contain_text("ended before the first round")
    expect(card).not_to_contain_text("Choosing dinosaurs")
    expect(card).not_to_contain_text("Before the first round")
    fits(page)
    screenshot(page, f"dinosaurs-status-card-resigned-{size}", full_page=False)


@pytest.mark.parametrize("size", SIZES)
def test_the_card_says_in_which_round_the_game_ended_after_a_vote(open_page, hall, screenshot, size):
    """Ana and Bo choose their dinosaurs, play into round 1, then vote to end the game."""
    page = open_page("/")
    page.set_viewport_size(SIZES[size])
    code, ana, bo = two_people(hall, page, "dinosaurs", ["survivor"])
    for who in (ana, bo):
        choose_a_dinosaur(hall, code, who["seat_token"])
    card = page.locator(CARD)
    expect(card).to_contain_text("Round 1")
    for who in (ana, bo):
        httpx.post(f"{hall}/api/rooms/{code}/vote", json={"motion": "end"},
                   headers=auth(who["seat_token"])).raise_for_status()
    expect(page.locator("#turn-status")).to_contain_text("a draw")
    expect(card).to_contain_text("Game over")
    expect(card).to_contain_text("ended early in round 1")
    expect(card).not_to_contain_text("The Disaster")  # no Disaster is "of the round" any more
    fits(page)
    screenshot(page, f"dinosaurs-status-card-voted-{size}", full_page=False)
