"""A room's seats: who holds each one, by token or account, and the rules for taking one.

    book = SeatBook(record.seats)
    seat = book.seat_for_token(token)          # HallError (bad_token) unless the token holds a seat
    seat = book.free_seat(None, digest, now)   # the seat a join takes, or HallError saying why not

A seat is ``open``, a ``human``'s (held by a secret token whose hash is kept, and by an account
when the player is signed in) or a ``bot``'s. The book decides; the room commits what it decides.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..accounts import Account
from ..errors import HallError
from ..store import BOT_KIND
from ..text import distinct_name
from ..tokens import new_token, same_token, token_hash
from .commands import GiveToBot, Join

SeatKind = Literal["open", "human", "bot"]
RESERVE_SEATS = 3 * 60  # seconds a rematch keeps each player's seat for them


@dataclass
class Seat:
    kind: SeatKind
    name: str | None = None
    bot: str | None = None
    token: str | None = None  # sha256 of the seat token
    connections: int = 0  # this process's connections of the seat's player
    # A signed-in player's seat (hall/accounts.py): their account's id and name. A bot seat:
    # ``replaced`` when it took a person's seat mid-game, ``rated_as`` the bot it took over from.
    account: int | None = None
    profile: str | None = None
    replaced: bool = False
    rated_as: str | None = None
    bot_account: bool = False  # the account holding it is a bot account's (hall/botaccounts.py)
    # an open seat a rematch keeps for a player of the last game: {name, token (the sha256 of
    # their seat token there), until (epoch seconds)}
    reserved: dict[str, Any] | None = None
    # mid-game, how the person of this seat left it (room/leaving.py): resigned, away, abandoned
    left: str | None = None
    host: bool = False  # the seat its room's host took when making the room
    away_since: float | None = None  # since when its player has had no connection here (not stored)
    # a cluster (hall/cluster/presence.py): its player's connections at the other processes, and
    # when they last had one there, as this process last read them (not stored)
    elsewhere: int = 0
    seen_elsewhere: float | None = None

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> Seat:
        return cls(record["kind"], record.get("name"), record.get("bot"), record.get("token"),
                   account=record.get("account"), profile=record.get("profile"),
                   replaced=record.get("replaced", False), rated_as=record.get("rated_as"),
                   reserved=record.get("reserved"), left=record.get("left"),
                   host=record.get("host", False), bot_account=record.get("bot_account", False))

    def record(self) -> dict[str, Any]:
        record = {"kind": self.kind, "name": self.name, "bot": self.bot, "token": self.token}
        extra = {"account": self.account, "profile": self.profile, "replaced": self.replaced,
                 "rated_as": self.rated_as, "reserved": self.reserved, "left": self.left,
                 "host": self.host, "bot_account": self.bot_account}
        return {**record, **{key: value for key, value in extra.items() if value}}

    def kept_for(self, now: float) -> str | None:
        """The name of the player this open seat is kept for, until its time runs out."""
        if self.kind == "open" and self.reserved is not None and now < self.reserved["until"]:
            return str(self.reserved["name"])
        return None

    @property
    def connected(self) -> bool:
        return self.kind == "bot" or self.present

    @property
    def present(self) -> bool:
        """Whether its player is connected, here or (a cluster) at another process."""
        return self.connections > 0 or self.elsewhere > 0

    def gone_since(self) -> float | None:
        """Since when its player has been connected nowhere (None: unknown): the later of this
        process's ``away_since`` and the last connection another process saw."""
        if self.seen_elsewhere is None or self.away_since is not None and self.away_since >= self.seen_elsewhere:
            return self.away_since
        return self.seen_elsewhere

    def keep_presence(self, before: Seat) -> None:
        """Keeps ``before``'s connections (the same seat, before a committed change)."""
        self.connections, self.away_since = before.connections, before.away_since
        self.elsewhere, self.seen_elsewhere = before.elsewhere, before.seen_elsewhere


def holder(account: Account | None) -> dict[str, Any]:
    """What a seat record says of the signed-in player who holds it."""
    if account is None:
        return {}
    mark = {"bot_account": True} if account.kind == BOT_KIND else {}
    return {"account": account.id, "profile": account.name, **mark}


