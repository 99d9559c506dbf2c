"""The rooms' authority: seats, tokens, the game's state, bots and turn timers.

A room validates every change, commits it to the :class:`~parlour.hall.store.Store`, then updates
itself and tells its watchers through the :class:`~parlour.hall.broadcast.Broadcast`; it never
touches a socket or a database itself. Each watcher then asks :meth:`Room.snapshot` for what its
own seat may see.

    hall = Hall(SqlStore("sqlite:///var/parlour.sqlite3"), all_games(), SystemClock())
    room, host, seat, token = await hall.create_room("patchwork", {}, [{"kind": "open"}] * 2, ...)
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import random
import secrets
from collections.abc import Callable, Coroutine, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

from .. import bots as bot_registry
from ..core import Action, Bot, Game, IllegalAction, LogEntry, ParlourError, derive, fresh_seed, normalise_action
from ..games import all_games
from .audience import Audience, LineWriter
from .broadcast import Broadcast, LocalBroadcast
from .clock import Clock
from .limits import NAME_MAX, text_field
from .ratings import settlement
from .store import (
    ActionRecord,
    ChatLine,
    Lease,
    LeaseLost,
    RoomRecord,
    SeatHolder,
    Store,
    StoreError,
    leaving,
)
from .table import Chat, expired
from .thinkers import Thinkers
from .wire import dumps_bytes

if TYPE_CHECKING:
    from .accounts import Account
    from .cluster.node import Node

log = logging.getLogger(__name__)

CODE_LETTERS = "ACDEFHJKMNPRTUVWXY"  # no I/L/1, O/0, B/8, S/5, Z/2 to mistake
CODE_LENGTH = 6
TOKEN_BYTES = 24  # 192 random bits
TIMER_TICK = 0.1  # seconds between two looks at the turn timers
KEEP_FINISHED = 600  # seconds a finished game nobody watches stays in memory (the store keeps it)
KEEP_REPLICA = 60  # seconds a room another process applies stays in memory here once nobody watches it
SWEEP_EVERY = 60  # seconds between two looks for such rooms
MAX_TURN_TIMER = 24 * 3600

# Why a request was refused, and the HTTP status the REST side answers with.
HTTP_STATUS = {
    "bad_request": 422, "unknown_room": 404, "unknown_seat": 404, "bad_token": 403,
    "not_host": 403, "conflict": 409, "not_started": 409, "over": 409, "not_a_player": 403,
    "not_your_turn": 409, "stale": 409, "illegal": 409, "store": 503,
    "bad_credentials": 401, "signed_out": 401, "throttled": 429, "unknown_player": 404, "unknown_game": 404,
    "retry": 503,
}


class HallError(ParlourError):
    """A refused request: ``code`` says what kind (see ``HTTP_STATUS``), the message says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    @property
    def http_status(self) -> int:
        return HTTP_STATUS.get(self.code, 400)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def clean_name(name: Any) -> str:
    """A player's name: trimmed, inner runs of spaces made one, 1 to 32 characters, no control
    characters. It stays plain text: clients show it as text, never as HTML."""
    if not isinstance(name, str):
        raise HallError("bad_request", "a name must be text")
    return typed_text(" ".join(name.split()), "a name", NAME_MAX)


def typed_text(text: str, what: str, limit: int, code: str = "bad_request") -> str:
    """``text`` a person typed, as it is if it has 1 to ``limit`` characters and no control
    characters (:func:`~parlour.hall.limits.text_field`); else :class:`HallError` (``code``)
    saying which, about ``what``."""
    if not text:
        raise HallError(code, f"{what} cannot be empty")
    try:
        return text_field(text, what, limit)
    except ValueError as problem:
        raise HallError(code, str(problem)) from None


def holder(account: Account | None) -> dict[str, Any]:
    """What a seat record says of the signed-in player who holds it."""
    return {} if account is None else {"account": account.id, "profile": account.name}


def distinct_name(name: str, taken: Iterable[str | None]) -> str:
    """``name``, or ``name 2``, ``name 3``... when another seat of the room goes by it already, so
    that the seats and the log never mix two players up (three bots called ``shark``, say)."""
    taken = {t.casefold() for t in taken if t}
    candidate, number = name, 1
    while candidate.casefold() in taken:
        number += 1
        suffix = f" {number}"
        candidate = name[:NAME_MAX - len(suffix)] + suffix
    return candidate


@dataclass
class Seat:
    kind: str  # open | human | bot
    name: str | None = None
    bot: str | None = None
    token: str | None = None  # sha256 of the seat token
    connections: int = 0
    # A signed-in player's seat (hall/accounts.py): their account's id and name. A bot seat:
    # ``replaced`` when it took a person's seat mid-game, ``rated_as`` the bot it took over from.
    account: int | None = None
    profile: str | None = None
    replaced: bool = False
    rated_as: str | None = None
    # an open seat a rematch keeps for a player of the last game: {name, token (the sha256 of
    # their seat token there), until (epoch seconds)}
    reserved: dict[str, Any] | None = None

    @classmethod
    def of(cls, record: dict[str, Any]) -> Seat:
        return cls(record["kind"], record.get("name"), record.get("bot"), record.get("token"),
                   account=record.get("account"), profile=record.get("profile"),
                   replaced=record.get("replaced", False), rated_as=record.get("rated_as"),
                   reserved=record.get("reserved"))

    def record(self) -> dict[str, Any]:
        record = {"kind": self.kind, "name": self.name, "bot": self.bot, "token": self.token}
        extra = {"account": self.account, "profile": self.profile, "replaced": self.replaced,
                 "rated_as": self.rated_as, "reserved": self.reserved}
        return {**record, **{key: value for key, value in extra.items() if value}}

    def kept_for(self, now: float) -> str | None:
        """The name of the player this open seat is kept for, until its time runs out."""
        if self.kind == "open" and self.reserved is not None and now < self.reserved["until"]:
            return self.reserved["name"]
        return None

    @property
    def connected(self) -> bool:
        return self.kind == "bot" or self.connections > 0


