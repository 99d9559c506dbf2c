"""The store in the hall's words (hall/store/): every read the event loop awaits runs on one of
the store's reader threads, never on the loop, and reads back what was written."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from test_leases import room
from test_limits import run_apart

from parlour.hall.store import ActionRecord, ChatLine, SqlStore, Store


def test_the_reads_the_event_loop_awaits_run_on_the_stores_threads_and_read_back_the_writes(tmp_path: Path):
    store = SqlStore(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    used: list[threading.Thread] = []  # the thread of every connection taken from the pool
    sa.event.listen(store.engine, "checkout", lambda *_: used.append(threading.current_thread()))

    async def play(store: Store) -> tuple[threading.Thread, list[Any]]:
        record = room("ROOM1")
        await store.create_room(record)
        await store.append_action("ROOM1", ActionRecord(0, 0, {"pass": True}, "player", 1.0))
        await store.append_chat("ROOM1", ChatLine(0, 1.0, "system", None, None, "hello"))
        await store.add_account("Ana", "ana", "human", "hash", 1.0)
        found = await store.account_by_name("ana")
        assert found is not None
        await store.open_session(found[0].id, "a" * 64, 1.0, 100.0)
        answers = [await store.room("ROOM1"), await store.room_exists("ROOM1"), await store.room_exists("ROOM2"),
                   await store.chat("ROOM1", 10), await store.lobby_page("playing", None, 0, 10), found,
                   await store.account_by_session("a" * 64, 2.0), await store.account_by_session("a" * 64, 100.0),
                   await store.games_of(found[0].id, finished=True), await store.played_by(found[0].id),
                   await store.ratings_of(found[0].id), await store.leaderboard("patchwork", 10)]
        return threading.current_thread(), answers

    try:
        loop_thread, answers = run_apart(play(store))
        expected = room("ROOM1")
        expected.actions = [ActionRecord(0, 0, {"pass": True}, "player", 1.0)]
        ana = answers[5][0]
        assert answers == [expected, True, False, [ChatLine(0, 1.0, "system", None, None, "hello")], ["ROOM1"],
                           (ana, "hash"), ana, None, [], [], [], []]
        assert (ana.name, ana.kind) == ("Ana", "human")
        assert used and loop_thread not in used
        assert {thread.name.split("_")[0] for thread in used} <= {"parlour-store-writer", "parlour-store-reader"}
        assert any(thread.name.startswith("parlour-store-reader") for thread in used)
    finally:
        store.close()
