"""A hall people can trust (issue 30) in a real browser, at a laptop's size and a phone's: a player
blocks another from a chat line, reports one from their seat, a moderator bans from the queue and
the banned player sees why, and a friend's invitation reaches them. Screenshots: trust-*-desktop,
trust-*-phone (test-output/screenshots/)."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from hallserver import served_hall
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PASSWORD = "a long enough secret"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def trust_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A hall of this module's own, whose store's URL the test knows (to grant a moderator); it may
    spend all its time hashing passwords, as the session's hall does (conftest.py)."""
    db = tmp_path_factory.mktemp("trust") / "hall.sqlite3"
    with served_hall(db, "--limit", "hashing_share=100") as base:
        yield base, f"sqlite:///{db}"


def flag_pair(db: str, first: str, second: str, code: str) -> None:
    """Writes the flagged pair the ratings would (hall/ratings.py): ``first`` and ``second`` had two
    games of palace not rated, the latest in room ``code``."""
    engine = sa.create_engine(db)
    with engine.begin() as connection:
        ids = dict(connection.execute(sa.text("SELECT name, id FROM accounts WHERE name IN (:a, :b)"),
                                      {"a": first, "b": second}).all())
        now = time.time()
        connection.execute(sa.text("INSERT INTO flagged_pairs VALUES (:first, :second, 'palace', :since, :last, 2,"
                                   " :code)"), {"first": ids[first], "second": ids[second], "since": now - 3600,
                                                "last": now, "code": code})
    engine.dispose()


@pytest.fixture
def hall(trust_hall: tuple[str, str]) -> str:
    return trust_hall[0]


def person(open_page, browser, hall: str, name: str, size: str):
    """A page of a browser of its own, signed up as ``name``."""
    context = browser.new_context(viewport=SIZES[size], base_url=hall, is_mobile=size == "phone",
                                  has_touch=size == "phone")
    context.set_default_timeout(15_000)
    answer = context.request.post("/api/accounts", data={"name": name, "password": PASSWORD})
    assert answer.status == 201, answer.text()
    page = open_page("/me", context=context)
    return context, page


