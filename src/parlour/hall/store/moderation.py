"""Moderators, reports, sanctions and the moderation log: the SQL of
:mod:`parlour.hall.moderation` (which decides who may do what; this only reads and writes rows).

    rows = store.moderation
    await rows.report(Report(...), around=10)      # keeps a copy of the chat lines around it
    await rows.act(entry, sanction)                # a sanction and its log line, in one transaction
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from .records import StoreError
from .rows import Rows
from .schema import (
    accounts_table,
    chat_table,
    moderation_log_table,
    reports_table,
    roles_table,
    sanctions_table,
    sessions_table,
)


@dataclass(frozen=True)
class Report:
    reporter: int
    account: int | None  # the reported player's account; None: a guest, known by ``name`` in ``room``
    name: str
    room: str | None
    line: int | None
    reason: str
    created: float


@dataclass(frozen=True)
class Sanction:
    kind: str  # mute | ban | close
    account: int | None
    address: str | None
    room: str | None
    reason: str
    starts: float
    ends: float | None


@dataclass(frozen=True)
class LogEntry:
    """One moderator's action, as the log keeps it."""

    moderator: int
    action: str
    account: int | None
    target: str | None
    room: str | None
    line: int | None
    days: float | None
    reason: str
    report: int | None
    at: float


class ModerationRows(Rows):
    # -- roles ----------------------------------------------------------------------------------------
    async def roles(self, account: int) -> set[str]:
        r = roles_table
        return set(await self._read(lambda conn: conn.execute(
            sa.select(r.c.role).where(r.c.account == account)).scalars().all()))

    async def grant(self, account: int, role: str) -> bool:
        """False if ``account`` had ``role`` already."""
        return await self._role(account, role, True)

    async def revoke(self, account: int, role: str) -> bool:
        """False if ``account`` did not have ``role``."""
        return await self._role(account, role, False)

    async def _role(self, account: int, role: str, give: bool) -> bool:
        r = roles_table
        changed: list[bool] = []

        def change(conn: sa.Connection) -> None:
            has = conn.execute(sa.select(r.c.role).where(r.c.account == account, r.c.role == role)).first() is not None
            if give and not has:
                conn.execute(r.insert().values(account=account, role=role))
            elif has and not give:
                conn.execute(r.delete().where(r.c.account == account, r.c.role == role))
            changed.append(has != give)

        await self._write([change])
        return changed[0]

    # -- reports --------------------------------------------------------------------------------------
    async def reports_since(self, reporter: int, since: float) -> int:
        r = reports_table
        return int(await self._read(lambda conn: conn.execute(sa.select(sa.func.count()).select_from(r).where(
            r.c.reporter == reporter, r.c.created >= since)).scalar() or 0))

    async def report(self, report: Report, around: int) -> int:
        """Keeps ``report`` with a copy of the room's chat lines around the line reported (``around``
        before and after; without a line, the room's last ``around`` lines, hidden ones too), so
        that hiding or losing them later changes nothing of what a moderator reads. Its number."""
        made: list[int] = []

        def add(conn: sa.Connection) -> None:
            evidence: list[dict[str, Any]] = []
            if report.room is not None:
                c = chat_table
                query = sa.select(c.c.n, c.c.at, c.c.kind, c.c.seat, c.c.name, c.c.text).where(c.c.code == report.room)
                if report.line is not None:
                    query = query.where(c.c.n >= report.line - around, c.c.n <= report.line + around).order_by(c.c.n)
                    rows = list(conn.execute(query))
                    if not any(row.n == report.line for row in rows):
                        raise StoreError(f"room {report.room} has no chat line {report.line}")
                else:
                    rows = list(conn.execute(query.order_by(c.c.n.desc()).limit(around)))[::-1]
                evidence = [{"n": row.n, "at": row.at, "kind": row.kind, "seat": row.seat, "name": row.name,
                             "text": row.text} for row in rows]
            key = conn.execute(reports_table.insert().values(
                reporter=report.reporter, account=report.account, name=report.name, room=report.room,
                line=report.line, reason=report.reason, evidence=json.dumps(evidence), created=report.created,
                status="open")).inserted_primary_key
            assert key is not None
            made.append(int(key[0]))

        await self._write([add])
        return made[0]

    async def open_reports(self, limit: int) -> list[dict[str, Any]]:
        """The reports no moderator has acted on, oldest first, with what they reported."""
        r, a = reports_table, accounts_table

        def read(conn: sa.Connection) -> list[dict[str, Any]]:
            rows = conn.execute(sa.select(r, a.c.name.label("reporter_name")).join(a, a.c.id == r.c.reporter)
                                .where(r.c.status == "open").order_by(r.c.id).limit(limit))
            return [{"id": row.id, "reporter": row.reporter_name, "player": row.name,
                     "signed_in": row.account is not None,
                     "room": row.room, "line": row.line, "reason": row.reason, "created": row.created,
                     "evidence": json.loads(row.evidence)} for row in rows]

        return list(await self._read(read))

    # -- sanctions and the log -------------------------------------------------------------------------
    async def act(self, entry: LogEntry, sanction: Sanction | None = None, lift: str | None = None,
                  hide: tuple[str, int] | None = None, end_sessions: bool = False) -> None:
        """One moderator's action in one transaction: its log line, the ``sanction`` it gives, the
        ``lift`` of the player's (or address's) sanctions of that kind, a chat line it hides, the
        sessions it ends; the report it answers is closed."""
        def act(conn: sa.Connection) -> None:
            s = sanctions_table
            if lift is not None:
                who = s.c.account == entry.account if entry.account is not None else s.c.address == entry.target
                conn.execute(s.update().where(who, s.c.kind == lift).values(lifted=True))
            if sanction is not None:
                conn.execute(s.insert().values(kind=sanction.kind, account=sanction.account, address=sanction.address,
                                               room=sanction.room, reason=sanction.reason, starts=sanction.starts,
                                               ends=sanction.ends, lifted=False))
            if hide is not None:
                c = chat_table
                done = conn.execute(c.update().where(c.c.code == hide[0], c.c.n == hide[1]).values(hidden=True))
                if done.rowcount == 0:
                    raise StoreError(f"room {hide[0]} has no chat line {hide[1]}")
            if end_sessions and entry.account is not None:
                conn.execute(sessions_table.delete().where(sessions_table.c.account == entry.account))
            if entry.report is not None:
                conn.execute(reports_table.update().where(reports_table.c.id == entry.report).values(status="closed"))
            conn.execute(moderation_log_table.insert().values(
                moderator=entry.moderator, action=entry.action, account=entry.account, target=entry.target,
                room=entry.room, line=entry.line, days=entry.days, reason=entry.reason, report=entry.report,
                at=entry.at, seen=entry.action != "warn"))

        await self._write([act])

    async def in_force(self, now: float) -> list[Sanction]:
        """Every sanction in force at ``now`` or later (not lifted, not ended)."""
        s = sanctions_table
        query = (sa.select(s).where(s.c.lifted == sa.false(), sa.or_(s.c.ends.is_(None), s.c.ends > now))
                 .order_by(s.c.id))
        return [Sanction(row.kind, row.account, row.address, row.room, row.reason, row.starts, row.ends)
                for row in await self._read(lambda conn: list(conn.execute(query)))]

    async def log(self, limit: int) -> list[dict[str, Any]]:
        """The newest ``limit`` actions, newest first, each with who took it."""
        g, a = moderation_log_table, accounts_table
        query = (sa.select(g, a.c.name.label("moderator_name")).join(a, a.c.id == g.c.moderator)
                 .order_by(g.c.id.desc()).limit(limit))
        return [{"id": row.id, "moderator": row.moderator_name, "action": row.action, "target": row.target,
                 "room": row.room, "line": row.line, "days": row.days, "reason": row.reason, "report": row.report,
                 "at": row.at} for row in await self._read(lambda conn: list(conn.execute(query)))]

    async def warnings(self, account: int) -> list[dict[str, Any]]:
        """The warnings ``account`` has not seen yet; they count as seen from now."""
        g = moderation_log_table
        found: list[dict[str, Any]] = []

        def take(conn: sa.Connection) -> None:
            unseen = (g.c.account == account, g.c.action == "warn", g.c.seen == sa.false())
            found.extend({"reason": row.reason, "at": row.at} for row in conn.execute(
                sa.select(g.c.reason, g.c.at).where(*unseen).order_by(g.c.id)))
            if found:
                conn.execute(g.update().where(*unseen).values(seen=True))

        await self._write([take])
        return found
