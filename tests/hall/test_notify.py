"""E-mail alerts (hall/notify/): an address confirmed by a link first, "your turn" at most once
per game until the player looks, the unsubscribe link, the rates, the durable outbox, STARTTLS
and login, the sweeper's passed deadlines and the daily summary, against a real SMTP server
(aiosmtpd) on a free loopback port."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient
from hallkit import OPEN, host, join, new_room
from notifykit import SmtpServer, body_of, wait_for
from test_metrics import sample, scrape
from test_players import as_guest, seat_socket, sign_in, sign_up

from parlour.hall.errors import HallError
from parlour.hall.notify import NotifyConfig, NotifyLimits, SmtpConfig

DAY = 86400
ANA = "ana@example.org"


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    with SmtpServer() as server:
        yield server


@pytest.fixture
def make_hall(make_client: Callable[..., TestClient], smtp: SmtpServer) -> Callable[..., TestClient]:
    """A hall that mails through ``smtp`` (each call: a fresh app on the same store, a restart)."""

    def make(limits: NotifyLimits | None = None, url: str | None = None) -> TestClient:
        config = NotifyConfig("http://hall.test", SmtpConfig.parse(url or f"smtp://127.0.0.1:{smtp.port}",
                                                                   "hall@parlour.test"),
                              push_allow_local=True, limits=limits or NotifyLimits())
        return make_client(notify=config)

    return make


@pytest.fixture
def hall(make_hall: Callable[..., TestClient]) -> TestClient:
    return make_hall()


def notifications(client: TestClient) -> Any:
    return client.app.state.notifications  # type: ignore[attr-defined]


def link_in(mail: Any, path: str) -> str:
    found = re.search(rf"http://hall\.test{re.escape(path)}\S*", body_of(mail))
    assert found, body_of(mail)
    return found.group(0).removeprefix("http://hall.test")


def confirmed(client: TestClient, smtp: SmtpServer, address: str = ANA) -> None:
    answer = client.put("/api/me/notifications", json={"email": address, "turns": True})
    assert answer.status_code == 200, answer.text
    mail = wait_for(lambda: smtp.mails_to(address))[-1]
    assert client.get(link_in(mail, "/confirm")).status_code == 200


def turn_based_with_bo(client: TestClient, ana_seat: int = 1) -> tuple[str, str]:
    """A started turn-based Patchwork room: Ana (signed in) and Bo (a guest, seat 0, who moves first)."""
    room = new_room(client, "patchwork", [OPEN, OPEN], pace="turn-based", turn_timer=DAY, take_seat=ana_seat)
    as_guest(client)
    bo = join(client, room["code"], "Bo", 0)["seat_token"]
    client.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"]))
    sign_in(client)
    return room["code"], bo


def bo_moves(client: TestClient, code: str, bo: str) -> None:
    cookies = dict(client.cookies)
    as_guest(client)
    socket = seat_socket(client, code, bo)
    assert socket.act(socket.sync()["legal"][0])["type"] == "ack"
    socket.close()
    client.cookies.update(cookies)


def settle(client: TestClient) -> None:
    """Sends whatever the outbox holds now (the loop would within a second)."""
    client.portal.call(notifications(client).outbox.send_due)  # type: ignore[union-attr]


def test_nothing_but_the_confirmation_link_goes_to_an_address_until_it_is_followed(hall, smtp):
    sign_up(hall, "Ana")
    answer = hall.put("/api/me/notifications", json={"email": " Ana@Example.org ", "turns": True})
    assert answer.status_code == 200, answer.text
    assert answer.json()["email"] == "Ana@example.org" and answer.json()["confirmed"] is False
    code, bo = turn_based_with_bo(hall)
    bo_moves(hall, code, bo)  # Ana's turn: but her address is not confirmed
    settle(hall)
    mails = wait_for(lambda: smtp.mails_to("Ana@example.org"))
    assert [m["Subject"] for m in mails] == ["Confirm your address for Parlour"]
    assert "List-Unsubscribe" not in mails[0]
    test = hall.post("/api/me/notifications/test")
    assert test.status_code == 409 and "not confirmed yet" in test.json()["detail"]
    link = link_in(mails[0], "/confirm")
    page = hall.get(link)
    assert page.status_code == 200 and "Address confirmed" in page.text
    assert hall.get("/api/me/notifications").json()["confirmed"] is True
    replayed = hall.get(link)
    assert replayed.status_code == 403 and "used already" in replayed.text
    assert hall.get("/api/me/notifications").json()["confirmed"] is True


def test_your_turn_goes_once_per_game_until_the_player_looks_and_never_for_a_live_game(hall, smtp):
    sign_up(hall, "Ana")
    confirmed(hall, smtp)
    code, bo = turn_based_with_bo(hall)
    bo_moves(hall, code, bo)
    mail = wait_for(lambda: [m for m in smtp.mails_to(ANA) if m["Subject"].startswith("Your turn")])[0]
    assert mail["Subject"] == f"Your turn in Patchwork (room {code})"
    assert f"http://hall.test/r/{code}" in body_of(mail) and "You have until" in body_of(mail)
    assert mail["List-Unsubscribe"].startswith("<http://hall.test/unsubscribe?")
    room = hall.portal.call(hall.app.state.hall.room, code)  # type: ignore[union-attr,attr-defined]
    notifier = notifications(hall).notifier
    seat = 1  # Ana's
    hall.portal.call(lambda: _asked(notifier, room, seat))  # asked again before she looked: nothing more
    settle(hall)
    assert len([m for m in smtp.mails_to(ANA) if m["Subject"].startswith("Your turn")]) == 1
    socket = seat_socket(hall, code)  # she looks (her seat, by her session)
    socket.sync()
    socket.close()
    wait_for(lambda: not hall.portal.call(hall.app.state.hall.store.alerted, room.seats[1].account, code))
    hall.portal.call(lambda: _asked(notifier, room, seat))
    wait_for(lambda: len([m for m in smtp.mails_to(ANA) if m["Subject"].startswith("Your turn")]) == 2)
    # a live game: no mail, whatever happens
    live = new_room(hall, "patchwork", [OPEN, OPEN], take_seat=1)
    as_guest(hall)
    bo_live = join(hall, live["code"], "Bo", 0)["seat_token"]
    hall.post(f"/api/rooms/{live['code']}/start", headers=host(live["host_token"]))
    sign_in(hall)
    bo_moves(hall, live["code"], bo_live)
    settle(hall)
    assert not [m for m in smtp.mails_to(ANA) if live["code"] in m["Subject"]]


async def _asked(notifier: Any, room: Any, seat: int) -> None:
    notifier.asked(room, [seat])


def test_the_unsubscribe_link_works_without_signing_in_and_only_for_its_address(hall, smtp):
    sign_up(hall, "Ana")
    confirmed(hall, smtp)
    assert hall.post("/api/me/notifications/test").json() == {"queued": ["mail"]}
    mail = wait_for(lambda: [m for m in smtp.mails_to(ANA) if "test alert" in body_of(m)])[0]
    link = link_in(mail, "/unsubscribe")
    as_guest(hall)
    sign_up(hall, "Bo")
    confirmed(hall, smtp, "bo@example.org")
    as_guest(hall)
    query = parse_qs(urlsplit(link).query)
    bo_id = query["a"][0] and str(int(query["a"][0]) + 1)  # Bo's account is the next one
    for forged in (f"/unsubscribe?a={bo_id}&t={query['t'][0]}", f"/unsubscribe?a={query['a'][0]}&t=0{query['t'][0]}",
                   "/unsubscribe?a=x&t=y"):
        refused = hall.post(forged)
        assert refused.status_code in (403, 422), forged
    sign_in(hall, "Bo")
    assert hall.get("/api/me/notifications").json()["email"] == "bo@example.org"  # Ana's link did nothing to Bo
    as_guest(hall)
    page = hall.get(link)
    assert page.status_code == 200 and "id=unsubscribe" in page.text  # a button; a GET changes nothing
    done = hall.post(link, content=b"List-Unsubscribe=One-Click",
                     headers={"content-type": "application/x-www-form-urlencoded"})
    assert done.status_code == 200 and ANA in done.text
    assert hall.post(link).status_code == 403  # used: the address is gone
    sign_in(hall, "Ana")
    assert hall.get("/api/me/notifications").json()["email"] is None


def test_bad_settings_get_a_reason_and_change_nothing(hall, smtp, clock):
    assert hall.put("/api/me/notifications", json={"email": ANA}).status_code == 401  # a guest has none
    sign_up(hall, "Ana")
    before = hall.get("/api/me/notifications").json()
    for body, words in (({"email": "not an address"}, "not an e-mail address"),
                        ({"email": "a@" + "b" * 300 + ".org"}, "at most"),
                        ({"turns": "yes"}, "turns"), ({"daily": True}, "give an e-mail address"),
                        ({"email": ANA, "extra": 1}, "extra")):
        answer = hall.put("/api/me/notifications", json=body)
        assert answer.status_code == 422 and words in answer.json()["detail"], (body, answer.text)
        assert hall.get("/api/me/notifications").json() == before
    hall.put("/api/me/notifications", json={"email": ANA})
    mail = wait_for(lambda: smtp.mails_to(ANA))[0]
    clock.advance(3 * DAY)
    expired = hall.get(link_in(mail, "/confirm"))
    assert expired.status_code == 403 and "expired" in expired.text
    assert hall.get("/api/me/notifications").json()["confirmed"] is False
    assert hall.get("/confirm?t=nonsense").status_code == 403
    hall.put("/api/me/notifications", json={"email": ANA})  # given again once expired: a new link
    fresh = wait_for(lambda: smtp.mails_to(ANA)[1:])[0]
    assert hall.get(link_in(fresh, "/confirm")).status_code == 200
    assert hall.get("/api/me/notifications").json()["confirmed"] is True


def test_the_notifiers_api_refuses_what_is_not_a_notification(hall, smtp):
    sign_up(hall, "Ana")
    confirmed(hall, smtp)
    notifier = notifications(hall).notifier
    account = hall.portal.call(hall.app.state.accounts.by_name, "Ana")[0].id  # type: ignore[attr-defined]
    for kind, text, link, words in (("invite!", "hi", "/r/X", "short word"), ("invite", "hi", "https://evil.example",
                                                                             "path of this hall"),
                                    ("invite", "hi", "//evil.example/x", "path of this hall"),
                                    ("invite", "x" * 2001, "/r/X", "at most 2000"),
                                    ("invite", "bell\a", "/r/X", "control characters")):
        with pytest.raises(HallError, match=words):
            hall.portal.call(notifier.notify, account, kind, text, link)
    assert hall.portal.call(notifier.notify, account, "invite", "Bo invites you\nto play", "/r/KUYWKA") == ["mail"]
    mail = wait_for(lambda: [m for m in smtp.mails_to(ANA) if m["Subject"] == "Bo invites you to play"])[0]
    assert "http://hall.test/r/KUYWKA" in body_of(mail)


def test_confirmation_links_to_one_address_are_rate_limited_whoever_asks(hall, smtp):
    target = "victim@example.org"
    for name in ("Ana", "Bo", "Cy", "Di"):
        as_guest(hall)
        sign_up(hall, name)
        answer = hall.put("/api/me/notifications", json={"email": target})
        if name == "Di":
            assert answer.status_code == 429 and "confirmation links a day" in answer.json()["detail"]
            assert hall.get("/api/me/notifications").json()["email"] is None  # nothing changed
        else:
            assert answer.status_code == 200, answer.text
    settle(hall)
    assert len(wait_for(lambda: smtp.mails_to(target))) == 3


def test_mail_to_a_player_stops_at_the_hourly_rate(make_hall, smtp):
    hall = make_hall(NotifyLimits(mail_per_player_hour=3))
    sign_up(hall, "Ana")
    confirmed(hall, smtp)  # the confirmation counts as one
    answers = [hall.post("/api/me/notifications/test") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 409, 409]
    settle(hall)
    assert len(wait_for(lambda: smtp.mails_to(ANA))) == 3


def test_mail_waits_in_the_outbox_through_a_failure_and_a_restart_and_no_move_waits_for_it(make_hall, smtp, clock):
    hall = make_hall()
    sign_up(hall, "Ana")
    confirmed(hall, smtp)
    code, bo = turn_based_with_bo(hall)
    before = scrape(hall).text
    smtp.controller.stop()  # the mail server goes away
    try:
        bo_moves(hall, code, bo)  # acknowledged at once all the same
        outbox = notifications(hall).outbox
        wait_for(lambda: outbox.failed >= 1)  # the loop tried, and failed
        # the operator sees it: a failure counted, the mail waiting in the outbox's gauge
        failed = scrape(hall).text
        assert sample(failed, "parlour_notifications_total", channel="mail", outcome="failed") >= \
            sample(before, "parlour_notifications_total", channel="mail", outcome="failed") + 1
        assert wait_for(lambda: sample(scrape(hall).text, "parlour_outbox_waiting", channel="mail") == 1)
    finally:
        smtp.back()
    hall = make_hall()  # a restart, the server back
    clock.advance(120)  # past the first retry's wait
    settle(hall)
    assert wait_for(lambda: [m for m in smtp.mails_to(ANA) if m["Subject"].startswith("Your turn")])
    sent = scrape(hall).text
    assert sample(sent, "parlour_notifications_total", channel="mail", outcome="sent") >= \
        sample(before, "parlour_notifications_total", channel="mail", outcome="sent") + 1
    assert sample(sent, "parlour_outbox_waiting", channel="mail") == 0


def test_starttls_and_login_when_the_url_asks_for_them(make_hall, tmp_path):
    with SmtpServer(tmp_path, login=("parlour", "s3cret pass")) as secure:
        hall = make_hall(url=f"smtp+starttls://parlour:s3cret%20pass@127.0.0.1:{secure.port}?verify=false")
        sign_up(hall, "Ana")
        hall.put("/api/me/notifications", json={"email": ANA})
        settle(hall)
        assert wait_for(lambda: secure.mails_to(ANA)) and secure.logins == ["parlour"]
    with pytest.raises(ValueError, match="in the clear"):
        SmtpConfig.parse("smtp://user:pw@127.0.0.1:25", "hall@parlour.test")


def test_the_sweeper_tells_the_others_when_a_deadline_passes_once_and_sends_the_daily_summary(hall, smtp, clock):
    sign_up(hall, "Ana")
    confirmed(hall, smtp)
    hall.put("/api/me/notifications", json={"daily": True})
    code, bo = turn_based_with_bo(hall, ana_seat=1)  # Bo (seat 0) must move first, and does not
    sweeper = notifications(hall).sweeper
    assert hall.portal.call(sweeper.overdue) == []
    clock.advance(DAY + 1)
    assert hall.portal.call(sweeper.overdue) == [code]
    assert hall.portal.call(sweeper.overdue) == []  # told once
    late = wait_for(lambda: [m for m in smtp.mails_to(ANA) if "time to move ran out" in body_of(m)])
    assert "Bo's time to move ran out" in body_of(late[0]) and hall.get(f"/api/rooms/{code}").json()["late"] == [0]
    bo_moves(hall, code, bo)  # Ana's turn now
    assert hall.portal.call(sweeper.summaries) == 1
    summary = wait_for(lambda: [m for m in smtp.mails_to(ANA) if m["Subject"] == "Your games waiting on Parlour"])
    assert f"http://hall.test/r/{code}" in body_of(summary[0])
    assert hall.portal.call(sweeper.summaries) == 0  # one a day
