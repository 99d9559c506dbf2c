"""The path every move takes out of the hall (issue 25's CPU a move): a connection's outbox, and the
checks a state and a move make of the connection's seat, made once while the seat stays its
player's and again as soon as it changes hands."""

from __future__ import annotations

import asyncio
import random
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

import pytest
from hallkit import Socket, host, started_room
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter

from parlour.hall.quotas import Guard, Limits, RateLimited
from parlour.hall.room.seats import SeatBook
from parlour.hall.web.feed import Feed
from parlour.hall.web.socket import ack_text
from parlour.hall.wire import dumps

SKIP = {"type": "skip"}


class Recorded:
    """A WebSocket that records what goes out and how: by the sending task, or at once."""

    def __init__(self) -> None:
        self.out: list[tuple[Any, ...]] = []
        self.takes: int | None = None  # how many messages the socket takes at once (None: all)

    def send_now(self, texts: list[str]) -> int:
        taken = texts if self.takes is None else texts[:self.takes]
        self.out += [("at once", text) for text in taken]
        return len(taken)

    async def send_text(self, text: str) -> None:
        self.out.append(("task", text))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.out.append(("close", code, reason))


def run_apart(coroutine: Any) -> Any:
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


async def passes(n: int = 5) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def test_a_feed_sends_at_once_what_the_socket_takes_and_its_task_the_rest_in_order() -> None:
    async def scenario() -> tuple[list[tuple[Any, ...]], bool]:
        socket = Recorded()
        feed = Feed(socket, socket.send_now)  # type: ignore[arg-type]
        viewer = SimpleNamespace(room=None, seat=None, legal=True, unseated=lambda: None)
        sender = asyncio.create_task(feed.run(viewer))  # type: ignore[arg-type]
        feed.push({"n": 0})  # queued before the task ran: the task sends it
        await passes()
        feed.push({"n": 1})
        feed.push({"n": 2})
        assert socket.out == [("task", '{"n":0}')]  # nothing at once inside the pass that queued them
        await passes()
        socket.takes = 0  # the socket's buffer is full: what comes waits for the task
        feed.push({"n": 3})
        feed.push({"n": 4})
        await passes()
        socket.takes = 1  # it takes one more, then is full
        feed.push({"n": 5})
        feed.push({"n": 6})
        await passes()
        socket.takes = None
        feed.push({"n": 7})
        await passes()
        feed.end({"n": 8}, 4000, "done")
        await passes()
        return socket.out, sender.done()

    out, ended = run_apart(scenario())
    assert out == [("task", '{"n":0}'), ("at once", '{"n":1}'), ("at once", '{"n":2}'), ("task", '{"n":3}'),
                   ("task", '{"n":4}'), ("at once", '{"n":5}'), ("task", '{"n":6}'), ("at once", '{"n":7}'),
                   ("at once", '{"n":8}'), ("close", 4000, "done")]
    assert ended


def test_without_a_way_to_send_at_once_the_task_sends_everything() -> None:
    async def scenario() -> list[tuple[Any, ...]]:
        socket = Recorded()
        feed = Feed(socket)  # type: ignore[arg-type]
        sender = asyncio.create_task(feed.run(SimpleNamespace(room=None, seat=None, legal=True)))  # type: ignore[arg-type]
        for n in range(3):
            feed.push({"n": n})
            await passes(n)
        feed.end({"n": 3}, 4000, "done")
        await passes()
        assert sender.done()
        return socket.out

    assert run_apart(scenario()) == [*(("task", f'{{"n":{n}}}') for n in range(4)), ("close", 4000, "done")]


