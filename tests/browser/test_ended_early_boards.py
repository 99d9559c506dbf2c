"""Issue 28: after a game ended early (a resignation, a forfeit, a vote to end it, abandonment, its
cap on actions) no game's own board draws anybody "to move": the hall's state then has ``to_act``
empty and a ``result`` while the game's view, whose rules did not end it, still has a player to act.
Each board shows the hall's verdict instead. Both ways a page meets it, in all five games, at
1280 x 800 and 390 x 844: the page's player resigned in another tab (the page watches from then
on), and two players voted to end the game (the page keeps its seat). Screenshots:
ended-early-{resigned,voted}-<game>-<size>."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect
from tablekit import SIZES, auth, fits, two_people
from test_page_layouts import seated_room

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

# each game's medium bot, which plays the seats of neither Ana (seat 0) nor Bo (seat 1), and how many
GAMES = {"patchwork": ("greedy", 0), "palace": ("shark", 1), "prestige_cities": ("greedy", 0),
         "dinosaurs": ("survivor", 1), "empire": ("detective", 0)}
# what each board draws for a player to act (none may show once the game is over)
ACTING = ".pw-to-move, .pw-side-acting, .pa-badge-turn, .pa-acting, .em-active, .hld-to-act, .hld-acting, .pc-choosing"
TURN_WORDS = re.compile(r"to move|is choosing|Your move|Waiting for|taking a turn|being chosen|answering a claim|"
                        r"· \S[^·]* plays|takes the first turn|waiting for the others|Choose your|choose a die", re.I)


def nobody_to_move(page, name: str, screenshot) -> None:
    """The board shows the hall's verdict and nobody to act; the page still fits the screen."""
    board = page.locator("#board")
    expect(board.locator("[data-verdict]")).to_contain_text("ended early")
    expect(board.locator(ACTING)).to_have_count(0)
    expect(page.locator("#turn-status")).to_contain_text("ended early")
    text = board.inner_text()
    assert not TURN_WORDS.search(text), TURN_WORDS.search(text)
    fits(page)
    screenshot(page, name)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_a_board_draws_nobody_to_move_after_its_player_resigned_in_another_tab(open_page, hall, screenshot,
                                                                                game, size):
    """Ana resigned from a game against bots in another tab ("My games"): this page watches now."""
    page = open_page("/")
    page.set_viewport_size(SIZES[size])
    bot, more = GAMES[game]
    code = seated_room(hall, page, game, [bot] * (1 + more))  # Ana against bots
    expect(page.locator("#board > *").first).to_be_visible()
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('parlour.room.{code}')).seat_token")
    resigned = httpx.post(f"{hall}/api/rooms/{code}/resign", headers=auth(token))
    assert resigned.json()["status"] == "over"  # left to bots alone
    expect(page.locator(".badge", has_text="watching")).to_be_visible()
    nobody_to_move(page, f"ended-early-resigned-{game}-{size}", screenshot)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_a_board_draws_nobody_to_move_after_the_players_voted_to_end_the_game(open_page, hall, screenshot,
                                                                               game, size):
    page = open_page("/")
    page.set_viewport_size(SIZES[size])
    bot, more = GAMES[game]
    code, ana, bo = two_people(hall, page, game, [bot] * more)
    for token in (ana["seat_token"], bo["seat_token"]):
        httpx.post(f"{hall}/api/rooms/{code}/vote", json={"motion": "end"}, headers=auth(token)).raise_for_status()
    assert httpx.get(f"{hall}/api/rooms/{code}").json()["status"] == "over"
    expect(page.locator("#turn-status")).to_contain_text("a draw")
    nobody_to_move(page, f"ended-early-voted-{game}-{size}", screenshot)
