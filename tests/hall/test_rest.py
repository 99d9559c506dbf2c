"""The lobby's REST API: catalogue, rooms, seats, tokens, start, pages and files."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from hallkit import OPEN, bot, host, join, new_room, started_room

from parlour.games import all_games
from parlour.hall import create_app
from parlour.hall.store import SqlStore
from parlour.hall.text import distinct_name
from parlour.hall.tokens import CODE_LETTERS


def test_catalogue_lists_each_game_with_options_seats_bots_and_urls(client):
    games = {g["id"]: g for g in client.get("/api/games").json()}
    patchwork = games["patchwork"]
    assert (patchwork["min_players"], patchwork["max_players"]) == (2, 2)
    assert patchwork["bots"][0] == "greedy" and "random" in patchwork["bots"]
    assert patchwork["rules_url"] == "/games/patchwork/rules"
    assert patchwork["renderer_url"] == "/games/patchwork/static/renderer.js"
    assert games["secrets"]["hidden_information"] is True


def test_the_openapi_schema_documents_the_rest_api(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/games", "/api/rooms", "/api/rooms/{code}", "/api/rooms/{code}/join",
                 "/api/rooms/{code}/seats/{seat}/bot", "/api/rooms/{code}/start",
                 "/api/rooms/{code}/replay", "/api/replays/frames"):
        assert path in paths


def test_create_room_gives_a_short_code_and_long_tokens(client):
    room = new_room(client, seats=[OPEN, bot()], host_name="Ana", take_seat=0)
    assert len(room["code"]) == 6 and set(room["code"]) <= set(CODE_LETTERS)
    assert len(room["host_token"]) >= 32 and len(room["seat_token"]) >= 32  # 192 bits, base64
    assert room["seat"] == 0
    status = client.get(f"/api/rooms/{room['code'].lower()}").json()
    assert status["status"] == "waiting" and status["turn"] == 0
    assert [(s["kind"], s["name"]) for s in status["seats"]] == [("human", "Ana"), ("bot", "greedy")]
    assert "seed" not in status


def test_bodies_that_do_not_parse_get_422_in_words(client):
    cases = [
        ({"game": "patchwork", "seats": [{"kind": "sofa"}]}, "kind"),
        ({"game": "patchwork"}, "seats"),
        ({"game": "patchwork", "seats": [OPEN, OPEN], "turn_timer": "soon"}, "turn_timer"),
        ({"game": "chess", "seats": [OPEN, OPEN]}, "no game 'chess'"),
        ({"game": "patchwork", "seats": [OPEN]}, "2 players"),
        ({"game": "patchwork", "seats": [OPEN, bot("deep-blue")]}, "no bot 'deep-blue'"),
        ({"game": "patchwork", "seats": [OPEN, OPEN], "options": {"speed": 3}}, "no option 'speed'"),
        ({"game": "patchwork", "seats": [OPEN, OPEN], "take_seat": 5, "host_name": "Ana"}, "seat 5"),
        ({"game": "patchwork", "seats": [OPEN, OPEN], "turn_timer": -1}, "turn timer"),
    ]
    for body, words in cases:
        answer = client.post("/api/rooms", json=body)
        assert answer.status_code == 422, body
        assert words in answer.json()["detail"], answer.json()
    assert client.get("/api/rooms").json() == []
    malformed = client.post("/api/rooms", content=b"{not json", headers={"content-type": "application/json"})
    assert malformed.status_code == 422 and "JSON" in malformed.json()["detail"]


def test_open_rooms_list_only_rooms_waiting_with_a_free_seat(client):
    waiting = new_room(client)
    full = new_room(client, seats=[OPEN, bot()], host_name="Ana", take_seat=0)
    codes = [r["code"] for r in client.get("/api/rooms").json()]
    assert codes == [waiting["code"]]
    assert full["code"] not in codes


def test_join_trims_names_keeps_html_as_plain_text_and_fills_the_first_open_seat(client):
    room = new_room(client)
    first = join(client, room["code"], "   Ana    Lee  ")
    second = join(client, room["code"], "<script>alert(1)</script>")
    assert (first["seat"], second["seat"]) == (0, 1) and first["seat_token"] != second["seat_token"]
    seats = client.get(f"/api/rooms/{room['code']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ana Lee", "<script>alert(1)</script>"]
    assert client.post(f"/api/rooms/{room['code']}/join", json={"name": "Cy"}).status_code == 409


def test_no_two_seats_of_a_room_go_by_one_name(client):
    room = new_room(client, "palace", [bot("shark"), bot("shark"), OPEN, OPEN, OPEN], host_name="Shark", take_seat=2)
    code = room["code"]
    join(client, code, "ana")
    join(client, code, "ANA")
    seats = client.get(f"/api/rooms/{code}").json()["seats"]
    assert [s["name"] for s in seats] == ["shark", "shark 2", "Shark 3", "ana", "ANA 2"]
    client.post(f"/api/rooms/{code}/seats/3/bot", json={"bot": "shark"}, headers=host(room["host_token"]))
    assert client.get(f"/api/rooms/{code}").json()["seats"][3]["name"] == "shark 4"
    assert distinct_name("x" * 32, ["x" * 32]) == "x" * 30 + " 2"  # still within the 32 characters


def test_join_refuses_bad_names_taken_and_unknown_seats_and_rooms(client):
    room = new_room(client)
    code = room["code"]
    for name, words in (("   ", "empty"), ("x" * 33, "at most 32"), ("a\x00b", "control")):
        answer = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert answer.status_code == 422 and words in answer.json()["detail"]
    join(client, code, "Ana", 1)
    taken = client.post(f"/api/rooms/{code}/join", json={"name": "Bo", "seat": 1})
    assert taken.status_code == 409 and "taken by Ana" in taken.json()["detail"]
    assert client.post(f"/api/rooms/{code}/join", json={"name": "Bo", "seat": 7}).status_code == 404
    unknown = client.post("/api/rooms/QQQQQQ/join", json={"name": "Bo"})
    assert unknown.status_code == 404 and "no room" in unknown.json()["detail"]
    assert client.get("/api/rooms/QQQQQQ").status_code == 404


def test_only_the_host_starts_and_not_while_a_seat_is_open(client):
    room = new_room(client)
    code = room["code"]
    seat = join(client, code, "Ana")
    assert client.post(f"/api/rooms/{code}/start").status_code == 403
    assert client.post(f"/api/rooms/{code}/start", headers=host(seat["seat_token"])).status_code == 403
    still_open = client.post(f"/api/rooms/{code}/start", headers=host(room["host_token"]))
    assert still_open.status_code == 409 and "seat(s) 1 still open" in still_open.json()["detail"]
    assert client.get(f"/api/rooms/{code}").json()["status"] == "waiting"


def test_host_gives_an_empty_seat_to_a_bot_then_starts(client):
    room = new_room(client)
    code = room["code"]
    join(client, code, "Ana")
    refused = client.post(f"/api/rooms/{code}/seats/1/bot", json={"bot": "greedy"})
    assert refused.status_code == 403
    unknown_bot = client.post(f"/api/rooms/{code}/seats/1/bot", json={"bot": "hal"},
                              headers=host(room["host_token"]))
    assert unknown_bot.status_code == 422 and "no bot 'hal'" in unknown_bot.json()["detail"]
    answer = client.post(f"/api/rooms/{code}/seats/1/bot", json={"bot": "greedy"}, headers=host(room["host_token"]))
    assert answer.status_code == 200 and answer.json()["seats"][1]["kind"] == "bot"
    started = client.post(f"/api/rooms/{code}/start", headers=host(room["host_token"])).json()
    assert started["status"] == "playing"
    again = client.post(f"/api/rooms/{code}/start", headers=host(room["host_token"]))
    assert again.status_code == 409


def test_the_replay_is_refused_while_the_game_runs(client):
    code, _, _ = started_room(client)
    answer = client.get(f"/api/rooms/{code}/replay")
    assert answer.status_code == 409 and "once the game is over" in answer.json()["detail"]


def test_replay_frames_of_an_uploaded_replay_file(client):
    actions = [[0, {"type": "skip"}], [1, {"type": "skip"}]]
    body = {"format": "parlour-replay/1", "game": "patchwork", "players": 2, "seed": 5, "names": ["A", "B"],
            "actions": actions}
    replay = client.post("/api/replays/frames", json=body).json()
    assert [f["turn"] for f in replay["frames"]] == [0, 1, 2]
    assert replay["frames"][1]["log"][0].startswith("A skipped ahead")
    assert replay["frames"][2]["view"]["players"][1]["time"] > 0
    bad = client.post("/api/replays/frames", json=dict(body, actions=[[1, {"type": "skip"}]]))
    assert bad.status_code == 422 and "does not replay" in bad.json()["detail"]


def test_pages_rules_and_game_files_are_served_and_nothing_outside_them(client):
    for path in ("/", "/r/ABCDEF", "/r/ABCDEF/replay", "/replay"):
        answer = client.get(path)
        assert answer.status_code == 200 and "text/html" in answer.headers["content-type"]
    rules = client.get("/games/patchwork/rules")
    assert rules.status_code == 200 and "Patchwork" in rules.text
    assert client.get("/games/patchwork/static/../engine.py").status_code == 404
    assert client.get("/games/patchwork/static/%2e%2e/engine.py").status_code == 404
    assert client.get("/games/chess/rules").status_code == 404


def test_a_room_page_written_in_lower_case_is_sent_to_its_code_in_capitals(client):
    for path, there in (("/r/abcDEF", "/r/ABCDEF"), ("/r/abcdef/replay?seat=1", "/r/ABCDEF/replay?seat=1")):
        answer = client.get(path, follow_redirects=False)
        assert answer.status_code == 308 and answer.headers["location"] == there
        assert client.get(path).status_code == 200
    odd = client.get("/r/%C3%A9vil%3F.com", follow_redirects=False)  # never a redirect off the hall
    assert odd.status_code == 308 and odd.headers["location"] == "/r/%C3%89VIL%3F.COM"


BANNED = ("TODO", "WIP", "{%", "{{", "http://", "https://", "www.", "SKIP command", "PLAY command", "stdin",
          "CodinGame")


def test_rules_pages_are_written_for_players(client):
    for game in [g for g in client.get("/api/games").json() if g["id"] in all_games()]:
        rules = client.get(game["rules_url"])
        assert rules.status_code == 200 and "text/html" in rules.headers["content-type"]
        assert f"<title>{game['name']} rules — Parlour</title>" in rules.text, game["id"]
        assert f'data-game="{game["id"]}"' in rules.text
        assert '<script type="module" src="/static/rules.js">' in rules.text
        text = rules.text[rules.text.index('<article class="rules"'):rules.text.index("</article>")]
        for word in BANNED:
            assert word not in text, (game["id"], word)
        for section in ('id="goal"', 'id="end"', 'id="hall"', "data-piece="):
            assert section in rules.text, (game["id"], section)
        assert "<script>" not in rules.text and " onclick=" not in rules.text  # no inline script
    # the rules documents stay in the packages as the specification, and are not what players see
    spec = (Path(__file__).parents[2] / "src/parlour/games/patchwork/spec.html").read_text(encoding="utf-8")
    assert "SKIP" in spec and "SKIP" not in client.get("/games/patchwork/rules").text




def test_a_seeded_hall_deals_the_same_rooms_in_the_same_order_and_an_unseeded_one_fresh(make_client, db_url,
                                                                                        games, clock):
    def first_deals(client) -> list[int]:
        hall = client.app.state.hall
        return [hall.rooms[new_room(client)["code"]].seed for _ in range(3)]

    seeded = first_deals(make_client())
    assert first_deals(make_client()) == seeded  # a restart on the same seed deals the same again
    assert len(set(seeded)) == 3
    store = SqlStore(db_url)
    try:
        with TestClient(create_app(store, games, clock)) as unseeded:
            assert set(first_deals(unseeded)).isdisjoint(seeded)
    finally:
        store.close()
