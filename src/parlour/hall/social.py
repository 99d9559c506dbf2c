"""Players and each other: friends (follows), blocks, invitations to a table, reputation, and a
player's own data (download it, delete the account).

    social = Social(hall, accounts)
    await social.follow(ana, "Bo")                 # Bo is Ana's friend: /me lists where he plays
    await social.block(ana, "Cy")                  # Cy's chat never reaches Ana; he cannot sit at her table
    await social.invite(ana, "Bo", "KXMTRA")       # Bo sees it on his next page (and by mail, push)

A block is private: only the blocker ever sees it (their list, their data). What a block does is
checked here (joining, inviting) and at the chat's delivery (:mod:`.room.chat`, ``visible``).
The rows are the store's (:mod:`parlour.hall.store.social`); this bounds, throttles and decides.
"""

from __future__ import annotations

import logging
import secrets
import weakref
from dataclasses import dataclass
from typing import Any, Protocol

from limits import parse

from .accounts import Account, Accounts, name_key
from .errors import HallError
from .hall import Hall
from .room import Room
from .store import Named, StoreError
from .text import clip

FOLLOWS_MAX = 500  # friends one player may follow
BLOCKS_MAX = 1000
PENDING_INVITATIONS = 20  # unseen invitations one player may have waiting
FOLLOWS_RATE = parse("30/hour")  # friends added, per player
INVITES_RATE = parse("20/hour")  # invitations sent, per player
BLOCKS_RATE = parse("60/hour")
SEEN_ONLINE = 5 * 60  # seconds after a player's last request that they still count as online
SEEN_KEPT = 10_000  # players' last requests kept before the old ones are forgotten
INVITE_ALERTS_PER_PAIR = parse("3/day")  # invitations from one player to another told by mail or push
GONE_PREFIX = "gone-"  # the name a deleted account's games keep: links to no one


log = logging.getLogger(__name__)


class BlockedSet(set[int]):
    """The accounts one player blocks, as the connections of theirs hold it (weakly kept here: it
    is forgotten with their last connection)."""


class Teller(Protocol):
    """What tells a player something while they are away (hall/notify/'s Notifier): by mail and
    push, as their settings allow and within its rates."""

    async def notify(self, account: int, kind: str, text: str, link: str, subject: str | None = None,
                     alert: str | None = None) -> list[str]: ...


@dataclass
class Presence:
    online: bool
    room: str | None = None  # the room they sit in, connected
    game: str | None = None


