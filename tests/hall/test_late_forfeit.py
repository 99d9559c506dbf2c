"""Issue 29, item 1: when a turn-based player's time runs out, the others may end the game with the
absent player last, a forfeit rated as one (hall/late.py's "forfeit" choice, carried out by the
players' vote to end the game: room/votes.py, room/leaving.py). Nothing happens by itself."""

from __future__ import annotations

from typing import Any

from hallkit import OPEN, Socket, host, join, new_room
from test_pace import DAY, status
from test_players import as_guest, seat_socket, sign_in, sign_up


def late_choice(client: Any, code: str, seat: int, token: str, choice: str = "forfeit") -> Any:
    return client.post(f"/api/rooms/{code}/late/{seat}", json={"choice": choice}, headers=host(token))


def signed_room(client: Any, game: str, names: tuple[str, ...]) -> tuple[str, list[str]]:
    """A started turn-based room (a day a move) whose seats are the signed-up accounts ``names``."""
    tokens: list[str] = []
    code = host_token = ""
    for seat, name in enumerate(names):
        as_guest(client)
        sign_up(client, name)
        if seat == 0:
            room = new_room(client, game, [OPEN] * len(names), pace="turn-based", turn_timer=DAY, take_seat=0)
            code, host_token = room["code"], room["host_token"]
            tokens.append(room["seat_token"])
        else:
            tokens.append(join(client, code, name, seat)["seat_token"])
    as_guest(client)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token)).raise_for_status()
    return code, tokens


def one_of_three_late(client: Any, clock: Any) -> tuple[str, list[str], int, int, int]:
    """A turn-based game of Palace between Ana, Bo and Cy, a day past the move of the one to act:
    (its code, the seat tokens, the late seat, the other two seats)."""
    code, tokens = signed_room(client, "palace", ("Ana", "Bo", "Cy"))
    clock.advance(DAY + 1)
    (late,) = status(client, code)["late"]
    bo, cy = [seat for seat in range(3) if seat != late]
    return code, tokens, late, bo, cy


def recent(client: Any, name: str) -> dict[str, Any]:
    return client.get(f"/api/players/{name}").json()["recent"][0]


def test_the_other_player_ends_the_game_with_the_late_player_last_rated_as_a_forfeit(client, clock):
    code, tokens = signed_room(client, "patchwork", ("Ana", "Bo"))  # Ana (seat 0) moves first
    with seat_socket(client, code, tokens[0]) as ana:  # her page is open; she just does not move
        ana.sync()
        early = late_choice(client, code, 0, tokens[1])
        assert early.status_code == 409 and "has not run out" in early.json()["detail"]
        clock.advance(DAY + 1)
        assert status(client, code)["status"] == "playing" and status(client, code)["late"] == [0]  # nothing by itself
        mine = late_choice(client, code, 0, tokens[0])
        assert mine.status_code == 403  # not the late player's own choice: she moves instead
        ended = late_choice(client, code, 0, tokens[1])
        assert ended.status_code == 200, ended.text
        assert ended.json()["status"] == "over"
        assert ended.json()["seats"][0]["left"] == "away" and ended.json()["seats"][1].get("left") is None
        final = ana.until(lambda s: s["result"] is not None)
    assert final["result"]["ranks"] == [2, 1] and final["to_act"] == [] and final["legal"] is None
    assert "Ana" in final["result"]["reason"]
    again = late_choice(client, code, 0, tokens[1])
    assert again.status_code == 409  # over: nothing more to decide
    sign_in(client, "Ana")
    ana_game, bo_game = recent(client, "Ana"), recent(client, "Bo")
    assert (ana_game["rank"], bo_game["rank"]) == (2, 1)
    # rated as a forfeit, as a seat taken from an absent player is (hall/ratings.py: unrewarded)
    assert ana_game["change"] < 0 and bo_game["change"] is None


