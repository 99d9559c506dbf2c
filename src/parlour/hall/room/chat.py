"""A room's chat: every line goes to the store before anyone sees it.

    line = await room.chat.add("player", 0, "Ana", "good game!")   # at the room's owner
    room.chat.since(n)                                            # the lines kept from number n on

The newest ``CHAT_HISTORY`` lines are kept in memory, read from the store (off the event loop)
when first needed. System lines are the hall's own words about seats and people (joined, left, a
bot took over, a rematch): they never name a card or anything else of a game's.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from collections.abc import Set as AbstractSet
from typing import Literal

from ..errors import HallError
from ..store import ChatLine, Lease, Store, StoreError
from ..wire import dumps_bytes
from .commands import Say
from .context import RoomContext
from .seats import SeatBook

log = logging.getLogger(__name__)

CHAT_HISTORY = 100  # the newest lines a connection gets on arrival (the store keeps them all)
LEFT_GRACE = 10.0  # seconds a player may be gone (a reload) before the chat says they left
ChatKind = Literal["player", "spectator", "system"]


def visible(lines: list[ChatLine], blocked: AbstractSet[int] = frozenset(),
            muted: AbstractSet[str] = frozenset()) -> list[ChatLine]:
    """The ``lines`` one person is shown: none written by an account they block (``blocked``) nor
    under a name they muted in this room (``muted``); the hall's own lines always."""
    if not blocked and not muted:
        return lines
    return [line for line in lines if line.kind == "system" or not (
        line.account in blocked or line.name in muted)]


def chat_key(code: str) -> str:
    """What the broadcast carries when room ``code``'s chat has a new line."""
    return f"{code}/chat"


class Chat:
    """One room's chat. ``lease()`` is the room's lease its commits are fenced by, ``refusal`` turns
    a failed commit into what the client is told, ``system`` says a system line through the hall
    (at the room's owner, wherever that is)."""

    def __init__(self, code: str, context: RoomContext, seats: SeatBook,
                 lease: Callable[[], Lease | None], refusal: Callable[[StoreError], HallError],
                 system: Callable[[str], Awaitable[object]]) -> None:
        self.code = code
        self.context = context
        self.seats = seats
        self._lease = lease
        self._refusal = refusal
        self._system = system
        self._lines: list[ChatLine] | None = None
        self._next = 0  # the number of the next line
        self.gone: dict[int, bool] = {}  # seat -> whether the chat said its player left
        self.hidden: list[int] = []  # the lines a moderator hid since this process kept them, in order

    @property
    def store(self) -> Store:
        return self.context.store

    async def load(self) -> list[ChatLine]:
        """The lines kept, read from the store (on a thread) when first needed."""
        if self._lines is None:
            lines = await self.store.chat(self.code, CHAT_HISTORY)
            if self._lines is None:
                self._take(lines)
        assert self._lines is not None
        return self._lines

    def _take(self, lines: list[ChatLine]) -> None:
        self._lines = lines
        self._next = lines[-1].n + 1 if lines else 0

    def since(self, n: int) -> list[ChatLine]:
        """The lines kept from number ``n`` on (none until :meth:`load`)."""
        return [line for line in self._lines or () if line.n >= n]

    def forget(self) -> None:
        """Read the lines from the store again when next needed (another process wrote some)."""
        self._lines = None

    async def add(self, kind: ChatKind, seat: int | None, name: str | None, text: str,
                  account: int | None = None) -> ChatLine:
        """A line, numbered in the order lines are said, committed, then shown (at the owner);
        ``account``: the writer's, signed in (a seat's player's is the seat's)."""
        lines = await self.load()
        if account is None and kind == "player" and seat is not None:
            account = self.seats[seat].account
        line = ChatLine(self._next, self.context.clock.now(), kind, seat, name, text, account)
        self._next += 1  # taken now: lines are numbered in the order they were said
        try:
            await self.store.append_chat(self.code, line, lease=self._lease())
        except StoreError as error:
            raise self._refusal(error) from None
        if self._lines is not lines:  # the room changed hands meanwhile: the store has it
            return line
        lines.append(line)
        del lines[:-CHAT_HISTORY]
        broadcast = self.context.broadcast()
        payload = dumps_bytes(dataclasses.asdict(line)) if broadcast.carries_payloads else None
        broadcast.publish(chat_key(self.code), payload)
        return line

    async def say(self, command: Say) -> ChatLine:
        return await self.add(command.kind, command.seat, command.name, command.text, command.account)

    def take(self, line: ChatLine) -> bool:
        """Takes a line another process committed and published; False when it does not follow
        on from the lines here (then they are read from the store again)."""
        if self._lines is None or line.n > self._next:
            return False
        if line.n == self._next:
            self._lines.append(line)
            del self._lines[:-CHAT_HISTORY]
            self._next += 1
        return True

    def hide(self, n: int) -> None:
        """A moderator hid line ``n`` (the store has it so): it leaves the lines kept, and the
        connections are told to take it away, here and in the hall's other processes (which
        :meth:`hide_here` as they are told)."""
        broadcast = self.context.broadcast()
        self._drop(n)
        broadcast.publish(chat_key(self.code), dumps_bytes({"hidden": n}) if broadcast.carries_payloads else None)

    def hide_here(self, n: int) -> None:
        """Another process's moderator hid line ``n``: this process's connections take it away."""
        if self._drop(n):
            self.context.broadcast().publish_here(chat_key(self.code))

    def _drop(self, n: int) -> bool:
        if n in self.hidden:
            return False
        if self._lines is not None:
            self._lines[:] = [line for line in self._lines if line.n != n]
        self.hidden.append(n)
        return True

    async def tell(self, text: str) -> None:
        """A system line, kept before this returns (a failed write is logged, not raised)."""
        try:
            await self.add("system", None, None, text)
        except Exception:
            log.exception("room %s: the chat line %r could not be kept", self.code, text)

    def announce(self, text: str) -> None:
        """A system line said through the hall, in the background (logged if it fails)."""
        self.context.spawn(self._announce(text))

    async def _announce(self, text: str) -> None:
        try:
            await self._system(text)
        except Exception:
            log.exception("room %s: the chat line %r could not be kept", self.code, text)

    # -- people coming and going ----------------------------------------------------------------
    def arrived(self, seat: int) -> None:
        """``seat``'s player connected: if the chat said they left, it says they are back."""
        if self.gone.pop(seat, False):
            self.announce(f"{self.seats.names()[seat]} is back")

    def departed(self, seat: int) -> None:
        """``seat``'s player has no connection left: unless they come back within
        ``LEFT_GRACE`` seconds (a reload), the chat says they left."""
        self.gone.setdefault(seat, False)
        self.context.spawn(self._left_unless_back(seat))

    async def _left_unless_back(self, seat: int) -> None:
        await asyncio.sleep(LEFT_GRACE)
        player = self.seats[seat]
        if player.kind == "human" and player.connections == 0 and self.gone.get(seat) is False:
            self.gone[seat] = True
            await self._announce(f"{player.name} left")
