"""The table: what the hall offers around a game, apart from playing it: the live lobby, each
room's chat, and the rematch.

    listing = await lobby(hall, "playing", game="palace")   # newest first, as GET /api/rooms gives it
    await room.chat.say(seat, "good game!")            # stored, then pushed to the whole room
    room.chat.announce("Ana took seat 1")              # a system line

A waiting room that nobody has been connected to for ``WAITING_TTL`` seconds expires: the lobby
stops listing it and the hall lets go of it (the store keeps it, and its link still works).
System lines are the hall's own words about seats and people (joined, left, a bot took over,
a rematch): they never name a card or anything else of a game's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator
from contextlib import aclosing
from itertools import islice
from typing import TYPE_CHECKING, Any, Literal

from .limits import TEXT_MAX
from .store import ChatLine, StoreError

if TYPE_CHECKING:
    from .rooms import Hall, Room

log = logging.getLogger(__name__)

WAITING_TTL = 15 * 60  # seconds a waiting room stays listed with nobody connected to it
CHAT_HISTORY = 100  # the newest lines a connection gets on arrival (the store keeps them all)
LEFT_GRACE = 10.0  # seconds a player may be gone (a reload) before the chat says they left
RESERVE_SEATS = 3 * 60  # seconds a rematch keeps each player's seat for them
LobbyStatus = Literal["waiting", "playing"]


def expired(room: Room, now: float) -> bool:
    """A waiting room nobody has been connected to for ``WAITING_TTL`` seconds."""
    return room.status == "waiting" and room.watchers == 0 and now - room.touched >= WAITING_TTL


def listed(room: Room, status: LobbyStatus, now: float) -> bool:
    if room.status != status:
        return False
    if status == "waiting":  # a room to join: a seat is open and someone may still fill it
        return any(s.kind == "open" for s in room.seats) and not expired(room, now)
    return True


async def lobby(hall: Hall, status: LobbyStatus = "waiting", game: str | None = None,
                offset: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
    """The rooms the lobby shows, newest first: ``waiting`` ones to join, or ``playing`` ones to
    watch, with their players and how far along they are (``turn``: the moves a spectator saw);
    ``limit`` rooms from ``offset`` on (all by default). Only the page's entries are built."""
    if game is not None:
        hall.game(game)  # an unknown game is refused in words
    now = hall.clock.now()
    stop = None if limit is None else offset + limit

    def shown(room: Room) -> bool:
        return listed(room, status, now) and (game is None or room.game.id == game)

    page: list[Room]
    if hall.cluster is None:
        page = list(islice(filter(shown, sorted(hall.rooms.values(), key=lambda r: -r.created)), offset, stop))
    else:
        page, seen = [], 0
        async with aclosing(stored(hall, status, game)) as rooms:
            async for room in rooms:
                if not shown(room):
                    continue
                if seen >= offset:
                    page.append(room)
                seen += 1
                if stop is not None and seen >= stop:
                    break
    return [{"code": r.code, "game": r.game.id, "status": r.status, "seats": r.seats_json(),
             "created": r.created, "turn": r.audience(None).turn if r.status == "playing" else 0,
             "watchers": r.watchers}
            for r in page]


STORED_PAGE = 100  # rooms read from the store at a time for the lobby of several processes


async def stored(hall: Hall, status: LobbyStatus, game: str | None) -> AsyncGenerator[Room, None]:
    """The rooms the store has with ``status`` (of ``game``), newest first, as this process has
    them (one of several: the lobby is every process's rooms, not only those in memory here)."""
    from .rooms import HallError

    start = 0
    while True:
        codes = await hall.store.lobby_page(status, game, start, STORED_PAGE)
        for code in codes:
            if code in hall.abandoned and code not in hall.rooms:
                continue  # abandoned, as this process saw it (the single process's lobby forgets it too)
            try:
                yield hall.room(code)
            except HallError:  # it no longer replays (logged)
                continue
        if len(codes) < STORED_PAGE:
            return
        start += STORED_PAGE


def chat_text(text: Any) -> str:
    """A chat line as written: trimmed, 1 to ``TEXT_MAX`` characters, no control characters;
    :class:`~parlour.hall.rooms.HallError` in words. Shown as text, never as HTML."""
    from .rooms import HallError, typed_text

    if not isinstance(text, str):
        raise HallError("bad_message", "a chat line must be text")
    return typed_text(text.strip(), "a chat line", TEXT_MAX, "bad_message")


def chat_key(code: str) -> str:
    """What the broadcast carries when room ``code``'s chat has a new line."""
    return f"{code}/chat"


