"""Who applies a room when several hall processes share the store: a lease per room, with a fencing
token that the transaction committing an action checks.

    leases = store.leases(clock.now)                      # blocking calls: run them on a thread
    lease = leases.acquire("KUYWKA", owner="hall-2")      # None while another process holds it
    lease = leases.renew(lease)                          # None once it was lost
    await store.append_action(code, record, lease=lease)  # refused if lost meanwhile

The row ``room_leases(code, owner, token, expires)`` changes hands only when its lease has expired
(or was released), and its ``token`` goes up by one each time, so a process that held the room
before can be told apart from the one that holds it now even if both believe they own it. Expiry
is decided by the clock of the process that acquires (the hall's clocks are taken to agree to well
within a lease's length); fencing does not depend on clocks at all: a commit passes only with the
token the row holds at that moment, and the check is a write to the row, so on PostgreSQL a
takeover waits for a commit under way and then rebuilds the room with that action in it.

The clustered hall (:mod:`parlour.hall.cluster.node`) uses it; the single-process hall does not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from .records import Lease, LeaseLost
from .schema import room_leases_table as leases_table
from .schema import rooms_table
from .writes import Precondition, Write

LENGTH = 5.0  # seconds a lease lasts unless renewed (the owner renews it well before)
RENEW_BATCH = 500  # rooms renewed by one statement


class Leases:
    """Acquire, renew and release rooms' leases on the store's database. Every method blocks on the
    database: the cluster calls them on a thread (or at start and stop, off the event loop)."""

    def __init__(self, engine: sa.Engine, now: Callable[[], float], length: float = LENGTH) -> None:
        self.engine, self.now, self.length = engine, now, length

    def holder(self, code: str) -> Lease | None:
        """The room's lease as the database has it (perhaps expired), or None if it never had one."""
        with self.engine.connect() as connection:
            row = connection.execute(sa.select(leases_table).where(leases_table.c.code == code)).first()
        return None if row is None else Lease(row.code, row.owner, row.token, row.expires)

    def acquire(self, code: str, owner: str) -> Lease | None:
        """The room's lease for ``owner``: taken if free or expired (with the next token), or the
        one ``owner`` already holds; None while another owner's lease runs."""
        now = self.now()
        expires = now + self.length
        with self.engine.begin() as connection:  # expired: take it over, one token further
            taken = connection.execute(
                leases_table.update()
                .where(leases_table.c.code == code, leases_table.c.expires <= now)
                .values(owner=owner, token=leases_table.c.token + 1, expires=expires))
        if taken.rowcount == 0:
            try:
                with self.engine.begin() as connection:  # never had one: the first token
                    connection.execute(leases_table.insert().values(code=code, owner=owner, token=1,
                                                                    expires=expires))
            except sa.exc.IntegrityError:
                pass  # there is a row: someone holds it (perhaps we do)
        lease = self.holder(code)
        return lease if lease is not None and lease.owner == owner else None

    def renew(self, lease: Lease) -> Lease | None:
        """``lease`` lasting a full length from now, or None if the room changed hands since."""
        expires = self.now() + self.length
        with self.engine.begin() as connection:
            renewed = connection.execute(
                leases_table.update()
                .where(held(lease))
                .values(expires=expires))
        return Lease(lease.code, lease.owner, lease.token, expires) if renewed.rowcount == 1 else None

    def renewing(self, owner: str, tokens: dict[str, int], renewed: dict[str, float]) -> Write:
        """A write that renews every lease ``owner`` holds of the rooms ``tokens`` names (room code
        -> token), a few statements in all, and puts the new expiry of each renewed one into
        ``renewed``; a room left out changed hands. It is for the store's writer, which commits
        this process's actions with their fencing checks one transaction after another: run on a
        connection of its own, a renewal locked lease rows in another order than a group commit
        under way and the two deadlocked (seen with two saturated halls)."""
        def renew(connection: sa.Connection) -> None:
            renewed.clear()  # run again alone if the group commit it was part of failed
            expires = self.now() + self.length
            codes = list(tokens)
            for start in range(0, len(codes), RENEW_BATCH):
                rows = connection.execute(
                    leases_table.update()
                    .where(leases_table.c.owner == owner, leases_table.c.code.in_(codes[start:start + RENEW_BATCH]))
                    .values(expires=expires)
                    .returning(leases_table.c.code, leases_table.c.token))
                renewed.update((row.code, expires) for row in rows if tokens.get(row.code) == row.token)
        return renew

    def unowned(self, limit: int = 1000) -> list[str]:
        """Rooms being played whose lease has expired or that never had one: nobody applies them."""
        query = (sa.select(rooms_table.c.code)
                 .select_from(rooms_table.outerjoin(leases_table, leases_table.c.code == rooms_table.c.code))
                 .where(rooms_table.c.status == "playing",
                        sa.or_(leases_table.c.code.is_(None), leases_table.c.expires <= self.now()))
                 .limit(limit))
        with self.engine.connect() as connection:
            return list(connection.execute(query).scalars())

    def release(self, lease: Lease) -> None:
        """Give the room up at once (a process stopping cleanly), if it is still ours."""
        with self.engine.begin() as connection:
            connection.execute(
                leases_table.update()
                .where(held(lease))
                .values(expires=self.now() - self.length))


    def release_all(self, owner: str) -> int:
        """Give up every room ``owner`` holds at once (a process draining to stop); returns how many."""
        with self.engine.begin() as connection:
            return connection.execute(
                leases_table.update()
                .where(leases_table.c.owner == owner, leases_table.c.expires > self.now())
                .values(expires=self.now() - self.length)).rowcount


