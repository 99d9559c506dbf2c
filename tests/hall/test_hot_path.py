"""What a saturated move costs the hall, pinned by counts (docs/benchmarks.md, session 20: the work
issue 25 left): no task made a move, the seats' names built only for a refusal's words, and a move
whose caller is cancelled while its commit is under way still taken by the room, as the store took it."""

from __future__ import annotations

import asyncio
import random
import types
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import orjson
import pytest
from gckit import Unsent

from parlour.games import all_games, get
from parlour.hall import wire
from parlour.hall.broadcast import Broadcast, LocalBroadcast
from parlour.hall.clock import SystemClock
from parlour.hall.errors import HallError
from parlour.hall.hall import Hall
from parlour.hall.room import Room
from parlour.hall.room.acting import check_turn
from parlour.hall.room.audience import LastView
from parlour.hall.room.commands import Act, Acted, Join, Start
from parlour.hall.room.seats import SeatBook
from parlour.hall.store import SqlStore, StoreError
from parlour.hall.store.sql import Commit
from parlour.hall.web.feed import Feed


def run_apart(coroutine: Any) -> Any:
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


async def in_a_hall(path: Path, play: Callable[[Hall, Room, SqlStore], Awaitable[Any]],
                    broadcast: Broadcast | None = None) -> Any:
    """``play(hall, room, store)`` with a started Patchwork room of two people, Ana and Bo."""
    store = SqlStore(f"sqlite:///{path / 'hall.sqlite3'}")
    hall = Hall(store, all_games(), SystemClock(), broadcast=broadcast, seed=20)
    await hall.start()
    try:
        room, *_ = await hall.create_room("patchwork", {}, [{"kind": "open"}, {"kind": "open"}])
        for seat, name in enumerate(["Ana", "Bo"]):
            await hall.execute(room.code, Join(name, seat))
        await hall.execute(room.code, Start())
        return await play(hall, room, store)
    finally:
        await hall.stop()
        store.close()


def next_move(room: Room, rng: random.Random) -> Act:
    seat = min(room.to_act())
    return Act(seat, room.audience(seat).turn, room.game.random_action(room.state, seat, rng))


