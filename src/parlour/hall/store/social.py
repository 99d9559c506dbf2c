"""Friends, blocks, invitations, reputation and a player's own data: the SQL of
:mod:`parlour.hall.social` (which bounds, throttles and decides; this only reads and writes rows).

    rows = store.social
    await rows.follow(ana.id, bo.id, now)
    await rows.blocked_by(ana.id)   # -> the accounts Ana blocks
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
    blocks_table,
    chat_table,
    follows_table,
    invitations_table,
    moderation_log_table,
    notify_settings_table,
    outbox_table,
    push_subscriptions_table,
    ratings_table,
    reports_table,
    roles_table,
    room_players_table,
    rooms_table,
    sanctions_table,
    sessions_table,
    turn_alerts_table,
)

RATES_KEPT = 86400.0  # seconds the outbox keeps a deleted account's sent mail (its address alone): the rates' day



@dataclass(frozen=True)
class Named:
    """An account another points at (a friend, a block), with when."""

    id: int
    name: str
    since: float


@dataclass(frozen=True)
class Invitation:
    id: int
    sender: str
    room: str
    created: float


@dataclass(frozen=True)
class Reputation:
    """Of a player's games that ended or that they left: ``finished`` they played to the end,
    ``left`` they forfeited before it ended, and how (the seat's ``left`` in the room's record,
    room/leaving.py): ``resigned`` (they chose to), ``away`` (gone too long, or a turn-based
    seat whose time ran out: the others or the host gave it to a bot), ``abandoned`` (nobody
    played for an hour: the hall ended the game), ``timed_out`` (a bot account that let its turn
    timer run out: docs/bot-api.md); ``left`` counts also seats given to a bot before the hall
    recorded how (none of these)."""

    finished: int
    left: int
    resigned: int = 0
    away: int = 0
    abandoned: int = 0
    timed_out: int = 0


class SocialRows(Rows):
    """The rows behind friends, blocks, invitations, reputation and "your data"."""

    # -- follows and blocks -------------------------------------------------------------------------
    async def follow(self, account: int, friend: int, now: float, most: int) -> bool:
        """``account`` follows ``friend``; False if it did already. :class:`StoreError` past ``most``."""
        return await self._pointing(follows_table, "friend", account, friend, now, most)

    async def block(self, account: int, blocked: int, now: float, most: int) -> bool:
        return await self._pointing(blocks_table, "blocked", account, blocked, now, most)

    async def _pointing(self, table: sa.Table, column: str, account: int, other: int, now: float, most: int) -> bool:
        added: list[bool] = []

        def add(conn: sa.Connection) -> None:
            there = conn.execute(sa.select(table.c.account).where(
                table.c.account == account, table.c[column] == other)).first()
            if there is not None:
                added.append(False)
                return
            count = conn.execute(sa.select(sa.func.count()).select_from(table)
                                 .where(table.c.account == account)).scalar()
            if (count or 0) >= most:
                raise StoreError(f"at most {most}")
            conn.execute(table.insert().values({"account": account, column: other, "created": now}))
            added.append(True)

        await self._write([add])
        return added[0]

    async def unfollow(self, account: int, friend: int) -> None:
        t = follows_table
        await self._write([(t.delete().where(t.c.account == account, t.c.friend == friend), {})])

    async def unblock(self, account: int, blocked: int) -> None:
        t = blocks_table
        await self._write([(t.delete().where(t.c.account == account, t.c.blocked == blocked), {})])

    async def follows(self, account: int) -> list[Named]:
        return list(await self._read(lambda conn: _pointed(conn, follows_table, "friend", account)))

    async def blocks(self, account: int) -> list[Named]:
        return list(await self._read(lambda conn: _pointed(conn, blocks_table, "blocked", account)))

    async def blocked_by(self, account: int) -> set[int]:
        """The accounts ``account`` blocks."""
        t = blocks_table
        return set(await self._read(lambda conn: conn.execute(
            sa.select(t.c.blocked).where(t.c.account == account)).scalars().all()))

    async def blockers(self, account: int, among: list[int]) -> set[int]:
        """Those of ``among`` who block ``account``."""
        t = blocks_table
        if not among:
            return set()
        return set(await self._read(lambda conn: conn.execute(
            sa.select(t.c.account).where(t.c.blocked == account, t.c.account.in_(among))).scalars().all()))

    # -- invitations ----------------------------------------------------------------------------------
    async def invite(self, sender: int, recipient: int, room: str, now: float, pending_most: int) -> bool:
        """An invitation to ``room``; False when one from ``sender`` to it waits already.
        :class:`StoreError` when ``recipient`` has ``pending_most`` unseen invitations."""
        t = invitations_table
        added: list[bool] = []

        def add(conn: sa.Connection) -> None:
            unseen = t.c.recipient == recipient, t.c.seen == sa.false()
            if conn.execute(sa.select(t.c.id).where(*unseen, t.c.sender == sender, t.c.room == room)).first():
                added.append(False)
                return
            if (conn.execute(sa.select(sa.func.count()).select_from(t).where(*unseen)).scalar() or 0) >= pending_most:
                raise StoreError(f"at most {pending_most} invitations wait")
            conn.execute(t.insert().values(sender=sender, recipient=recipient, room=room, created=now, seen=False))
            added.append(True)

        await self._write([add])
        return added[0]

    async def invitations(self, recipient: int) -> list[Invitation]:
        """The invitations ``recipient`` has not seen, oldest first; they count as seen from now."""
        t, a = invitations_table, accounts_table
        found: list[Invitation] = []

        def take(conn: sa.Connection) -> None:
            rows = conn.execute(sa.select(t.c.id, a.c.name, t.c.room, t.c.created).join(a, a.c.id == t.c.sender)
                                .where(t.c.recipient == recipient, t.c.seen == sa.false()).order_by(t.c.id))
            found.extend(Invitation(row.id, row.name, row.room, row.created) for row in rows)
            if found:
                conn.execute(t.update().where(t.c.id.in_([i.id for i in found])).values(seen=True))

        await self._write([take])
        return found

    # -- reputation -----------------------------------------------------------------------------------
    async def reputation(self, account: int) -> Reputation:
        rp, rooms = room_players_table, rooms_table

        def count(conn: sa.Connection) -> Reputation:
            finished = conn.execute(
                sa.select(sa.func.count()).select_from(rp).join(rooms, rooms.c.code == rp.c.code)
                .where(rp.c.account == account, rooms.c.status == "over", rp.c.forfeit == sa.false())).scalar()
            how: dict[str, int] = {"resigned": 0, "away": 0, "abandoned": 0, "timed_out": 0}
            left = 0
            for seat, seats in conn.execute(sa.select(rp.c.seat, rooms.c.seats).join(rooms, rooms.c.code == rp.c.code)
                                            .where(rp.c.account == account, rp.c.forfeit == sa.true())):
                left += 1
                records = json.loads(seats)
                why = records[seat].get("left") if 0 <= seat < len(records) else None
                if why in how:
                    how[why] += 1
            return Reputation(int(finished or 0), left, **how)

        return await self._read(count)  # type: ignore[no-any-return]

    # -- a player's own data --------------------------------------------------------------------------
    async def everything(self, account: int) -> dict[str, Any]:
        """All the hall keeps about ``account`` (never a password hash, nor a session's)."""
        return await self._read(lambda conn: _everything(conn, account))  # type: ignore[no-any-return]

    async def forget(self, account: int, anonymous: str, anonymous_key: str, now: float) -> list[str]:
        """The account no longer links to its person: renamed ``anonymous``, its password, sessions,
        friends, blocks, invitations, roles and the reports it made gone, and its e-mail address,
        alerts and push browsers; its seats in every room and its chat lines carry the new name.
        Of the mail and push it was sent, only what went in the last day stays, without its text
        (the rates count it: deleting an account must not let anyone aim more mail at an address).
        Returns the codes of the rooms rewritten."""
        codes: list[str] = []

        def forget(conn: sa.Connection) -> None:
            a = accounts_table
            row = conn.execute(sa.select(a.c.name).where(a.c.id == account)).first()
            if row is None:
                raise StoreError("no such account")
            conn.execute(a.update().where(a.c.id == account).values(
                name=anonymous, name_key=anonymous_key, password=None, kind="gone"))
            conn.execute(sessions_table.delete().where(sessions_table.c.account == account))
            for table, column in ((follows_table, "account"), (follows_table, "friend"), (blocks_table, "account"),
                                  (blocks_table, "blocked"), (invitations_table, "sender"),
                                  (invitations_table, "recipient"), (roles_table, "account"),
                                  (reports_table, "reporter")):
                conn.execute(table.delete().where(table.c[column] == account))
            conn.execute(ratings_table.delete().where(ratings_table.c.account == account))
            for table in (notify_settings_table, push_subscriptions_table, turn_alerts_table):
                conn.execute(table.delete().where(table.c.account == account))
            out = outbox_table
            conn.execute(out.delete().where(out.c.account == account, sa.or_(
                out.c.due.is_not(None), out.c.created < now - RATES_KEPT)))
            conn.execute(out.update().where(out.c.account == account).values(subject="", body="", link=None))
            chat = chat_table
            conn.execute(chat.update().where(chat.c.account == account).values(name=anonymous))
            # what moderators read of them (reports about them, the log) keeps no trace of the old name
            conn.execute(reports_table.update().where(reports_table.c.account == account).values(name=anonymous))
            log = moderation_log_table
            conn.execute(log.update().where(log.c.account == account).values(target=anonymous))
            rp, rooms = room_players_table, rooms_table
            for code, seats_json in conn.execute(sa.select(rooms.c.code, rooms.c.seats).join(
                    rp, rp.c.code == rooms.c.code).where(rp.c.account == account)).all():
                seats = json.loads(seats_json)
                for seat in seats:
                    if seat.get("account") == account:
                        seat["name"], seat["profile"] = anonymous, None
                conn.execute(rooms.update().where(rooms.c.code == code).values(seats=json.dumps(seats)))
                codes.append(code)

        await self._write([forget])
        return codes


def _pointed(conn: sa.Connection, table: sa.Table, column: str, account: int) -> list[Named]:
    a = accounts_table
    rows = conn.execute(sa.select(a.c.id, a.c.name, table.c.created).join(a, a.c.id == table.c[column])
                        .where(table.c.account == account).order_by(a.c.name_key))
    return [Named(row.id, row.name, row.created) for row in rows]


def _everything(conn: sa.Connection, account: int) -> dict[str, Any]:
    a = accounts_table
    me = conn.execute(sa.select(a.c.name, a.c.kind, a.c.created).where(a.c.id == account)).one()
    rp, rooms, chat = room_players_table, rooms_table, chat_table
    games = [{"room": row.code, "game": row.game, "status": row.status, "seat": row.seat, "rank": row.rank,
              "rating_change": row.change, "left_before_the_end": row.forfeit, "created": row.created}
             for row in conn.execute(sa.select(rooms.c.code, rooms.c.game, rooms.c.status, rooms.c.created, rp.c.seat,
                                               rp.c.rank, rp.c.change, rp.c.forfeit)
                                     .join(rp, rp.c.code == rooms.c.code).where(rp.c.account == account)
                                     .order_by(rooms.c.created))]
    lines = [{"room": row.code, "n": row.n, "at": row.at, "text": row.text, "hidden_by_a_moderator": row.hidden}
             for row in conn.execute(sa.select(chat.c.code, chat.c.n, chat.c.at, chat.c.text, chat.c.hidden)
                                     .where(chat.c.account == account).order_by(chat.c.at))]
    rt = ratings_table
    ratings = [{"game": row.game, "rating": row.rating, "mu": row.mu, "sigma": row.sigma, "games": row.games}
               for row in conn.execute(sa.select(rt).where(rt.c.account == account))]
    inv = invitations_table
    sent = [{"room": row.room, "to": row.name, "at": row.created} for row in conn.execute(
        sa.select(inv.c.room, inv.c.created, a.c.name).join(a, a.c.id == inv.c.recipient)
        .where(inv.c.sender == account))]
    received = [{"room": row.room, "from": row.name, "at": row.created} for row in conn.execute(
        sa.select(inv.c.room, inv.c.created, a.c.name).join(a, a.c.id == inv.c.sender)
        .where(inv.c.recipient == account))]
    rep = reports_table
    reports = [{"player": row.name, "room": row.room, "line": row.line, "reason": row.reason, "at": row.created,
                "status": row.status} for row in conn.execute(sa.select(rep).where(rep.c.reporter == account))]
    s, log = sanctions_table, moderation_log_table
    sanctions = [{"kind": row.kind, "reason": row.reason, "starts": row.starts, "ends": row.ends, "lifted": row.lifted}
                 for row in conn.execute(sa.select(s).where(s.c.account == account))]
    warnings = [{"reason": row.reason, "at": row.at} for row in conn.execute(
        sa.select(log.c.reason, log.c.at).where(log.c.account == account, log.c.action == "warn"))]
    roles = list(conn.execute(sa.select(roles_table.c.role).where(roles_table.c.account == account)).scalars())
    ns, push, out = notify_settings_table, push_subscriptions_table, outbox_table
    found = conn.execute(sa.select(ns).where(ns.c.account == account)).first()
    notifications = None if found is None else {
        "email": found.email, "confirmed": found.confirmed, "turns": found.turns, "daily": found.daily,
        "invites": found.invites,
        "push_browsers": [{"endpoint": row.endpoint, "since": row.created} for row in conn.execute(
            sa.select(push.c.endpoint, push.c.created).where(push.c.account == account))]}
    sent_to_me = [{"channel": row.channel, "kind": row.kind, "subject": row.subject, "at": row.created,
                   "sent": row.sent} for row in conn.execute(
        sa.select(out.c.channel, out.c.kind, out.c.subject, out.c.created, out.c.sent)
        .where(out.c.account == account).order_by(out.c.created))]
    return {"account": {"name": me.name, "kind": me.kind, "created": me.created, "roles": roles},
            "friends": [{"name": n.name, "since": n.since} for n in _pointed(conn, follows_table, "friend", account)],
            "blocks": [{"name": n.name, "since": n.since} for n in _pointed(conn, blocks_table, "blocked", account)],
            "games": games, "ratings": ratings, "chat_lines": lines,
            "invitations": {"sent": sent, "received": received}, "reports_made": reports,
            "sanctions": sanctions, "warnings": warnings, "notifications": notifications,
            "mail_and_push": sent_to_me}