def held(lease: Lease) -> sa.ColumnElement[bool]:
    """The lease's row, as long as it is still this lease (same owner, same token)."""
    return sa.and_(leases_table.c.code == lease.code, leases_table.c.owner == lease.owner,
                   leases_table.c.token == lease.token)


def check_fence(connection: sa.Connection, lease: Lease) -> None:
    """Raise :class:`LeaseLost` unless the room's lease still carries ``lease``'s token and owner.
    Run it in the transaction that commits the room's action: it locks the lease's row until that
    transaction ends, so the lease cannot change hands between the check and the commit."""
    checked = connection.execute(
        leases_table.update()
        .where(held(lease))
        .values(token=leases_table.c.token))
    if checked.rowcount != 1:
        raise LeaseLost(f"room {lease.code}'s lease (token {lease.token}) is no longer {lease.owner}'s:"
                        " another process applies it now")


@dataclass(frozen=True)
class Fence(Precondition):
    """The fencing check of ``lease`` as one of a transaction's writes (:func:`fence`)."""

    lease: Lease

    @classmethod
    def check_all(cls, conn: sa.Connection, items: list[Any]) -> None:
        """Every lease of the transaction's writes, checked and its row locked in one statement;
        :class:`LeaseLost` if one is lost (the writer then commits each room's writes alone, and
        only the room whose lease was lost is refused, with its own words)."""
        leases = list({(f.lease.code, f.lease.owner, f.lease.token): f.lease for f in items}.values())
        if len(leases) == 1:
            check_fence(conn, leases[0])
            return
        if conn.dialect.name == "postgresql":
            owners: dict[str, list[Lease]] = {}
            for lease in sorted(leases, key=lambda lease: lease.code):  # rows locked in one order
                owners.setdefault(lease.owner, []).append(lease)
            checked = sum(conn.execute(FENCE_MANY, {"owner": owner, "codes": [lease.code for lease in mine],
                                                    "tokens": [lease.token for lease in mine]}).rowcount
                          for owner, mine in owners.items())
        else:
            columns = sa.tuple_(leases_table.c.code, leases_table.c.owner, leases_table.c.token)
            checked = conn.execute(leases_table.update()
                                   .where(columns.in_([(lease.code, lease.owner, lease.token) for lease in leases]))
                                   .values(token=leases_table.c.token)).rowcount
        if checked != len(leases):
            raise LeaseLost(f"{len(leases) - checked} of the {len(leases)} rooms' leases of this commit"
                            " are no longer this process's")


# PostgreSQL: the leases of one owner checked by one statement whose text does not depend on how
# many there are (two arrays), so the driver converts it once and prepares it on the server; a
# tuple IN of n leases was another statement for each n, 3n parameters that psycopg parsed anew
# every commit (a fifteenth of a cluster hall's CPU a move, session 19's profile).
FENCE_MANY = sa.text(
    "UPDATE room_leases SET token = room_leases.token"
    " FROM unnest(CAST(:codes AS VARCHAR[]), CAST(:tokens AS BIGINT[])) AS fenced(code, token)"
    " WHERE room_leases.code = fenced.code AND room_leases.token = fenced.token AND room_leases.owner = :owner")


def fence(lease: Lease) -> Write:
    """The fencing check as one of a store write's ``also`` writes."""
    return Fence(lease)
