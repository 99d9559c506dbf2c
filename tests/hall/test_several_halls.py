"""Several `parlour serve --redis` processes sharing every room, as real processes on a throwaway
PostgreSQL and Redis, driven over REST and WebSocket as clients drive them (docs/scaling.md)."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from hallkit import OPEN, bot, host
from redis_server import RedisServer
from test_postgres import empty_database
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from parlour.cli.processes import free_port, start_server
from parlour.core.replays import frames
from parlour.games import all_games
from parlour.hall.store import SqlStore, room_leases_table

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]
WITHIN = 60.0  # seconds a test waits for what must happen before it calls it lost (not a timing test)
SKIP = {"type": "skip"}


class Halls:
    """``parlour serve`` processes on one PostgreSQL database and one Redis."""

    def __init__(self, db_url: str, redis_url: str, folder: Path) -> None:
        self.db_url, self.redis_url, self.folder = db_url, redis_url, folder
        self.ports: list[int] = []
        self.processes: list[subprocess.Popen[bytes]] = []
        self.logs: list[Path] = []  # each process's output, shown when a test fails

    def start(self, count: int, options: tuple[str, ...] = ()) -> None:
        """``count`` more processes, started at once; ``options``: more of ``parlour serve``'s for each."""
        if not self.processes:  # the store's schema brought up to date first, here, as no two halls may at once
            SqlStore(self.db_url).close()
        ports = [free_port() for _ in range(count)]
        logs = [self.folder / f"hall-{len(self.ports) + n}.log" for n in range(count)]

        def start(port: int, log: Path) -> subprocess.Popen[bytes]:
            return start_server(self.db_url, port, (
                "--no-client-quotas", "--redis", self.redis_url, "--bot-workers", "1", *options), log=log,
                env={"PARLOUR_CLUSTER_SECRET": "the halls' forwarding secret, outside the store"})

        with ThreadPoolExecutor(count) as starting:  # each waits for its process to answer
            futures = [starting.submit(start, port, log) for port, log in zip(ports, logs)]
        for future, port, log in zip(futures, ports, logs):
            if future.exception() is None:  # (those that started are stopped by close() whatever happens)
                self.processes.append(future.result())
                self.ports.append(port)
                self.logs.append(log)
        for future in futures:
            future.result()  # a process that did not start: its error

    def base(self, hall: int) -> str:
        return f"http://127.0.0.1:{self.ports[hall]}"

    def ws(self, hall: int, code: str) -> str:
        return f"ws://127.0.0.1:{self.ports[hall]}/ws/rooms/{code}"

    def owner(self, code: str) -> tuple[int, int]:
        """The hall that holds the room's lease now (by its port), and the lease's token."""
        engine = sa.create_engine(self.db_url)
        try:
            with engine.connect() as connection:
                row = connection.execute(sa.select(room_leases_table).where(room_leases_table.c.code == code)).one()
        finally:
            engine.dispose()
        port = int(row.owner.rsplit("/", 1)[0].rsplit(":", 1)[1])
        return self.ports.index(port), row.token

    def kill(self, hall: int) -> None:
        self.processes[hall].send_signal(signal.SIGKILL)
        self.processes[hall].wait()

    def close(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for hall, log in enumerate(self.logs):  # pytest shows it with a failure
            print(f"--- hall {hall} (port {self.ports[hall]}) ---\n{log.read_text(errors='replace')[-6000:]}")


@pytest.fixture
def halls(postgres_url: str, redis_server: RedisServer, tmp_path: Path) -> Iterator[Halls]:
    running = Halls(empty_database(postgres_url), redis_server.url, tmp_path)
    yield running
    running.close()


class Client:
    """One WebSocket of a room on one hall, keeping every state it was sent and the acks."""

    def __init__(self, url: str, token: str | None = None, chat: bool = False) -> None:
        self.url, self.token = url, token
        self.chat: dict[int, dict[str, Any]] = {}  # the chat lines it was sent, by number
        self.states: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.answers: dict[str, dict[str, Any]] = {}
        self._connection = connect(url, open_timeout=WITHIN)
        self.ws = self._connection.__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token, "chat": chat}))
        self.seat = self.next("welcome")["seat"]

    def receive(self, timeout: float) -> dict[str, Any] | None:
        try:
            message = json.loads(self.ws.recv(timeout=timeout))
        except TimeoutError:
            return None
        if message["type"] == "state":
            assert 0 <= message["log_start"] <= len(self.log)
            self.log = self.log[:message["log_start"]] + message["log"]
            self.state = {**message, "log": list(self.log)}
            self.states.append(self.state)
        elif message["type"] in ("ack", "error") and message.get("id") is not None:
            self.answers[message["id"]] = message
        elif message["type"] == "chat":
            self.chat.update((line["n"], line) for line in message["lines"])
        return message

    def next(self, kind: str) -> dict[str, Any]:
        deadline = time.monotonic() + WITHIN
        while time.monotonic() < deadline:
            message = self.receive(1.0)
            if message is not None and message["type"] == kind:
                return message
        raise AssertionError(f"no {kind} message within {WITHIN}s")

    def until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + WITHIN
        while self.state is None or not done(self.state):
            assert time.monotonic() < deadline, f"no state came that satisfied the condition ({self.state})"
            self.receive(0.5)
        return self.state

    def act(self, action: dict[str, Any], message_id: str) -> dict[str, Any]:
        """Send ``action`` against the newest state; the ack or error for it."""
        assert self.state is not None
        self.ws.send(json.dumps({"type": "act", "id": message_id, "turn": self.state["turn"], "action": action}))
        deadline = time.monotonic() + WITHIN
        while message_id not in self.answers:
            assert time.monotonic() < deadline, f"no answer to {message_id} within {WITHIN}s"
            self.receive(1.0)
        return self.answers[message_id]

    def close(self) -> None:
        self._connection.__exit__(None, None, None)


