"""Turn-based rooms' deadlines and the notifications: the SQL behind :mod:`parlour.hall.notify`
(which decides, rate-limits and sends; this only reads and writes the rows).

    await store.enqueue([Outgoing(account=3, channel="mail", recipient="ana@example.org", ...)], now)
    for item in await store.outbox_due(now, 20): ...
    codes = await store.overdue_rooms(now, 100)      # the one sweeper's look at the indexed deadlines

:class:`NotifySql` is mixed into :class:`~.sql.SqlStore`; :class:`NotifyStore` is its part of the
:class:`~parlour.hall.store.Store` protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import sqlalchemy as sa

from .schema import (
    cluster_settings_table,
    notify_settings_table,
    outbox_table,
    push_subscriptions_table,
    rooms_table,
    turn_alerts_table,
)
from .writes import Write


@dataclass(frozen=True)
class NotifySettings:
    """A player's notification settings (``email`` shown to nobody else)."""

    account: int
    email: str | None
    confirmed: bool
    confirm_token: str | None  # sha256 hex of the pending confirmation link's token
    confirm_expires: float | None
    turns: bool
    daily: bool
    last_daily: float | None = None
    invites: bool = True  # a friend's invitations to their table wanted (by mail, and push)


@dataclass(frozen=True)
class PushSubscription:
    id: int
    account: int
    endpoint: str
    p256dh: str
    auth: str


@dataclass(frozen=True)
class Outgoing:
    """A mail or a push to send (``recipient``: an address, or a push subscription's id)."""

    account: int | None
    channel: str  # mail | push
    recipient: str
    kind: str
    subject: str
    body: str
    link: str | None = None


@dataclass(frozen=True)
class Queued(Outgoing):
    id: int = 0
    attempts: int = 0


@dataclass(frozen=True)
class Deadline:
    """A turn-based room's new deadline, written with the change that set it (``at`` None: none now)."""

    at: float | None


class NotifyStore(Protocol):
    """The store's part for turn-based rooms and notifications."""

    async def notify_settings(self, account: int) -> NotifySettings | None: ...

    async def settings_of(self, accounts: list[int]) -> list[NotifySettings]:
        """The settings of those of ``accounts`` that have some."""
        ...

    async def save_notify_settings(self, settings: NotifySettings, now: float) -> None: ...

    async def settings_by_confirm(self, token_hash: str) -> NotifySettings | None: ...

    async def add_push(self, account: int, endpoint: str, p256dh: str, auth: str, now: float) -> None: ...

    async def pushes_of(self, account: int) -> list[PushSubscription]: ...

    async def push_by_id(self, id: int) -> PushSubscription | None: ...

    async def remove_push(self, account: int, endpoint: str | None = None) -> None:
        """Forget ``account``'s subscription at ``endpoint`` (None: all of them)."""
        ...

    async def enqueue(self, items: list[Outgoing], now: float, alert: tuple[int, str] | None = None) -> None:
        """``items`` into the outbox, due now; ``alert``: (account, room) noted as alerted with them."""
        ...

    async def outbox_due(self, now: float, limit: int, hold: float) -> list[Queued]:
        """Claims up to ``limit`` items due by ``now`` for ``hold`` seconds (another process of the
        hall then leaves them alone; one not done by then is due again)."""
        ...

    async def outbox_waiting(self) -> dict[str, int]:
        """How many items wait to be sent (not sent, not given up), by channel."""
        ...

    async def outbox_done(self, id: int, now: float, error: str | None, retry_at: float | None) -> None:
        """An item went (``error`` None), failed and is retried at ``retry_at``, or failed for good."""
        ...

    async def sent_since(self, since: float, *, recipient: str | None = None, account: int | None = None,
                         channel: str | None = None, kind: str | None = None) -> int:
        """How many items (of ``channel``, ``kind``) were queued since ``since`` to ``recipient`` or
        for ``account``."""
        ...

    async def alerted(self, account: int, code: str) -> bool: ...

    async def clear_alert(self, account: int, code: str) -> None: ...

    async def overdue_rooms(self, now: float, limit: int) -> list[str]:
        """Turn-based rooms being played whose deadline passed and was not yet told (indexed)."""
        ...

    async def mark_overdue(self, code: str) -> bool:
        """Notes that room ``code``'s passed deadline is being told; False if it already was (by
        another process of the hall)."""
        ...

    async def daily_due(self, before: float, limit: int) -> list[NotifySettings]:
        """Confirmed addresses wanting a daily summary whose last one went before ``before``."""
        ...

    async def mark_daily(self, account: int, now: float) -> None: ...

    def setting_blocking(self, name: str, make: str) -> str:
        """The hall setting ``name`` (made ``make`` by the first to ask). Blocking: at start-up."""
        ...


