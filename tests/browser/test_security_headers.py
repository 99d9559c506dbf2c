"""The pages work under the hall's security headers (issue 13): a Content-Security-Policy that
allows no inline script and no framing by others, nosniff. Every page a person reaches is loaded
in Chromium, at a laptop's size and a phone's, and no policy violation may be reported."""

from __future__ import annotations

import httpx
import pytest

from parlour.games import all_games

pytestmark = pytest.mark.browser

SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
WATCH = """window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));"""


def bot_room(hall: str, game: str) -> str:
    """A started room of two bots (four in games of at least three), to watch."""
    players = max(2, all_games()[game].min_players)
    seats = [{"kind": "bot", "bot": "random"}] * players
    room = httpx.post(f"{hall}/api/rooms", json={"game": game, "seats": seats}).json()
    httpx.post(f"{hall}/api/rooms/{room['code']}/start", headers={"Authorization": f"Bearer {room['host_token']}"})
    return room["code"]


def test_the_headers_are_on_every_page_and_answer(hall):
    for path in ("/", "/api/games", "/static/ui.js", "/games/palace/rules", "/nowhere"):
        headers = httpx.get(f"{hall}{path}").headers
        policy = headers["content-security-policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_page_works_under_the_policy(browser, hall, size, screenshot):
    context = browser.new_context(viewport=SIZES[size], base_url=hall)
    context.set_default_timeout(10_000)
    context.add_init_script(WATCH)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))

    def console(message) -> None:
        if "Content Security Policy" in message.text:
            problems.append(f"{page.url}: {message.text}")

    page.on("console", console)
    try:
        page.goto("/")
        page.locator(".game-card, [data-game]").first.wait_for()
        screenshot(page, f"csp-lobby-{size}", full_page=False)
        for game in sorted(all_games()):
            page.goto(f"/r/{bot_room(hall, game)}")
            page.locator("#board > *").first.wait_for()
            if game == "patchwork":
                screenshot(page, f"csp-room-{game}-{size}", full_page=False)
            page.goto(f"/games/{game}/rules")
            assert page.locator("body").inner_text().strip()
            problems += [f"{page.url}: {v}" for v in page.evaluate("window.__violations")]
        page.goto("/replay")
        page.wait_for_load_state("networkidle")
        problems += [f"{page.url}: {v}" for v in page.evaluate("window.__violations")]
        # the policy bites, and this test sees it: an inline script is refused and reported
        page.remove_listener("console", console)
        page.evaluate("""() => { const s = document.createElement("script");
                                 s.textContent = "window.__ran = true"; document.head.append(s); }""")
        page.wait_for_function("window.__violations.length > 0")
        assert page.evaluate("window.__ran") is None
        assert page.evaluate("window.__violations")[0].startswith("script-src")
    finally:
        context.close()
    assert problems == []