def test_a_move_makes_no_task(tmp_path: Path) -> None:
    """``asyncio.shield`` of the room's act made a task a move (about 4% of a saturated hall's CPU)."""
    async def play(hall: Hall, room: Room, store: SqlStore) -> tuple[int, list[str]]:
        rng, made = random.Random(20), []
        loop = asyncio.get_running_loop()

        def counted(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
            made.append(getattr(coro, "__qualname__", coro))
            return asyncio.Task(coro, loop=loop, **kwargs)

        loop.set_task_factory(counted)
        try:
            for _ in range(20):
                assert isinstance(await hall.execute(room.code, next_move(room, rng)), Acted)
        finally:
            loop.set_task_factory(None)
        return room.turn, made

    turn, tasks = run_apart(in_a_hall(tmp_path, play))
    assert turn == 20
    assert tasks == [], f"{len(tasks)} tasks made for 20 moves: {tasks[:3]}"


def test_the_seats_names_are_built_only_to_refuse_a_move_in_words(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    real = SeatBook.names

    def names(self: SeatBook) -> list[str]:
        built.append(1)
        return real(self)

    async def play(hall: Hall, room: Room, store: SqlStore) -> str:
        monkeypatch.setattr(SeatBook, "names", names)
        mover = min(room.to_act())
        for _ in range(3):  # the turn checked as every move checks it: no names
            check_turn(room, mover, room.audience(mover).turn)
        assert built == []
        waiting = 1 - mover
        with pytest.raises(HallError) as refused:
            check_turn(room, waiting, room.audience(waiting).turn)
        assert refused.value.code == "not_your_turn" and len(built) == 1
        return str(refused.value)

    words = run_apart(in_a_hall(tmp_path, play))
    assert words.startswith("it is not your turn: waiting for ") and words.rsplit(" ", 1)[1] in ("Ana", "Bo")


class HeldCommits:
    """The store's commits of actions, each answered only once the test lets it (``release``):
    the commit itself is made at once, as the store's writer makes it, unless ``fail`` is set
    (then nothing is saved and the answer is that error)."""

    def __init__(self, store: SqlStore, monkeypatch: pytest.MonkeyPatch) -> None:
        self.real = store.append_action
        self.answers: list[asyncio.Future[None]] = []
        self.made: list[asyncio.Future[None]] = []
        self.fail: StoreError | None = None
        monkeypatch.setattr(store, "append_action", self.append_action)

    def append_action(self, *args: Any, **kwargs: Any) -> asyncio.Future[None]:
        answer = Commit(loop=asyncio.get_running_loop())  # as the store's: it cannot be cancelled
        self.answers.append(answer)
        if self.fail is None:
            self.real(*args, **kwargs).add_done_callback(self.made.append)
        return answer

    async def release(self) -> None:
        """Answers the held commit, once the store made it."""
        while self.fail is None and not self.made:
            await asyncio.sleep(0.01)
        if self.fail is None:
            assert self.made.pop().exception() is None
            self.answers.pop().set_result(None)
        else:
            self.answers.pop().set_exception(self.fail)


async def passes(n: int = 5) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def test_a_move_whose_caller_is_cancelled_during_its_commit_is_taken_all_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the shield was there for: a move committed is never left half-taken by the room (the
    store has it, the room not) when its connection goes while it commits."""
    async def play(hall: Hall, room: Room, store: SqlStore) -> None:
        rng, commits, acks = random.Random(20), HeldCommits(store, monkeypatch), []
        first = next_move(room, rng)
        moving = asyncio.create_task(hall.execute(room.code, first, acks.append))
        while not commits.answers:
            await passes(1)
        moving.cancel()  # the connection went while the move commits
        await passes()
        assert not moving.done() and room.turn == 0 and acks == []  # still waiting for its commit
        await commits.release()
        with pytest.raises(asyncio.CancelledError):
            await moving
        assert room.turn == 1 and acks == [1]  # taken, and acknowledged (to nobody) before the caller heard
        second = next_move(room, rng)  # the game goes on from it
        assert second.seat != first.seat or room.to_act() == {first.seat}
        answer = asyncio.create_task(hall.execute(room.code, second))
        while not commits.answers:
            await passes(1)
        await commits.release()
        assert isinstance(await answer, Acted) and room.turn == 2
        assert [(a.turn, a.seat) for a in store.load_room(room.code).actions] == [(0, first.seat), (1, second.seat)]

        commits.fail = StoreError("the store could not save this: full disk")  # cancelled, then refused
        third = next_move(room, rng)
        refused = asyncio.create_task(hall.execute(room.code, third))
        while not commits.answers:
            await passes(1)
        refused.cancel()
        await commits.release()
        with pytest.raises(asyncio.CancelledError):  # the caller is cancelled, not told of the refusal
            await refused
        assert room.turn == 2 and room.leading

    run_apart(in_a_hall(tmp_path, play))


def test_a_move_cancelled_before_it_is_judged_is_not_made(tmp_path: Path) -> None:
    """Nothing was acknowledged, nothing done: the player sees the state on reconnecting and acts again."""
    async def play(hall: Hall, room: Room, store: SqlStore) -> None:
        rng = random.Random(20)
        move = next_move(room, rng)
        async with room.lock:  # another command holds the room
            waiting = asyncio.create_task(hall.execute(room.code, move))
            await passes()
            waiting.cancel()
            await passes()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert room.turn == 0 and store.load_room(room.code).actions == []
        assert isinstance(await hall.execute(room.code, move), Acted) and room.turn == 1

    run_apart(in_a_hall(tmp_path, play))


class ToOthers(LocalBroadcast):
    """A broadcast that carries what was committed to other processes, as a cluster's does."""

    carries_payloads = True

    def __init__(self) -> None:
        super().__init__()
        self.payloads: list[bytes | None] = []

    def publish(self, code: str, payload: bytes | None = None) -> None:
        self.payloads.append(payload)
        super().publish(code)


def holding(value: Any, wanted: dict[str, Any]) -> int:
    """How many times ``wanted`` is in ``value`` (itself, or in its lists, tuples and dicts)."""
    if isinstance(value, dict) and value == wanted:
        return 1
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    return sum(holding(item, wanted) for item in items)


def test_an_action_is_encoded_once_for_the_store_the_history_and_the_other_halls(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its row in the store, its record in the room's history and the change told to the other
    processes of a cluster hold the one encoding of the action, byte for byte as before."""
    encoded: list[Any] = []

    def dumps(value: Any, *args: Any, **kwargs: Any) -> bytes:
        encoded.append(value)
        return orjson.dumps(value, *args, **kwargs)

    monkeypatch.setattr(wire, "orjson", types.SimpleNamespace(**{**vars(orjson), "dumps": dumps}))
    told = ToOthers()

    async def play(hall: Hall, room: Room, store: SqlStore) -> list[dict[str, Any]]:
        rng, actions = random.Random(20), []
        for _ in range(12):
            move = next_move(room, rng)
            told.payloads.clear()
            encoded.clear()
            assert isinstance(await hall.execute(room.code, move), Acted)
            action = room.play.records[-1].action
            assert sum(holding(value, action) for value in encoded) == 1, "encoded more than once"
            payload = [p for p in told.payloads if p is not None]
            assert len(payload) == 1 and wire.loads(payload[0])["action"] == {
                **vars(room.play.records[-1]), "action": action}
            actions.append(action)
        stored = store.read(lambda conn: [row[0] for row in conn.exec_driver_sql(
            "SELECT action FROM actions WHERE code = ? ORDER BY turn", (room.code,))])
        assert stored == [wire.dumps(action) for action in actions]  # the same text as before
        assert [r.action for r in store.load_room(room.code).actions] == actions == [
            r.action for r in room.play.records]
        return actions

    assert len(run_apart(in_a_hall(tmp_path, play, told))) == 12


def test_a_room_of_two_makes_one_patchwork_view_a_move_for_both_seats(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Patchwork shows every seat the same view but its "seat" (Game.same_view_but_seat): the
    view is made and encoded once a change, and each seat's state holds the JSON its own view
    would make, byte for byte."""
    patchwork = type(get("patchwork"))
    made: list[int | None] = []
    real = patchwork.view

    def view(self: Any, state: Any, seat: int | None) -> Any:
        made.append(seat)
        return real(self, state, seat)

    encoded: list[Any] = []

    def dumps(value: Any, *args: Any, **kwargs: Any) -> bytes:
        part = value.get("view", value) if isinstance(value, dict) else None
        if isinstance(part, dict) and "players" in part:  # a Patchwork view (or the part of one with its players)
            encoded.append(part)
        return orjson.dumps(value, *args, **kwargs)

    async def play(hall: Hall, room: Room, store: SqlStore) -> None:
        rng, feeds = random.Random(20), [Feed(Unsent()), Feed(Unsent())]  # type: ignore[arg-type]
        for seat in (0, 1):
            room.connect(seat)
        monkeypatch.setattr(patchwork, "view", view)
        monkeypatch.setattr(wire, "orjson", types.SimpleNamespace(**{**vars(orjson), "dumps": dumps}))
        for _ in range(20):
            await hall.execute(room.code, next_move(room, rng))
            for seat, feed in enumerate(feeds):
                text = feed.newest_state(room, seat, legal=False)
                assert text is not None
                own = real(room.game, room.state, seat)
                assert wire.loads(text)["view"] == own
                assert f'"view":{orjson.dumps(own).decode()},' in text  # byte for byte
        assert made == [None] * 20  # one a move, the spectators', for both seats
        assert len(encoded) == 20  # and its JSON once a move

    run_apart(in_a_hall(tmp_path, play))


@pytest.mark.parametrize("keys", [["seat", "a", "b"], ["a", "seat", "b"], ["a", "b", "seat"], ["a", "b"], ["seat"], []])
def test_the_last_view_puts_each_seat_where_the_views_own_seat_is(keys: list[str]) -> None:
    class Seatless:
        same_view_but_seat = True

        def view(self, state: Any, seat: int | None) -> dict[str, Any]:
            return {key: {"seat": seat, "n": [1, "é"]} if key == "a" else seat if key == "seat" else 2 ** 40
                    for key in keys}

    game, last, state = Seatless(), LastView(), object()
    for seat in (None, 0, 1, 12):
        expected = wire.dumps_bytes({**game.view(state, None), "seat": seat})
        assert last.encoded(game, state, seat) == expected  # type: ignore[arg-type]
