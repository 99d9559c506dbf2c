"""A hall that runs for months keeps in memory only the games that may still change or that
someone is looking at: finished games stay in the store and come back when asked for."""

from __future__ import annotations

from hallkit import Socket, finished_bot_game

from parlour.hall.hall import KEEP_FINISHED


def finished_game(client) -> tuple[str, dict]:
    """A game between two bots, played to its end: (code, its replay)."""
    code = finished_bot_game(client)
    return code, client.get(f"/api/rooms/{code}/replay").json()


def test_a_restarted_hall_loads_finished_games_only_when_asked_for(make_client):
    code, replay = finished_game(make_client())
    client = make_client()  # a restart on the same file
    hall = client.app.state.hall
    assert code not in hall.rooms
    status = client.get(f"/api/rooms/{code}").json()
    assert status["status"] == "over" and status["turn"] == len(replay["actions"])
    assert code in hall.rooms
    assert client.get(f"/api/rooms/{code}/replay").json() == replay
    with Socket(client, code) as watcher:
        watcher.hello(None)
        assert watcher.state["result"] == replay["result"] and watcher.state["turn"] == len(replay["actions"])


def test_a_finished_game_nobody_watches_is_let_go_and_comes_back(client, clock):
    code, replay = finished_game(client)
    hall = client.app.state.hall
    assert hall.sweep(clock.now()) == [] and code in hall.rooms  # just finished: kept a while
    with Socket(client, code) as watcher:
        watcher.hello(None)
        clock.advance(KEEP_FINISHED + 1)
        assert hall.sweep(clock.now()) == []  # someone is looking at it
    assert hall.sweep(clock.now()) == []  # they only just left
    clock.advance(KEEP_FINISHED)
    assert hall.sweep(clock.now()) == [code] and code not in hall.rooms
    assert client.get(f"/api/rooms/{code}/replay").json() == replay
    assert code in hall.rooms


def test_an_unknown_room_is_still_refused_in_words(client):
    for code in ("NOPE", "XXXXXX", "ÄÖÜÄÖÜ"):
        answer = client.get(f"/api/rooms/{code}")
        assert answer.status_code == 404 and "there is no room" in answer.json()["detail"]
