"""Browser tests: Playwright drives Debian's Chromium through the real hall (`parlour serve`),
started on a free 127.0.0.1 port for the session. Screenshots go to test-output/screenshots/."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hallserver import served_hall

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).parents[2]
SCREENSHOTS = ROOT / "test-output" / "screenshots"
VIEWPORT = {"width": 1366, "height": 800}  # a laptop screen

sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)


@pytest.fixture(scope="session")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real hall on a fresh SQLite file."""
    # one hall for every browser test, which sign up dozens of people in a few minutes on a shared
    # machine: password hashing may take all of the hall's time (the budget's own tests are in
    # tests/hall/test_accounts_security.py)
    with served_hall(tmp_path_factory.mktemp("hall") / "hall.sqlite3", "--limit", "hashing_share=100") as base:
        yield base


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"), headless=True,
            args=["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run"])
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser, hall: str) -> Iterator[Callable[..., object]]:
    """open_page(path) -> a page in a fresh browser context (its own localStorage: one person).

    Any script error on any page fails the test."""
    contexts = []
    errors: list[str] = []

    def open_(path: str = "/", context=None):
        if context is None:
            context = browser.new_context(viewport=VIEWPORT, base_url=hall)
            context.set_default_timeout(10_000)
            contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        page.goto(path)
        return page

    yield open_
    for context in contexts:
        context.close()
    assert not errors, errors


@pytest.fixture
def screenshot() -> Callable[[object, str], Path]:
    """screenshot(page, "lobby") saves test-output/screenshots/lobby.png for a person to look at:
    the whole page, or with full_page=False what the screen shows."""
    def shoot(page, name: str, full_page: bool = True) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        if full_page:  # from the top: a page scrolled down shows its sticky header mid-picture
            page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(path), full_page=full_page)
        return path
    return shoot
