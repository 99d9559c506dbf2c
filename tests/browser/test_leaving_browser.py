"""Leaving the table in the browser (issue 28.1, 28.11), at 1280 x 800 and on a 390 x 844 phone:
Resign (asked first) against bots, "My games" on the lobby with its Resign, two people voting to
end a game, a resigned opponent's seat left to a bot and the game ended by the one who stayed,
and a rematch said in the chat that starts once everyone has joined. Screenshots:
leave-resign-confirm-*, leave-resigned-*, leave-my-games-*, leave-vote-*, leave-rematch-*."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import httpx
import pytest
from hallserver import served_hall
from playwright.sync_api import expect
from tablekit import SIZES, fits, seat_me, two_people
from test_page_layouts import seated_room

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
HOST_AWAY_HERE = 8  # seconds, for `parlour serve --host-away` (a minute by default)

@pytest.mark.parametrize("size", SIZES)
def test_resigning_against_bots_asks_first_then_ends_the_game_and_watches(open_page, hall, screenshot, size):
    page = open_page("/")
    page.set_viewport_size(SIZES[size])
    seated_room(hall, page, "patchwork", ["greedy"])
    expect(page.locator("#turn-status")).to_contain_text("Your turn")
    expect(page.locator("[data-controls]")).to_be_visible()  # the board is drawn (a phone scrolls to it)
    page.locator("#resign").click()
    confirm = page.locator("#resign-confirm")
    expect(confirm).to_contain_text("Resign this game?")
    expect(page.locator("#resign-yes")).to_be_in_viewport()
    fits(page)
    screenshot(page, f"leave-resign-confirm-{size}", full_page=False)
    page.locator("#resign-no").click()  # changed my mind: nothing happened
    expect(confirm).to_have_count(0)
    expect(page.locator("#turn-status")).to_contain_text("Your turn")
    page.locator("#resign").click()
    with page.expect_navigation():  # the page is loaded again once the hall took the resignation
        page.locator("#resign-yes").click()
    expect(page.locator(".badge", has_text="watching")).to_be_visible()
    expect(page.locator("#turn-status")).to_contain_text("greedy wins!")
    expect(page.locator("#turn-status")).to_contain_text("left it")
    expect(page.locator("#resign")).to_have_count(0)
    fits(page)
    screenshot(page, f"leave-resigned-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_my_games_on_the_lobby_lists_this_devices_games_and_resigns_one(open_page, hall, screenshot, size):
    page = open_page("/")
    page.set_viewport_size(SIZES[size])
    code = seated_room(hall, page, "patchwork", ["greedy"])
    waiting = seated_room(hall, page, "palace", ["shark", "shark"], start=False)
    page.goto("/")
    card = page.locator("#my-games")
    expect(card.locator(f'.my-game[data-code="{code}"]')).to_contain_text("your turn")
    expect(card.locator(f'.my-game[data-code="{waiting}"]')).to_contain_text("waiting for players")
    card.locator(f'.my-game[data-code="{code}"] .my-game-resign').click()
    expect(card.locator(f'.my-game[data-code="{code}"]')).to_contain_text("Resign? You place last.")
    fits(page)
    screenshot(page, f"leave-my-games-{size}", full_page=False)
    card.locator(f'.my-game[data-code="{code}"] .btn-danger').click()
    expect(card.locator(f'.my-game[data-code="{code}"]')).to_have_count(0)  # no longer my seat
    assert httpx.get(f"{hall}/api/rooms/{code}").json()["status"] == "over"  # left to bots alone
    card.locator(f'.my-game[data-code="{waiting}"] a').click()
    expect(page).to_have_url(re.compile(f"/r/{waiting}$"))


@pytest.mark.parametrize("size", SIZES)
def test_two_players_vote_to_end_then_play_again_in_one_click_each(open_page, hall, screenshot, size):
    ana = open_page("/")
    ana.set_viewport_size(SIZES[size])
    code, room, bo_answer = two_people(hall, ana)
    bo = open_page("/")
    bo.set_viewport_size(SIZES[size])
    seat_me(bo, code, bo_answer, "Bo")
    bo.goto(f"/r/{code}")
    expect(bo.locator("#turn-status")).to_be_visible()
    ana.locator("#end-game").click()
    expect(bo.locator("#table-vote")).to_contain_text("Ana proposes to end the game now.")
    expect(ana.locator("#table-vote")).to_contain_text("Waiting for Bo")
    expect(bo.locator("#chat-lines")).to_contain_text("Ana proposes to end the game now")
    bo.locator("#table-vote").scroll_into_view_if_needed()
    fits(bo)
    screenshot(bo, f"leave-vote-{size}", full_page=False)
    bo.locator("#vote-yes").click()
    expect(ana.locator("#turn-status")).to_contain_text("A tie: You and Bo")
    expect(ana.locator("#turn-status")).to_contain_text("a draw")
    # the rematch: Ana offers it, Bo joins, and it starts by itself; the old room's chat says so
    ana.locator("#rematch").click()
    expect(ana).not_to_have_url(re.compile(f"/r/{code}$"))
    expect(bo.locator("#rematch")).to_have_text("Join the rematch")
    expect(bo.locator("#chat-lines")).to_contain_text("Ana offers a rematch")
    bo.locator("#rematch").click()
    expect(bo).not_to_have_url(re.compile(f"/r/{code}$"))
    for page in (ana, bo):
        expect(page.locator("#turn-status")).to_be_visible()  # the game page: it started
        expect(page.locator("#chat-lines")).to_contain_text("the game started")
    screenshot(bo, f"leave-rematch-{size}", full_page=False)
    again = bo.url.rstrip("/").split("/")[-1]
    assert httpx.get(f"{hall}/api/rooms/{again}").json()["status"] == "playing"  # nobody pressed Start


@pytest.mark.parametrize("size", SIZES)
def test_an_opponent_who_resigned_leaves_a_bot_and_the_one_who_stayed_ends_the_game(open_page, hall, screenshot,
                                                                                      size):
    ana = open_page("/")
    ana.set_viewport_size(SIZES[size])
    code, room, bo = two_people(hall, ana)
    expect(ana.locator("#end-game")).to_have_text("Propose to end the game")
    resigned = httpx.post(f"{hall}/api/rooms/{code}/resign", headers={"Authorization": f"Bearer {bo['seat_token']}"})
    assert resigned.status_code == 200
    expect(ana.locator("#chat-lines")).to_contain_text("Bo resigned")
    expect(ana.locator("#seats")).to_contain_text("Bo (bot)")
    expect(ana.locator("#end-game")).to_have_text("End the game")  # only a bot plays on against Ana
    ana.locator("#end-game").click()
    expect(ana.locator("#turn-status")).to_contain_text("You win!")
    expect(ana.locator("#turn-status")).to_contain_text("Bo (bot) left it")
    fits(ana)
    screenshot(ana, f"leave-ended-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_shows_who_is_at_each_table(open_page, hall, screenshot, size):
    room = httpx.post(f"{hall}/api/rooms", json={"game": "palace", "host_name": "Cy", "take_seat": 0,
                                                 "seats": [{"kind": "open"}] * 3}).json()
    code = room["code"]
    dee = httpx.post(f"{hall}/api/rooms/{code}/join", json={"name": "Dee"}).json()
    host_page = open_page("/")
    seat_me(host_page, code, room, "Cy")
    host_page.goto(f"/r/{code}")
    expect(host_page.locator("#start")).to_be_visible()  # Cy is at the table
    lobby = open_page("/")
    lobby.set_viewport_size(SIZES[size])
    row = lobby.locator(f'#open-rooms .room-row[data-code="{code}"]')
    expect(row.locator(".seat-here")).to_have_text("Cy")
    expect(row.locator(".seat-away")).to_have_text("Dee")  # joined, never came to the table
    expect(row.locator(".seat-open")).to_have_count(1)
    assert dee["seat"] == 1
    row.scroll_into_view_if_needed()
    fits(lobby)
    screenshot(lobby, f"lobby-presence-{size}", full_page=False)


@pytest.fixture
def impatient_hall(tmp_path) -> Iterator[str]:
    """A hall of its own where a waiting room's host may be gone HOST_AWAY_HERE seconds, not a minute
    (the default's own test: tests/hall/test_leaving.py)."""
    with served_hall(tmp_path / "hall.sqlite3", "--host-away", str(HOST_AWAY_HERE)) as base:
        yield base


def test_a_player_left_waiting_by_an_absent_host_may_start_after_a_while(open_page, impatient_hall, screenshot):
    hall = impatient_hall
    room = httpx.post(f"{hall}/api/rooms", json={"game": "patchwork", "host_name": "Cy", "take_seat": 0,
                                                 "seats": [{"kind": "open"}, {"kind": "open"}]}).json()
    code = room["code"]  # Cy made the room and went away
    made = time.monotonic()
    bo = open_page(f"{hall}/")
    bo.set_viewport_size(SIZES["desk"])
    seat_me(bo, code, httpx.post(f"{hall}/api/rooms/{code}/join", json={"name": "Bo"}).json(), "Bo")
    bo.goto(f"{hall}/r/{code}")
    expect(bo.locator(".start-box")).to_contain_text("Waiting for the host to start")
    expect(bo.locator("#start")).to_have_count(0)
    assert time.monotonic() - made < HOST_AWAY_HERE  # seen while the host was not yet gone long enough
    screenshot(bo, "leave-host-away-before-desk", full_page=False)
    start = bo.locator("#start")
    expect(start).to_be_visible(timeout=(HOST_AWAY_HERE + 20) * 1000)  # the host has been gone a while
    assert time.monotonic() - made >= HOST_AWAY_HERE - 0.5  # and not before
    expect(bo.locator("#host-away")).to_contain_text("The host has been gone a while: any player may start.")
    start.scroll_into_view_if_needed()
    fits(bo)
    screenshot(bo, "leave-host-away-desk", full_page=False)
    bo.set_viewport_size(SIZES["phone"])
    start.scroll_into_view_if_needed()
    fits(bo)
    screenshot(bo, "leave-host-away-phone", full_page=False)
    start.click()
    expect(bo.locator("#turn-status")).to_contain_text("Cy to play")
