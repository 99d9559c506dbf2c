"""A friend's invitation by mail and push (issue 30 on hall/notify/): only to a player who follows
the inviter back, as their settings allow ("invites"), at most 3 a day from one player to another,
and the inviter is never told whether it went; against a real SMTP server (aiosmtpd) and a local
stand-in for the push service, as tests/hall/test_notify.py and test_push.py do."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hallkit import CHEAP_ARGON2ID, HALL_SEED, OPEN, new_room
from notifykit import Browser, PushService, SmtpServer, body_of, wait_for
from test_notify import link_in, settle
from test_players import PASSWORD
from test_push import subscription
from test_trust import person

from parlour.hall import create_app
from parlour.hall.notify import NotifyConfig, SmtpConfig
from parlour.hall.quotas import Limits
from parlour.hall.store import SqlStore

pytestmark = pytest.mark.timeout(60)
BO = "bo@example.org"


@pytest.fixture
def hall(db_url: str, games: dict[str, Any], clock: Any) -> Iterator[tuple[TestClient, SmtpServer, PushService]]:
    """A hall that mails through a local SMTP server and pushes to a local push service."""
    with SmtpServer() as smtp, PushService() as push:
        store = SqlStore(db_url)
        mail = SmtpConfig.parse(f"smtp://127.0.0.1:{smtp.port}", "hall@parlour.test")
        config = NotifyConfig("http://hall.test", mail, push_allow_local=True)
        limits = Limits(rest="1000/second", joins="1000/minute", rooms="1000/minute")
        client = TestClient(create_app(store, games, clock, limits=limits, password_hasher=CHEAP_ARGON2ID,
                                       seed=HALL_SEED, notify=config))
        with client:
            yield client, smtp, push
        store.close()


def invitations_to(smtp: SmtpServer) -> list[Any]:
    return [mail for mail in smtp.mails_to(BO) if "invites you" in mail["Subject"]]


def test_an_invitation_goes_by_mail_and_push_only_to_a_friend_who_follows_back_as_they_allow(hall):
    client, smtp, push = hall
    ana, bo = person(client, "Ana"), person(client, "Bo")
    # Bo's address, confirmed, and one browser of his that takes push
    assert bo.put("/api/me/notifications", json={"email": BO}).json()["invites"] is True  # on unless turned off
    assert bo.get(link_in(wait_for(lambda: smtp.mails_to(BO))[-1], "/confirm")).status_code == 200
    browser = Browser()
    assert bo.post("/api/me/push", json=subscription(browser, f"{push.url}/push/bo")).json()["push"] == 1
    code = new_room(ana, "palace", [OPEN, OPEN, OPEN], take_seat=0, host_name="Ana")["code"]
    ana.put("/api/me/friends/Bo")

    # Ana follows Bo, who does not follow her: he sees it on his next page, and nothing reaches his inbox
    sent = ana.post("/api/me/invitations", json={"player": "Bo", "room": code})
    assert sent.status_code == 201, sent.text
    said = sent.json()
    settle(client)
    assert invitations_to(smtp) == [] and push.received == []
    assert [i["from"] for i in bo.get("/api/me/notices").json()["invitations"]] == ["Ana"]

    # once Bo follows her back, the same invitation reaches his inbox and his browser; Ana is told the same
    bo.put("/api/me/friends/Ana")
    again = ana.post("/api/me/invitations", json={"player": "Bo", "room": code})
    assert again.status_code == 201 and again.json() == said  # nothing says whether it went, nor where
    settle(client)
    mail = wait_for(lambda: invitations_to(smtp))[0]
    assert mail["Subject"] == "Ana invites you to play Palace"
    assert f"http://hall.test/r/{code}" in body_of(mail) and "/unsubscribe?" in body_of(mail)
    path, _, body = wait_for(lambda: push.received)[0]
    message = browser.decrypt(body)
    assert path == "/push/bo" and message["url"] == f"http://hall.test/r/{code}"
    assert message["body"] == f"Ana invites you to play Palace at their table (room {code})."

    # the same invitation, unseen yet, is not told twice
    assert ana.post("/api/me/invitations", json={"player": "Bo", "room": code}).status_code == 201
    settle(client)
    assert len(invitations_to(smtp)) == 1 and len(push.received) == 1

    # Bo turns invitations off: they wait on his next page, and go nowhere else
    assert bo.put("/api/me/notifications", json={"invites": False}).json()["invites"] is False
    bo.get("/api/me/notices")  # seen: a new one may come
    assert ana.post("/api/me/invitations", json={"player": "Bo", "room": code}).status_code == 201
    settle(client)
    assert len(invitations_to(smtp)) == 1 and len(push.received) == 1
    assert [i["from"] for i in bo.get("/api/me/notices").json()["invitations"]] == ["Ana"]

    # back on: at most 3 a day from Ana to Bo go by mail and push, however many she sends
    assert bo.put("/api/me/notifications", json={"invites": True}).json()["invites"] is True
    for _ in range(4):
        assert ana.post("/api/me/invitations", json={"player": "Bo", "room": code}).status_code == 201
        bo.get("/api/me/notices")
    settle(client)
    assert len(wait_for(lambda: len(invitations_to(smtp)) >= 3 and invitations_to(smtp))) == 3
    assert len(push.received) == 3


def test_the_invites_setting_is_a_yes_or_no_and_a_bad_one_changes_nothing(hall):
    client, _, _ = hall
    bo = person(client, "Bo")
    for bad in ("no", 0, [True]):
        answer = bo.put("/api/me/notifications", json={"invites": bad})
        assert answer.status_code == 422, answer.text
    for setting in ("invites", "turns", "daily"):  # null: the setting is left as it is (it was a 503)
        answer = bo.put("/api/me/notifications", json={setting: None})
        assert answer.status_code == 200, answer.text
    assert {k: v for k, v in bo.get("/api/me/notifications").json().items() if k in ("invites", "turns", "daily")
            } == {"invites": True, "turns": False, "daily": False}


def test_your_data_holds_your_address_and_alerts_and_deleting_the_account_forgets_them(hall, db_url):
    client, smtp, push = hall
    ana, bo = person(client, "Ana"), person(client, "Bo")
    bo.put("/api/me/notifications", json={"email": BO, "invites": False})
    assert bo.get(link_in(wait_for(lambda: smtp.mails_to(BO))[-1], "/confirm")).status_code == 200
    browser = Browser()
    bo.post("/api/me/push", json=subscription(browser, f"{push.url}/push/bo"))
    settle(client)
    data = bo.get("/api/me/data").json()
    assert data["notifications"] == {"email": BO, "confirmed": True, "turns": False, "daily": False, "invites": False,
                                     "push_browsers": [{"endpoint": f"{push.url}/push/bo",
                                                        "since": data["notifications"]["push_browsers"][0]["since"]}]}
    assert [(m["channel"], m["kind"]) for m in data["mail_and_push"]] == [("mail", "confirm")]
    assert ana.get("/api/me/data").json()["notifications"] is None  # nobody else's address, ever

    assert bo.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 200
    engine = sa.create_engine(db_url)
    with engine.connect() as connection:
        for table in ("notify_settings", "push_subscriptions"):
            assert connection.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar() == 0, table
        # the confirmation mail of the last day stays for the rates to count, its text gone
        kept = connection.execute(sa.text("SELECT recipient, kind, subject, body FROM outbox")).all()
    engine.dispose()
    assert [tuple(row) for row in kept] == [(BO, "confirm", "", "")]