class Social:
    """Friends, blocks, invitations, reputation and "your data", over the hall's store."""

    def __init__(self, hall: Hall, accounts: Accounts, teller: Teller | None = None) -> None:
        self.hall = hall
        self.accounts = accounts
        self.teller = teller  # invitations by mail and push (none: on the next page only)
        self.rows = hall.store.social
        # account -> the accounts it blocks, read once and kept current while a connection of theirs holds it
        self._blocked: weakref.WeakValueDictionary[int, BlockedSet] = weakref.WeakValueDictionary()
        self._seen: dict[int, float] = {}  # account -> the last time it asked the hall anything

    # -- who is who -------------------------------------------------------------------------------
    async def player(self, name: Any, me: Account) -> Account:
        """The person called ``name`` (not ``me``, not a bot): :class:`HallError` in words otherwise."""
        if not isinstance(name, str) or not name.strip() or len(name) > 64:
            raise HallError("bad_request", "give a player's name (at most 64 characters)")
        found = await self.accounts.by_name(name.strip())
        if found is None or found[0].kind == "gone":
            raise HallError("unknown_player", f"there is no player {clip(name, 40)!r}")
        account = found[0]
        if account.kind != "human":
            raise HallError("bad_request", f"{account.name} is a bot: only people can be followed, blocked or invited")
        if account.id == me.id:
            raise HallError("bad_request", "that is you")
        return account

    def saw(self, account: int) -> None:
        """``account`` asked the hall something just now (it counts as online a while)."""
        now = self.hall.clock.now()
        if len(self._seen) >= SEEN_KEPT:  # only the recent ones matter: forget the others
            self._seen = {who: when for who, when in self._seen.items() if now - when < SEEN_ONLINE}
        self._seen[account] = now

    def presence(self, account: int) -> Presence:
        """Whether ``account`` is online, and the room it sits in with a connection, if any."""
        for room in self.hall.rooms.values():
            if room.status == "over":
                continue
            for seat in room.seats:
                if seat.account == account and seat.connections > 0:
                    return Presence(True, room.code, room.game.id)
        return Presence(self.hall.clock.now() - self._seen.get(account, -SEEN_ONLINE) < SEEN_ONLINE)

    # -- friends ----------------------------------------------------------------------------------
    async def follow(self, me: Account, name: Any) -> Account:
        friend = await self.player(name, me)
        self.accounts.take(FOLLOWS_RATE, "follows", str(me.id), "friends added")
        try:
            await self.rows.follow(me.id, friend.id, self.hall.clock.now(), FOLLOWS_MAX)
        except StoreError:
            raise HallError("conflict", f"you follow {FOLLOWS_MAX} players already: unfollow one first") from None
        return friend

    async def unfollow(self, me: Account, name: Any) -> None:
        await self.rows.unfollow(me.id, (await self.player(name, me)).id)

    async def friends(self, me: Account) -> list[dict[str, Any]]:
        out = []
        for friend in await self.rows.follows(me.id):
            where = self.presence(friend.id)
            out.append({"name": friend.name, "since": friend.since, "online": where.online,
                        "room": where.room, "game": where.game,
                        "url": f"/r/{where.room}" if where.room is not None else None})
        return out

    # -- blocks -----------------------------------------------------------------------------------
    async def block(self, me: Account, name: Any) -> Account:
        other = await self.player(name, me)
        self.accounts.take(BLOCKS_RATE, "blocks", str(me.id), "blocks made")
        try:
            await self.rows.block(me.id, other.id, self.hall.clock.now(), BLOCKS_MAX)
        except StoreError:
            raise HallError("conflict", f"you block {BLOCKS_MAX} players already: unblock one first") from None
        (await self.blocked_set(me.id)).add(other.id)
        return other

    async def unblock(self, me: Account, name: Any) -> None:
        other = await self.player(name, me)
        await self.rows.unblock(me.id, other.id)
        (await self.blocked_set(me.id)).discard(other.id)

    async def blocks(self, me: Account) -> list[Named]:
        return await self.rows.blocks(me.id)

    async def blocked_set(self, account: int) -> BlockedSet:
        """The accounts ``account`` blocks: one set per account, kept current by this process's
        blocks and unblocks while a connection holds it (so a block made now filters its chat at
        once); with its last holder gone it is forgotten, and read from the store when next asked."""
        found = self._blocked.get(account)
        if found is None:
            loaded = BlockedSet(await self.rows.blocked_by(account))
            found = self._blocked.setdefault(account, loaded)
        return found

    async def check_join(self, room: Room, me: Account | None) -> None:
        """Refuses ``me`` a seat at a table where someone who blocks them sits."""
        if me is None:
            return
        seated = [seat.account for seat in room.seats if seat.account is not None and seat.account != me.id]
        if await self.rows.blockers(me.id, seated):
            raise HallError("blocked", "a player at this table does not play with you: pick another table")

    async def may_challenge(self, me: Account, opponent: Account) -> None:
        """Refuses a challenge from ``me`` to a player who blocks them (a bot account's owner may
        block too), in words that do not say "block", and to a person ``me`` does not follow, as for
        an invitation to a table (hall/challenges.py asks before the opponent is)."""
        if await self.rows.blockers(me.id, [opponent.id]):
            raise HallError("blocked", f"{opponent.name} does not take challenges from you")
        if opponent.kind == "human" and opponent.id != me.id and opponent.id not in {
                friend.id for friend in await self.rows.follows(me.id)}:
            raise HallError("conflict", f"challenge your friends: follow {opponent.name} first (on their profile)")

    # -- invitations ------------------------------------------------------------------------------
    async def invite(self, me: Account, name: Any, code: Any) -> Account:
        """Invites the friend ``name`` to room ``code``, where ``me`` sits and a seat is open. They
        see it on their next page, and by mail and push (:meth:`tell`) if they follow ``me`` too."""
        friend = await self.player(name, me)
        if not isinstance(code, str) or len(code) > 16:
            raise HallError("bad_request", "give the code of your room")
        room = await self.hall.room(code)
        if room.seat_of(me) is None:
            raise HallError("not_a_player", f"you do not sit at room {room.code}: invite people to your own table")
        if room.status != "waiting" or not room.seats.open_seats():
            raise HallError("conflict", f"room {room.code} has no open seat to invite anyone to")
        if friend.id not in {f.id for f in await self.rows.follows(me.id)}:
            raise HallError("bad_request", f"invite your friends: follow {friend.name} first")
        if await self.rows.blockers(me.id, [friend.id]):
            raise HallError("blocked", f"{friend.name} does not take invitations from you")
        self.accounts.take(INVITES_RATE, "invitations", str(me.id), "invitations sent")
        try:
            new = await self.rows.invite(me.id, friend.id, room.code, self.hall.clock.now(), PENDING_INVITATIONS)
        except StoreError:
            raise HallError("conflict", f"{friend.name} has {PENDING_INVITATIONS} invitations waiting already:"
                            " try again once they have looked") from None
        if new:  # the same invitation, still unseen, is not told again
            await self.tell(me, friend, room)
        return friend

    async def tell(self, me: Account, friend: Account, room: Room) -> None:
        """An invitation goes by mail and push only where nobody can turn it into spam: to a player
        who follows ``me`` back (a stranger who follows them cannot reach their inbox), at most
        ``INVITE_ALERTS_PER_PAIR`` from one player to another, then as the notifier allows (a
        confirmed address, the player's "invites" setting, its rates). The inviter is not told
        whether it went: a player's address and browsers are theirs."""
        if self.teller is None or me.id not in {f.id for f in await self.rows.follows(friend.id)}:
            return
        limiter, pair = self.accounts.limiter, f"{me.id}>{friend.id}"
        if not limiter.test(INVITE_ALERTS_PER_PAIR, "invitation alerts", pair):
            return
        try:
            sent = await self.teller.notify(
                friend.id, "invite", f"{me.name} invites you to play {room.game.name} at their table"
                f" (room {room.code}).", f"/r/{room.code}", subject=f"{me.name} invites you to play {room.game.name}")
        except Exception:  # the invitation stands (their next page shows it); only its alert is lost
            log.exception("the invitation alert to player %s could not be queued", friend.id)
            return
        if sent:  # counted once something went: a player who turned them off costs the pair nothing
            limiter.hit(INVITE_ALERTS_PER_PAIR, "invitation alerts", pair)

    async def invitations(self, me: Account) -> list[dict[str, Any]]:
        """The invitations ``me`` has not seen yet (seen from now on)."""
        return [{"from": i.sender, "room": i.room, "url": f"/r/{i.room}", "at": i.created}
                for i in await self.rows.invitations(me.id)]

    # -- reputation -------------------------------------------------------------------------------
    async def reputation(self, account: int) -> dict[str, Any]:
        """The share of a player's games they played to the end (not resigned, not gone too long or
        out of time, not abandoned), and how they left the others (store/social.py's Reputation)."""
        counted = await self.rows.reputation(account)
        total = counted.finished + counted.left
        return {"finished": counted.finished, "left": counted.left,
                "share": None if total == 0 else round(counted.finished / total, 3),
                "resigned": counted.resigned, "away": counted.away, "abandoned": counted.abandoned,
                "timed_out": counted.timed_out}

    # -- your data --------------------------------------------------------------------------------
    async def everything(self, me: Account) -> dict[str, Any]:
        data = await self.rows.everything(me.id)
        data["reputation"] = await self.reputation(me.id)
        return data

    async def forget(self, me: Account, password: Any, address: str) -> str:
        """Deletes ``me`` once its password is given again: its games stay, under a name that links
        to no one. Refused while ``me`` sits at a game not over. Returns that name."""
        await self.accounts.check_password_of(me, password, address)
        for room in self.hall.rooms.values():
            if room.status != "over" and room.seat_of(me) is not None:
                raise HallError("conflict", f"you sit at room {room.code}, not over: leave it or finish it first")
        if await self.hall.store.games_of(me.id, finished=False):
            raise HallError("conflict", "you sit at a game not over: leave it or finish it first")
        anonymous = f"{GONE_PREFIX}{secrets.token_hex(4)}"
        codes = await self.rows.forget(me.id, anonymous, name_key(anonymous) + "#" + secrets.token_hex(8),
                                       self.hall.clock.now())
        for code in codes:  # finished games kept in memory show the old name: read them again when asked
            kept = self.hall.rooms.get(code)
            if kept is not None and kept.status == "over" and kept.watchers == 0:
                self.hall.rooms.pop(code, None)
                self.hall.ownership.let_go(kept)
        self._blocked.pop(me.id, None)
        self._seen.pop(me.id, None)
        return anonymous