def test_with_more_players_the_others_vote_and_nothing_ends_until_they_all_agree(client, clock):
    code, tokens, late, bo, cy = one_of_three_late(client, clock)
    proposed = late_choice(client, code, late, tokens[bo])
    assert proposed.status_code == 200, proposed.text
    assert proposed.json()["status"] == "playing"  # a vote of the others, not yet carried
    ballot = proposed.json()["vote"]
    assert ballot["motion"] == "end" and ballot["yes"] == [bo] and ballot["needed"] == sorted([bo, cy])
    with Socket(client, code) as watcher:
        watcher.hello()
        agreed = client.post(f"/api/rooms/{code}/vote", json={"motion": "end", "agree": True},
                             headers=host(tokens[cy]))
        assert agreed.status_code == 200, agreed.text
        final = watcher.until(lambda s: s["result"] is not None)
    ranks = final["result"]["ranks"]
    assert ranks[late] == 2 and ranks[bo] == ranks[cy] == 1
    assert final["room"]["seats"][late]["left"] == "away"


def test_a_late_player_who_moves_meanwhile_is_not_ended_by_the_vote(client, clock):
    code, tokens, late, bo, cy = one_of_three_late(client, clock)
    assert late_choice(client, code, late, tokens[bo]).status_code == 200  # proposed
    with seat_socket(client, code, tokens[late]) as mover:  # the late player moves after all
        assert mover.act(mover.sync()["legal"][0])["type"] == "ack"
    agreed = client.post(f"/api/rooms/{code}/vote", json={"motion": "end", "agree": True}, headers=host(tokens[cy]))
    # no longer late: the vote needs that player's yes too, and nobody is placed last
    assert agreed.status_code == 200 and agreed.json()["status"] == "playing", agreed.text
    assert late in agreed.json()["vote"]["needed"]
    assert all(seat.get("left") is None for seat in agreed.json()["seats"])


def test_in_a_turn_based_room_a_vote_stays_open_a_time_per_move_and_being_disconnected_is_not_absence(client, clock):
    code, tokens, late, bo, cy = one_of_three_late(client, clock)
    with Socket(client, code) as watcher:
        watcher.send({"type": "hello", "chat": True})
        watcher.expect("welcome")
        assert late_choice(client, code, late, tokens[bo]).status_code == 200
        said = []
        while not any("proposes" in text for text in said):
            message = watcher.receive()
            said += [line["text"] for line in message.get("lines", [])] if message["type"] == "chat" else []
    assert any("within 24 hours" in text for text in said), said
    clock.advance(DAY / 2)  # Cy, not connected for a day and a half, comes by: still theirs to say
    assert status(client, code)["vote"]["needed"] == sorted([bo, cy])
    agreed = client.post(f"/api/rooms/{code}/vote", json={"motion": "end", "agree": True}, headers=host(tokens[cy]))
    assert agreed.status_code == 200 and agreed.json()["status"] == "over", agreed.text
    assert [seat.get("left") for seat in agreed.json()["seats"]].count("away") == 1  # only the late one


def test_in_a_turn_based_room_only_a_late_seat_may_be_voted_or_handed_to_a_bot(client, clock):
    from parlour.hall.room.leaving import AWAY_GRACE

    code, tokens = signed_room(client, "patchwork", ("Ana", "Bo"))  # Ana moves first; nobody is connected
    clock.advance(AWAY_GRACE + 1)  # gone two minutes: in a live room the others could take her seat now
    vote = client.post(f"/api/rooms/{code}/vote", json={"motion": "bot", "seat": 0}, headers=host(tokens[1]))
    assert vote.status_code == 409 and "time to move has not run out" in vote.json()["detail"], vote.text
    ended = client.post(f"/api/rooms/{code}/vote", json={"motion": "end"}, headers=host(tokens[1]))
    assert ended.status_code == 200 and ended.json()["status"] == "playing"  # a draw needs her yes: not absent
    assert ended.json()["vote"]["needed"] == [0, 1]
    assert client.post(f"/api/rooms/{code}/vote", json={"motion": "end", "agree": False},
                       headers=host(tokens[1])).status_code == 200  # withdrawn
    clock.advance(DAY)
    with seat_socket(client, code, tokens[0]) as ana:  # late, with her page open
        ana.sync()
        taken = late_choice(client, code, 0, tokens[1], "bot")
        assert taken.status_code == 200, taken.text
        assert taken.json()["seats"][0]["kind"] == "bot" and taken.json()["seats"][0]["left"] == "away"
