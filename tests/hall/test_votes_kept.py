"""Issue 28: the players' vote under way is kept with its room in the store, so a restart of the
process that applies the room (or, with PARLOUR_TEST_HALL=cluster, another process taking the room
over: a restarted app's first change takes the lease) carries it on: the vote is shown, counted and
carried out as before, and a vote decided or refused does not come back."""

from __future__ import annotations

import time

from hallkit import Socket, started_room
from test_leaving import PICK, vote

from parlour.hall.room.leaving import AWAY_GRACE
from parlour.hall.room.votes import VOTE_TIME


def test_a_vote_under_way_is_carried_on_after_a_restart(make_client, clock):
    client = make_client()
    code, tokens, _ = started_room(client, "secrets", ("Ana", "Bo", "Cy"))
    proposed = vote(client, code, tokens[0], "end")
    assert proposed.json()["vote"]["yes"] == [0]
    assert vote(client, code, tokens[1], "end").json()["vote"]["yes"] == [0, 1]
    restarted = make_client()
    shown = restarted.get(f"/api/rooms/{code}").json()["vote"]
    assert shown is not None, "the restart forgot the vote under way"
    assert (shown["motion"], shown["by"], shown["yes"], shown["until"]) == \
        ("end", 0, [0, 1], proposed.json()["vote"]["until"])
    again = vote(restarted, code, tokens[1], "end")  # counted before the restart: not twice
    assert again.status_code == 409 and "voted already" in again.json()["detail"]
    with Socket(restarted, code) as ana:
        ana.hello(tokens[0])
        passed = vote(restarted, code, tokens[2], "end")  # Cy's yes, the last needed
        assert passed.json()["status"] == "over", passed.text
        final = ana.until(lambda s: s["result"] is not None)
    assert final["result"]["ranks"] == [1, 1, 1] and "draw" in final["result"]["reason"]
    assert make_client().get(f"/api/rooms/{code}").json()["vote"] is None  # decided: never shown again


def test_a_vote_refused_or_lapsed_does_not_come_back_after_a_restart(make_client, clock):
    client = make_client()
    code, tokens, _ = started_room(client, "secrets", ("Ana", "Bo"))
    vote(client, code, tokens[0], "end").raise_for_status()
    assert vote(client, code, tokens[1], "end", agree=False).json()["vote"] is None
    restarted = make_client()
    assert restarted.get(f"/api/rooms/{code}").json()["vote"] is None
    vote(restarted, code, tokens[1], "end").raise_for_status()  # Bo proposes one himself
    clock.advance(VOTE_TIME + 1)
    again = make_client()
    assert again.get(f"/api/rooms/{code}").json()["vote"] is None  # it lapsed while the hall was away
    assert vote(again, code, tokens[0], "end").json()["vote"]["yes"] == [0]  # a new one may be proposed


def test_a_restored_vote_waiting_for_a_player_who_left_passes_once_they_have_been_gone_long_enough(make_client, clock):
    client = make_client()
    code, tokens, _ = started_room(client, "secrets", ("Ana", "Bo"))
    with Socket(client, code) as bo:
        bo.hello(tokens[1])
        assert bo.act(PICK)["type"] == "ack"
    time.sleep(0.3)  # Bo's socket closed: the hall hears of it on its own loop
    assert vote(client, code, tokens[0], "end").json()["vote"]["needed"] == [0, 1]
    restarted = make_client()  # counts Bo away from its own start (it never saw him)
    with Socket(restarted, code) as ana:
        ana.hello(tokens[0])
        assert ana.state["room"]["vote"]["needed"] == [0, 1]
        clock.advance(AWAY_GRACE)  # Bo never came back: the restored vote passes without a new click
        final = ana.until(lambda s: s["result"] is not None)
    assert final["result"]["ranks"] == [1, 2] and final["room"]["seats"][1]["left"] == "away"