def new_game(halls: Halls, seats: tuple[int, int], game: str = "patchwork", **body: Any) -> tuple[str, list[str]]:
    """A started room made on hall 0, its two players joined on the halls ``seats`` names."""
    room = httpx.post(f"{halls.base(0)}/api/rooms", json={"game": game, "seats": [OPEN, OPEN], **body},
                      timeout=WITHIN).json()
    tokens = []
    for name, hall in zip(("Ana", "Bo"), seats):
        joined = httpx.post(f"{halls.base(hall)}/api/rooms/{room['code']}/join", json={"name": name}, timeout=WITHIN)
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["seat_token"])
    started = httpx.post(f"{halls.base(seats[1])}/api/rooms/{room['code']}/start",
                         headers=host(room["host_token"]), timeout=WITHIN)
    assert started.status_code == 200, started.text
    return room["code"], tokens


class Game:
    """Two players of a room, each on its own hall, playing whenever their seat must act (a skip if
    they may, else their first legal action), remembering every acknowledged action by its turn."""

    def __init__(self, players: list[Client]) -> None:
        self.players = players
        self.acked: dict[int, dict[str, Any]] = {}  # the room's turn after the action -> the action
        self.refused: list[dict[str, Any]] = []
        self._ids = 0

    def step(self) -> bool:
        """One action by whoever must act (after reading what came); False once the game is over."""
        for player in self.players:
            while player.receive(0.05) is not None:
                pass
        for player in self.players:
            state = player.state
            if state is None:
                continue
            if state["room"]["status"] == "over":
                return False
            if state["legal"]:
                action = SKIP if SKIP in state["legal"] else state["legal"][0]
                self._ids += 1
                answer = player.act(action, f"m{self._ids}")
                if answer["type"] == "ack":
                    self.acked[answer["turn"]] = action
                else:  # stale, not your turn: a newer state is on its way; retry: the room moved
                    assert answer["code"] in ("stale", "not_your_turn", "retry"), answer
                    self.refused.append(answer)
        return True

    def play(self, moves: int | None = None) -> None:
        """Until the game is over, or ``moves`` more actions were acknowledged."""
        goal = None if moves is None else len(self.acked) + moves
        deadline = time.monotonic() + WITHIN * 2
        while (goal is None or len(self.acked) < goal) and self.step():
            assert time.monotonic() < deadline, f"the game did not go on ({len(self.acked)} actions acknowledged)"


