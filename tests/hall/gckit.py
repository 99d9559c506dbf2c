"""What a room keeps per move, as Python's cyclic collector sees it (issue 25).

Rooms of Patchwork (or another game) played as the bench plays them (``parlour bench hall``: two people a room, each
seat's connection sent its newest state after every move, legal actions not asked for), in one
process and without a network: a :class:`~parlour.hall.hall.Hall` on SQLite, each seat a
:class:`~parlour.hall.web.feed.Feed` asked for its state as its sending task would. Counted over
the moves, with the collector off:

- ``allocated``: tracked objects made and not freed (``gc.get_count()[0]`` grows by one for each,
  falls by one for each freed): a young pass of the collector comes every ``threshold`` of these,
  so this is what sets how often the hall stops for one;
- ``kept``: tracked objects alive after a full collection that were not before, by type: what
  a move leaves for the older generations to go through.

Run it as a script for the table (``.venv/bin/python tests/hall/gckit.py [moves [game...]]``).
"""

from __future__ import annotations

import asyncio
import gc
import random
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from parlour.games import all_games
from parlour.hall.clock import SystemClock
from parlour.hall.hall import Hall
from parlour.hall.room import Room
from parlour.hall.room.commands import Act, Join, Start
from parlour.hall.store import SqlStore
from parlour.hall.web.feed import Feed

ROOMS = 8


@dataclass
class Counted:
    moves: int
    allocated: int  # net tracked allocations over the moves (what brings young passes)
    kept: Counter[str]  # tracked objects that survived a full collection, by type

    @property
    def kept_total(self) -> int:
        return sum(self.kept.values())


class Unsent:
    """A socket nothing is sent on: the feeds are asked for their states directly."""

    async def send_text(self, data: str) -> None:
        raise AssertionError("nothing is sent")

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


async def _seated(hall: Hall, game: str, number: int) -> tuple[Room, list[Feed]]:
    room, *_ = await hall.create_room(game, {}, [{"kind": "open"}, {"kind": "open"}])
    for seat in range(2):
        await hall.execute(room.code, Join(f"bench-{number}-{seat}", seat))
    await hall.execute(room.code, Start())
    feeds = []
    for seat in range(2):
        room.connect(seat)
        feeds.append(Feed(Unsent()))
    return room, feeds


async def _move(hall: Hall, room: Room, feeds: list[Feed], rng: random.Random) -> bool:
    """One move of ``room`` by the seat to act, then each seat's newest state made; False when over."""
    if room.status != "playing":
        return False
    seat = min(room.to_act())
    action = room.game.random_action(room.state, seat, rng)
    await hall.execute(room.code, Act(seat, room.audience(seat).turn, action))
    for shown, feed in enumerate(feeds):
        feed.newest_state(room, shown, legal=False)
    return True


async def _count(path: Path, game: str, moves: int, warm_up: int, rooms_played: int) -> Counted:
    store = SqlStore(f"sqlite:///{path / 'hall.sqlite3'}")
    hall = Hall(store, all_games(), SystemClock(), seed=25)
    await hall.start()
    try:
        rooms = [await _seated(hall, game, number) for number in range(rooms_played)]
        rng = random.Random(25)

        async def play(count: int) -> int:
            done = 0
            while done < count:
                moved = False
                for room, feeds in rooms:
                    if done < count and await _move(hall, room, feeds, rng):
                        done, moved = done + 1, True
                if not moved:
                    break
            return done

        await play(warm_up)
        gc.collect()
        gc.disable()
        try:
            before = {id(thing) for thing in gc.get_objects()}
            allocated = gc.get_count()[0]
            played = await play(moves)
            allocated = gc.get_count()[0] - allocated
            gc.collect()
            kept = Counter(type(thing).__qualname__ for thing in gc.get_objects() if id(thing) not in before)
        finally:
            gc.enable()
        return Counted(played, allocated, kept)
    finally:
        await hall.stop()
        store.close()


def count(moves: int = 240, warm_up: int = 4 * ROOMS, rooms: int = ROOMS, game: str = "patchwork") -> Counted:
    """Play ``moves`` moves over ``rooms`` rooms of ``game`` (after ``warm_up`` moves, which fill
    the caches of a first move) and count what they left, on an event loop of a thread of its own."""
    with tempfile.TemporaryDirectory() as path, ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, _count(Path(path), game, moves, warm_up, rooms)).result()


def table(counted: Counted, rows: int = 12) -> str:
    per = max(counted.moves, 1)
    lines = [f"{counted.moves} moves: {counted.allocated} tracked objects allocated and not freed"
             f" ({counted.allocated / per:.2f} a move), {counted.kept_total} kept after a full collection"
             f" ({counted.kept_total / per:.2f} a move)", "| type | kept | a move |", "|---|---|---|"]
    lines += [f"| {kind} | {number} | {number / per:.2f} |" for kind, number in counted.kept.most_common(rows)]
    return "\n".join(lines)


if __name__ == "__main__":
    moves = int(sys.argv[1]) if len(sys.argv) > 1 else 240
    for game in sys.argv[2:] or ["patchwork"]:
        print(f"{game}: {table(count(moves, rooms=max(ROOMS, moves // 30), game=game))}")
