"""A result's reason reaches people with the players' names in it, live and in the replay."""

from __future__ import annotations

from hallkit import Socket, started_room


def test_the_reason_names_the_player_live_and_in_the_replay(client):
    code, tokens, _ = started_room(client, "empire", ("Ana", "Bo"))
    with Socket(client, code) as ana:
        ana.hello(tokens[0])
        assert ana.act({"type": "accuse", "role": 1})["type"] == "ack"
        final = ana.until(lambda s: s["result"] is not None)
    reason = final["result"]["reason"]
    assert reason.startswith("Ana accused ") and reason.endswith(("rightly", "wrongly")), reason
    assert final["view"]["result"]["reason"].startswith("{p0} accused")  # a view knows no names
    assert client.get(f"/api/rooms/{code}/replay").json()["result"]["reason"] == reason