def stored(halls: Halls, code: str) -> Any:
    store = SqlStore(halls.db_url)
    try:
        return store.load_room(code)
    finally:
        store.close()


def assert_every_ack_is_stored_once(halls: Halls, code: str, acked: dict[int, dict[str, Any]]) -> Any:
    record = stored(halls, code)
    assert [a.turn for a in record.actions] == list(range(len(record.actions)))  # one action a turn, no gap
    actions = {a.turn + 1: a.action for a in record.actions}
    for turn, action in acked.items():
        assert actions.get(turn) == action, f"acknowledged turn {turn} is not in the store as acknowledged"
    return record


def test_two_processes_play_one_room_to_the_end_and_a_third_one_shows_every_state_in_order(halls):
    halls.start(3)
    code, tokens = new_game(halls, seats=(0, 1))
    ana, bo = Client(halls.ws(0, code), tokens[0]), Client(halls.ws(1, code), tokens[1])
    spectator = Client(halls.ws(2, code))
    game = Game([ana, bo])
    game.play()
    record = assert_every_ack_is_stored_once(halls, code, game.acked)
    assert record.status == "over" and len(game.acked) == len(record.actions)  # every action acknowledged
    last = spectator.until(lambda state: state["room"]["status"] == "over")
    # every state the spectator was shown is a committed state of the game, in the order played
    patchwork = all_games()["patchwork"]
    shown = frames(patchwork, {"players": 2, "options": record.options, "seed": record.seed,
                               "names": ["Ana", "Bo"], "actions": [[a.seat, a.action] for a in record.actions]})
    turns = [state["turn"] for state in spectator.states]
    assert turns == sorted(turns) and turns[-1] == len(record.actions)
    for state in spectator.states:
        assert state["view"] == shown[state["turn"]]["view"]
    assert [line["text"] for line in last["log"]] == [line for frame in shown for line in frame["log"]]
    for client in (ana, bo, spectator):
        client.close()


def test_every_change_asked_of_another_process_is_made_by_the_owner_chat_seats_start_and_rematch(halls):
    halls.start(2)
    room = httpx.post(f"{halls.base(1)}/api/rooms", json={"game": "patchwork", "seats": [OPEN, OPEN], "take_seat": 0,
                      "host_name": "Ana"}, timeout=WITHIN).json()
    code, headers = room["code"], host(room["host_token"])
    assert httpx.post(f"{halls.base(0)}/api/rooms/{code}/join", json={"name": "Bo"}, timeout=WITHIN).status_code == 200
    assert halls.owner(code)[0] == 0  # the first process asked to change the room took it
    ana = Client(halls.ws(1, code), room["seat_token"], chat=True)
    spectator = Client(halls.ws(0, code), chat=True)
    spectator.ws.send(json.dumps({"type": "chat", "text": "hello from hall 0", "name": "Cy"}))
    ana.ws.send(json.dumps({"type": "chat", "text": "hello from hall 1"}))
    given = httpx.post(f"{halls.base(1)}/api/rooms/{code}/seats/1/bot", json={"bot": "random"}, headers=headers,
                       timeout=WITHIN)  # Bo never came: the host gives the seat to a bot
    assert given.status_code == 200 and given.json()["seats"][1]["kind"] == "bot", given.text
    assert httpx.post(f"{halls.base(1)}/api/rooms/{code}/start", headers=headers, timeout=WITHIN).status_code == 200
    game = Game([ana])  # against the bot, which plays at the owner
    game.play()
    record = assert_every_ack_is_stored_once(halls, code, game.acked)
    assert record.status == "over" and halls.owner(code)[0] == 0
    offered = httpx.post(f"{halls.base(1)}/api/rooms/{code}/rematch", headers=host(room["seat_token"]),
                         timeout=WITHIN)
    assert offered.status_code == 201, offered.text
    again = offered.json()
    assert httpx.get(f"{halls.base(0)}/api/rooms/{code}", timeout=WITHIN).json()["rematch"] == again["code"]
    seats = httpx.get(f"{halls.base(0)}/api/rooms/{again['code']}", timeout=WITHIN).json()["seats"]
    assert [(seat["kind"], seat["name"]) for seat in seats] == [("bot", "random"), ("human", "Ana")]
    said = ["Ana took seat 1", "Bo took seat 2", "a bot (random) took over Bo's seat", "the game started",
            "Ana offers a rematch"]
    for client in (ana, spectator):  # one chat, numbered once, whichever process each line was said at
        deadline = time.monotonic() + WITHIN
        while len(client.chat) < len(said) + 2:
            assert time.monotonic() < deadline, f"the chat lines did not all come: {client.chat}"
            client.receive(0.5)
        assert sorted(client.chat) == list(range(len(said) + 2))
        texts = [line["text"] for _, line in sorted(client.chat.items())]
        assert [text for text in texts if not text.startswith("hello")] == said
        assert {"hello from hall 0", "hello from hall 1"} <= set(texts)
        client.close()


