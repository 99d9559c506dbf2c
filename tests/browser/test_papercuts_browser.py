"""A new player's papercuts (issue 28: items 3-10, 12), at a laptop's 1280 x 800 and on a 390 x 844
touch phone. Screenshots: papercut-<what>-<width> in test-output/screenshots/."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from hallserver import served_hall
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
SIZES = [pytest.param(LAPTOP, id="1280"), pytest.param(PHONE, id="390")]


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory):
    """A hall of this module's own: its tests pick seats and suspects in the games its rooms deal
    (--seed 2026: a room's deal follows from how many rooms the hall made before it), so they must
    not depend on how many rooms the other modules' tests made in the session's hall."""
    with served_hall(tmp_path_factory.mktemp("papercuts") / "hall.sqlite3", "--limit", "hashing_share=100") as base:
        yield base


@pytest.fixture
def device(browser, hall: str):
    """device(size) -> a browser context the size of `size`; the phone is a touch screen (no hover).
    The contexts are closed when the test ends."""
    contexts = []

    def open_(size: dict):
        phone = size is PHONE
        context = browser.new_context(viewport=size, base_url=hall, has_touch=phone, is_mobile=phone)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield open_
    for context in contexts:
        context.close()


def seated(hall: str, context, game: str, bots: list[str], start: bool = True, options: dict | None = None):
    """A page on a room of `game` with me (Ana) in seat 0 and `bots` in the others; script errors
    are collected in page.errors."""
    room = httpx.post(f"{hall}/api/rooms", json={
        "game": game, "options": options or {}, "host_name": "Ana", "take_seat": 0,
        "seats": [{"kind": "open"}] + [{"kind": "bot", "bot": bot} for bot in bots]}).json()
    remembered = {"seat": 0, "seat_token": room["seat_token"], "host_token": room["host_token"], "name": "Ana"}
    context.add_init_script(f"localStorage.setItem({json.dumps('parlour.room.' + room['code'])}, "
                            f"{json.dumps(json.dumps(remembered))})")
    if start:
        httpx.post(f"{hall}/api/rooms/{room['code']}/start", headers={"Authorization": f"Bearer {room['host_token']}"})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"/r/{room['code']}")
    return page


def edge_piece(page, right: int, top: int) -> None:
    """A small piece #edge-piece near the screen's right edge whose explanation is "A short one"."""
    page.evaluate("""([right, top]) => {
        const piece = document.createElement('div');
        piece.id = 'edge-piece';
        piece.style.cssText = `position: fixed; right: ${right}px; top: ${top}px; width: 16px; height: 16px`;
        piece.dataset.explain = 'A short one';
        document.body.append(piece);
    }""", [right, top])


def size_name(size: dict) -> str:
    return str(size["width"])


# --- 28.3: what a choice means, before it is made ---------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_a_dinosaur_shows_its_traits_and_a_disaster_its_text_before_the_choice(device, hall, screenshot, size):
    context = device(size)
    page = seated(hall, context, "dinosaurs", ["random"])
    choices = page.locator(".hld-choice")
    expect(choices.first).to_be_visible()
    for choice in choices.all():  # the traits are on the button, read without hover or tap
        expect(choice.locator(".hld-choice-traits")).to_be_visible()
        expect(choice.locator(".hld-choice-traits")).to_have_text(re.compile(r"[+-]\d \w+|no traits"))
    question = page.locator(".hld-question")
    expect(question).to_have_text("Choose your dinosaur")
    screenshot(page, f"papercut-dinosaur-choice-{size_name(size)}", full_page=False)
    first = choices.first
    if size is PHONE:  # a first tap shows what the choice means and makes nothing
        first.tap()
        tip = page.locator("#explain-tip")
        expect(tip).to_be_visible()
        expect(tip).to_contain_text("A trait is added")
        expect(tip).to_contain_text("Tap again to choose.")
        page.wait_for_timeout(300)
        expect(question).to_have_text("Choose your dinosaur")
        screenshot(page, "papercut-dinosaur-first-tap-390", full_page=False)
        first.tap()  # the second tap chooses
    else:
        first.click()
    expect(question).not_to_have_text("Choose your dinosaur")
    disaster = page.locator(".hld-disaster-card")
    expect(disaster).to_be_visible()
    expect(disaster.locator(".hld-effect")).to_contain_text("The lowest score of the round takes it.")
    screenshot(page, f"papercut-disaster-text-{size_name(size)}", full_page=False)
    assert not page.errors, page.errors


def test_in_every_game_a_first_tap_on_a_choice_explains_it_and_a_second_makes_it(device, hall, screenshot):
    """The same rule beyond the dinosaurs: Empire's "Income +1" on a phone."""
    context = device(PHONE)
    page = seated(hall, context, "empire", ["detective"])
    expect(page.locator(".em-board")).to_have_attribute("data-step", "turn")
    income = page.get_by_role("button", name=re.compile("^Income"))
    moves = page.locator("#log li:not(.log-empty)").count()
    income.tap()
    tip = page.locator("#explain-tip")
    expect(tip).to_contain_text("Income: take 1 coin from the bank.")
    expect(tip).to_contain_text("Tap again to choose.")
    page.wait_for_timeout(400)
    assert page.locator("#log li:not(.log-empty)").count() == moves  # nothing done yet
    screenshot(page, "papercut-empire-first-tap-390", full_page=False)
    income.tap()
    expect(page.locator("#log li:not(.log-empty)").nth(moves)).to_contain_text("Ana takes 1 coin")
    expect(tip).to_have_count(0)  # the choice made, its explanation goes
    assert not page.errors, page.errors


def test_a_resting_pointer_opens_no_explanation_over_the_next_question(device, hall, screenshot):
    context = device(LAPTOP)
    page = seated(hall, context, "dinosaurs", ["random"])
    first = page.locator(".hld-choice").first
    expect(first).to_be_visible()
    first.click()  # the mouse rests where the choice was: the Play buttons come there
    expect(page.locator(".hld-question")).to_contain_text("Point card")
    expect(page.locator(".hld-choice").first).to_be_visible()
    page.wait_for_timeout(600)
    expect(page.locator("#explain-tip")).to_have_count(0)
    screenshot(page, "papercut-resting-pointer-1280", full_page=False)
    box = page.locator(".hld-choice").nth(1).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # a real move still explains
    expect(page.locator("#explain-tip")).to_be_visible()
    assert not page.errors, page.errors


# --- 28.7: hints for the device in hand --------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_hints_speak_of_taps_on_a_touch_screen_and_of_keys_on_a_laptop(device, hall, screenshot, size):
    context = device(size)
    phone = size is PHONE
    page = seated(hall, context, "patchwork", ["greedy"])
    hint = page.locator(".pw-hint, #pw-hint").first
    expect(hint).to_contain_text("patch")
    text = hint.inner_text()
    if phone:
        assert "Tap" in text and "(S)" not in text and "1, 2, 3" not in text, text
    else:
        assert "(1, 2, 3 or click)" in text and "(S)" in text, text
    screenshot(page, f"papercut-hint-patchwork-{size_name(size)}", full_page=False)
    empire = seated(hall, context, "empire", ["detective"])
    expect(empire.locator(".em-notebook")).to_be_visible()
    expect(empire.locator(".em-keys")).to_have_count(0 if phone else 1)
    cities = seated(hall, context, "prestige_cities", ["random"])
    hint = cities.locator("#pc-hint")
    expect(hint).to_contain_text("Choose a die")
    assert ("(1-5)" in hint.inner_text()) != phone and ("tap" in hint.inner_text()) == phone, hint.inner_text()
    palace = seated(hall, context, "palace", ["shark"])
    expect(palace.locator("#pa-me")).to_be_visible()
    prompt = palace.locator("#pa-actions .pa-prompt")
    if prompt.count():
        assert ("Tab and Enter" in prompt.inner_text()) != phone, prompt.inner_text()
    for p in (page, empire, cities, palace):
        assert not p.errors, p.errors


# --- 28.5: Palace's face-downs on a phone; the verdict in view at the end -----------------------------
def test_palace_on_a_phone_lays_the_face_downs_on_a_row_of_their_own(device, hall, screenshot):
    context = device(PHONE)
    page = seated(hall, context, "palace", ["shark", "shark"])
    me = page.locator("#pa-me")
    expect(me.locator(".pa-table-cards")).to_be_visible()
    me.scroll_into_view_if_needed()
    labels = me.locator(".pa-table-cards .pa-label")
    ups, downs = labels.nth(0).bounding_box(), labels.nth(1).bounding_box()
    backs = me.locator(".pa-table-cards .pa-back")
    expect(backs).to_have_count(3)
    first_back = backs.first.bounding_box()
    assert abs(downs["x"] - ups["x"]) < 2, (ups, downs)  # "Face-downs" starts its own row...
    assert downs["y"] > ups["y"] + 10, (ups, downs)
    top, bottom = first_back["y"], first_back["y"] + first_back["height"]
    beside = top <= downs["y"] + downs["height"] and bottom >= downs["y"]
    assert beside, (downs, first_back)  # ...and its cards are beside it, not wrapped under another label
    screenshot(page, "papercut-palace-face-downs-390", full_page=False)
    assert not page.errors, page.errors


@pytest.mark.parametrize("size", SIZES)
def test_the_verdict_comes_into_view_at_the_end(device, hall, screenshot, size):
    context = device(size)
    page = seated(hall, context, "empire", ["detective"])
    expect(page.locator(".em-board")).to_have_attribute("data-step", "turn")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # looking elsewhere
    page.keyboard.press("n")
    page.keyboard.press("x")  # accuse at once: a win or a loss, the game is over
    verdict = page.locator("[data-verdict]")
    expect(verdict).to_be_visible()
    page.wait_for_timeout(300)
    top = page.locator(".topbar").bounding_box()
    box = verdict.bounding_box()
    assert box["y"] >= top["y"] + top["height"] - 1, (box, top)  # not under the sticky top bar
    assert box["y"] < size["height"] - 40, box  # on the screen
    screenshot(page, f"papercut-verdict-{size_name(size)}", full_page=False)
    assert not page.errors, page.errors


def test_patchwork_s_final_scores_come_out_from_under_the_top_bar_on_a_phone(device, hall, screenshot):
    context = device(PHONE)
    page = seated(hall, context, "patchwork", ["greedy"])
    log = page.locator("#log li:not(.log-empty)")
    for _ in range(400):  # the keyboard alone: skip ahead, and sew each special patch won
        page.wait_for_function("() => document.querySelector('.pw-my-turn') || document.getElementById('pw-final')")
        if page.locator("#pw-final").count():
            break
        before = log.count()
        page.keyboard.press("Enter" if page.locator(".pw-special-offer").count() else "s")
        page.wait_for_function("(n) => document.querySelectorAll('#log li:not(.log-empty)').length > n"
                               " || document.getElementById('pw-final')", arg=before)
    verdict = page.locator("#pw-final")
    expect(verdict).to_be_visible()
    page.wait_for_timeout(300)
    box, bar = verdict.bounding_box(), page.locator(".topbar").bounding_box()
    assert bar["y"] + bar["height"] - 1 <= box["y"] < PHONE["height"] - 40, (box, bar)
    screenshot(page, "papercut-patchwork-verdict-390", full_page=False)
    assert not page.errors, page.errors


# --- 28.5: the phone's top bar keeps a signed-in name and "Sign out" on one line ----------------------
@pytest.mark.parametrize("size", SIZES)
def test_the_top_bar_shows_a_signed_in_name_and_sign_out_on_one_line(device, hall, screenshot, size):
    context = device(size)
    page = context.new_page()
    page.goto("/signin")
    name = f"Bartholomew{size['width']}"
    page.fill("#signup-name", name)
    page.fill("#signup-password", "a long enough secret")
    page.click("#signup-form button[type=submit]")
    page.wait_for_url("**/me")
    for path in ("/", "/me", "/leaderboard"):
        page.goto(path)
        shown = page.locator("#account .account-name")
        expect(shown).to_be_visible()
        assert shown.bounding_box()["width"] >= 40, path  # at least a few letters of the name
        sign_out = page.locator("#sign-out")
        height = page.evaluate("(e) => parseFloat(getComputedStyle(e).lineHeight) || 20", sign_out.element_handle())
        assert sign_out.bounding_box()["height"] < 2 * height + 8, path  # "Sign out" on one line
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"], path
    # signed in, the create form asks for no name (28.4)
    page.goto("/")
    expect(page.locator("#signed-in-as")).to_have_text(name)
    expect(page.locator("#player-name")).to_have_count(0)
    screenshot(page, f"papercut-signed-in-lobby-{size_name(size)}", full_page=False)
    # nor does a waiting room's seat
    seats = [{"kind": "open"}, {"kind": "open"}]
    room = httpx.post(f"{hall}/api/rooms", json={"game": "empire", "options": {}, "host_name": "Ben",
                                                 "take_seat": 0, "seats": seats}).json()
    page.goto(f"/r/{room['code']}")
    expect(page.locator("#join-as")).to_have_text(name)
    expect(page.locator("#join-name")).to_have_count(0)
    page.get_by_role("button", name="Take this seat").click()
    expect(page.locator(".seat-row.mine .seat-name")).to_have_text(name)


# --- 28.8: no developer settings in the lobby ---------------------------------------------------------
def test_the_lobby_offers_no_rules_edition_and_names_the_bonus_cards(device, hall, screenshot):
    context = device(LAPTOP)
    page = context.new_page()
    page.goto("/")
    for game in ("prestige_cities", "palace"):
        page.click(f'.game-card[data-game="{game}"] button')
        expect(page.locator("#create form")).to_be_visible()
        expect(page.locator("#opt-edition")).to_have_count(0)
        expect(page.locator("#create")).not_to_contain_text("Rules edition")
    page.click('.game-card[data-game="prestige_cities"] button')
    page.locator("#create details.options").evaluate("(d) => { d.open = true; }")
    labels = page.locator("#opt-deck1 option").all_inner_texts()
    assert "Dealt at random" in labels and "Titan of Industry" in labels, labels
    assert not [label for label in labels if "_" in label], labels
    screenshot(page, "papercut-lobby-options-1280")


# --- 28.10: Empire's notebook explanation by its row, Empire's rules table within a phone -------------
def test_empire_notebook_explanation_sits_by_its_row(device, hall, screenshot):
    context = device(LAPTOP)
    page = seated(hall, context, "empire", ["detective"])
    expect(page.locator(".em-suspect").first).to_be_visible()  # the board, and its explanations, are there
    tip = page.locator("#explain-tip")
    # a short explanation at the screen's right edge first: the next one was measured there,
    # squeezed tall and thin, and placed that much above its row
    edge_piece(page, right=20, top=300)
    page.locator("#edge-piece").hover()
    expect(tip).to_have_text("A short one")
    for n in (14, 6, 0, 9):  # one row after another: each explanation just above or below its row
        row = page.locator(".em-suspect").nth(n)
        row.evaluate("(e) => e.scrollIntoView({ block: 'center' })")  # clear of the sticky top bar
        box = row.bounding_box()
        page.mouse.move(box["x"] + 30, box["y"] + box["height"] / 2)
        expect(tip).to_contain_text(row.locator(".em-suspect-name").inner_text())
        r, t = row.bounding_box(), tip.bounding_box()
        gap = max(r["y"] - (t["y"] + t["height"]), t["y"] - (r["y"] + r["height"]))
        assert 0 <= gap <= 12, (n, r, t)
        assert t["x"] <= box["x"] + 30 <= t["x"] + t["width"], (n, r, t)  # by the pointer
    screenshot(page, "papercut-empire-notebook-tip-1280", full_page=False)


def test_empire_notebook_explanation_on_a_phone_stays_by_its_row_or_goes(device, hall, screenshot):
    """A tap picks a suspect and brings the actions into view: an explanation left behind would
    stand far from its row."""
    context = device(PHONE)
    page = seated(hall, context, "empire", ["detective"])
    row = page.locator(".em-suspect").nth(9)
    expect(row).to_be_visible()  # the board, and its explanations, are there
    row.evaluate("(e) => e.scrollIntoView({ block: 'center' })")
    edge_piece(page, right=4, top=80)  # a short explanation at the screen's right edge, tapped first
    page.locator("#edge-piece").tap()
    expect(page.locator("#explain-tip")).to_have_text("A short one")
    row.tap()
    expect(page.locator(".em-suspect.em-picked")).to_have_count(1)
    page.wait_for_timeout(500)
    screenshot(page, "papercut-empire-notebook-tap-390", full_page=False)
    tip = page.locator("#explain-tip")
    expect(tip).to_contain_text("General (10)")
    if tip.count():
        r, t = page.locator(".em-suspect").nth(9).bounding_box(), tip.bounding_box()
        gap = max(r["y"] - (t["y"] + t["height"]), t["y"] - (r["y"] + r["height"]))
        assert 0 <= gap <= 12, (r, t)
    assert not page.errors, page.errors


def test_empire_rules_roles_table_fits_a_phone(device, hall, screenshot):
    context = device(PHONE)
    page = context.new_page()
    page.goto("/games/empire/rules")
    expect(page.locator("table").first).to_be_visible()
    page.wait_for_timeout(300)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    for table in page.locator("table").all():
        box = table.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, box
    screenshot(page, "papercut-empire-rules-390")


# --- 28.12: no 401 on a guest's page; presence grey when the connection is lost; labelled numbers -----
def test_a_guest_page_has_no_console_error(device, hall):
    context = device(LAPTOP)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
    page.on("response", lambda response: console.append(f"{response.status} {response.url}")
            if response.status >= 400 else None)
    for path in ("/", "/leaderboard", "/me"):
        page.goto(path)
        expect(page.locator("#sign-in-link")).to_be_visible()
    assert not console, console


GAMES = {"patchwork": (["greedy"], "points"), "empire": (["detective"], "coins"),
         "dinosaurs": (["random"], "points"), "prestige_cities": (["random"], "points"),
         "palace": (["shark"], "cards left")}


@pytest.mark.parametrize("game", list(GAMES))
def test_the_number_beside_each_name_says_what_it_counts(device, hall, game):
    context = device(PHONE)
    bots, label = GAMES[game]
    page = seated(hall, context, game, bots)
    scores = page.locator("#seats .seat-score")
    expect(scores).to_have_count(2)
    for score in scores.all():
        expect(score).to_have_text(re.compile(rf"^-?\d+ {label}$"))
    assert not page.errors, page.errors


def test_presence_dots_go_grey_when_the_connection_is_lost(device, hall, screenshot):
    context = device(LAPTOP)
    sockets, online = [], [True]

    def route(ws) -> None:  # the page's WebSocket, through a switch the test holds
        sockets.append(ws)
        if online[0]:
            ws.connect_to_server()
    page = seated(hall, context, "patchwork", ["greedy"])
    page.route_web_socket(re.compile(r"/ws/rooms/"), route)
    page.reload()
    dot = page.locator(".seat-row.mine .presence")
    expect(dot).to_have_class(re.compile(r"\bon\b"))
    green = dot.evaluate("(e) => getComputedStyle(e).color")
    online[0] = False
    sockets[-1].close()
    expect(page.locator("#offline-banner")).to_be_visible()
    screenshot(page, "papercut-presence-offline-1280", full_page=False)
    assert dot.evaluate("(e) => getComputedStyle(e).color") != green
    assert not page.errors, page.errors
