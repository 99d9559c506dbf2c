"""Room leases on the store's database (SQLite and PostgreSQL): one owner at a time, a token that
goes up each time the room changes hands, and a fencing check that stops a commit by a process
that lost the room."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from test_limits import run_apart
from test_postgres import empty_database

from parlour.hall.store import ActionRecord, RoomRecord, SqlStore, StoreError, actions_table
from parlour.hall.store.leases import Fence, Lease, LeaseLost, Leases, check_fence, fence

LENGTH = 5.0
WITHIN = 20.0  # seconds a test waits for what must happen before it calls it lost


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SqlStore]:
    url = (f"sqlite:///{tmp_path / 'hall.sqlite3'}" if request.param == "sqlite"
           else empty_database(request.getfixturevalue("postgres_url")))
    store = SqlStore(url)
    yield store
    store.close()


@pytest.fixture
def leases(store: SqlStore, clock) -> Leases:
    return Leases(store.engine, clock.now, LENGTH)


def room(code: str) -> RoomRecord:
    return RoomRecord(code=code, game="patchwork", players=2, options={}, seed=1, status="playing",
                      turn_timer=None, host_token="0" * 64, seats=[], created=0.0)


def turns(store: SqlStore, code: str) -> list[int]:
    return store.read(lambda connection: list(connection.execute(
        sa.select(actions_table.c.turn).where(actions_table.c.code == code).order_by(actions_table.c.turn)
    ).scalars()))


def test_a_room_has_one_owner_until_its_lease_expires_then_the_next_with_a_higher_token(leases, clock):
    first = leases.acquire("ROOM1", "hall-1")
    assert first == Lease("ROOM1", "hall-1", 1, clock.now() + LENGTH)
    assert leases.acquire("ROOM1", "hall-2") is None
    assert leases.acquire("ROOM1", "hall-1") == first  # holding it already: the same lease
    assert leases.acquire("ROOM2", "hall-2").token == 1  # another room is another lease
    clock.advance(LENGTH)
    second = leases.acquire("ROOM1", "hall-2")
    assert (second.owner, second.token) == ("hall-2", 2)
    assert leases.renew(first) is None  # lost: cannot be renewed
    assert leases.holder("ROOM1") == second


def test_a_renewed_lease_runs_a_full_length_from_the_renewal(leases, clock):
    lease = leases.acquire("ROOM1", "hall-1")
    clock.advance(LENGTH - 1)
    renewed = leases.renew(lease)
    assert renewed == Lease("ROOM1", "hall-1", 1, clock.now() + LENGTH)
    clock.advance(LENGTH - 1)  # past the first expiry, within the renewed one
    assert leases.acquire("ROOM1", "hall-2") is None
    clock.advance(1)
    assert leases.acquire("ROOM1", "hall-2").token == 2


def test_a_released_lease_is_taken_at_once(leases):
    lease = leases.acquire("ROOM1", "hall-1")
    leases.release(lease)
    assert leases.acquire("ROOM1", "hall-2").token == 2
    leases.release(lease)  # no longer ours: releasing it again changes nothing
    assert leases.holder("ROOM1").owner == "hall-2"


def test_the_fencing_check_fails_a_transaction_of_the_old_owner_and_passes_the_new_one(store, leases, clock):
    old = leases.acquire("ROOM1", "hall-1")
    clock.advance(LENGTH)
    new = leases.acquire("ROOM1", "hall-2")
    with store.engine.connect() as connection:
        with pytest.raises(LeaseLost, match="no longer hall-1's"), connection.begin():
            check_fence(connection, old)
        with connection.begin():
            check_fence(connection, new)
    with pytest.raises(LeaseLost), store.engine.begin() as connection:
        check_fence(connection, Lease("ROOM9", "hall-1", 1, 0.0))  # a room never leased


def test_a_store_commit_fenced_by_a_lost_lease_saves_nothing_and_others_commit(store, leases, clock):
    async def play() -> None:
        await store.create_room(room("ROOM1"))
        await store.create_room(room("ROOM2"))
        old, other = leases.acquire("ROOM1", "hall-1"), leases.acquire("ROOM2", "hall-1")
        await store.append_action("ROOM1", ActionRecord(0, 0, {"pass": True}, "player", 1.0), lease=old)
        clock.advance(LENGTH)
        new = leases.acquire("ROOM1", "hall-2")
        other = leases.renew(other)
        late = store.append_action("ROOM1", ActionRecord(1, 1, {"pass": True}, "player", 2.0), lease=old)
        elsewhere = store.append_action("ROOM2", ActionRecord(0, 0, {"pass": True}, "player", 2.0),
                                        lease=other)
        results = await asyncio.gather(late, elsewhere, return_exceptions=True)
        assert isinstance(results[0], StoreError) and "no longer hall-1's" in str(results[0])
        assert results[1] is None
        await store.append_action("ROOM1", ActionRecord(1, 0, {"pass": True}, "player", 3.0), lease=new)

    run_apart(play())
    assert turns(store, "ROOM1") == [0, 1]
    assert store.load_room("ROOM1").actions[1].at == 3.0  # the new owner's, not the old one's
    assert turns(store, "ROOM2") == [0]


def test_a_transaction_of_many_rooms_checks_their_leases_in_one_statement_and_inserts_their_moves_in_one(
        store, leases, clock):
    """A group commit of ten rooms' moves is two statements, the fencing check of every lease and
    one executemany of the moves, not two statements a move; one lease lost among them fails the
    whole transaction, with nothing written (the writer then commits each room alone)."""
    from parlour.hall.store import rooms as room_writes
    from parlour.hall.store.writes import execute

    codes = [f"ROOM{n}" for n in range(10)]
    async def create() -> None:
        for code in codes:
            await store.create_room(room(code))

    run_apart(create())
    held = {code: leases.acquire(code, "hall-1") for code in codes}
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    def moves(turn: int) -> list:
        return [write for code in codes for write in (
            room_writes.acting(code, ActionRecord(turn, 0, {"pass": True}, "player", 1.0)), fence(held[code]))]

    sa.event.listen(store.engine, "before_cursor_execute", count)
    try:
        with store.engine.begin() as connection:
            execute(connection, moves(0))
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", count)
    assert len(statements) == 2 and statements[0].lstrip().upper().startswith("UPDATE"), statements
    assert all(turns(store, code) == [0] for code in codes)

    clock.advance(LENGTH)
    leases.acquire("ROOM3", "hall-2")  # another process took one of them
    for code in codes:
        if code != "ROOM3":
            held[code] = leases.renew(held[code])
    with pytest.raises(LeaseLost, match="1 of the 10 rooms' leases"), store.engine.begin() as connection:
        execute(connection, moves(1))
    assert all(turns(store, code) == [0] for code in codes)  # nothing of it written


@pytest.mark.parametrize("store", ["postgresql"], indirect=True)
def test_on_postgresql_a_commits_fencing_check_is_one_statement_text_whatever_its_number_of_leases(
        store, leases, clock):
    """The fencing check of 3 leases and of 12 is the same SQL (two arrays, not a tuple IN of 3n
    parameters that the driver parsed anew each commit), and still finds a lost lease among them."""
    codes = [f"ROOM{n}" for n in range(12)]
    held = {code: leases.acquire(code, "hall-1") for code in codes}
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    def check(some: list[str]) -> None:
        with store.engine.begin() as connection:
            Fence.check_all(connection, [fence(held[code]) for code in some])

    sa.event.listen(store.engine, "before_cursor_execute", count)
    try:
        check(codes[:3])
        check(codes)
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", count)
    assert len(statements) == 2 and statements[0] == statements[1], statements
    clock.advance(LENGTH)
    leases.acquire("ROOM7", "hall-2")
    held = {code: leases.renew(lease) or lease for code, lease in held.items()}
    with pytest.raises(LeaseLost, match="1 of the 12 rooms' leases"):
        check(codes)
    assert leases.holder("ROOM7").owner == "hall-2"


def test_the_fencing_check_runs_a_statement_built_once_for_one_lease_or_many(store, leases):
    """Each commit built its one-lease fence anew (SQLAlchemy's generative calls and cache key:
    about 85 us of a one-move commit's 195 on PostgreSQL, the usual commit of a hall not saturated);
    now the same statement object runs every time, and PostgreSQL's check of many is one too."""
    held = {code: leases.acquire(code, "hall-1") for code in ("ROOM1", "ROOM2", "ROOM3")}
    executed: list[object] = []

    def note(conn: object, statement: object, *args: object) -> None:
        executed.append(statement)

    sa.event.listen(store.engine, "before_execute", note)
    try:
        for some in (["ROOM1"], ["ROOM2"], ["ROOM1", "ROOM2", "ROOM3"], ["ROOM2", "ROOM3"]):
            with store.engine.begin() as connection:
                Fence.check_all(connection, [fence(held[code]) for code in some])
    finally:
        sa.event.remove(store.engine, "before_execute", note)
    assert executed[0] is executed[1], "one lease's fence was built anew"
    if store.url.startswith("postgresql"):
        assert executed[2] is executed[3], "many leases' fence was built anew"


def test_a_renewal_renews_the_leases_still_held_and_leaves_out_those_that_changed_hands(store, leases, clock):
    kept, lost = leases.acquire("ROOM1", "hall-1"), leases.acquire("ROOM2", "hall-1")
    clock.advance(LENGTH)
    leases.acquire("ROOM2", "hall-2")  # taken over after it expired
    renewed: dict[str, float] = {}
    run_apart(store.write([leases.renewing("hall-1", {"ROOM1": kept.token, "ROOM2": lost.token}, renewed)]))
    assert renewed == {"ROOM1": clock.now() + LENGTH}
    assert leases.holder("ROOM1").expires == clock.now() + LENGTH
    assert leases.holder("ROOM2").owner == "hall-2"


@pytest.mark.parametrize("store", ["postgresql"], indirect=True)  # SQLite has one writer at a time
def test_a_renewal_waits_for_the_group_commit_under_way_instead_of_deadlocking_with_it(store, leases):
    """A commit fencing its rooms in one order while the renewal of the same leases comes in: the
    renewal goes through the same writer, after the commit, where on a connection of its own it
    locked the rows in another order and one of the two was aborted as a deadlock."""
    first, second = leases.acquire("ROOM1", "hall-1"), leases.acquire("ROOM2", "hall-1")
    inside, go_on = threading.Event(), threading.Event()

    def meanwhile(_: sa.Connection) -> None:
        inside.set()
        assert go_on.wait(WITHIN)

    async def play() -> dict[str, float]:
        commit = asyncio.ensure_future(store.write([fence(second), meanwhile, fence(first)]))
        assert await asyncio.to_thread(inside.wait, WITHIN)  # the commit holds ROOM2's row
        renewed: dict[str, float] = {}
        renewal = asyncio.ensure_future(store.write([leases.renewing("hall-1", {"ROOM1": 1, "ROOM2": 1}, renewed)]))
        await asyncio.sleep(0)  # queued behind the commit
        go_on.set()
        await asyncio.gather(commit, renewal)
        return renewed

    assert set(run_apart(play())) == {"ROOM1", "ROOM2"}


@pytest.mark.parametrize("store", ["postgresql"], indirect=True)  # SQLite has one writer at a time
def test_on_postgresql_a_takeover_waits_for_the_old_owners_commit_under_way_and_sees_its_action(
        store, leases, clock):
    """The race forced: the old owner has passed its fencing check and not yet committed when its
    lease expires and another process takes the room; the takeover waits for that commit, so the
    new owner rebuilds the room with the action in it, and the old owner's next commit fails."""
    run_apart(store.create_room(room("ROOM1")))
    old = leases.acquire("ROOM1", "hall-1")
    clock.advance(LENGTH)
    taken: list[Lease | None] = []
    with store.engine.connect() as connection:
        transaction = connection.begin()
        check_fence(connection, old)
        connection.execute(actions_table.insert().values(code="ROOM1", turn=0, seat=0, action="{}", by="player",
                                                         at=1.0))
        takeover = threading.Thread(target=lambda: taken.append(leases.acquire("ROOM1", "hall-2")))
        takeover.start()
        wait_until_blocked_on_a_lock(store.engine)
        assert taken == []
        transaction.commit()
    takeover.join(timeout=WITHIN)
    assert [(lease.owner, lease.token) for lease in taken] == [("hall-2", 2)]
    assert turns(store, "ROOM1") == [0]  # what the new owner rebuilds from
    with pytest.raises(LeaseLost), store.engine.begin() as connection:
        check_fence(connection, old)


def wait_until_blocked_on_a_lock(engine: sa.Engine) -> None:
    waiting = sa.text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                      " AND datname = current_database()")
    deadline = time.monotonic() + WITHIN
    with engine.connect() as watcher:
        while watcher.execute(waiting).scalar() == 0:
            assert time.monotonic() < deadline, "the takeover never waited for the lease's row"
            time.sleep(0.01)
            watcher.commit()  # pg_stat_activity is a snapshot per transaction