def test_sigkill_of_the_owner_mid_game_the_room_goes_on_from_another_process_with_every_ack(halls):
    halls.start(3)
    code, tokens = new_game(halls, seats=(0, 1))
    owner, token = halls.owner(code)
    # a room of a bot and a player who never moves, played by the turn timer: nobody's client acts
    timed = httpx.post(f"{halls.base(2)}/api/rooms", json={"game": "patchwork", "seats": [OPEN, bot("random")],
                       "turn_timer": 1, "take_seat": 0, "host_name": "Cy"}, timeout=WITHIN).json()
    httpx.post(f"{halls.base(owner)}/api/rooms/{timed['code']}/start", headers=host(timed["host_token"]),
               timeout=WITHIN).raise_for_status()
    assert halls.owner(timed["code"])[0] == owner
    clients = [Client(halls.ws(hall, code), tokens[seat]) for seat, hall in enumerate((0, 1))]
    game = Game(clients)
    game.play(moves=10)
    survivor = next(hall for hall in range(3) if hall != owner)
    watcher = Client(halls.ws(survivor, timed["code"]))
    halls.kill(owner)  # SIGKILL, moves in flight
    timed_turns = len(stored(halls, timed["code"]).actions)  # all the dead owner committed of the timed room
    for seat, client in enumerate(clients):
        if client.url.startswith(f"ws://127.0.0.1:{halls.ports[owner]}/"):
            with pytest.raises(ConnectionClosed):
                while True:
                    client.receive(1.0)
            clients[seat] = Client(halls.ws(survivor, code), tokens[seat])  # the proxy's fail-over, by hand
    game.players = clients
    game.play()
    assert_every_ack_is_stored_once(halls, code, game.acked)
    new_owner, new_token = halls.owner(code)
    assert new_owner != owner and new_token > token
    # the timed room goes on from another process though no client acts in it: four turns past all that
    # its dead owner committed (played meanwhile, while the other game went on)
    watcher.until(lambda state: state["turn"] >= timed_turns + 4)
    assert halls.owner(timed["code"])[0] != owner
    for client in (*clients, watcher):
        client.close()


