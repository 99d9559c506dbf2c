"""Issue 27, item 1: a replay file that costs a gigabyte. The work is bounded, not only the bytes:
an uploaded replay longer than its game's cap on actions is refused; frames come a page at a time
(``PAGE_MAX`` at most, made on a worker thread); each page is counted against the address's quota
by what it costs; a finished room's replay of any length is still served, paged."""

from __future__ import annotations

import random

from hallkit import finished_bot_game

from parlour.cli.bench_abuse import played_replay
from parlour.core.replays import PAGE_MAX, page_cost
from parlour.hall.quotas import Limits


def long_replay(client, moves: int) -> dict:
    """Palace by the rules before its repetition rule (edition 3), random moves, ``moves`` of them
    at most, as a replay file."""
    game = client.app.state.hall.games["palace"]
    rng, state, actions = random.Random(1), game.start(2, {"edition": 3}, 1), []
    while not game.is_over(state) and len(actions) < moves:
        seat = min(game.to_act(state))
        action = game.random_action(state, seat, rng)
        actions.append([seat, action])
        state = game.apply(state, seat, action)
    return {"format": "parlour-replay/1", "game": "palace", "players": 2, "options": {"edition": 3}, "seed": 1,
            "names": ["Ana", "Bo"], "actions": actions}


def test_a_replay_longer_than_its_games_cap_is_refused_before_any_frame_is_made(client, monkeypatch):
    game = client.app.state.hall.games["palace"]
    monkeypatch.setattr(type(game), "max_actions", 50)
    replay = long_replay(client, 51)
    answer = client.post("/api/replays/frames", json=replay)
    assert answer.status_code == 422 and "at most 50" in answer.json()["detail"]
    assert client.post("/api/replays/frames", json=dict(replay, actions=replay["actions"][:50])).status_code == 200


def test_frames_come_a_page_at_a_time(client):
    replay = long_replay(client, 450)
    total = len(replay["actions"]) + 1
    first = client.post("/api/replays/frames", json=replay).json()
    assert first["frames_start"] == 0 and first["frames_total"] == total and len(first["frames"]) == 100
    asked = client.post("/api/replays/frames", params={"start": 0, "count": 10_000}, json=replay)
    assert asked.status_code == 422  # a page holds PAGE_MAX at most
    pages, start = [], 0
    while start < total:
        page = client.post("/api/replays/frames", params={"start": start, "count": PAGE_MAX, "seat": 1},
                           json=replay).json()
        assert len(page["frames"]) <= PAGE_MAX and page["frames"][0]["turn"] == start
        pages += page["frames"]
        start += len(page["frames"])
    assert [frame["turn"] for frame in pages] == list(range(total))
    past = client.post("/api/replays/frames", params={"start": total}, json=replay)
    assert past.status_code == 422 and f"frames 0 to {total - 1}" in past.json()["detail"]


def test_replay_frames_are_counted_against_the_address_by_their_cost(make_client):
    client = make_client(Limits().with_settings(["replay_frames=300/minute"]))
    replay = played_replay()  # a whole Patchwork game, about 45 frames
    frames = len(replay["actions"]) + 1
    allowed = 300 // page_cost(0, frames)  # a page costs the frames it holds, not the 100 it may
    answers = [client.post("/api/replays/frames", json=replay).status_code for _ in range(allowed + 1)]
    assert answers == [200] * allowed + [429]
    assert allowed >= 2


def test_a_finished_room_over_its_games_cap_is_still_served_paged(client, monkeypatch):
    code = finished_bot_game(client)
    actions = client.get(f"/api/rooms/{code}/replay").json()["actions"]
    game = client.app.state.hall.games["patchwork"]
    monkeypatch.setattr(type(game), "max_actions", 10)  # a cap that came after the game was played
    turns = []
    start = 0
    while start <= len(actions):
        page = client.get(f"/api/rooms/{code}/replay", params={"start": start, "count": 7}).json()
        assert page["frames_total"] == len(actions) + 1 and len(page["frames"]) <= 7
        turns += [frame["turn"] for frame in page["frames"]]
        start += 7
    assert turns == list(range(len(actions) + 1))