def human(name: str, token: str, account: Account | None) -> dict[str, Any]:
    """The record of a person's seat, held by ``token`` (kept as its hash)."""
    return {"kind": "human", "name": name, "bot": None, "token": token_hash(token), **holder(account)}


class SeatBook:
    """The seats of one room, in order."""

    def __init__(self, records: list[dict[str, Any]]) -> None:
        self.seats = [Seat.of(record) for record in records]
        # a cluster (hall/cluster/presence.py): connections to the room at the other processes,
        # spectators' included, as this process last read them (not stored)
        self.watchers_elsewhere = 0

    def __getitem__(self, seat: int) -> Seat:
        return self.seats[seat]

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.seats)

    def __len__(self) -> int:
        return len(self.seats)

    def names(self) -> list[str]:
        return [seat.name or f"seat {i + 1}" for i, seat in enumerate(self.seats)]

    def other_names(self, seat: int) -> list[str | None]:
        return [s.name for i, s in enumerate(self.seats) if i != seat]

    def records(self) -> list[dict[str, Any]]:
        return [seat.record() for seat in self.seats]

    def to_json(self, now: float) -> list[dict[str, Any]]:
        return [{"seat": i, "kind": s.kind, "name": s.name, "bot": s.bot, "connected": s.connected,
                 "kept_for": s.kept_for(now), "profile": s.profile, "left": s.left,
                 **({"bot_account": True} if s.bot_account else {})}
                for i, s in enumerate(self.seats)]

    def replace(self, records: list[dict[str, Any]]) -> bool:
        """Takes the seats of ``records`` (as committed), keeping this process's connection counts;
        returns whether anything changed."""
        if records == self.records():
            return False
        old = self.seats
        self.seats = [Seat.of(record) for record in records]
        for seat, before in zip(self.seats, old):
            seat.keep_presence(before)
        return True

    def set(self, seat: int, record: dict[str, Any]) -> None:
        """Seat ``seat`` is ``record`` from now on (committed)."""
        before = self.seats[seat]
        self.seats[seat] = Seat.of(record)
        self.seats[seat].keep_presence(before)

    # -- who holds what ---------------------------------------------------------------------------
    def check_seat(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise HallError("unknown_seat", f"this room has seats 0 to {len(self.seats) - 1}, not {seat!r}")
        return seat

    def seat_for_token(self, token: str | None) -> int:
        """The seat ``token`` acts for, or :class:`HallError` (``bad_token``)."""
        if token:
            digest = token_hash(token)
            for i, seat in enumerate(self.seats):
                if seat.token is not None and hmac.compare_digest(seat.token, digest):
                    return i
        raise HallError("bad_token", "this token holds no seat in this room (it may have been given to a bot)")

    def holds(self, seat: int, token: str | None, account: Account | None) -> bool:
        """Whether ``seat`` is still held by ``token`` (or, without one, by ``account``)."""
        current = self.seats[seat]
        if current.kind != "human":
            return False
        if token:
            return current.token is not None and same_token(token, current.token)
        return account is not None and current.account == account.id

    def seat_of(self, account: Account | None) -> int | None:
        """The seat a signed-in player holds here, if any: their seat follows them."""
        if account is not None:
            for i, seat in enumerate(self.seats):
                if seat.kind == "human" and seat.account == account.id:
                    return i
        return None

    def open_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "open"]

    def humans(self, seats: frozenset[int]) -> list[int]:
        return [s for s in seats if self.seats[s].kind == "human"]

    # -- taking a seat ----------------------------------------------------------------------------
    def free_seat(self, seat: int | None, token: str | None, now: float) -> int:
        """The seat a join takes: ``seat``, or (None) the first one free. A seat a rematch keeps
        for a player goes to no one else until its time is up; that player claims it with
        ``token``, their seat token in the last game. :class:`HallError` says why not."""
        digest = token_hash(token) if token else None
        kept = [s.reserved["token"] if s.kept_for(now) and s.reserved else None for s in self.seats]
        if seat is None:
            free = [i for i, s in enumerate(self.seats) if s.kind == "open" and kept[i] in (None, digest)]
            seat = next((i for i in free if kept[i] is not None), free[0] if free else None)
            if seat is None:
                waiting = ", ".join(s.kept_for(now) or "" for s in self.seats if s.kept_for(now))
                raise HallError("conflict", f"every open seat is kept for {waiting} (a rematch) a while longer"
                                if waiting else "every seat is taken")
        self.check_seat(seat)
        taken = self.seats[seat]
        if taken.kind != "open":
            raise HallError("conflict", f"seat {seat} is taken by {self.names()[seat]}")
        if kept[seat] is not None and not same_token(token, kept[seat]):
            wait = round(taken.reserved["until"] - now) if taken.reserved else 0
            raise HallError("conflict", f"seat {seat} is kept for {taken.kept_for(now)} (a rematch)"
                            f" for {wait} more seconds")
        return seat

    def joined(self, command: Join, status: str, now: float) -> tuple[int, str, list[dict[str, Any]]]:
        """The seats after ``command``'s player takes a seat: (the seat, its new token, the seats'
        records); :class:`HallError` says why not."""
        held = self.seat_of(command.account)
        if held is not None:
            raise HallError("conflict", f"you hold seat {held} in this room already")
        if status != "waiting":
            raise HallError("conflict", "the game has started: there is no seat left to join")
        seat = self.free_seat(command.seat, command.token, now)
        token = new_token()
        seats = self.records()
        seats[seat] = human(distinct_name(command.name, self.other_names(seat)), token, command.account)
        return seat, token, seats

    def given_to_bot(self, command: GiveToBot, status: str) -> list[dict[str, Any]]:
        """The seats' records after seat ``command.seat`` (empty, or a person's who is not
        connected) goes to ``command.bot``. Unless given another name, a player's seat taken over
        mid-game keeps the player's name: "Ana (bot)"."""
        if status == "over":
            raise HallError("over", "the game is over")
        seat, current = command.seat, self.seats[command.seat]
        self.check_abandoned(seat)
        name = command.name
        if name is None:  # mid-game the seat's moves so far are its player's
            name = f"{current.name} (bot)" if current.kind == "human" and status == "playing" else command.bot
        seats = self.records()
        seats[seat] = self.for_bot(seat, command.bot, distinct_name(name, self.other_names(seat)),
                                   status == "playing")
        return seats

    def check_full(self) -> None:
        """Refuses to start a game while a seat is open."""
        open_seats = self.open_seats()
        if open_seats:
            raise HallError("conflict", f"seat(s) {', '.join(map(str, open_seats))} still open:"
                            " wait for players or give them to bots")

    def check_abandoned(self, seat: int) -> None:
        """Refuses to give away a seat whose player is still connected (here, or at another process)."""
        current = self.seats[seat]
        if current.kind == "human" and current.present:
            raise HallError("conflict", f"seat {seat} is {current.name}'s, who is still here;"
                            " only an empty or abandoned seat can go to a bot")

    def for_bot(self, seat: int, bot: str, name: str, playing: bool) -> dict[str, Any]:
        """The record of seat ``seat`` played by ``bot`` under ``name``; mid-game it is rated as
        before (hall/ratings.py): a person's seat taken over counts as their forfeit."""
        current = self.seats[seat]
        record: dict[str, Any] = {"kind": "bot", "name": name, "bot": bot, "token": None}
        if playing and current.kind != "open":
            record.update(replaced=current.kind == "human" or current.replaced,
                          rated_as=current.rated_as or current.bot)
        return record

    def for_rematch(self, caller: int, until: float) -> tuple[list[dict[str, Any]], dict[int, dict[str, Any]]]:
        """The seats of a rematch offered by ``caller``: every seat turned by one (seat 1's player
        sits at seat 2...), bots as named, every other player's seat kept for them ``until``.
        Returns (the new room's seat specs, the kept seats by index)."""
        n = len(self.seats)
        specs: list[dict[str, Any]] = [{}] * n
        kept: dict[int, dict[str, Any]] = {}
        for old, player in enumerate(self.seats):
            new = (old + 1) % n
            if player.kind == "bot":
                specs[new] = {"kind": "bot", "bot": player.bot, "name": player.name}
            else:
                specs[new] = {"kind": "open"}
                if old != caller and player.token is not None:
                    kept[new] = {"name": player.name, "token": player.token, "until": until}
        return specs, kept