def test_a_paused_owner_that_lost_its_room_cannot_commit_the_move_it_was_sent(halls):
    """The race forced: the owner is stopped (SIGSTOP) with its lease running out, another process
    takes the room over, a move reaches the old owner while it is stopped, and it is let go on
    (SIGCONT) still believing it holds the room. Its commit fails the fencing check: the move is
    refused with a retry, or forwarded to the new owner; never applied by both."""
    halls.start(2)
    code, tokens = new_game(halls, seats=(0, 1))
    owner, token = halls.owner(code)
    other = 1 - owner
    clients = [Client(halls.ws(hall, code), tokens[seat]) for seat, hall in enumerate((0, 1))]
    game = Game(clients)
    game.play(moves=6)
    at_owner = clients[owner]
    while True:  # until the owner's player is to act, in the newest state (the other one moves meanwhile)
        turns = len(stored(halls, code).actions)
        # patchwork hides nothing: the turns a seat saw are the room's
        state = at_owner.until(lambda state, turns=turns: state["turn"] == turns)
        if state["legal"]:
            break
        game.step()
    halls.processes[owner].send_signal(signal.SIGSTOP)
    try:
        deadline = time.monotonic() + WITHIN
        while halls.owner(code)[1] == token:  # the other process takes the room when the lease runs out
            assert time.monotonic() < deadline, "nobody took the room over"
            time.sleep(0.2)
        assert halls.owner(code) == (other, token + 1)
        action = SKIP if SKIP in state["legal"] else state["legal"][0]
        at_owner.ws.send(json.dumps({"type": "act", "id": "late", "turn": state["turn"], "action": action}))
    finally:
        halls.processes[owner].send_signal(signal.SIGCONT)
    deadline = time.monotonic() + WITHIN
    while "late" not in at_owner.answers:
        assert time.monotonic() < deadline, "the late move got no answer"
        at_owner.receive(1.0)
    answer = at_owner.answers["late"]
    if answer["type"] == "ack":  # the old owner knew it lost the room first, and forwarded the move
        game.acked[answer["turn"]] = action
    else:
        assert answer["code"] == "retry", answer
    game.play()
    record = assert_every_ack_is_stored_once(halls, code, game.acked)
    assert record.status == "over"
    assert halls.owner(code)[1] > token  # (a starved owner may lose the room again: fencing holds then too)
    for client in clients:
        client.close()


def test_redis_restarted_mid_game_play_resumes_and_nothing_acknowledged_is_lost(halls, redis_server):
    halls.start(2)
    code, tokens = new_game(halls, seats=(0, 1))
    clients = [Client(halls.ws(hall, code), tokens[seat]) for seat, hall in enumerate((0, 1))]
    game = Game(clients)
    game.play(moves=8)
    at_owner = clients[halls.owner(code)[0]]
    redis_server.stop()
    # Without Redis the other process's copy is not told of changes, but the owner commits, and
    # forwarding goes over HTTP: the owner's player moves when it is to act
    state = at_owner.until(lambda state: bool(state["legal"]))
    answer = at_owner.act(SKIP if SKIP in state["legal"] else state["legal"][0], "without-redis")
    assert answer["type"] == "ack", answer
    game.acked[answer["turn"]] = SKIP if SKIP in state["legal"] else state["legal"][0]
    redis_server.start()
    game.play()
    record = assert_every_ack_is_stored_once(halls, code, game.acked)
    assert record.status == "over"
    for client in clients:  # each copy of the room came back to the store's state
        assert client.until(lambda state: state["room"]["status"] == "over")["turn"] == len(record.actions)
        client.close()


def test_my_games_says_whose_turn_it_is_on_a_process_that_does_not_hold_the_room(halls):
    halls.start(2)
    with httpx.Client(base_url=halls.base(0), timeout=WITHIN) as ana:
        assert ana.post("/api/accounts", json={"name": "Ana", "password": "correct horse battery"}
                        ).status_code == 201
        room = ana.post("/api/rooms", json={"game": "patchwork", "seats": [OPEN, OPEN], "pace": "turn-based",
                                            "turn_timer": 86400, "take_seat": 0}).json()
        joined = httpx.post(f"{halls.base(0)}/api/rooms/{room['code']}/join", json={"name": "Bo"}, timeout=WITHIN)
        assert joined.status_code == 200, joined.text
        assert ana.post(f"/api/rooms/{room['code']}/start", headers=host(room["host_token"])).status_code == 200
        cookies = dict(ana.cookies)
    # the second process never saw the room: its "My games" reads it from the store all the same
    with httpx.Client(base_url=halls.base(1), timeout=WITHIN, cookies=cookies) as elsewhere:
        games = elsewhere.get("/api/me/games")
        assert games.status_code == 200, games.text
        mine = next(game for game in games.json()["playing"] if game["code"] == room["code"])
        assert mine["your_turn"] is True and mine["to_act"] == ["Ana"] and mine["pace"] == "turn-based"
        assert mine["deadline"] is not None