class Chat:
    """One room's chat: every line goes to the store before anyone sees it; the newest
    ``CHAT_HISTORY`` are kept in memory, read from the store when first needed."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self._lines: list[ChatLine] | None = None
        self._next = 0  # the number of the next line
        self.gone: dict[int, bool] = {}  # seat -> whether the chat said its player left

    def lines(self) -> list[ChatLine]:
        if self._lines is None:
            self._lines = self.room.hall.store.chat_blocking(self.room.code, CHAT_HISTORY)
            self._next = self._lines[-1].n + 1 if self._lines else 0
        return self._lines

    def since(self, n: int) -> list[ChatLine]:
        """The lines kept from number ``n`` on."""
        return [line for line in self.lines() if line.n >= n]

    async def say(self, seat: int | None, text: str, name: str | None = None) -> ChatLine:
        """A line by ``seat``'s player, or by a spectator (``seat`` None) going by ``name``."""
        from .rooms import clean_name  # rooms imports this module

        text = chat_text(text)
        if seat is not None:
            return await self.add("player", seat, self.room.names()[seat], text)
        return await self.add("spectator", None, clean_name(name) if name else "a spectator", text)

    def announce(self, text: str) -> None:
        """A system line, written in the background (a failed write is logged, not raised)."""
        self.room.hall.spawn(self.tell(text))

    async def tell(self, text: str) -> None:
        """A system line, kept before this returns (a failed write is logged, not raised)."""
        try:
            await self.add("system", None, None, text)
        except Exception:
            log.exception("room %s: the chat line %r could not be kept", self.room.code, text)

    def forget(self) -> None:
        """Read the lines from the store again when next needed (another process wrote some)."""
        self._lines = None

    async def add(self, kind: str, seat: int | None, name: str | None, text: str) -> ChatLine:
        """A line, numbered and kept by the process that applies the room (forwarded there)."""
        answer = await self.room.elsewhere("chat", {"kind": kind, "seat": seat, "name": name, "text": text})
        if answer is not None:
            self.forget()
            self.room.hall.broadcast.publish_here(chat_key(self.room.code))
            return ChatLine(answer["n"], self.room.hall.clock.now(), kind, seat, name, text)
        lines = self.lines()
        line = ChatLine(self._next, self.room.hall.clock.now(), kind, seat, name, text)
        self._next += 1  # taken now: lines are numbered in the order they were said
        try:
            await self.room.hall.store.append_chat(self.room.code, line, lease=self.room.lease)
        except StoreError as error:
            raise self.room.refusal(error) from None
        if self._lines is not lines:  # the room changed hands meanwhile: the store has it
            return line
        lines.append(line)
        del lines[:-CHAT_HISTORY]
        self.room.hall.broadcast.publish(chat_key(self.room.code))
        return line

    # -- people coming and going ----------------------------------------------------------------
    def arrived(self, seat: int) -> None:
        """``seat``'s player connected: if the chat said they left, it says they are back."""
        if self.gone.pop(seat, False):
            self.announce(f"{self.room.names()[seat]} is back")

    def departed(self, seat: int) -> None:
        """``seat``'s player has no connection left: unless they come back within
        ``LEFT_GRACE`` seconds (a reload), the chat says they left."""
        self.gone.setdefault(seat, False)
        self.room.hall.spawn(self._left_unless_back(seat))

    async def _left_unless_back(self, seat: int) -> None:
        await asyncio.sleep(LEFT_GRACE)
        player = self.room.seats[seat]
        if player.kind == "human" and player.connections == 0 and self.gone.get(seat) is False:
            self.gone[seat] = True
            await self.tell(f"{player.name} left")


async def rematch(room: Room, token: str | None) -> tuple[Room, str, int, str]:
    """A player of ``room`` (``token``: their seat token), over, offers to play again: a new
    room with the same game, options, bots and turn timer, every seat turned by one (seat 1's
    player sits at seat 2...), the caller seated there and its host, every other player's seat
    kept for them ``RESERVE_SEATS`` seconds. Everyone in the old room sees the new room's code
    in its status (``rematch``) and a line in its chat. Returns (room, host token, seat, seat token)."""
    from .rooms import HallError

    seat = room.seat_for_token(token)
    answer = await room.elsewhere("rematch", {"token": token})
    if answer is not None:
        return room.hall.room(answer["code"]), answer["host_token"], answer["seat"], answer["seat_token"]
    if room.status != "over":
        raise HallError("conflict", "a rematch is offered once the game is over")
    if room.rematch is not None:
        raise HallError("conflict", f"a rematch is already offered: join room {room.rematch}")
    n, until = room.players, room.hall.clock.now() + RESERVE_SEATS
    specs: list[dict[str, Any]] = [{}] * n
    kept: dict[int, dict[str, Any]] = {}
    for old, player in enumerate(room.seats):
        new = (old + 1) % n
        if player.kind == "bot":
            specs[new] = {"kind": "bot", "bot": player.bot, "name": player.name}
        else:
            specs[new] = {"kind": "open"}
            if old != seat and player.token is not None:
                kept[new] = {"name": player.name, "token": player.token, "until": until}
    # the room's options as played, bots as named: a bot that took over a seat keeps "Ana (bot)"
    new_room, host_token, mine, seat_token = await room.hall.create_room(
        room.game.id, room.options, specs, room.turn_timer, room.names()[seat], (seat + 1) % n, kept)
    await room.offered_rematch(new_room.code)
    await room.chat.tell(f"{room.names()[seat]} offers a rematch")
    assert mine is not None and seat_token is not None
    return new_room, host_token, mine, seat_token