def deadline_write(code: str, deadline: Deadline) -> Write:
    return (SET_DEADLINE, {"room": code, "new_deadline": deadline.at})


SET_DEADLINE = rooms_table.update().where(rooms_table.c.code == sa.bindparam("room")).values(
    deadline=sa.bindparam("new_deadline"), overdue=False)


def _settings(row: Any) -> NotifySettings:
    return NotifySettings(row.account, row.email, row.confirmed, row.confirm_token, row.confirm_expires,
                          row.turns, row.daily, row.last_daily, row.invites)


def _push(row: Any) -> PushSubscription:
    return PushSubscription(row.id, row.account, row.endpoint, row.p256dh, row.auth)


class NotifySql:
    """:class:`NotifyStore` on SQLAlchemy Core, for :class:`~.sql.SqlStore` (its reader threads and
    its writer)."""

    engine: sa.Engine

    async def _read(self, query: Any) -> Any: ...  # SqlStore's

    async def write(self, writes: list[Write]) -> None: ...  # SqlStore's

    async def notify_settings(self, account: int) -> NotifySettings | None:
        t = notify_settings_table
        row = await self._read(lambda c: c.execute(sa.select(t).where(t.c.account == account)).first())
        return None if row is None else _settings(row)

    async def settings_of(self, accounts: list[int]) -> list[NotifySettings]:
        t = notify_settings_table
        rows = await self._read(lambda c: c.execute(sa.select(t).where(t.c.account.in_(accounts))).all())
        return [_settings(row) for row in rows]

    async def save_notify_settings(self, settings: NotifySettings, now: float) -> None:
        t = notify_settings_table
        values = dict(account=settings.account, email=settings.email, confirmed=settings.confirmed,
                      confirm_token=settings.confirm_token, confirm_expires=settings.confirm_expires,
                      turns=settings.turns, daily=settings.daily, last_daily=settings.last_daily, updated=now,
                      invites=settings.invites)
        await self.write([(t.delete().where(t.c.account == sa.bindparam("who")), {"who": settings.account}),
                          (t.insert(), values)])

    async def settings_by_confirm(self, token_hash: str) -> NotifySettings | None:
        t = notify_settings_table
        row = await self._read(lambda c: c.execute(sa.select(t).where(t.c.confirm_token == token_hash)).first())
        return None if row is None else _settings(row)

    async def add_push(self, account: int, endpoint: str, p256dh: str, auth: str, now: float) -> None:
        t = push_subscriptions_table
        await self.write([(t.delete().where(t.c.endpoint == sa.bindparam("at")), {"at": endpoint}),
                          (t.insert(), dict(account=account, endpoint=endpoint, p256dh=p256dh, auth=auth,
                                            created=now))])

    async def pushes_of(self, account: int) -> list[PushSubscription]:
        t = push_subscriptions_table
        rows = await self._read(lambda c: c.execute(sa.select(t).where(t.c.account == account).order_by(t.c.id)).all())
        return [_push(row) for row in rows]

    async def push_by_id(self, id: int) -> PushSubscription | None:
        t = push_subscriptions_table
        row = await self._read(lambda c: c.execute(sa.select(t).where(t.c.id == id)).first())
        return None if row is None else _push(row)

    async def remove_push(self, account: int, endpoint: str | None = None) -> None:
        t = push_subscriptions_table
        where = t.c.account == sa.bindparam("who")
        if endpoint is not None:
            where = where & (t.c.endpoint == sa.bindparam("at"))
        await self.write([(t.delete().where(where), {"who": account, "at": endpoint})])

    async def enqueue(self, items: list[Outgoing], now: float, alert: tuple[int, str] | None = None) -> None:
        writes: list[Write] = [(outbox_table.insert(), dict(
            account=item.account, channel=item.channel, recipient=item.recipient, kind=item.kind,
            subject=item.subject, body=item.body, link=item.link, created=now, due=now, attempts=0))
            for item in items]
        if alert is not None:
            t = turn_alerts_table
            writes.append((t.delete().where((t.c.account == sa.bindparam("who")) & (t.c.code == sa.bindparam("room"))),
                           {"who": alert[0], "room": alert[1]}))
            writes.append((t.insert(), dict(account=alert[0], code=alert[1], at=now)))
        if writes:
            await self.write(writes)

    async def outbox_due(self, now: float, limit: int, hold: float) -> list[Queued]:
        t = outbox_table
        claimed: list[Queued] = []

        def claim(conn: sa.Connection) -> None:  # in the writer's transaction: one process claims each item
            rows = conn.execute(sa.select(t).where(t.c.due <= now).order_by(t.c.due, t.c.id).limit(limit)).all()
            for row in rows:
                taken = conn.execute(t.update().where(t.c.id == row.id, t.c.due == row.due).values(due=now + hold))
                if taken.rowcount == 1:
                    claimed.append(Queued(row.account, row.channel, row.recipient, row.kind, row.subject, row.body,
                                          row.link, id=row.id, attempts=row.attempts))

        await self.write([claim])
        return claimed

    async def outbox_waiting(self) -> dict[str, int]:
        t = outbox_table
        query = sa.select(t.c.channel, sa.func.count()).where(t.c.due.is_not(None)).group_by(t.c.channel)
        return {channel: int(count) for channel, count in await self._read(lambda c: c.execute(query).all())}

    async def outbox_done(self, id: int, now: float, error: str | None, retry_at: float | None) -> None:
        t = outbox_table
        values: dict[str, Any] = {"due": retry_at, "attempts": t.c.attempts + 1, "error": error}
        if error is None:
            values["sent"] = now
        await self.write([(t.update().where(t.c.id == id).values(**values), {})])

    async def sent_since(self, since: float, *, recipient: str | None = None, account: int | None = None,
                         channel: str | None = None, kind: str | None = None) -> int:
        t = outbox_table
        query = sa.select(sa.func.count()).select_from(t).where(t.c.created >= since)
        if recipient is not None:
            query = query.where(t.c.recipient == recipient)
        if account is not None:
            query = query.where(t.c.account == account)
        if channel is not None:
            query = query.where(t.c.channel == channel)
        if kind is not None:
            query = query.where(t.c.kind == kind)
        return int(await self._read(lambda c: c.execute(query).scalar_one()))

    async def alerted(self, account: int, code: str) -> bool:
        t = turn_alerts_table
        query = sa.select(t.c.at).where(t.c.account == account, t.c.code == code)
        return bool(await self._read(lambda c: c.execute(query).first() is not None))

    async def clear_alert(self, account: int, code: str) -> None:
        t = turn_alerts_table
        await self.write([(t.delete().where((t.c.account == sa.bindparam("who")) & (t.c.code == sa.bindparam("room"))),
                           {"who": account, "room": code})])

    async def overdue_rooms(self, now: float, limit: int) -> list[str]:
        r = rooms_table
        query = (sa.select(r.c.code).where(r.c.deadline <= now, r.c.status == "playing",
                                           sa.func.coalesce(r.c.overdue, False) == sa.false())
                 .order_by(r.c.deadline).limit(limit))
        return list(await self._read(lambda c: c.execute(query).scalars().all()))

    async def mark_overdue(self, code: str) -> bool:
        r = rooms_table
        marked: list[bool] = []

        def mark(conn: sa.Connection) -> None:
            taken = conn.execute(r.update().where(r.c.code == code, sa.func.coalesce(r.c.overdue, False) == sa.false())
                                 .values(overdue=True))
            marked.append(taken.rowcount == 1)

        await self.write([mark])
        return bool(marked and marked[0])

    async def daily_due(self, before: float, limit: int) -> list[NotifySettings]:
        t = notify_settings_table
        query = (sa.select(t).where(t.c.daily == sa.true(), t.c.confirmed == sa.true(), t.c.email.is_not(None),
                                    sa.or_(t.c.last_daily.is_(None), t.c.last_daily < before))
                 .order_by(t.c.account).limit(limit))
        return [_settings(row) for row in await self._read(lambda c: c.execute(query).all())]

    async def mark_daily(self, account: int, now: float) -> None:
        t = notify_settings_table
        await self.write([(t.update().where(t.c.account == sa.bindparam("who")).values(last_daily=now),
                           {"who": account})])

    def setting_blocking(self, name: str, make: str) -> str:
        table = cluster_settings_table
        try:
            with self.engine.begin() as connection:
                connection.execute(table.insert().values(name=name, value=make))
        except sa.exc.IntegrityError:
            pass  # another process made it first
        with self.engine.connect() as connection:
            return str(connection.execute(sa.select(table.c.value).where(table.c.name == name)).scalar_one())