def test_a_room_claimed_while_a_renewal_runs_keeps_its_lease_renewed(tmp_path: Path) -> None:
    """A renewal that comes while a claimed room is still catching up (before it leads) does not let
    go of its lease: it was so let go of, never renewed again, and taken over by another hall
    LENGTH later while its owner still applied it (a move answered ``retry``; session 19)."""
    from types import SimpleNamespace

    from parlour.hall.cluster.node import Node

    store = SqlStore(f"sqlite:///{tmp_path / 'hall.sqlite3'}")
    try:
        node = Node(store, "redis://127.0.0.1:1/0", "127.0.0.1:1", secret="the cluster's secret, for a test")

        class CatchingUp:
            code, leading = "ROOM1", False

            def __init__(self) -> None:
                self.inside, self.go_on = asyncio.Event(), asyncio.Event()

            async def became_owner(self, lease: Lease) -> None:
                self.inside.set()
                await self.go_on.wait()  # reading what its last owner committed
                self.leading = True

        room = CatchingUp()
        node._hall = SimpleNamespace(rooms={room.code: room}, store=store, draining=False)  # type: ignore[assignment]

        async def play() -> None:
            claiming = asyncio.ensure_future(node.claim(room))  # type: ignore[arg-type]
            await asyncio.wait_for(asyncio.wait([claiming, asyncio.ensure_future(room.inside.wait())],
                                                return_when=asyncio.FIRST_COMPLETED), WITHIN)
            assert room.inside.is_set(), claiming.exception() if claiming.done() else "no claim"
            await node.renew()  # a renewal while the room catches up
            room.go_on.set()
            assert await asyncio.wait_for(claiming, WITHIN) is None
            assert room.code in node.held
            before = node.held[room.code].expires
            time.sleep(0.01)
            await node.renew()  # and the next one renews it
            assert node.held[room.code].expires > before

        run_apart(play())
    finally:
        store.close()
