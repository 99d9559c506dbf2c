"""Happy Little Dinosaurs in a real browser through the real hall: one person against a survivor
and a random bot, played to the end with the keyboard and the mouse. Screenshots go to
test-output/screenshots/dinosaurs-*.png."""

from __future__ import annotations

import json

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
    first = page.locator("#hld-hand button.hld-card").first
    card, name = first.get_attribute("data-card"), first.locator(".hld-name").text_content()
    first.click()
    page.wait_for_function("""(card) => document.querySelector(`#hld-hand .hld-card[data-card="${card}"]`) === null""",
                           arg=card)
    # The bots answer at once, so the board may already be past the reveal; the log keeps the
    # line that names my choice to me alone.
    expect(page.locator("#log")).to_contain_text(f"Ana chose {name}")
    seen = {"effect": False, "scoring": False, "last": False}
    for _ in range(600):
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
    assert [int(t.split()[0]) for t in page.locator(".seat-score").all_inner_texts()] == scores  # "27 points"
    screenshot(page, "dinosaurs-final")

    # the replay draws the same board read-only, step by step: once the game is over, with every
    # seat's board and hand ("everything"), or as the table saw it, nobody's hand
    page.click("#replay-link")
    moves = len(replay["actions"])
    expect(page.locator("#step-counter")).to_have_text(f"start · {moves} moves")
    for _ in range(12):
        page.keyboard.press("ArrowRight")
    expect(page.locator(".replay-seat")).to_have_count(3)
    expect(page.locator("#hld-hand")).to_have_count(3)
    expect(page.locator(".hld-choice")).to_have_count(0)
    screenshot(page, "dinosaurs-replay")
    page.select_option("#replay-view", "table")
    expect(page.locator(".hld-player")).to_have_count(3)
    expect(page.locator(".hld-choice")).to_have_count(0)
    expect(page.locator("#hld-hand")).to_have_count(0)  # as the table saw it: nobody's hand
    page.get_by_role("button", name="Last").click()
    expect(page.locator("#hld-result")).to_contain_text(winners[0])


def mounted(page, snapshot: dict, seat: int = 0) -> None:
    """Mounts the renderer on a hall page with ``snapshot``; what it sends lands in window.sent."""
    page.evaluate("""async ([snapshot, seat]) => {
        const { mount } = await import("/games/dinosaurs/static/renderer.js");
        window.sent = [];
        const root = document.createElement("div");
        document.body.replaceChildren(root);
        const view = mount(root, { seat, names: ["Ana", "Bo", "Cy"], game: {},
                                   send: (action) => {
                                     window.sent.push(action); return Promise.resolve({ ok: true });
                                   } });
        view.update(snapshot);
    }""", [snapshot, seat])


def snapshot_of(state, seat: int) -> dict:
    from parlour.games.dinosaurs import GAME
    return {"view": GAME.view(state, seat), "legal": GAME.legal_actions(state, seat),
            "to_act": sorted(GAME.to_act(state)), "turn": 1, "result": None, "names": ["Ana", "Bo", "Cy"]}


def test_fire_spray_picks_cards_with_keys_and_treenoculars_shows_the_top_cards(open_page, screenshot):
    """The prompts that need more than one button: Fire Spray's up-to-three cards, Treenoculars' two cards."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parents[1] / "games" / "dinosaurs"))
    from dino_states import GAME, ids, make_state

    spray, bat, boost, pan, stick, bone = (ids("fire_spray")[0], ids("run_home_bat")[0], ids("score_booster")[0],
                                           ids("handy_pan")[0], ids("cool_stick")[0], ids("bonehead")[0])
    state = make_state(2, hands=[[spray, bat, boost, pan, stick], [bone]], disaster=ids("natural")[3])
    state = GAME.apply(GAME.apply(state, 0, {"type": "play", "card": spray}), 1, {"type": "play", "card": bone})
    page = open_page("/")
    mounted(page, snapshot_of(state, 0))
    expect(page.locator("#hld-prompt")).to_contain_text("Use your Fire Spray?")
    expect(page.locator("#hld-prompt button", has_text="Pick up to 3")).to_be_disabled()
    page.keyboard.press("2")  # the hand's 2nd card: Score Booster
    page.locator(f'#hld-hand .hld-card[data-card="{stick}"]').click()
    expect(page.locator("#hld-hand .hld-selected")).to_have_count(2)
    screenshot(page, "dinosaurs-fire-spray")
    page.keyboard.press("Enter")
    assert page.evaluate("window.sent") == [{"type": "discard", "cards": [boost, stick]}]
    GAME.check(state, 0, {"type": "discard", "cards": [boost, stick]})

    tree, cannon, insure = ids("treenoculars")[0], ids("meteor_cannon")[0], ids("disaster_insurance")[0]
    state = make_state(2, hands=[[tree], [bone]], disaster=ids("natural")[3], deck_top=[insure, cannon])
    state = GAME.apply(GAME.apply(state, 0, {"type": "play", "card": tree}), 1, {"type": "play", "card": bone})
    mounted(page, snapshot_of(state, 0))
    expect(page.locator("#hld-prompt")).to_contain_text("Use your Treenoculars?")
    page.keyboard.press("1")
    state = GAME.apply(state, 0, page.evaluate("window.sent")[0])
    mounted(page, snapshot_of(state, 0))
    expect(page.locator("#hld-prompt")).to_contain_text("Treenoculars: keep one")
    expect(page.locator("#hld-prompt .hld-card")).to_have_count(2)
    mounted(page, snapshot_of(state, 1), seat=1)  # the other player sees no card
    expect(page.locator("#hld-prompt .hld-card")).to_have_count(0)
    expect(page.locator("#hld-prompt")).to_contain_text("using Treenoculars")
