"""Issue 28: a socket whose seat was given up elsewhere (a resignation from another tab or "My
games") is told it watches (a ``welcome`` with no seat) before it is sent any state as a
spectator: a page drawing the spectator's view as the seat's would break (Palace's board did)."""

from __future__ import annotations

from hallkit import OPEN, bot, host, new_room
from test_players import seat_socket


def test_the_welcome_that_unseats_a_socket_comes_before_its_first_spectators_state(client):
    room = new_room(client, "palace", [OPEN, bot("shark"), bot("shark")], host_name="Ana", take_seat=0)
    code = room["code"]
    client.post(f"/api/rooms/{code}/start", headers=host(room["host_token"])).raise_for_status()
    with seat_socket(client, code, room["seat_token"]) as ana:
        assert ana.sync()["view"]["players"][0]["hand"] is not None  # her own hand: her seat's view
        seen = len(ana.received)
        answer = client.post(f"/api/rooms/{code}/resign", headers=host(room["seat_token"]))
        assert answer.status_code == 200 and answer.json()["status"] == "over"  # left to bots alone
        ana.until(lambda s: s["room"]["status"] == "over")
        ana.sync()
        after = [m for m in ana.received[seen:] if m["type"] in ("welcome", "state")]
        kinds = [m["type"] for m in after]
        assert "welcome" in kinds, kinds
        first_spectator = next(i for i, m in enumerate(after)
                               if m["type"] == "state" and m["view"]["players"][0]["hand"] is None)
        assert kinds.index("welcome") < first_spectator, kinds
        assert after[kinds.index("welcome")]["seat"] is None
