"""The path every move takes out of the hall (issue 25's CPU a move): a connection's outbox, and the
checks a state and a move make of the connection's seat, made once while the seat stays its
player's and again as soon as it changes hands."""

from __future__ import annotations

import asyncio
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hallkit import Socket, host, started_room

from parlour.hall.quotas import Guard, Limits, RateLimited
from parlour.hall.room.seats import SeatBook
from parlour.hall.web.feed import Outbox

SKIP = {"type": "skip"}


def test_the_outbox_gives_its_items_in_order_and_wakes_its_reader() -> None:
    async def scenario() -> list[Any]:
        outbox = Outbox()
        got: list[Any] = []

        async def reader() -> None:
            while True:
                got.append(await outbox.get())

        task = asyncio.create_task(reader())
        await asyncio.sleep(0)  # the reader waits on an empty outbox
        outbox.put_nowait(1)
        outbox.put_nowait(2)
        await asyncio.sleep(0)
        outbox.put_nowait(3)
        await asyncio.sleep(0)
        assert outbox.empty() and outbox.qsize() == 0
        task.cancel()
        outbox.put_nowait(4)  # after a cancelled wait the outbox still takes and gives
        assert outbox.qsize() == 1 and outbox.get_nowait() == 4
        with pytest.raises(asyncio.QueueEmpty):
            outbox.get_nowait()
        return got

    with ThreadPoolExecutor(1) as thread:
        assert thread.submit(asyncio.run, scenario()).result() == [1, 2, 3]


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
