"""Web Push (hall/notify/push.py): VAPID keys made once and kept in the store, a browser's
subscription checked at the door, and alerts that reach a local stand-in for the push service
encrypted to the subscription's keys (decrypted here with them, as the browser would)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from notifykit import Browser, PushService, wait_for
from test_notify import bo_moves, notifications, settle, turn_based_with_bo
from test_players import sign_up

from parlour.hall.notify import NotifyConfig
from parlour.hall.notify.push import unb64url


@pytest.fixture
def push_service() -> Iterator[PushService]:
    with PushService() as service:
        yield service


@pytest.fixture
def make_hall(make_client: Callable[..., TestClient]) -> Callable[..., TestClient]:
    """A hall with Web Push (each call: a fresh app on the same store, a restart)."""

    def make(allow_local: bool = True) -> TestClient:
        return make_client(notify=NotifyConfig("http://hall.test", push_allow_local=allow_local))

    return make


def subscription(browser: Browser, endpoint: str) -> dict[str, Any]:
    return {"endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": browser.p256dh,
                                                                    "auth": _b64(browser.auth)}}


def _b64(raw: bytes) -> str:
    from parlour.hall.notify.push import b64url

    return b64url(raw)


def test_the_vapid_keys_are_made_once_and_kept_in_the_store(make_hall):
    first = make_hall()
    sign_up(first, "Ana")
    key = first.get("/api/me/notifications").json()["push_key"]
    assert len(unb64url(key)) == 65 and unb64url(key)[0] == 4  # an uncompressed P-256 point
    again = make_hall()  # a restart
    again.cookies.update(first.cookies)
    assert again.get("/api/me/notifications").json()["push_key"] == key


def test_your_turn_reaches_the_browser_encrypted_to_its_keys_with_the_halls_vapid_signature(make_hall, push_service):
    hall = make_hall()
    sign_up(hall, "Ana")
    browser = Browser()
    answer = hall.post("/api/me/push", json=subscription(browser, f"{push_service.url}/push/ana-1"))
    assert answer.status_code == 200 and answer.json()["push"] == 1, answer.text
    key = answer.json()["push_key"]
    code, bo = turn_based_with_bo(hall)
    bo_moves(hall, code, bo)
    path, headers, body = wait_for(lambda: push_service.received)[0]
    assert path == "/push/ana-1"
    message = browser.decrypt(body)
    assert message["title"] == f"Your turn in Patchwork (room {code})"
    assert message["url"] == f"http://hall.test/r/{code}" and "Bo" in message["body"]
    authorization = headers["authorization"]
    assert authorization.startswith("vapid t=") and f"k={key}" in authorization
    assert int(headers["ttl"]) > 0 and headers["content-encoding"] == "aes128gcm"


def test_a_gone_subscription_is_forgotten_when_the_push_service_says_so(make_hall, push_service):
    hall = make_hall()
    sign_up(hall, "Ana")
    hall.post("/api/me/push", json=subscription(Browser(), f"{push_service.url}/push/gone"))
    push_service.status = 410
    assert hall.post("/api/me/notifications/test").json() == {"queued": ["push"]}
    settle(hall)
    wait_for(lambda: hall.get("/api/me/notifications").json()["push"] == 0)
    assert notifications(hall).outbox.sent == 0


def test_bad_subscriptions_get_a_reason_and_change_nothing(make_hall, push_service):
    hall = make_hall(allow_local=False)
    sign_up(hall, "Ana")
    browser = Browser()
    good_keys = subscription(browser, "https://push.example.net/x")["keys"]
    cases = [({"endpoint": f"{push_service.url}/push/x", "keys": good_keys}, "https://"),
             ({"endpoint": "https://127.0.0.1/push", "keys": good_keys}, "not an address of this machine"),
             ({"endpoint": "https://localhost/push", "keys": good_keys}, "not an address of this machine"),
             ({"endpoint": "https://10.1.2.3/push", "keys": good_keys}, "private network"),
             ({"endpoint": "https://push.example.net/" + "x" * 3000, "keys": good_keys}, "2048"),
             ({"endpoint": "https://push.example.net/x", "keys": {**good_keys, "auth": "AAAA"}}, "16 bytes"),
             ({"endpoint": "https://push.example.net/x", "keys": {**good_keys, "p256dh": "!!"}}, "p256dh"),
             ({"endpoint": "https://push.example.net/x"}, "keys")]
    for body, words in cases:
        answer = hall.post("/api/me/push", json=body)
        assert answer.status_code == 422 and words in answer.json()["detail"], (body["endpoint"][:60], answer.text)
    assert hall.get("/api/me/notifications").json()["push"] == 0
    for n in range(5):
        assert hall.post("/api/me/push", json={"endpoint": f"https://push.example.net/{n}", "keys": good_keys}
                         ).status_code == 200
    sixth = hall.post("/api/me/push", json={"endpoint": "https://push.example.net/6", "keys": good_keys})
    assert sixth.status_code == 409 and "at most 5 browsers" in sixth.json()["detail"]
    assert hall.request("DELETE", "/api/me/push", json={"endpoint": None}).json()["push"] == 0


def test_a_hall_without_smtp_refuses_an_address_in_words_and_still_pushes(make_hall):
    hall = make_hall()
    sign_up(hall, "Ana")
    settings = hall.get("/api/me/notifications").json()
    assert settings["mail_available"] is False and settings["push_key"]
    answer = hall.put("/api/me/notifications", json={"email": "ana@example.org", "turns": True})
    assert answer.status_code == 422 and "sends no e-mail" in answer.json()["detail"]
    assert hall.get("/api/me/notifications").json() == settings
