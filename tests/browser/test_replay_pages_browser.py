"""Issue 27, item 1: the replay page pages through a long replay (the hall sends 200 frames at most
at once): stepping to the end, back across a page and to the start fetches the pages it needs."""

from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import expect

from parlour.games import get

pytestmark = [pytest.mark.browser, pytest.mark.timeout(90)]


def long_palace_replay(moves: int) -> dict:
    """The first random 2-player Palace game (rules edition 3) of at least ``moves`` actions, cut there."""
    game = get("palace")
    for seed in range(1, 200):
        rng, state, actions = random.Random(seed), game.start(2, {"edition": 3}, seed), []
        while not game.is_over(state) and len(actions) < moves:
            seat = min(game.to_act(state))
            action = game.random_action(state, seat, rng)
            actions.append([seat, action])
            state = game.apply(state, seat, action)
        if len(actions) == moves:
            return {"format": "parlour-replay/1", "game": "palace", "players": 2, "options": {"edition": 3},
                    "seed": seed, "names": ["Ana", "Bo"], "actions": actions}
    raise AssertionError("no random game was that long")


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_a_long_replay_is_shown_a_page_at_a_time(open_page, tmp_path, screenshot, width, height):
    replay = long_palace_replay(450)
    moves = len(replay["actions"])
    path = tmp_path / "palace.json"
    path.write_text(json.dumps(replay))
    page = open_page("/replay")
    page.set_viewport_size({"width": width, "height": height})
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/api/replays/frames" in request.url else None)
    page.set_input_files("#replay-file", str(path))
    expect(page.locator("#step-counter")).to_contain_text(f"start · {moves} moves")
    page.get_by_role("button", name="Last").click()
    expect(page.locator("#step-counter")).to_have_text(f"move {moves} of {moves}")
    expect(page.locator("#log li").last).to_contain_text(str(moves))
    assert page.locator("#log li .log-turn").first.inner_text() >= "400"  # this page's moves only
    screenshot(page, f"replay-paged-end-{width}")
    for _ in range(moves - 399):  # back across the page boundary, to move 399
        page.keyboard.press("ArrowLeft")
    expect(page.locator("#step-counter")).to_have_text(f"move 399 of {moves}")
    expect(page.locator("#log li").last).to_contain_text("399")
    page.get_by_role("button", name="First").click()
    expect(page.locator("#step-counter")).to_contain_text("start")
    starts = sorted({int(url.split("start=")[1].split("&")[0]) for url in asked})
    assert starts == [0, 300, 400]  # the pages asked for: the first, the last and the one before it
    assert all("count=100" in url for url in asked)
