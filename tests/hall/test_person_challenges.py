"""Challenges between people (hall/challenges.py, web/challenges_api.py): a signed-in person
challenges another who is in the lobby (watching their challenges); the other accepts, and both sit
in the started game, or declines in words; every refusal in words, changing nothing, and the bounds."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_bot_accounts import BotProgram, in_background, make_bot
from test_players import PASSWORD, sign_up

from parlour.hall.errors import HallError
from parlour.hall.quotas import Limits

pytestmark = pytest.mark.timeout(60)


def session_of(client: TestClient, name: str) -> dict[str, str]:
    """A new account called ``name``; the Cookie header that signs it in (the client is left a guest)."""
    client.cookies.clear()
    sign_up(client, name)
    cookie = {"Cookie": f"parlour_session={client.cookies.get('parlour_session')}"}
    client.cookies.clear()
    return cookie


def incoming(client: TestClient, who: dict[str, str]) -> list[dict[str, Any]]:
    answer = client.get("/api/challenges/incoming", headers=who)
    assert answer.status_code == 200, answer.text
    return list(answer.json())


def wait_for_challenges(client: TestClient, who: dict[str, str], count: int = 1) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = incoming(client, who)
        if len(found) >= count:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{count} challenge(s) never arrived")


def challenge(client: TestClient, who: dict[str, str], opponent: str, **more: Any) -> Any:
    return client.post("/api/challenges", json={"opponent": opponent, "game": "secrets", **more}, headers=who)


def test_a_person_accepts_a_challenge_and_both_sit_in_the_started_game(client):
    ana, bo = session_of(client, "Ana"), session_of(client, "Bo")
    assert incoming(client, bo) == []  # Bo is in the lobby: challengeable from now on
    with in_background(lambda: challenge(client, ana, "Bo", turn_timer=30)) as out:
        [waiting] = wait_for_challenges(client, bo)
        assert (waiting["from"], waiting["game"], waiting["turn_timer"]) == ("Ana", "secrets", 30)
        accepted = client.post(f"/api/challenges/{waiting['id']}/accept", headers=bo)
    assert accepted.status_code == 200, accepted.text
    mine = out[0]
    assert mine.status_code == 201, mine.text
    bos, anas = accepted.json(), mine.json()
    assert bos["code"] == anas["code"] and {bos["seat"], anas["seat"]} == {0, 1}
    room = client.get(f"/api/rooms/{anas['code']}").json()
    assert room["status"] == "playing" and room["turn_timer"] == 30
    assert [room["seats"][anas["seat"]]["profile"], room["seats"][bos["seat"]]["profile"]] == ["Ana", "Bo"]
    assert all(seat["kind"] == "human" and "bot_account" not in seat for seat in room["seats"])
    assert incoming(client, bo) == []  # answered: gone
    with client.websocket_connect(f"/ws/rooms/{anas['code']}") as ws:  # each plays with their own seat token
        ws.send_json({"type": "hello", "token": bos["seat_token"]})
        assert ws.receive_json()["seat"] == bos["seat"]


def test_challenges_between_people_refused_in_words(client):
    ana, bo = session_of(client, "Ana"), session_of(client, "Bo")
    away = challenge(client, ana, "Bo")
    assert away.status_code == 409 and "not in the lobby" in away.json()["detail"]
    me = challenge(client, ana, "Ana")
    assert me.status_code == 409 and "that is you" in me.json()["detail"]
    assert challenge(client, ana, "Nobody").status_code == 404
    incoming(client, bo)
    bad_option = challenge(client, ana, "Bo", options={"colour": "red"})
    assert bad_option.status_code == 422 and "colour" in bad_option.text and incoming(client, bo) == []
    with in_background(lambda: challenge(client, ana, "Bo")) as out:
        [waiting] = wait_for_challenges(client, bo)
        assert client.post(f"/api/challenges/{waiting['id']}/decline", json={"reason": "not now"},
                           headers=bo).status_code == 204
    assert out[0].status_code == 409 and "Bo declined the challenge: not now" in out[0].json()["detail"]
    unknown = client.post("/api/challenges/nothing/accept", headers=bo)
    assert unknown.status_code == 409 and "no challenge" in unknown.json()["detail"]
    assert client.post(f"/api/challenges/{'x' * 33}/accept", headers=bo).status_code == 422
    assert client.post(f"/api/challenges/{waiting['id']}/decline", json={"reason": "x" * 101},
                       headers=bo).status_code == 422
    client.app.state.challenges.person_seconds = 0.3  # type: ignore[attr-defined]
    silent = challenge(client, ana, "Bo")
    assert silent.status_code == 409 and "did not answer within 0.3 seconds" in silent.json()["detail"]
    assert incoming(client, bo) == [] and client.get("/api/me/games", headers=ana).json()["playing"] == []
    assert client.get("/api/challenges/incoming").status_code == 401  # a guest has no challenges


def test_a_bot_account_takes_challenges_over_its_own_socket_only(client):
    token = make_bot(client)
    client.cookies.clear()
    client.post("/api/session", json={"name": "Deep", "password": PASSWORD})
    refused = client.get("/api/challenges/incoming")
    assert refused.status_code == 403 and "over /ws/bot" in refused.json()["detail"], refused.text
    client.cookies.clear()
    program = BotProgram(client, token)  # where it does take them
    assert program.ready(["secrets"])["type"] == "online"
    program.close()


def test_an_attacker_meets_the_bounds_of_a_persons_challenges(make_client):
    client = make_client(Limits(rest="1000/second", challenges="100/minute"))
    ana, bo = session_of(client, "Ana"), session_of(client, "Bo")
    incoming(client, bo)
    threads = [in_background(lambda: challenge(client, ana, "Bo")) for _ in range(8)]
    outs = [thread.__enter__() for thread in threads]
    waiting = wait_for_challenges(client, bo, 8)
    ninth = challenge(client, ana, "Bo")
    assert ninth.status_code == 409 and "8 challenges waiting" in ninth.json()["detail"]
    for each in waiting:
        assert client.post(f"/api/challenges/{each['id']}/decline", json={}, headers=bo).status_code == 204
    for thread in threads:
        thread.__exit__(None, None, None)
    assert all(out[0].status_code == 409 and "declined" in out[0].json()["detail"] for out in outs)


def test_whom_a_person_may_challenge_is_asked_before_anyone_is(client):
    """Challenges.may_challenge (wired where friends and blocks are known) refuses in words before
    the opponent is asked: no challenge waits, no room is made."""
    ana, bo = session_of(client, "Ana"), session_of(client, "Bo")
    incoming(client, bo)
    asked: list[tuple[str, str]] = []

    async def refuse(challenger: Any, opponent: Any) -> None:
        asked.append((challenger.name, opponent.name))
        raise HallError("conflict", f"{opponent.name} does not take challenges from you")

    client.app.state.challenges.may_challenge = refuse  # type: ignore[attr-defined]
    refused = challenge(client, ana, "Bo")
    assert refused.status_code == 409 and "Bo does not take challenges from you" in refused.json()["detail"]
    assert asked == [("Ana", "Bo")] and incoming(client, bo) == []
    assert client.get("/api/me/games", headers=ana).json()["playing"] == []