@pytest.mark.parametrize("size", SIZES)
def test_block_report_ban_and_invite_at_both_sizes(open_page, browser, trust_hall, screenshot, size):
    base, db = trust_hall
    tag = size[0].upper()  # the names of each size's run are their own: the store is the module's
    ana_name, cy_name, bo_name, mod_name = f"Ana{tag}", f"Cy{tag}", f"Bo{tag}", f"Mod{tag}"
    contexts = []
    try:
        ana_context, ana = person(open_page, browser, base, ana_name, size)
        cy_context, cy = person(open_page, browser, base, cy_name, size)
        bo_context, bo = person(open_page, browser, base, bo_name, size)
        mod_context, mod = person(open_page, browser, base, mod_name, size)
        contexts += [ana_context, cy_context, bo_context, mod_context]

        # Cy left a game before: a seat he left to a bot mid-game
        left = cy_context.request.post("/api/rooms", data={
            "game": "patchwork", "seats": [{"kind": "open"}, {"kind": "bot", "bot": "greedy"}], "take_seat": 0,
            "host_name": cy_name}).json()
        auth = {"Authorization": f"Bearer {left['host_token']}"}
        assert cy_context.request.post(f"/api/rooms/{left['code']}/start", headers=auth).status == 200
        assert cy_context.request.post(f"/api/rooms/{left['code']}/resign").status == 200  # he resigned

        # Ana's table of Palace, three seats; Cy takes one
        made = ana_context.request.post("/api/rooms", data={
            "game": "palace", "seats": [{"kind": "open"}] * 3, "take_seat": 0, "host_name": ana_name})
        assert made.status == 201, made.text()
        code = made.json()["code"]
        ana.evaluate("([code, token]) => localStorage.setItem(`parlour.room.${code}`, JSON.stringify("
                     "{host_token: token}))", [code, made.json()["host_token"]])
        joined = cy_context.request.post(f"/api/rooms/{code}/join", data={"name": cy_name})
        assert joined.status == 200, joined.text()
        ana.goto(f"/r/{code}")
        cy.goto(f"/r/{code}")
        expect(ana.locator(".seat-row.mine .seat-name")).to_have_text(ana_name)
        expect(cy.locator(".seat-row.mine .seat-name")).to_have_text(cy_name)

        # a block from a chat line: Cy's lines go, and the next ones never come, even after a reload
        cy.fill("#chat-text", "you play like a potato")
        cy.press("#chat-text", "Enter")
        rude = ana.locator(f'#chat-lines li[data-who="{cy_name}"]')
        expect(rude).to_have_count(1)
        rude.locator(".chat-more").click()
        expect(rude.locator(".do-block")).to_be_visible()
        screenshot(ana, f"trust-chat-menu-{size}", full_page=False)
        rude.locator(".do-block").click()
        expect(rude).to_have_count(0)
        cy.fill("#chat-text", "still here, potato")
        cy.press("#chat-text", "Enter")
        expect(cy.locator("#chat-lines li", has_text="still here, potato")).to_have_count(1)
        ana.fill("#chat-text", "hello, anyone?")
        ana.press("#chat-text", "Enter")
        expect(ana.locator("#chat-lines li", has_text="hello, anyone?")).to_have_count(1)
        expect(ana.locator("#chat-lines li", has_text="potato")).to_have_count(0)
        ana.reload()
        expect(ana.locator("#chat-lines li", has_text="hello, anyone?")).to_have_count(1)
        expect(ana.locator("#chat-lines li", has_text="potato")).to_have_count(0)
        screenshot(ana, f"trust-blocked-chat-{size}")

        # a report from Cy's seat
        seat = ana.locator('.seat-row[data-seat="1"]')
        expect(seat.locator(".badge-rep")).to_have_text("finishes 0%")  # his reputation, beside his name
        expect(seat.locator(".badge-rep")).to_have_attribute(
            "title", "Finishes 0% of their games (0 played to the end, 1 left: 1 resigned).")
        expect(ana.locator('.seat-row[data-seat="0"] .badge-rep')).to_have_count(0)  # none on one's own seat
        seat.locator(".seat-report").click()
        ana.fill("#report-reason", "insults in the chat")
        screenshot(ana, f"trust-report-seat-{size}", full_page=False)
        ana.locator("#report-box button[type=submit]").click()
        expect(ana.locator(".toast")).to_contain_text("a moderator will read your report")
        expect(ana.locator("#report-box")).to_have_count(0)

        # a moderator bans Cy from the queue; Cy's session ends and signing in says why
        refused = mod_context.request.get("/api/moderation/reports")
        assert refused.status == 403 and "moderators only" in refused.text()
        granted = subprocess.run([sys.executable, "-m", "parlour.cli", "admin", "grant", mod_name, "moderator",
                                  "--db", db], capture_output=True, text=True, timeout=60)
        assert granted.returncode == 0 and "is a moderator now" in granted.stdout, granted
        flag_pair(db, ana_name, bo_name, code)  # as the ratings flag two players who met too often
        mod.goto("/moderation")
        pair = mod.locator(".flagged-pair", has_text=ana_name)
        expect(pair).to_contain_text(f"{ana_name} and {bo_name} at palace: 2 games not rated")
        expect(pair.get_by_role("link", name=code)).to_have_attribute("href", f"/r/{code}")
        expect(pair.locator(".do-ban")).to_have_count(2)  # either player may be banned from here
        report = mod.locator(".report", has_text=cy_name)
        expect(report).to_have_count(1)
        expect(report.locator(".evidence li", has_text="potato")).to_have_count(2)  # the copy kept with it
        screenshot(mod, f"trust-moderation-queue-{size}")
        report.locator(".do-ban").click()
        expect(mod.locator(".toast")).to_contain_text("banned until")
        expect(mod.locator("#queue-empty")).to_be_visible()
        expect(mod.locator("#log-table tbody tr").first).to_contain_text(mod_name)
        expect(mod.locator("#log-table tbody tr").first).to_contain_text("ban")
        screenshot(mod, f"trust-moderation-log-{size}")
        cy.goto("/me")
        expect(cy.locator("#sign-in-link")).to_be_visible()  # the session ended at once
        cy.goto("/signin")
        cy.fill("#signin-name", cy_name)
        cy.fill("#signin-password", PASSWORD)
        cy.click("#signin-form button[type=submit]")
        refusal = cy.locator("#signin-form .form-error")
        expect(refusal).to_contain_text("banned from the hall until")
        expect(refusal).to_contain_text(re.compile(r"\d{4}, \d\d:\d\d UTC: insults in the chat"))
        screenshot(cy, f"trust-banned-{size}")

        # a friend's invitation: Ana follows Bo from his profile, invites him from her table, Bo sees it
        ana.goto(f"/players/{bo_name}")
        ana.click("#follow")
        expect(ana.locator(".toast")).to_contain_text(f"you follow {bo_name}")
        expect(ana.locator("#reputation")).to_have_text("No game finished or left yet.")
        screenshot(ana, f"trust-profile-{size}", full_page=False)
        ana.goto(f"/r/{code}")
        ana.fill("#invite-friend", bo_name)
        ana.locator(".invite-friend button[type=submit]").click()
        expect(ana.locator(".toast")).to_contain_text("will see your invitation")
        bo.goto("/")
        invitation = bo.locator("#notices .invitation")
        expect(invitation).to_contain_text(f"{ana_name} invites you to their table")
        expect(invitation.get_by_role("link", name="Join")).to_have_attribute("href", f"/r/{code}")
        screenshot(bo, f"trust-invitation-{size}", full_page=False)
        invitation.get_by_role("link", name="Join").click()
        bo.wait_for_url(f"**/r/{code}")
        expect(bo.locator("#join-as")).to_have_text(bo_name)  # signed in: he joins under his name
        bo.locator('.seat-row[data-seat="2"] button', has_text="Take this seat").click()
        expect(bo.locator(".seat-row.mine .seat-name")).to_have_text(bo_name)
        ana.goto("/me")
        expect(ana.locator("#friends-list .person")).to_contain_text(bo_name)
        expect(ana.locator("#friends-list .person")).to_contain_text(f"palace · {code}")  # where he sits
        expect(ana.locator("#blocks-list")).to_contain_text(cy_name)
        screenshot(ana, f"trust-me-{size}")
    finally:
        for context in contexts:
            context.close()