class Room:
    """One room: a game, its seats and, once started, its state rebuilt from its actions."""

    def __init__(self, hall: Hall, record: RoomRecord, game: Game[Any]) -> None:
        self.hall = hall
        self.game = game
        self.code = record.code
        self.players = record.players
        self.options = game.stored_options(record.options)  # a room older than an option replays as played
        self.seed = record.seed
        self.status = record.status
        self.turn_timer = record.turn_timer
        self.host_token = record.host_token
        self.created = record.created
        self.watchers = 0  # connections, spectators' included
        self.touched = hall.clock.now()  # when it last changed (or was read back from the store)
        self.seats = [Seat.of(s) for s in record.seats]
        self.state: Any = None
        self.turn = 0  # the room's own count of actions; each audience counts the ones it saw
        self.records: list[ActionRecord] = []
        # waiting_since[seat]: the turn since which the seat has been asked to act without acting
        self.waiting_since: list[int | None] = [None] * self.players
        self.lock = asyncio.Lock()
        self.deadline: float | None = None
        # what each seat and the spectators were shown; built from the records when first needed
        self._audiences: dict[int | None, Audience] | None = None
        self._names: list[str] = []
        self._shared: tuple[bytes, float | None] | None = None  # the status and deadline as shown
        self.shared_revision = 0  # goes up when the status or the deadline changes
        self._texts: dict[tuple[int | None, bool, int], str] = {}  # state messages, until the next change
        self._replays: dict[int | None, dict[str, Any]] = {}  # by the seat whose view the frames show
        self._thinking: dict[int, int | None] = {}  # seat -> its waiting_since when a bot began choosing
        self._bots: dict[tuple[int, str], Bot] = {}
        self.chat = Chat(self)
        self.rematch = record.rematch  # the code of the room its players were invited to next
        # Several hall processes (hall/cluster/node.py): the room's lease while this process applies
        # it; None: another one does, and this copy follows the store (a replica).
        self.lease: Lease | None = None
        self.claiming = asyncio.Lock()
        self._forwarding = 0  # players' actions sent to the owner and not yet answered
        if self.status != "waiting":
            self._begin()
            for action in map(self._cleaned, record.actions):
                self._advance(action, self.game.apply(self.state, action.seat, action.action, []), [])

    def _cleaned(self, record: ActionRecord) -> ActionRecord:
        """A stored action as the game's fields have it: one stored before actions were checked
        may carry fields the game never read (padding), which are left out so that its replay
        can always be served."""
        try:
            action = normalise_action(self.game.action_fields, record.action, lenient=True)
        except IllegalAction:
            return record  # the game applied it as it is
        return record if action == record.action else replace(record, action=action)

    # -- what anyone may see ----------------------------------------------------------------
    def names(self) -> list[str]:
        return [seat.name or f"seat {i + 1}" for i, seat in enumerate(self.seats)]

    def _other_names(self, seat: int) -> list[str | None]:
        return [s.name for i, s in enumerate(self.seats) if i != seat]

    def seats_json(self) -> list[dict[str, Any]]:
        now = self.hall.clock.now()
        return [{"seat": i, "kind": s.kind, "name": s.name, "bot": s.bot, "connected": s.connected,
                 "kept_for": s.kept_for(now), "profile": s.profile} for i, s in enumerate(self.seats)]

    def status_json(self, seat: int | None = None) -> dict[str, Any]:
        """The room's status; its ``turn`` is the turns ``seat`` has seen (None: a spectator)."""
        return {**self._status(), "turn": self.audience(seat).turn}

    def _status(self) -> dict[str, Any]:
        return {"code": self.code, "game": self.game.id, "options": self.options, "status": self.status,
                "seats": self.seats_json(), "turn_timer": self.turn_timer, "created": self.created,
                "rematch": self.rematch}

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.state is None else self.game.to_act(self.state)

    def audience(self, seat: int | None) -> Audience:
        """What ``seat`` (None: the spectators) has been shown, with its own count of the turns."""
        if self._audiences is None:
            self._track()
        return self._audiences[seat]  # type: ignore[index]

    def state_text(self, seat: int | None, legal: bool = True, log_start: int = 0) -> str:
        """The ``state`` message for ``seat`` (None: a spectator), holding only what it may see,
        with its log lines from ``log_start`` on; made once per change for all alike connections."""
        key = (seat, legal, log_start)
        text = self._texts.get(key)
        if text is None:
            audience = self.audience(seat)
            if audience.game is None:
                audience.game = self._game_part(self.state, seat)
            acting = seat is not None and seat in self.to_act() and self.seats[seat].kind == "human"
            moves = dumps_bytes(self.game.legal_actions(self.state, seat)) if legal and acting else b"null"
            status, deadline = self._shared_parts()
            text = self._texts[key] = (
                b'{"type":"state","turn":%d,"room":%s,"deadline":%s,"legal":%s,"log_start":%d,"log":[%s],%s'
                % (audience.turn, status, dumps_bytes(deadline), moves, log_start,
                   b",".join(audience.lines[log_start:]), audience.game[1:])).decode()
        return text

    def _shared_parts(self) -> tuple[bytes, float | None]:
        """The status (without turn, which each audience counts) and the deadline, as shown."""
        if self._shared is None:
            self._refresh_shared()
        return self._shared  # type: ignore[return-value]

    def _refresh_shared(self, status: bool = True) -> None:
        """Take the status (``status`` False: it cannot have changed) and the deadline anew."""
        if not status and self._shared is not None:
            shared = (self._shared[0], self.deadline)
        else:
            shared = (dumps_bytes(self._status()), self.deadline)
        if shared != self._shared:
            self._shared = shared
            self.shared_revision += 1

    def _track(self) -> None:
        """Build every audience by replaying the room's actions (on first need after a start)."""
        self._audiences = {seat: Audience(seat) for seat in (*range(self.players), None)}
        if self.status == "waiting":
            self._show(None)
            return
        state = self.game.start(self.players, self.options, self.seed)
        self._show(state)
        for record in self.records:
            entries: list[LogEntry] = []
            state = self.game.apply(state, record.seat, record.action, entries)
            self._show(state, self._with_timer_line(record, entries), record.seat, record.turn + 1)

    def _show(self, state: Any, entries: list[LogEntry] | None = None, actor: int | None = None,
              room_turn: int | None = None) -> bool:
        """Show every audience ``state`` and the new log ``entries``; ``room_turn`` when an action
        by ``actor`` made it. Returns whether every audience saw that action.

        In a game without hidden information every audience sees every action, so what each one
        sees is worked out only when a connection asks for it (:meth:`_game_part`); otherwise it is
        worked out now, to find who saw the action."""
        assert self._audiences is not None
        names = self.names()
        write = LineWriter(names)
        if names != self._names:  # a seat changed hands: every line is written again
            self._names = names
            for audience in self._audiences.values():
                audience.rename(write)
        hidden = self.game.hidden_information
        common = self._common(state) if hidden else None
        seen_by_all = True
        for audience in self._audiences.values():
            game = self._game_part(state, audience.seat, common) if hidden else None
            mine = actor is not None and actor == audience.seat
            seen_by_all = audience.show(game, entries or (), write, room_turn, mine) and seen_by_all
        return seen_by_all

    def _common(self, state: Any) -> tuple[list[int], dict[str, Any] | None]:
        """Who must act and the result: the same for every audience."""
        if state is None:
            return [], None
        outcome = self.game.result(state)
        return sorted(self.game.to_act(state)), (outcome.to_json(self.names()) if outcome is not None else None)

    def _game_part(self, state: Any, seat: int | None,
                   common: tuple[list[int], dict[str, Any] | None] | None = None) -> bytes:
        """What ``seat`` sees of the game in ``state``: its view, who must act, the result."""
        to_act, result = common or self._common(state)
        view = None if state is None else self.game.view(state, seat)
        return dumps_bytes({"view": view, "to_act": to_act, "result": result})

    def replay_json(self, seat: int | None = None) -> dict[str, Any]:
        """The finished game's replay, its frames as ``seat`` saw the game (None: a spectator);
        refused while the game runs, when nothing of it may be revealed."""
        if self.status != "over":
            raise HallError("conflict", "the replay is shown once the game is over"
                            " (its seed stays secret until then)")
        if seat is not None:
            self.check_seat(seat)
        result = self.game.result(self.state)
        replay = {"format": "parlour-replay/1", "game": self.game.id, "players": self.players,
                  "options": self.options, "seed": self.seed, "names": self.names(),
                  "actions": [[record.seat, record.action] for record in self.records],
                  "result": result.to_json(self.names()) if result else None, "ended": "normal"}
        if seat not in self._replays:  # a finished game never changes again
            replay["seen_by"] = seat
            replay["frames"] = frames(self.game, replay, seat)
            self._replays[seat] = replay
        return self._replays[seat]

    # -- seats --------------------------------------------------------------------------------
    def seat_for_token(self, token: str | None) -> int:
        """The seat ``token`` acts for, or :class:`HallError` (``bad_token``)."""
        if token:
            digest = token_hash(token)
            for i, seat in enumerate(self.seats):
                if seat.token is not None and hmac.compare_digest(seat.token, digest):
                    return i
        raise HallError("bad_token", "this token holds no seat in this room (it may have been given to a bot)")

    def seat_of(self, account: Account | None) -> int | None:
        """The seat a signed-in player holds here, if any: their seat follows them."""
        if account is not None:
            for i, seat in enumerate(self.seats):
                if seat.kind == "human" and seat.account == account.id:
                    return i
        return None

    def check_host(self, token: str | None) -> None:
        if not token or not hmac.compare_digest(token_hash(token), self.host_token):
            raise HallError("not_host", "only the room's host may do this (send the host token)")

    def check_seat(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise HallError("unknown_seat", f"this room has seats 0 to {self.players - 1}, not {seat!r}")
        return seat

    async def join(self, name: str, seat: int | None = None, token: str | None = None,
                   account: Account | None = None) -> tuple[int, str]:
        """Take ``seat`` (None: the first one free). A seat a rematch keeps for a player goes to
        no one else until its time is up; that player claims it with ``token``, their seat token
        in the last game. Signed in (``account``), the seat is the account's, under its name."""
        name = clean_name(account.name if account is not None else name)
        answer = await self.elsewhere("join", {"name": name, "seat": seat, "token": token,
                                               "account": asdict(account) if account is not None else None})
        if answer is not None:
            return answer["seat"], answer["token"]
        async with self.lock:
            held = self.seat_of(account)
            if held is not None:
                raise HallError("conflict", f"you hold seat {held} in this room already")
            if self.status != "waiting":
                raise HallError("conflict", "the game has started: there is no seat left to join")
            now, digest = self.hall.clock.now(), token_hash(token) if token else None
            kept = [s.reserved["token"] if s.kept_for(now) else None for s in self.seats]
            if seat is None:
                free = [i for i, s in enumerate(self.seats) if s.kind == "open" and kept[i] in (None, digest)]
                seat = next((i for i in free if kept[i] is not None), free[0] if free else None)
                if seat is None:
                    waiting = ", ".join(s.kept_for(now) or "" for s in self.seats if s.kept_for(now))
                    raise HallError("conflict", f"every open seat is kept for {waiting} (a rematch) a while longer"
                                    if waiting else "every seat is taken")
            self.check_seat(seat)
            if self.seats[seat].kind != "open":
                raise HallError("conflict", f"seat {seat} is taken by {self.names()[seat]}")
            if kept[seat] is not None and not (digest and hmac.compare_digest(kept[seat], digest)):
                wait = round(self.seats[seat].reserved["until"] - now)
                raise HallError("conflict", f"seat {seat} is kept for {self.seats[seat].kept_for(now)} (a rematch)"
                                f" for {wait} more seconds")
            name = distinct_name(name, self._other_names(seat))
            token = new_token()
            seats = [s.record() for s in self.seats]
            seats[seat] = {"kind": "human", "name": name, "bot": None, "token": token_hash(token), **holder(account)}
            await self._save(seats=seats, taken=SeatHolder(seat, account.id) if account is not None else None)
            self.seats[seat] = Seat.of(seats[seat])
        self._changed()
        await self.chat.tell(f"{name} took seat {seat + 1}")
        return seat, token

    async def give_to_bot(self, seat: int, bot: str, name: str | None = None) -> None:
        """Seat ``seat`` (empty, or a human's who is not connected) is played by ``bot`` from now on.
        Unless given another ``name``, a player's seat taken over mid-game keeps the player's name:
        "Ana (bot)"."""
        self.check_seat(seat)
        self.hall.check_bot(self.game, bot)
        name = clean_name(name) if name is not None else None
        if not self.authoritative:  # the player may be connected here rather than at the owner
            self._check_abandoned(seat)
        if await self.elsewhere("give_to_bot", {"seat": seat, "bot": bot, "name": name}) is not None:
            return
        async with self.lock:
            if self.status == "over":
                raise HallError("over", "the game is over")
            current = self.seats[seat]
            self._check_abandoned(seat)
            if name is None:  # mid-game the seat's moves so far are its player's
                taking_over = current.kind == "human" and self.status == "playing"
                name = f"{current.name} (bot)" if taking_over else bot
            name = distinct_name(name, self._other_names(seat))
            seats = [s.record() for s in self.seats]
            seats[seat] = {"kind": "bot", "name": name, "bot": bot, "token": None}
            if self.status == "playing" and current.kind != "open":  # rated as before (hall/ratings.py)
                seats[seat].update(replaced=current.kind == "human" or current.replaced,
                                   rated_as=current.rated_as or current.bot)
            await self._save(seats=seats, left=leaving(seat, current.account, self.status))
            self.seats[seat] = Seat.of(seats[seat])
        self._changed()
        await self.chat.tell(f"a bot ({bot}) took over {current.name}'s seat" if current.kind == "human"
                             else f"{name} (bot) took seat {seat + 1}")

    def _check_abandoned(self, seat: int) -> None:
        current = self.seats[seat]
        if current.kind == "human" and current.connections > 0:
            raise HallError("conflict", f"seat {seat} is {current.name}'s, who is still here;"
                            " only an empty or abandoned seat can go to a bot")

    async def start(self) -> None:
        if await self.elsewhere("start", {}) is not None:
            return
        async with self.lock:
            if self.status != "waiting":
                raise HallError("conflict", "the game has already started")
            open_seats = [i for i, s in enumerate(self.seats) if s.kind == "open"]
            if open_seats:
                raise HallError("conflict", f"seat(s) {', '.join(map(str, open_seats))} still open:"
                                " wait for players or give them to bots")
            await self._save(status="playing")
            self.status = "playing"
            self._begin()
        self._changed()
        await self.chat.tell("the game started")

    def connect(self, seat: int | None) -> None:
        self.watchers += 1
        if seat is not None:
            self.seats[seat].connections += 1
            self.chat.arrived(seat)
            self._changed(game=False, here_only=True)

    def disconnect(self, seat: int | None) -> None:
        self.watchers -= 1
        self.touched = self.hall.clock.now()
        if seat is not None:
            self.seats[seat].connections -= 1
            if self.seats[seat].kind == "human" and self.seats[seat].connections == 0:
                self.chat.departed(seat)
            self._changed(game=False, here_only=True)

    async def _save(self, **changes: Any) -> None:
        """Change the room in the store (``seats``, ``status``, ``rematch``; ``taken``, ``left``: a
        signed-in player's seat), fenced by the room's lease when several processes share the rooms."""
        try:
            await self.hall.store.update_room(self.code, lease=self.lease, **changes)
        except StoreError as error:
            raise self.refusal(error) from None

    async def offered_rematch(self, code: str) -> None:
        """Its players were invited to room ``code`` next (hall/table.py)."""
        async with self.lock:
            await self._save(rematch=code)
            self.rematch = code
        self.changed_status()

    # -- the cluster: which process applies the room (hall/cluster/node.py) -------------------------
    @property
    def authoritative(self) -> bool:
        """Whether this process applies the room's changes: always, unless several processes
        share the rooms and another one holds the room's lease."""
        return self.lease is not None or self.hall.cluster is None

    def refusal(self, error: StoreError) -> HallError:
        """What a failed commit of this room tells the client (the room is let go if it was lost)."""
        if isinstance(error.__cause__, LeaseLost):
            self.lose()
            return HallError("retry", "another process of the hall took this room over while the change was"
                             " being saved: nothing was done; look at the room's state, then try again")
        return HallError("store", str(error))

    async def elsewhere(self, op: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        """None when this process makes the change ``op`` (always, but for a room another process
        applies and cannot be taken from it); else the answer of the process that made it, once
        committed there. This copy of the room is caught up before that answer is returned."""
        if self.authoritative:
            return None
        assert self.hall.cluster is not None
        answer = await self.hall.cluster.elsewhere(self, op, payload)
        if answer is not None:
            self.refresh()
        return answer

    async def own(self, lease: Lease) -> None:
        """This process holds the room's lease from now on: the room is caught up from the store
        (whatever its last owner committed is there, fencing saw to it), then its bots and timer
        run here."""
        async with self.lock:
            self.catch_up(quiet=True)
            self.lease = lease
            self.chat.forget()
            self.deadline = None  # the turn timer starts again, here
            self._thinking.clear()  # whatever this process's bots began choosing before is moot
        self._changed(here_only=True)

    def lose(self) -> None:
        """Another process holds the room now: this copy stops deciding, and follows the store."""
        if self.lease is None:
            return
        self.lease = None
        self.hall.timed.discard(self)
        self.refresh()

    def refresh(self) -> None:
        """A replica caught up from the store now, or once the change under way here is done (an
        action being forwarded: its ack goes out first)."""
        if self.authoritative or self._forwarding:
            return
        if self.lock.locked():
            self.hall.spawn(self._refresh_after())
        else:
            self.catch_up()

    async def _refresh_after(self) -> None:
        async with self.lock:
            if not self.authoritative:
                self.catch_up()

    def catch_up(self, quiet: bool = False) -> bool:
        """Bring this copy up to what the store has committed: the room's seats and status, and its
        actions from this copy's turn on, applied in order (the store holds every turn, so none is
        skipped). Its watchers here are told unless ``quiet``. Returns whether anything changed."""
        record = self.hall.store.room_blocking(self.code, from_turn=self.turn)
        if record is None:
            return False
        changed = False
        if record.seats != [seat.record() for seat in self.seats]:
            connections = [seat.connections for seat in self.seats]
            self.seats = [Seat.of(seat) for seat in record.seats]
            for seat, count in zip(self.seats, connections):
                seat.connections = count
            changed = True
        if record.rematch != self.rematch:
            self.rematch, changed = record.rematch, True
        if self.status == "waiting" and record.status != "waiting":
            self.status = "playing"
            self._begin()
            if self._audiences is not None:  # as the owner showed it
                self._show(self.state)
            changed = True
        applied, seen_by_all = False, False
        for action in map(self._cleaned, record.actions):
            if action.turn < self.turn:
                continue
            if action.turn != self.turn:
                raise StoreError(f"room {self.code}: turn {self.turn} is missing from the store")
            entries: list[LogEntry] = []
            state = self.game.apply(self.state, action.seat, action.action, entries)
            seen_by_all = self._advance(action, state, entries) or seen_by_all
            applied = changed = True
        if changed and not quiet:
            self._changed(seen_by_all if applied else None, here_only=True)
        return changed

    # -- playing ------------------------------------------------------------------------------
    async def act(self, seat: int, turn: Any, action: Any, by: str = "player",
                  on_commit: Callable[[int], None] | None = None) -> int:
        """Apply ``action`` for ``seat``, chosen when the room was at ``turn``; returns the new turn.

        ``turn`` and the turn returned are counted as the seat sees them (:class:`Audience`). The
        action is committed to the store before anything else learns of it: ``on_commit`` (the
        acknowledgement) runs next, then the broadcast. Refusals raise :class:`HallError` and change
        nothing. A cancelled caller (a closed socket) does not interrupt a commit under way.
        """
        if self.lease is None and self.hall.cluster is not None:
            return await self._act_elsewhere(seat, turn, action, by, on_commit)
        return await asyncio.shield(self._act(seat, turn, action, by, on_commit))

    async def _act_elsewhere(self, seat: int, turn: Any, action: Any, by: str,
                             on_commit: Callable[[int], None] | None) -> int:
        """A player's action at a process that does not apply the room: forwarded to the one that
        does, acknowledged once committed there. Bots and timers play only at the room's owner."""
        if by != "player":
            raise HallError("stale", f"room {self.code} is applied by another process of the hall now")
        assert self.hall.cluster is not None
        self._forwarding += 1  # the copy here waits: the ack goes out before the state it made
        try:
            answer = await self.hall.cluster.elsewhere(self, "act", {"seat": seat, "turn": turn, "action": action})
            if answer is not None and on_commit is not None:
                on_commit(answer["turn"])
        finally:
            self._forwarding -= 1
            self.refresh()
        if answer is None:  # this process took the room over
            return await asyncio.shield(self._act(seat, turn, action, by, on_commit))
        return answer["turn"]

    async def _act(self, seat: int, turn: Any, action: Any, by: str,
                   on_commit: Callable[[int], None] | None) -> int:
        async with self.lock:
            self._check_turn(seat, turn)
            entries: list[LogEntry] = []
            try:
                action = self.game.normalise(action)  # what is applied and stored: never the raw message
                state = self.game.apply(self.state, seat, action, entries)
            except IllegalAction as error:
                raise HallError("illegal", str(error)) from None
            except Exception as error:  # a game that trips over odd input must still answer in words
                log.exception("%s failed on %r in room %s", self.game.id, action, self.code)
                raise HallError("illegal", f"this action could not be applied ({type(error).__name__}:"
                                f" {error})") from None
            record = ActionRecord(self.turn, seat, action, by, self.hall.clock.now())
            over = self.game.is_over(state)
            result = self.game.result(state) if over else None
            rated = settlement(self.code, self.game.id, [s.record() for s in self.seats], result.ranks,
                               record.at) if result is not None else None
            try:
                # the lease's fencing check and a finished game's ratings commit with the action, or none does
                await self.hall.store.append_action(self.code, record, status="over" if over else None,
                                                    lease=self.lease, settle=rated)
            except StoreError as error:
                raise self.refusal(error) from None
            seen_by_all = self._advance(record, state, entries)
            turn = self.audience(seat).turn
            if on_commit is not None:
                on_commit(turn)
        self._changed(action_seen_by_all=seen_by_all)
        return turn

    def _check_turn(self, seat: int, turn: Any) -> None:
        if self.status == "waiting":
            raise HallError("not_started", "the game has not started yet")
        if self.status == "over":
            raise HallError("over", "the game is over")
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise HallError("bad_message", "an act needs 'turn', the turn of the last state you saw")
        audience = self.audience(seat)
        then = audience.room_turn(turn)
        since = self.waiting_since[seat]
        # Stale: the game moved on since that state in a way that concerns this seat (it acted
        # already, or it was not yet asked to act then). Of two racing clicks one applies.
        if then is None or (then < self.turn and (since is None or then < since)):
            raise HallError("stale", f"the game has moved on since turn {turn} (it is at turn {audience.turn}):"
                            " look at the new state and choose again")
        if seat not in self.game.to_act(self.state):
            waiting = ", ".join(self.names()[s] for s in sorted(self.game.to_act(self.state)))
            raise HallError("not_your_turn", f"it is not your turn: waiting for {waiting}")

    def _begin(self) -> None:
        self.state = self.game.start(self.players, self.options, self.seed)
        self.turn = 0
        self._update_waiting(None)

    def _advance(self, record: ActionRecord, state: Any, entries: list[LogEntry]) -> bool:
        """The room after ``record`` (committed); returns whether every audience saw it."""
        self.state = state
        self.records.append(record)
        self.turn = record.turn + 1
        if self.game.is_over(state):
            self.status = "over"
        self._update_waiting(record.seat)
        if self._audiences is None:  # rebuilding on start: the audiences come later, from the records
            return True
        return self._show(state, self._with_timer_line(record, entries), record.seat, self.turn)

    def _with_timer_line(self, record: ActionRecord, entries: list[LogEntry]) -> list[LogEntry]:
        if record.by != "timer":
            return entries
        return [LogEntry(f"the turn timer ran out: the {self.hall.builtin_bot(self.game)} bot moved"
                         f" for {{p{record.seat}}}"), *entries]

    def _update_waiting(self, mover: int | None) -> None:
        acting = self.game.to_act(self.state)
        for seat in range(self.players):
            if seat not in acting:
                self.waiting_since[seat] = None
            elif seat == mover or self.waiting_since[seat] is None:
                self.waiting_since[seat] = self.turn

    # -- after every change: watchers, bots, timer ---------------------------------------------
    def changed_status(self) -> None:
        """The room's status changed (not its game): its watchers are told."""
        self._changed(game=False)

    def _changed(self, action_seen_by_all: bool | None = None, game: bool = True, here_only: bool = False) -> None:
        """After any change; ``action_seen_by_all`` after an action: whether every audience saw it;
        ``game`` False when only the status changed; ``here_only`` when the change is not one to
        tell the other processes of the hall (a connection came or went here; a change they made)."""
        if action_seen_by_all is None:  # seats, the start: show them to everyone
            if self._audiences is None:
                self._track()
            elif game:
                self._show(self.state)
        if self.status == "playing":
            self._arm_timer(bool(action_seen_by_all))
            if self.authoritative:
                self._schedule_bots()
        else:
            self.deadline = None
        self.touched = self.hall.clock.now()
        # after an action the status changes only when the game ends
        self._refresh_shared(status=action_seen_by_all is None or self.status == "over")
        self._texts.clear()
        if here_only:
            self.hall.broadcast.publish_here(self.code)
        else:
            self.hall.broadcast.publish(self.code)

    def _arm_timer(self, restart: bool) -> None:
        """The deadline starts when human seats must act, and starts again after an action that
        everyone saw asked a human seat anew; an action hidden from some seat never moves it,
        so the deadline tells nobody about moves they cannot see."""
        humans = [s for s in self.to_act() if self.seats[s].kind == "human"]
        if not self.turn_timer or not humans:
            self.deadline = None
            self.hall.timed.discard(self)
        elif not self.authoritative:  # as the owner set it: from the last action (the store's time of it)
            if self.deadline is None or (restart and any(self.waiting_since[s] == self.turn for s in humans)):
                self.deadline = (self.records[-1].at if self.records else self.hall.clock.now()) + self.turn_timer
        elif self.deadline is None or (restart and any(self.waiting_since[s] == self.turn for s in humans)):
            self.deadline = self.hall.clock.now() + self.turn_timer
            self.hall.timed.add(self)

    def time_out(self) -> None:
        """The turn timer ran out: the built-in bot moves for every human seat that must act."""
        self.deadline = None
        self.hall.timed.discard(self)
        for seat in self.to_act():
            if self.seats[seat].kind == "human":
                self._think(seat, self.hall.builtin_bot(self.game), "timer")

    def _schedule_bots(self) -> None:
        for seat in self.to_act():
            if self.seats[seat].kind == "bot":
                self._think(seat, self.seats[seat].bot or self.hall.builtin_bot(self.game), "bot")

    def _think(self, seat: int, bot: str, by: str) -> None:
        # One bot move per time a seat is asked to act: in a phase where several seats choose
        # at once, another seat's move does not start this seat's choice over.
        since = self.waiting_since[seat]
        if self._thinking.get(seat) == since:
            return
        self._thinking[seat] = since
        self.hall.spawn(self._bot_move(seat, bot, by, self.audience(seat).turn, self.state))

    async def _bot_move(self, seat: int, name: str, by: str, turn: int, state: Any) -> None:
        """A bot chooses from its seat's view, in a thread so that a slow bot stalls no other room."""
        bot = self._bots.get((seat, name))
        if bot is None:
            bot = self._bots[seat, name] = bot_registry.create(
                self.game, name, seed=self.hall.new_seed("bot", self.seed, seat, name),
                time_limit=self.hall.bot_time_limit)
        try:
            if bot.thinks and self.game.id in self.hall.registry:
                action = await asyncio.get_running_loop().run_in_executor(
                    self.hall.thinking, self._choose_apart, name, state, seat, turn)
            else:
                action = await asyncio.get_running_loop().run_in_executor(
                    self.hall.executor, self._choose, bot, state, seat)
        except Exception:
            log.exception("bot %s failed in room %s; playing a random legal action", name, self.code)
            action = self.game.random_action(state, seat, random.Random())
        try:
            await self.act(seat, turn, action, by=by)
        except HallError as error:
            if error.code != "stale":  # stale: someone acted first (a seat changed hands)
                log.warning("bot %s in room %s could not act: %s", name, self.code, error)
            if error.code == "illegal":  # a bot's bug must not stall the game
                await self._fallback(seat, by, turn, state)

    async def _fallback(self, seat: int, by: str, turn: int, state: Any) -> None:
        try:
            await self.act(seat, turn, self.game.random_action(state, seat, random.Random()), by=by)
        except HallError as error:
            log.warning("the random fallback in room %s could not act either: %s", self.code, error)

    def _choose(self, bot: Bot, state: Any, seat: int) -> Action:
        return bot.choose(self.game.view(state, seat), seat, self.game.legal_actions(state, seat))

    def _choose_apart(self, name: str, state: Any, seat: int, turn: int) -> Action:
        """A thinking bot's move, made in a worker process (:mod:`parlour.hall.thinkers`)."""
        seed = self.hall.new_seed("thinker", self.seed, seat, name, turn)
        return self.hall.thinkers.choose(self.game.id, name, seed, self.game.view(state, seat), seat,
                                         self.game.legal_actions(state, seat))


def frames(game: Game[Any], replay: Mapping[str, Any], seen_by: int | None = None) -> list[dict[str, Any]]:
    """The view of ``seen_by`` (None: a spectator) and the log lines it may read after each action
    of a finished ``replay`` (``frames[0]`` is the start). Raises :class:`IllegalAction` for a
    replay that does not replay."""
    names = list(replay["names"])
    state = game.start(replay["players"], replay["options"], replay["seed"])
    out = [{"turn": 0, "view": game.view(state, seen_by), "to_act": sorted(game.to_act(state)), "log": []}]
    for turn, (seat, action) in enumerate(replay["actions"], start=1):
        entries: list[LogEntry] = []
        state = game.apply(state, seat, game.normalise(action), entries)
        out.append({"turn": turn, "view": game.view(state, seen_by), "to_act": sorted(game.to_act(state)),
                    "log": [e.render(names) for e in entries if e.visible_to(seen_by)]})
    return out


class Hall:
    """Every room, with what they share: the store, the broadcast, the clock, the bots' threads."""

    def __init__(self, store: Store, games: Mapping[str, Game[Any]], clock: Clock,
                 broadcast: Broadcast | None = None, bot_time_limit: float = 1.0, bot_threads: int = 4,
                 bot_workers: int = 1, seed: int | None = None, cluster: Node | None = None) -> None:
        """``cluster``: this process's part when several share the rooms (hall/cluster/node.py);
        it brings its own broadcast (Redis) when the hall starts."""
        self.store = store
        self.cluster = cluster
        self.seed = seed  # None: every deal and bot seed is fresh; else all follow from it (new_seed)
        self._dealt = 0  # the rooms created since this hall started, for new_seed
        self.games = dict(games)
        self.clock = clock
        self.broadcast = broadcast or LocalBroadcast()
        self.bot_time_limit = bot_time_limit
        self.executor = ThreadPoolExecutor(max_workers=bot_threads, thread_name_prefix="parlour-bot")
        # bots that think choose in worker processes; a thread waits for each worker's answer
        self.thinkers = Thinkers(bot_workers, bot_time_limit)
        self.thinking = ThreadPoolExecutor(max_workers=self.thinkers.workers, thread_name_prefix="parlour-think")
        self.registry = set(all_games())  # the games a worker process can build by id
        self.rooms: dict[str, Room] = {}
        self.timed: set[Room] = set()
        self.abandoned: set[str] = set()  # waiting rooms let go of as abandoned (the store keeps them)
        self._tasks: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        """Rebuild every stored room whose game is not over by replaying its actions, wake its
        bots, run the timers. Finished games are loaded when someone asks for one. One of several
        processes: take the rooms being played that no process holds; the others are read from
        the store when someone asks for one."""
        if self.cluster is not None:
            self.broadcast = self.cluster.connect(self)
            self.spawn(self._tick())
            await self.cluster.start()
            return
        for record in self.store.load_blocking(finished=False):  # at start-up, before serving
            room = self._restore(record)
            if room is not None and room.status == "playing":
                room._changed()
        self.spawn(self._tick())

    def _restore(self, record: RoomRecord) -> Room | None:
        """The room of a stored record, rebuilt by replay, or None (logged) if it cannot be."""
        game = self.games.get(record.game)
        if game is None:
            log.error("room %s plays %r, a game this hall does not have: left out", record.code, record.game)
            return None
        try:
            room = Room(self, record, game)
        except Exception:  # e.g. the rules changed since: one broken room must not stop the hall
            log.exception("room %s no longer replays: left out", record.code)
            return None
        self.rooms[record.code] = room
        return room

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.cluster is not None:
            await self.cluster.stop()
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.thinking.shutdown(wait=False, cancel_futures=True)
        self.thinkers.close()

    def new_seed(self, *labels: object) -> int:
        """A seed for a new deal or bot: fresh entropy, or with the hall's ``seed`` one fixed by
        it and ``labels``, so that a test hall deals the same rooms in the same order every run."""
        return fresh_seed() if self.seed is None else derive(self.seed, *labels).getrandbits(63)

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tick(self) -> None:
        next_sweep = self.clock.now() + SWEEP_EVERY
        while True:
            await asyncio.sleep(TIMER_TICK)
            now = self.clock.now()
            for room in [r for r in self.timed if r.deadline is not None and r.deadline <= now]:
                room.time_out()
            if now >= next_sweep:
                self.sweep(now)
                next_sweep = now + SWEEP_EVERY

    def sweep(self, now: float) -> list[str]:
        """Let go of the finished games nobody has watched for ``KEEP_FINISHED`` seconds and of the
        waiting rooms that expired (:func:`~parlour.hall.table.expired`); they stay in the store,
        and come back when asked for. Returns their codes."""
        idle = [code for code, room in self.rooms.items() if expired(room, now) or (
                room.status == "over" and room.watchers == 0 and now - room.touched >= KEEP_FINISHED) or (
                not room.authoritative and room.watchers == 0 and now - room.touched >= KEEP_REPLICA)]
        for code in idle:
            room = self.rooms.pop(code)
            if expired(room, now):
                self.abandoned.add(code)
            if room.lease is not None and self.cluster is not None:
                self.cluster.release_later(room.lease)
        return idle

    def heard(self, key: str) -> None:
        """Another process of the hall changed ``key`` (a room, or its chat: ``CODE/chat``), or
        such changes may have been missed (Redis was away): the copy here catches up from the store."""
        code, _, chat = key.partition("/")
        room = self.rooms.get(code)
        if room is None or room.authoritative:
            return
        if chat:
            room.chat.forget()
            self.broadcast.publish_here(key)
        else:
            room.refresh()

    # -- rooms --------------------------------------------------------------------------------
    def room(self, code: str) -> Room:
        """The room ``code``, from memory or else (a finished game) from the store."""
        code = code.upper()
        room = self.rooms.get(code)
        if room is not None and self.cluster is not None:
            room.refresh()
        if room is None:
            record = self.store.room_blocking(code) if len(code) == CODE_LENGTH else None
            room = self._restore(record) if record is not None else None
            if room is None:
                raise HallError("unknown_room", f"there is no room {code!r}")
            if room.status == "playing" and not room.authoritative:
                room._arm_timer(False)  # the deadline as its owner set it
        return room

    def game(self, game_id: str) -> Game[Any]:
        game = self.games.get(game_id)
        if game is None:
            raise HallError("bad_request", f"there is no game {game_id!r} (the games: {', '.join(self.games)})")
        return game

    def check_bot(self, game: Game[Any], bot: str) -> None:
        if bot not in bot_registry.names(game):
            raise HallError("bad_request", f"{game.name} has no bot {bot!r}"
                            f" (its bots: {', '.join(bot_registry.names(game))})")

    @staticmethod
    def builtin_bot(game: Game[Any]) -> str:
        """The bot that moves when a turn timer runs out: the game's first own bot, else random."""
        return next(iter(game.bots), "random")

    async def create_room(self, game_id: str, options: Mapping[str, Any] | None, seats: list[Mapping[str, Any]],
                          turn_timer: float | None = None, host_name: str | None = None,
                          take_seat: int | None = None, reserved: Mapping[int, dict[str, Any]] | None = None,
                          account: Account | None = None) -> tuple[Room, str, int | None, str | None]:
        """A new room: (room, host token, the host's seat, its seat token); ``reserved``: open
        seats kept for players of a last game (:attr:`Seat.reserved`); signed in (``account``),
        the host's seat is the account's, under its name."""
        game = self.game(game_id)
        try:
            game.check_players(len(seats))
            resolved = game.resolve_options(options)
        except ParlourError as error:
            raise HallError("bad_request", str(error)) from None
        if turn_timer is not None and not 0 < turn_timer <= MAX_TURN_TIMER:
            raise HallError("bad_request", f"the turn timer must be between 0 and {MAX_TURN_TIMER} seconds")
        records: list[dict[str, Any]] = []
        for i, spec in enumerate(seats):
            if spec.get("kind") == "bot":
                self.check_bot(game, spec.get("bot", ""))
                name = clean_name(spec["name"]) if spec.get("name") is not None else spec["bot"]
                records.append({"kind": "bot", "name": name, "bot": spec["bot"], "token": None})
            else:
                records.append({"kind": "open", "name": None, "bot": None, "token": None})
                if reserved and i in reserved:
                    records[-1]["reserved"] = dict(reserved[i])
        seat_token = None
        if take_seat is not None:
            if not 0 <= take_seat < len(seats) or records[take_seat]["kind"] != "open":
                raise HallError("bad_request", f"seat {take_seat} is not an open seat of this room")
            if account is not None:
                host_name = account.name
            if host_name is None:
                raise HallError("bad_request", "to take a seat, give host_name")
            seat_token = new_token()
            records[take_seat] = {"kind": "human", "name": clean_name(host_name), "bot": None,
                                  "token": token_hash(seat_token), **holder(account)}
        for i, record in enumerate(records):
            if record["name"] is not None:
                record["name"] = distinct_name(record["name"], [r["name"] for r in records[:i]])
        host_token = new_token()
        code = new_code()
        while code in self.rooms or await self.store.room_exists(code):
            code = new_code()
        self._dealt += 1
        record = RoomRecord(code=code, game=game.id, players=len(seats), options=resolved,
                            seed=self.new_seed("room", self._dealt),
                            status="waiting", turn_timer=turn_timer, host_token=token_hash(host_token),
                            seats=records, created=self.clock.now())
        first_line = None
        if take_seat is not None:  # nobody knows the room's code yet: written by whoever made it
            first_line = ChatLine(0, record.created, "system", None, None,
                                  f"{records[take_seat]['name']} took seat {take_seat + 1}")
        try:
            await self.store.create_room(record, first_line=first_line, holder=SeatHolder(take_seat, account.id)
                                         if take_seat is not None and account is not None else None)
        except StoreError as error:
            raise HallError("store", str(error)) from None
        room = self.rooms[code] = Room(self, record, game)
        return room, host_token, take_seat, seat_token
