"""A result's reason shows the players' names on the game page and in the replay, as people read
them (docs/protocol.md: a view's reason names seats {p0}, {p1}...)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from parlour.games import get

pytestmark = [pytest.mark.browser, pytest.mark.timeout(60)]


def test_an_uploaded_replay_and_its_board_name_the_accuser(open_page, tmp_path):
    empire = get("empire")
    accuse = {"type": "accuse", "role": 1}
    state = empire.apply(empire.start(2, {}, 1), 0, accuse)
    result = empire.result(state).to_json()  # as an older replay file holds it: placeholders, no names
    assert result["reason"].startswith("{p0} accused")
    path = tmp_path / "empire.json"
    path.write_text(json.dumps({"format": "parlour-replay/1", "game": "empire", "players": 2, "options": {}, "seed": 1,
                                "names": ["Ana", "Bo"], "actions": [[0, accuse]], "result": result, "ended": "normal"}))
    page = open_page("/replay")
    page.set_input_files("#replay-file", str(path))
    expect(page.locator("#step-counter")).to_contain_text("start")
    expect(page.locator(".replay-result")).to_be_hidden()  # the winner is told at the end, not from the start
    page.get_by_role("button", name="Last").click()
    expect(page.locator(".replay-result")).to_contain_text("Ana accused the ")
    expect(page.locator(".em-over")).to_have_count(2)  # every seat's board, as the replay shows everything
    for board in page.locator(".em-over").all():
        expect(board).to_contain_text("Ana accused the ")  # the renderer, from the view
        expect(board).not_to_contain_text("{p0}")
