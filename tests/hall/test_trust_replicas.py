"""A chat line a moderator hides is taken away in every process of a cluster (docs/scaling.md),
and a sanction counts in each at once, whichever process the moderator's request reached: two
halls in one process share one store, and a broadcast that carries payloads stands for Redis (as
tests/hall/test_replicas.py does)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from test_limits import run_apart
from test_replicas import Carrier, Follower

from parlour.games import all_games
from parlour.hall.accounts import Accounts, name_key
from parlour.hall.broadcast import LocalBroadcast
from parlour.hall.clock import SystemClock
from parlour.hall.errors import HallError
from parlour.hall.hall import Hall
from parlour.hall.moderation import Moderation
from parlour.hall.room.chat import chat_key
from parlour.hall.room.commands import Join, Say
from parlour.hall.store import SqlStore


class Fanout(Carrier):
    """As the cluster's broadcast (hall/cluster/node.py): what a process learnt from another is told
    to its own listeners only."""

    def publish_here(self, code: str) -> None:
        LocalBroadcast.publish(self, code)


@asynccontextmanager
async def two_processes(tmp_path: Path) -> AsyncIterator[tuple[SqlStore, SqlStore, Hall, Hall]]:
    """Two processes of a cluster on one store: the room's owner and a replica that follows it,
    each told what the other publishes."""
    url = f"sqlite:///{tmp_path}/hall.sqlite3"
    owner_store, replica_store = SqlStore(url), SqlStore(url)
    to_replica, to_owner = Fanout(), Fanout()
    owner = Hall(owner_store, all_games(), SystemClock(), broadcast=to_replica, seed=5)
    replica = Hall(replica_store, all_games(), SystemClock(), broadcast=to_owner, seed=5, ownership=Follower())
    to_replica.to, to_owner.to = replica, owner
    await owner.start()
    try:
        yield owner_store, replica_store, owner, replica
    finally:
        await owner.stop()
        owner_store.close()
        replica_store.close()


async def hide_from_the_replica(tmp_path: Path) -> dict[str, object]:
    async with two_processes(tmp_path) as (owner_store, replica_store, owner, replica):
        room, *_ = await owner.create_room("palace", {}, [{"kind": "open"}, {"kind": "open"}])
        copy = await replica.room(room.code)
        await owner.execute(room.code, Join("Ana"))
        for text in ("hidden", "hello", "you play like a potato", "sorry"):  # "hidden": a line like any other
            await owner.execute(room.code, Say("spectator", text, None, "Cy"))
        told = {"owner": 0, "replica": 0}  # each process's connections are told the chat changed
        owner.broadcast.subscribe(chat_key(room.code), lambda: told.__setitem__("owner", told["owner"] + 1))
        replica.broadcast.subscribe(chat_key(room.code), lambda: told.__setitem__("replica", told["replica"] + 1))
        potato = next(line.n for line in await copy.chat.load() if line.text == "you play like a potato")

        await replica_store.add_account("Mod", name_key("Mod"), "human", None, 0.0)
        accounts = Accounts(replica_store, SystemClock())
        told.update(owner=0, replica=0)  # (the replica's catching up on the lines before told it too)
        found = await accounts.by_name("Mod")
        assert found is not None
        done = await Moderation(replica, accounts).act(found[0], {"action": "hide_line", "room": room.code,
                                                                "line": potato, "reason": "insults"})
        return {"done": done["done"], "line": potato, "told": told,
                "hidden": (room.chat.hidden, copy.chat.hidden),
                "owner_lines": [line.text for line in await room.chat.load()],
                "replica_lines": [line.text for line in await copy.chat.load()],
                "stored": [line.text for line in await owner_store.chat(room.code, 100)]}


def test_a_line_hidden_through_another_process_is_taken_away_where_the_room_is_applied_too(tmp_path: Path) -> None:
    seen = run_apart(hide_from_the_replica(tmp_path))
    line = seen["line"]
    assert str(seen["done"]).startswith(f"line {line} of room ")
    assert seen["hidden"] == ([line], [line])  # both copies: their connections are sent "hidden": [n]
    assert seen["told"]["owner"] >= 1 and seen["told"]["replica"] >= 1
    assert seen["owner_lines"][-3:] == seen["replica_lines"][-3:] == ["hidden", "hello", "sorry"]
    assert "you play like a potato" not in seen["owner_lines"] + seen["replica_lines"] + seen["stored"]


async def ban_through_the_replica(tmp_path: Path) -> tuple[str, str]:
    async with two_processes(tmp_path) as (owner_store, replica_store, owner, replica):
        for name in ("Mod", "Cy"):
            await owner_store.add_account(name, name_key(name), "human", None, 0.0)
        accounts = Accounts(owner_store, SystemClock())
        mod, cy = [found[0] for found in [await accounts.by_name(n) for n in ("Mod", "Cy")] if found is not None]
        here, there = Moderation(owner, accounts), Moderation(replica, Accounts(replica_store, SystemClock()))
        await here.load()
        await there.load()
        await here.check_sign_in(cy, "10.0.0.7")  # not banned yet: nothing refused
        await there.act(mod, {"action": "ban", "player": "Cy", "days": 7, "reason": "spam"})
        for _ in range(100):  # told over the broadcast, the owner's process reads the sanctions again
            try:
                await here.check_sign_in(cy, "10.0.0.7")
            except HallError as refused:
                refusal = str(refused)
                break
            await asyncio.sleep(0.02)
        else:
            refusal = "never refused"
        await there.act(mod, {"action": "unban", "player": "Cy", "reason": "lifted"})
        for _ in range(100):
            try:
                await here.check_sign_in(cy, "10.0.0.7")
                return refusal, "let in"
            except HallError:
                await asyncio.sleep(0.02)
        return refusal, "still refused"


def test_a_ban_taken_through_another_process_counts_here_at_once_not_30_seconds_later(tmp_path: Path) -> None:
    refusal, after = run_apart(ban_through_the_replica(tmp_path))
    assert "banned from the hall until" in refusal and "spam" in refusal
    assert after == "let in"
