"""GET /api/session: who is signed in on this browser, answered 200 to a guest too (null), so a
guest's pages ask without a 401 in the browser's console (issue 28.12)."""

from __future__ import annotations

PASSWORD = "correct horse battery"


def test_a_guest_is_answered_null_and_a_player_by_name(client):
    guest = client.get("/api/session")
    assert guest.status_code == 200 and guest.json() == {"player": None}
    assert client.post("/api/accounts", json={"name": "Ana", "password": PASSWORD}).status_code == 201
    assert client.get("/api/session").json() == {"player": {"name": "Ana", "kind": "human"}}
    assert client.delete("/api/session").status_code == 204
    client.cookies.clear()
    assert client.get("/api/session").json() == {"player": None}


def test_a_session_cookie_that_is_no_session_is_a_guest(client):
    client.cookies.set("parlour_session", "x" * 4000)
    answer = client.get("/api/session")
    assert answer.status_code == 200 and answer.json() == {"player": None}