def test_a_seat_is_checked_once_while_it_stays_its_players(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    checks: list[int] = []
    real = SeatBook.holds

    def counted(self: SeatBook, seat: int, *args: Any) -> bool:
        checks.append(seat)
        return real(self, seat, *args)

    monkeypatch.setattr(SeatBook, "holds", counted)
    code, tokens, _ = started_room(client)
    with Socket(client, code) as ana, Socket(client, code) as bo:
        ana.hello(tokens[0])
        bo.hello(tokens[1])
        ana.sync()
        bo.sync()
        for turn in range(6):  # each plays three moves; each sees six states
            mover, other = (ana, bo) if ana.sync()["to_act"] == [0] else (bo, ana)
            assert mover.act(SKIP)["type"] == "ack"
            other.until(lambda s, turn=turn: s["turn"] >= turn + 1)
        assert sorted(checks) == [0, 1]  # once each, not before every state and move
        # the seat changes hands (Ana resigns: a bot plays it): found at once, and Ana watches
        assert client.post(f"/api/rooms/{code}/resign", headers=host(tokens[0])).status_code == 200
        assert ana.expect("welcome")["seat"] is None
        assert ana.sync()["legal"] is None


@pytest.mark.parametrize("rate", ["30/second;600/minute", "3/second;5/10second", "2/minute"])
def test_a_connections_own_rate_answers_as_the_limits_library_does(rate: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hit by hit, at the same moments, the same refusals and waits as ``limits``' fixed windows."""
    now = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])  # both count by time.time()
    guard = Guard(Limits(connection_messages=rate))
    own = guard.own_rate("connection_messages")
    rng = random.Random(rate)
    answers: list[tuple[str, str | None, float | None]] = []
    for _ in range(3000):
        now[0] += rng.choices((0.0, 0.001, 0.01, 0.1, 0.4, 1.0, 3.0, 20.0), (70, 15, 8, 3, 2, 1, 0.7, 0.3))[0]
        for how, take in (("limits", lambda: guard.take("connection_messages", "one connection")),
                          ("own", own.take)):
            try:
                take()
                answers.append((how, None, None))
            except RateLimited as refused:
                answers.append((how, str(refused), refused.retry_after))
    by_limits, by_own = answers[0::2], answers[1::2]
    assert [a[1:] for a in by_own] == [a[1:] for a in by_limits]
    assert sum(a[1] is not None for a in by_own) > 100  # refusals were compared, not only passes


def test_an_addresss_message_rate_answers_as_the_limits_library_does_and_forgets(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Several addresses, interleaved: the same answers as ``limits``; windows that ended are let go."""
    now = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    rates = "5/second;20/10second"
    guard = Guard(Limits(messages=rates))
    library = FixedWindowRateLimiter(MemoryStorage())
    items = parse_many(rates)
    rng = random.Random(7)
    refusals = 0
    for _ in range(4000):
        now[0] += rng.choices((0.0, 0.01, 0.1, 0.5, 2.0, 15.0), (60, 20, 10, 6, 3, 1))[0]
        address = rng.choice(("203.0.113.1", "203.0.113.2", "2001:db8::/64"))
        expected = next((item for item in items if not library.hit(item, "messages", address)), None)
        try:
            guard.message(guard.own_rate("connection_messages"), address)
            assert expected is None
        except RateLimited as refused:
            refusals += 1
            assert expected is not None and f"at most {expected.amount} per" in str(refused)
            reset = library.get_window_stats(expected, "messages", address).reset_time
            assert refused.retry_after == pytest.approx(max(0.0, reset - now[0]))
    assert refusals > 200
    now[0] += 11  # every window ended: the next count lets the others go
    guard.message(guard.own_rate("connection_messages"), "198.51.100.9")
    assert len(guard._messages) == 1  # noqa: SLF001


@pytest.mark.parametrize("message_id", [None, 0, -(2 ** 53) + 1, 2 ** 53 - 1, "m1", 'quo"te\\ \u00e9 \u2028', "x" * 64])
def test_an_ack_is_the_json_of_its_dict(message_id: Any) -> None:
    for turn in (0, 1, 12345):
        assert ack_text(message_id, turn) == dumps({"type": "ack", "id": message_id, "turn": turn})
