"""Reports and moderators: what a player reports is kept with a copy of the chat around it; a
moderator (``parlour admin grant NAME moderator``) reads the queue and acts: warn, mute, ban,
unban (a player, or an address for guests), hide one chat line, close a room. Every action goes to
the log with who took it.

    moderation = Moderation(hall, accounts)
    await moderation.report(ana, {"player": "Cy", "room": "KXMTRA", "line": 12, "reason": "insults"})
    await moderation.act(mod, {"player": "Cy", "action": "ban", "days": 7, "reason": "insults"})
    await moderation.check_chat(cy, address, "KXMTRA")   # HallError "muted"/"banned", in words

A moderator reads names, reasons and chat lines: never a password, a session, an address of a
player, nor anything of a game's view. The rows are the store's (:mod:`parlour.hall.store.moderation`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .accounts import Account, Accounts, name_key
from .errors import HallError
from .hall import Hall
from .room import Room
from .room.commands import Say
from .store import LogEntry, Report, Sanction, Store, StoreError
from .text import clip, typed_text

MODERATOR = "moderator"
ROLES = (MODERATOR,)
REPORTS_PER_DAY = 10  # reports one player may make in a day
REASON_MAX = 500  # characters of a report's or an action's reason
AROUND = 10  # chat lines kept before and after the line reported
MAX_DAYS = 3650
ACTIONS = ("warn", "mute", "ban", "unban", "unmute", "hide_line", "close_room")
ADDRESS_MAX = 64
RELOAD = 30.0  # seconds after which the sanctions are read again (in case a message from another process was lost)
SANCTIONS_KEY = "moderation/sanctions"  # what the broadcast carries when a moderator acted (never a room's code)


def until_words(ends: float | None) -> str:
    """When a sanction ends, in words: "until 5 December 2026, 14:00 UTC" or "for good"."""
    if ends is None:
        return "for good"
    moment = time.gmtime(ends)
    return f"until {moment.tm_mday} {time.strftime('%B %Y, %H:%M', moment)} UTC"


def refusal(sanction: Sanction) -> HallError:
    """What a player under ``sanction`` is told when refused."""
    if sanction.kind == "ban":
        return HallError("banned", f"you are banned from the hall {until_words(sanction.ends)}:"
                         f" {sanction.reason}")
    if sanction.kind == "mute":
        return HallError("muted", f"a moderator muted you {until_words(sanction.ends)}, so your chat is not"
                         f" sent: {sanction.reason}")
    return HallError("forbidden", f"a moderator closed this room: {sanction.reason}")


class Moderation:
    """Reports, moderators' actions, and the sanctions they put in force."""

    def __init__(self, hall: Hall, accounts: Accounts) -> None:
        self.hall = hall
        self.accounts = accounts
        self.rows = hall.store.moderation
        # those in force or to come, read from the store (load), by whom they are on
        self._on: dict[tuple[str, int | str], list[Sanction]] = {}
        self._loaded = float("-inf")
        self.on_banned: list[Callable[[int], None]] = []  # told a banned player's account (web: sockets close)
        self._listening: object = None  # the broadcast told when another process's moderator acted

    async def _acted(self) -> None:
        """The sanctions changed here: read them again, and tell the hall's other processes."""
        await self.load()
        self.hall.broadcast.publish(SANCTIONS_KEY)

    async def load(self) -> None:
        """Reads the sanctions in force: when the hall starts, after each action here or in another
        process of the hall (told over the broadcast), and every ``RELOAD`` seconds in case such a
        message was lost."""
        if self._listening is not self.hall.broadcast:  # (the hall's broadcast is Redis's once it started)
            self._listening = self.hall.broadcast
            self.hall.broadcast.subscribe(SANCTIONS_KEY, lambda: self.hall.spawn(self.load()))
        self._loaded = self.now()
        on: dict[tuple[str, int | str], list[Sanction]] = {}
        for sanction in await self.rows.in_force(self.now()):
            for key in (("account", sanction.account), ("address", sanction.address), ("room", sanction.room)):
                if key[1] is not None:
                    on.setdefault(key, []).append(sanction)  # type: ignore[arg-type]
        self._on = on

    def now(self) -> float:
        return self.hall.clock.now()

    # -- who may ------------------------------------------------------------------------------------
    async def check_moderator(self, account: Account | None) -> Account:
        if account is None:
            raise HallError("signed_out", "you are not signed in (or your session has ended): sign in first")
        if MODERATOR not in await self.rows.roles(account.id):
            raise HallError("forbidden", "this is for the hall's moderators only")
        return account

    async def check(self, account: Account | None, address: str | None, room: str | None = None,
                    kinds: tuple[str, ...] = ("ban", "mute", "close")) -> None:
        """Refuses (in words, with the end date and the reason) one under a sanction of ``kinds``:
        the account's, its address's (a guest's ban) or the room's. It reads what is in memory and
        never waits (a chat line checked here keeps its place among the others)."""
        now = self.now()
        if now - self._loaded > RELOAD:
            self._loaded = now
            self.hall.spawn(self.load())
        if not self._on:  # nobody is under a sanction (the usual case: every move asks)
            return
        for key in (("account", account.id if account is not None else None), ("address", address), ("room", room)):
            for sanction in self._on.get(key, ()) if key[1] is not None else ():  # type: ignore[arg-type]
                if sanction.kind in kinds and sanction.starts <= now and (sanction.ends is None or sanction.ends > now):
                    raise refusal(sanction)

    async def check_sign_in(self, account: Account | None, address: str) -> None:
        await self.check(account, address, kinds=("ban",))

    async def check_chat(self, account: Account | None, address: str, room: str) -> None:
        await self.check(account, address, room)

    async def check_play(self, account: Account | None, address: str) -> None:
        """A banned player's (or address's) connection still open plays no more."""
        await self.check(account, address, kinds=("ban",))

    async def check_join(self, account: Account | None, address: str, room: str) -> None:
        await self.check(account, address, room, kinds=("ban", "close"))

    # -- reports ------------------------------------------------------------------------------------
    async def report(self, reporter: Account, body: dict[str, Any]) -> int:
        """Keeps a report of ``body``'s player (a name: an account's, or a guest's seat in ``room``),
        with a copy of the chat lines around ``line``. At most ``REPORTS_PER_DAY`` a day each."""
        reason = _reason(body.get("reason"))
        name = body.get("player")
        if not isinstance(name, str) or not name.strip() or len(name) > 64:
            raise HallError("bad_request", "give the name of the player you report (at most 64 characters)")
        code, line = body.get("room"), body.get("line")
        if code is not None and (not isinstance(code, str) or len(code) > 16):
            raise HallError("bad_request", "room: a room's code")
        if line is not None and (code is None or not isinstance(line, int) or isinstance(line, bool) or line < 0):
            raise HallError("bad_request", "line: the number of a chat line of the room given")
        found = await self.accounts.by_name(name.strip())
        account = found[0] if found is not None and found[0].kind == "human" else None
        shown = account.name if account is not None else name.strip()
        room: Room | None = await self.hall.room(code) if code is not None else None
        if account is None and (room is None or shown not in room.seats.names()):
            raise HallError("unknown_player", f"there is no player {clip(name, 40)!r}"
                            + ("" if room is not None else " (to report a guest, give the room where they sit)"))
        if account is not None and account.id == reporter.id:
            raise HallError("bad_request", "you cannot report yourself")
        if await self.rows.reports_since(reporter.id, self.now() - 86400) >= REPORTS_PER_DAY:
            raise HallError("throttled", f"at most {REPORTS_PER_DAY} reports a day: a moderator reads each one;"
                            " try again tomorrow")
        try:
            return await self.rows.report(Report(reporter.id, account.id if account else None, shown,
                                                 room.code if room else None, line, reason, self.now()), AROUND)
        except StoreError as error:
            raise HallError("bad_request", f"{error}: nothing was reported") from None

    async def queue(self, limit: int = 100) -> list[dict[str, Any]]:
        return await self.rows.open_reports(limit)

    async def log(self, limit: int = 200) -> list[dict[str, Any]]:
        return await self.rows.log(limit)

    async def flagged(self, limit: int = 100) -> list[dict[str, Any]]:
        """The pairs of players who met more often than is rated (hall/ratings.py: two accounts of
        one person throwing games to each other show up here), latest first."""
        return [{"first": pair.first, "second": pair.second, "game": pair.game, "since": pair.since,
                 "last": pair.last, "unrated": pair.unrated, "room": pair.last_code}
                for pair in await self.hall.store.flagged_pairs(limit)]

    # -- acting -------------------------------------------------------------------------------------
    async def act(self, moderator: Account, body: dict[str, Any]) -> dict[str, Any]:
        """One moderator's action (``body``: action, player or address, days, reason, room, line,
        report), taken and logged in one transaction; what was done, in words."""
        action = body.get("action")
        if action not in ACTIONS:
            raise HallError("bad_request", f"action: one of {', '.join(ACTIONS)}")
        reason = _reason(body.get("reason"))
        report = body.get("report")
        if report is not None and (not isinstance(report, int) or isinstance(report, bool)):
            raise HallError("bad_request", "report: the number of the report this answers")
        now = self.now()
        if action in ("hide_line", "close_room"):
            return await self._in_room(moderator, action, body, reason, report, now)
        account, address = await self._target(body)
        days = body.get("days")
        if action in ("mute", "ban"):
            if days is not None and (not isinstance(days, (int, float)) or isinstance(days, bool)
                                     or not 0 < days <= MAX_DAYS):
                raise HallError("bad_request", f"days: a number of days from 1 to {MAX_DAYS}, or none (for good)")
            if action == "mute" and account is None:
                raise HallError("bad_request", "a guest is banned by address: mute a signed-in player by name")
        else:
            days = None
        if action == "warn" and account is None:
            raise HallError("bad_request", "warn a signed-in player, by name")
        ends = now + days * 86400 if days is not None else None
        target = account.name if account is not None else address
        entry = LogEntry(moderator.id, action, account.id if account else None, target, None, None, days, reason,
                         report, now)
        sanction = (Sanction(action, account.id if account else None, address, None, reason, now, ends)
                    if action in ("mute", "ban") else None)
        lift = {"unban": "ban", "unmute": "mute"}.get(action)
        await self.rows.act(entry, sanction, lift=lift, end_sessions=action == "ban")
        await self._acted()
        if action == "ban" and account is not None:
            for banned in self.on_banned:
                banned(account.id)
        words = {"warn": f"{target} is warned: they see it on their next page",
                 "mute": f"{target} is muted {until_words(ends)}",
                 "ban": f"{target} is banned {until_words(ends)}; their sessions ended",
                 "unban": f"{target} is no longer banned", "unmute": f"{target} is no longer muted"}
        return {"done": words[action]}

    async def _target(self, body: dict[str, Any]) -> tuple[Account | None, str | None]:
        name, address = body.get("player"), body.get("address")
        if (name is None) == (address is None):
            raise HallError("bad_request", "give a player's name, or an address (for a guest), not both")
        if address is not None:
            if not isinstance(address, str) or not 0 < len(address) <= ADDRESS_MAX or address.strip() != address:
                raise HallError("bad_request", f"address: a client's address, at most {ADDRESS_MAX} characters")
            return None, address
        found = await self.accounts.by_name(name) if isinstance(name, str) and len(name) <= 64 else None
        if found is None or found[0].kind != "human":
            raise HallError("unknown_player", f"there is no player {clip(name, 40)!r}")
        return found[0], None

    async def _in_room(self, moderator: Account, action: str, body: dict[str, Any], reason: str,
                       report: int | None, now: float) -> dict[str, Any]:
        code = body.get("room")
        if not isinstance(code, str) or len(code) > 16:
            raise HallError("bad_request", "room: the code of the room")
        room = await self.hall.room(code)
        line = body.get("line")
        if action == "hide_line" and (not isinstance(line, int) or isinstance(line, bool)):
            raise HallError("bad_request", "line: the number of the chat line to hide")
        entry = LogEntry(moderator.id, action, None, room.code, room.code, line if action == "hide_line" else None,
                         None, reason, report, now)
        try:
            if action == "hide_line":
                assert isinstance(line, int)
                await self.rows.act(entry, hide=(room.code, line))
                room.chat.hide(line)
                return {"done": f"line {line} of room {room.code} is hidden"}
            await self.rows.act(entry, Sanction("close", None, None, room.code, reason, now, None))
        except StoreError as error:
            raise HallError("bad_request", f"{error}: nothing was done") from None
        await self._acted()
        await self.hall.execute(room.code, Say("system", f"a moderator closed this room: {reason}"))
        return {"done": f"room {room.code} is closed: nobody may join it or chat in it"}

    async def warnings(self, account: Account) -> list[dict[str, Any]]:
        return await self.rows.warnings(account.id)


async def grant(store: Store, name: str, role: str, give: bool = True) -> str:
    """``parlour admin grant|revoke NAME ROLE``: what changed, in words."""
    if role not in ROLES:
        raise HallError("bad_request", f"no role {clip(role, 20)!r}: the roles are {', '.join(ROLES)}")
    found = await store.account_by_name(name_key(name))
    if found is None or found[0].kind != "human":
        raise HallError("unknown_player", f"there is no player {clip(name, 40)!r}")
    account = found[0]
    if give:
        changed = await store.moderation.grant(account.id, role)
        return f"{account.name} is a {role} now" if changed else f"{account.name} was a {role} already"
    changed = await store.moderation.revoke(account.id, role)
    return f"{account.name} is no longer a {role}" if changed else f"{account.name} was not a {role}"

def _reason(value: Any) -> str:
    if not isinstance(value, str):
        raise HallError("bad_request", "give a reason, in words")
    return typed_text(value.strip(), "the reason", REASON_MAX)

