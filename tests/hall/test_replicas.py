"""A replica of a room (a process of a cluster that does not apply it) follows what the room's
owner published with each commit, without reading the store; it reads the store only to fill a
gap. Two halls in one process share one store; a broadcast that carries payloads stands for Redis."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from secret_game import SECRETS
from test_limits import run_apart

from parlour.games import all_games
from parlour.hall.broadcast import LocalBroadcast
from parlour.hall.clock import SystemClock
from parlour.hall.hall import Hall
from parlour.hall.room import Room
from parlour.hall.room.commands import Act, Answer, Command, Join, Start, Vote
from parlour.hall.store import SqlStore


class Carrier(LocalBroadcast):
    """Hands every publish, payload and all, to the other hall (as Redis would, in order)."""

    carries_payloads = True

    def __init__(self) -> None:
        super().__init__()
        self.to: Hall | None = None
        self.dropped = 0  # publishes to lose on the way, to make a gap

    def publish(self, code: str, payload: bytes | None = None) -> None:
        super().publish(code)
        if self.to is not None:
            if self.dropped:
                self.dropped -= 1
                return
            self.to.on_remote_change(code, payload)


class Follower:
    """An ownership under which this hall never applies a room (another process does)."""

    def adopt(self, room: Room) -> None:
        room.leading = False

    async def forward(self, room: Room, command: Command) -> Answer | None:
        raise AssertionError("the replica is not asked to change anything here")

    def let_go(self, room: Room) -> None:
        pass

    async def start(self, hall: Hall) -> None:
        return None

    async def stop(self) -> None:
        pass


class CountingStore(SqlStore):
    reads = 0

    async def room(self, code: str, from_turn: int = 0) -> Any:
        CountingStore.reads += 1
        return await super().room(code, from_turn)


async def play(tmp_path: Path, drop_at: int | None) -> tuple[int, int, bool]:
    url = f"sqlite:///{tmp_path}/hall.sqlite3"
    owner_store, replica_store = SqlStore(url), CountingStore(url)
    carrier = Carrier()
    owner = Hall(owner_store, all_games(), SystemClock(), broadcast=carrier, seed=5)
    replica = Hall(replica_store, all_games(), SystemClock(), broadcast=LocalBroadcast(), seed=5,
                   ownership=Follower())
    carrier.to = replica
    await owner.start()
    try:
        room, *_ = await owner.create_room("palace", {}, [{"kind": "open"}, {"kind": "open"}])
        copy = await replica.room(room.code)
        for name in ("Ana", "Bo"):
            await owner.execute(room.code, Join(name))
        await owner.execute(room.code, Start())
        CountingStore.reads = 0
        rng, moves = random.Random(7), 0
        while room.status == "playing" and moves < 60:
            if moves == drop_at:
                carrier.dropped = 1
            seat = min(room.to_act())
            action = owner.games["palace"].random_action(room.state, seat, rng)
            await owner.execute(room.code, Act(seat, room.audience(seat).turn, action))
            moves += 1
            await asyncio.sleep(0)
        for _ in range(100):  # a read to fill a gap runs on a thread
            if copy.turn == room.turn:
                break
            await asyncio.sleep(0.02)
        same = (copy.turn, copy.status, [s.record() for s in copy.seats], copy.state_text(0)) == (
            room.turn, room.status, [s.record() for s in room.seats], room.state_text(0))
        return moves, CountingStore.reads, same
    finally:
        await owner.stop()
        owner_store.close()
        replica_store.close()


def test_a_replica_follows_the_owners_published_changes_without_reading_the_store(tmp_path: Path) -> None:
    moves, reads, same = run_apart(play(tmp_path, drop_at=None))
    assert moves > 10 and same
    assert reads == 0


def test_a_replica_that_missed_a_change_reads_the_store_to_fill_the_gap(tmp_path: Path) -> None:
    moves, reads, same = run_apart(play(tmp_path, drop_at=5))
    assert moves > 10 and same
    assert reads >= 1


async def vote_apart(tmp_path: Path) -> list[Any]:
    url = f"sqlite:///{tmp_path}/hall.sqlite3"
    owner_store, replica_store = SqlStore(url), SqlStore(url)
    carrier = Carrier()
    games = dict(all_games(), secrets=SECRETS)
    owner = Hall(owner_store, games, SystemClock(), broadcast=carrier, seed=5)
    replica = Hall(replica_store, games, SystemClock(), broadcast=LocalBroadcast(), seed=5, ownership=Follower())
    carrier.to = replica
    await owner.start()
    try:
        room, *_ = await owner.create_room("secrets", {}, [{"kind": "open"}, {"kind": "open"}])
        copy = await replica.room(room.code)
        for name in ("Ana", "Bo"):
            await owner.execute(room.code, Join(name))
        await owner.execute(room.code, Start())
        await owner.execute(room.code, Vote(0, "end"))
        proposed = copy.status_json()["vote"]
        await owner.execute(room.code, Vote(1, "end"))
        ended = copy.ended()
        return [proposed, copy.status, copy.status_json()["vote"], ended.ranks if ended else None]
    finally:
        await owner.stop()
        owner_store.close()
        replica_store.close()


def test_a_replica_shows_the_players_vote_under_way_and_its_outcome(tmp_path: Path) -> None:
    proposed, status, vote, ranks = run_apart(vote_apart(tmp_path))
    assert (proposed["motion"], proposed["yes"], proposed["needed"]) == ("end", [0], [0, 1])
    assert (status, vote, ranks) == ("over", None, (1, 1))  # both agreed, nobody away: a draw
