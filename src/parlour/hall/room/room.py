"""A room: the authority over one game, as a coordinator.

It takes commands as data (:mod:`.commands`) under its lock, judges them, commits what they change
to the store, then updates itself and tells its watchers; the work of each concern is done by a
collaborator with one job: the seats (:mod:`.seats`), what each seat sees (:mod:`.audience`), the
turn timer (:mod:`.timer`), the bots (:mod:`.bots`), the chat (:mod:`.chat`) and the replay
(:mod:`.replay`). It sees its surroundings only through a :class:`~.context.RoomContext`: it never
touches a socket or a database itself, and never asks where it is applied. A room either *leads*
(this process applies it: always, in a single process) or follows, as a replica, what another
process of a cluster committed (:meth:`apply_committed`), and the cluster says which.

    room = Room(context, record, game, leading=True)
    answer = await room.handle(Act(seat=0, seq=0, action={"type": "pass"}))
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Callable
from typing import Any

from ...core import Game, IllegalAction, LogEntry, Result
from .. import observe
from ..accounts import Account
from ..errors import HallError
from ..ratings import settlement
from ..store import ActionRecord, Lease, LeaseLost, RoomRecord, SeatHolder, StoreError, leaving
from ..tokens import token_hash
from ..wire import dumps_bytes
from .audience import Audience, Audiences
from .bots import BotDriver
from .chat import Chat
from .checks import prepared
from .coach import Coaching, unrated
from .commands import (
    Act,
    Acted,
    Answer,
    By,
    Command,
    Done,
    GiveToBot,
    Join,
    Joined,
    Resign,
    Said,
    Say,
    Start,
    TakeBack,
    Vote,
)
from .context import RoomContext
from .leaving import ENDED, ended_early, farewell, final, host_away, leave, time_out, watch_host
from .pace import Pace
from .play import Play
from .replay import replay_of
from .seats import SeatBook
from .takeback import holding, moved, rewind, take_back
from .timer import TurnTimer
from .votes import Votes, resume_vote, vote

log = logging.getLogger(__name__)

# What a change committed, for the other processes of a cluster: made only if anyone takes it.
Change = Callable[[], dict[str, Any]]


class Room:
    """One room: a game, its seats and, once started, its state rebuilt from its actions."""

    def __init__(self, context: RoomContext, record: RoomRecord, game: Game[Any], leading: bool = True) -> None:
        self.context = context
        self.game = game
        self.code = record.code
        self.players = record.players
        self.options = game.stored_options(record.options)  # a room older than an option replays as played
        self.seed = record.seed
        self.status = record.status
        self.host_token = record.host_token
        self.created = record.created
        self.rematch = record.rematch  # the code of the room its players were invited to next
        self.coach, self.coaching = record.coach, Coaching()  # hints and take-backs (room/coach.py, room/takeback.py)
        self.watchers = 0  # connections, spectators' included
        self.touched = context.clock.now()  # when it last changed (or was read back from the store)
        self.seats = SeatBook(record.seats)
        self.host_seen = self.touched  # when the host was last here (room/leaving.py: host_away)
        self.host_watched = False  # whether watch_host runs for this waiting room
        for seat in self.seats:
            seat.away_since = self.touched
        self.play = Play(game, self.players, self.options, self.seed)
        self.lock = asyncio.Lock()
        # Several hall processes (hall/cluster/): whether this process applies the room, and the
        # fencing check its commits then carry; a follower is a replica of what the owner committed.
        self.leading = leading
        self.lease: Lease | None = None
        self.forwarding = 0  # players' actions sent to the owner and not yet answered
        self.pace = Pace(record.pace, record.turn_timer, record.deadline, lambda seats: context.asked(self.code, seats))
        self.timer = TurnTimer(None if self.pace.turn_based else record.turn_timer, context.deadlines,
                               lambda: time_out(self, self.to_act(), self.driver, self._asked))
        self.audiences = Audiences(game, self.players, self.names, self._status,
                                   lambda: self.timer.deadline or self.pace.deadline, self.ended)
        self.bots = context.bots
        self.driver = BotDriver(self.code, game, context.bots, self._seed, context.spawn, self._bot_act)
        self.chat = Chat(self.code, context, self.seats, lambda: self.lease, self.refusal, self._say_system)
        self.votes = Votes(self)
        if self.status != "waiting":
            self.play.begin()
            for action in map(self.play.cleaned, record.actions):
                self._advance(action, self.game.apply(self.state, action.seat, action.action, []), [])

    @property
    def state(self) -> Any:
        return self.play.state

    @property
    def turn(self) -> int:
        return self.play.turn

    @property
    def records(self) -> list[ActionRecord]:
        return self.play.records

    # -- what anyone may see ----------------------------------------------------------------------
    @property
    def turn_timer(self) -> float | None:
        return self.pace.seconds if self.pace.turn_based else self.timer.seconds

    def names(self) -> list[str]:
        return self.seats.names()

    def status_json(self, seat: int | None = None) -> dict[str, Any]:
        """The room's status; its ``turn`` is the turns ``seat`` has seen (None: a spectator)."""
        return {**self._status(), "turn": self.audience(seat).turn}

    def _status(self) -> dict[str, Any]:
        now = self.context.clock.now()
        return {"code": self.code, "game": self.game.id, "options": self.options, "status": self.status,
                "seats": self.seats.to_json(now), "turn_timer": self.turn_timer, "created": self.created,
                "rematch": self.rematch, "vote": self.votes.to_json(self.seats, now), "host_away": self.host_away(),
                "coach": self.coach, "coach_hold": self.coaching.hold_json(self.turn),
                **self.pace.status(self.seats.humans(self.to_act()), now)}

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.status == "over" else self.play.to_act()

    def ended(self) -> Result | None:
        """The result of a game ended before its rules ended it (room/leaving.py), else None."""
        return ended_early(self.status, self.game, self.state, self.seats, self.turn)

    def host_away(self) -> bool:
        return host_away(self.status, self.seats, self.host_seen, self.context.clock.now())

    def expired(self, now: float, ttl: float) -> bool:
        """A waiting room nobody has been connected to for ``ttl`` seconds."""
        watched = self.watchers or self.seats.watchers_elsewhere  # here, or at another process of a cluster
        return self.status == "waiting" and not watched and now - self.touched >= self.pace.waiting(ttl)

    def audience(self, seat: int | None) -> Audience:
        """What ``seat`` (None: the spectators) has been shown, with its own count of the turns."""
        if not self.audiences.built:
            self._track()
        return self.audiences[seat]

    @property
    def shared_revision(self) -> int:
        return self.audiences.shared_revision

    def state_text(self, seat: int | None, legal: bool = True, log_start: int = 0, skipped: int = 0) -> str:
        """The ``state`` message for ``seat`` (None: a spectator), holding only what it may see,
        with its log lines from ``log_start`` on; made once per change for all alike connections."""
        self.audience(seat)
        return self.audiences.state_text(seat, self.state, lambda: self._moves(seat), legal, log_start, skipped)

    def _moves(self, seat: int | None) -> bytes:
        if seat is None or seat not in self.to_act() or self.seats[seat].kind != "human":
            return b"null"
        return dumps_bytes(self.game.legal_actions(self.state, seat))

    def _track(self) -> None:
        """Builds every audience by replaying the room's actions (on first need after a start)."""
        if self.status == "waiting":
            self.audiences.track(None, ())
            return
        self.audiences.track(self.play.start_state(), (
            (state, self._with_timer_line(record, entries), record.seat, record.turn + 1)
            for state, record, entries in self.play.steps()))

    def replay_json(self, seat: int | None = None, start: int = 0, count: int | None = None) -> dict[str, Any]:
        """The finished game's replay, a page of its frames (from ``start``) as ``seat`` saw the game
        (None: a spectator); refused while the game runs, when nothing of it may be revealed."""
        if self.status != "over":
            raise HallError("conflict", "the replay is shown once the game is over"
                            " (its seed stays secret until then)")
        if seat is not None:
            self.seats.check_seat(seat)
        ended = self.ended()
        return replay_of(self.game, self.players, self.options, self.seed, self.names(), self.records, self.state,
                         seat, start, count, ended, ended.details.get("ended", ENDED) if ended is not None else None)

    # -- seats --------------------------------------------------------------------------------
    def seat_for_token(self, token: str | None) -> int:
        return self.seats.seat_for_token(token)

    def seat_of(self, account: Account | None) -> int | None:
        return self.seats.seat_of(account)

    def check_host(self, token: str | None) -> None:
        if not token or not hmac.compare_digest(token_hash(token), self.host_token):
            raise HallError("not_host", "only the room's host may do this (send the host token)")
        self.host_seen = self.context.clock.now()

    def connect(self, seat: int | None) -> None:
        self.watchers += 1
        if self.status == "waiting" and not self.host_watched:
            self.host_watched = True
            self.context.spawn(watch_host(self))
        if seat is not None:
            self.seats[seat].connections += 1
            self.seats[seat].away_since = None
            self.chat.arrived(seat)
            self._changed(game=False, here_only=True)

    def disconnect(self, seat: int | None) -> None:
        self.watchers -= 1
        self.touched = self.context.clock.now()
        if seat is not None:
            self.seats[seat].connections -= 1
            if self.seats[seat].connections == 0:
                self.seats[seat].away_since = self.touched
                if self.seats[seat].host:
                    self.host_seen = self.touched
            if self.seats[seat].kind == "human" and self.seats[seat].connections == 0:
                self.chat.departed(seat)
            self._changed(game=False, here_only=True)

    # -- commands -----------------------------------------------------------------------------
    def prepare(self, command: Command) -> Command:
        """``command`` checked and put in its final form where it was asked, before it goes to the
        process that applies the room; :class:`HallError` in words if it cannot be."""
        return prepared(command, self.seats, self.bots, self.game, self.leading)

    async def handle(self, command: Command, on_commit: Callable[[int], None] | None = None) -> Answer:
        """Applies ``command`` here (this process leads the room). An :class:`Act` is committed
        before anything else learns of it: ``on_commit`` (the acknowledgement) runs next, then the
        broadcast; a cancelled caller (a closed socket) does not interrupt a commit under way.
        Refusals raise :class:`HallError` and change nothing."""
        if not self.leading:
            raise HallError("retry", f"room {self.code} is applied by another process of the hall now:"
                            " nothing was done; try again")
        if isinstance(command, Act):
            return Acted(await asyncio.shield(self._act(command, on_commit)))
        if isinstance(command, Join):
            return Joined(*await self._join(command))
        if isinstance(command, Resign) or isinstance(command, GiveToBot) and self.status == "playing" \
                and self.seats[command.seat].kind == "human":  # room/leaving.py: a forfeit
            await leave(self, lambda: farewell(self, command))
            return Done()
        if isinstance(command, GiveToBot):
            await self._give_to_bot(command)
            return Done()
        if isinstance(command, Vote):
            await vote(self, self.votes, command)
            return Done()
        if isinstance(command, Start):
            await self._start()
            return Done()
        if isinstance(command, TakeBack):  # the coach (room/takeback.py)
            await take_back(self, command)
            return Done()
        if isinstance(command, Say):
            return Said((await self.chat.say(command)).n)
        raise HallError("bad_request", f"a room does not take {type(command).__name__} itself")

    async def _say_system(self, text: str) -> None:
        await self.context.execute(self.code, Say("system", text))

    async def _join(self, command: Join) -> tuple[int, str]:
        async with self.lock:
            seat, token, seats = self.seats.joined(command, self.status, self.context.clock.now())
            taken = SeatHolder(seat, command.account.id) if command.account is not None else None
            await self._save(seats=seats, taken=taken)
            self.seats.set(seat, seats[seat])
        self._changed(change=lambda: {"seats": seats})
        await self.chat.tell(f"{seats[seat]['name']} took seat {seat + 1}")
        return seat, token

    async def _give_to_bot(self, command: GiveToBot) -> None:
        async with self.lock:
            current = self.seats[command.seat]
            seats = self.seats.given_to_bot(command, self.status)
            await self._save(seats=seats, left=leaving(command.seat, current.account, self.status))
            self.seats.set(command.seat, seats[command.seat])
        self._changed(change=lambda: {"seats": seats})
        await self.chat.tell(f"a bot ({command.bot}) took over {current.name}'s seat" if current.kind == "human"
                             else f"{seats[command.seat]['name']} (bot) took seat {command.seat + 1}")

    def committed(self, change: dict[str, Any]) -> None:
        """A collaborator committed ``change`` (seats, status: room/leaving.py): shown to the
        watchers here, told to the other processes."""
        self._changed(change=lambda: change)

    def show_status(self, change: dict[str, Any] | None = None) -> None:
        """The room's status changed without a commit: its watchers here are shown it, and with
        ``change`` (a vote: room/votes.py) the other processes' copies too."""
        self._changed(game=False, here_only=change is None, change=None if change is None else lambda: change)

    async def _start(self) -> None:
        async with self.lock:
            if self.status != "waiting":
                raise HallError("conflict", "the game has already started")
            self.seats.check_full()
            humans = self.seats.humans(self.game.to_act(self.play.start_state())) if self.pace.turn_based else []
            deadline = self.pace.after(humans, [None] * self.players, None, self.context.clock.now(), False)
            await self._save(status="playing", deadline=deadline)
            self.pace.committed(deadline, humans, self.leading)
            self.status = "playing"
            self.play.begin()
        self._changed(change=lambda: {"status": "playing", "deadline": self.pace.deadline})
        await self.chat.tell("the game started")

    async def offered_rematch(self, code: str) -> None:
        """Its players were invited to room ``code`` next (hall/rematch.py)."""
        async with self.lock:
            await self._save(rematch=code)
            self.rematch = code
        self._changed(game=False, change=lambda: {"rematch": code})

    async def _save(self, **changes: Any) -> None:
        """Changes the room in the store (``seats``, ``status``, ``rematch``; ``also``: more
        writes with them)."""
        try:
            await self.context.store.update_room(self.code, lease=self.lease, **changes)
        except StoreError as error:
            raise self.refusal(error) from None

    save = _save  # for its collaborators (room/leaving.py)

    def refusal(self, error: StoreError) -> HallError:
        """What a failed commit of this room tells the client (the room follows if it was lost)."""
        if isinstance(error.__cause__, LeaseLost):
            self.lost_ownership()
            return HallError("retry", "another process of the hall took this room over while the change was"
                             " being saved: nothing was done; look at the room's state, then try again")
        return HallError("store", str(error))

    # -- playing ------------------------------------------------------------------------------
    async def _act(self, command: Act, on_commit: Callable[[int], None] | None) -> int:
        seat, by = command.seat, command.by
        async with self.lock:
            if by != "player" and not self.leading:  # bots and timers play only where the room is applied
                raise HallError("stale", f"room {self.code} is applied by another process of the hall now")
            self._check_turn(seat, command.seq)
            entries: list[LogEntry] = []
            try:
                action = self.game.normalise(command.action)  # what is applied and stored: never the raw message
                state = self.game.apply(self.state, seat, action, entries)
            except IllegalAction as error:
                raise HallError("illegal", str(error)) from None
            except Exception as error:  # a game that trips over odd input must still answer in words
                log.exception("%s failed on %r in room %s", self.game.id, command.action, self.code)
                raise HallError("illegal", f"this action could not be applied ({type(error).__name__}:"
                                f" {error})") from None
            record = ActionRecord(self.turn, seat, action, by, self.context.clock.now())
            result = final(self.game, state, self.players, self.turn + 1)  # its rules', or its cap's
            over = result is not None
            rated = unrated(settlement(self.code, self.game.id, self.seats.records(), result.ranks,
                                       record.at) if result is not None else None, self.coach)
            humans = self.seats.humans(self.game.to_act(state)) if self.pace.turn_based and not over else []
            deadline = self.pace.after(humans, self.play.waiting_since, seat, record.at, over)
            try:
                # the fencing check, a finished game's ratings and a turn-based deadline commit with the action
                await self.context.store.append_action(self.code, record, status="over" if over else None,
                                                       lease=self.lease, settle=rated, deadline=deadline)
            except StoreError as error:
                raise self.refusal(error) from None
            moved(self, record, over)  # the coach may judge it, the bots waiting (room/takeback.py)
            seen_by_all = self._advance(record, state, entries)
            self.pace.committed(deadline, humans, self.leading)
            turn = self.audience(seat).turn
            if on_commit is not None:
                on_commit(turn)
            observe.moved(self.game.id, by)
        self._changed(action_seen_by_all=seen_by_all, change=lambda: {"action": {
            "turn": record.turn, "seat": record.seat, "action": record.action, "by": record.by, "at": record.at},
            **({"deadline": deadline.at} if deadline is not None else {})})
        return turn

    def _check_turn(self, seat: int, turn: Any) -> None:
        if self.status == "waiting":
            raise HallError("not_started", "the game has not started yet")
        if self.status == "over":
            raise HallError("over", "the game is over")
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise HallError("bad_message", "an act needs 'turn', the turn of the last state you saw")
        audience = self.audience(seat)
        self.play.check_turn(seat, turn, audience.room_turn(turn), audience.turn, self.names())

    def _advance(self, record: ActionRecord, state: Any, entries: list[LogEntry]) -> bool:
        """The room after ``record`` (committed); returns whether every audience saw it."""
        self.play.advance(record, state)
        if self.game.is_over(state) or self.turn >= self.game.max_actions:  # its rules ended it, or its cap
            self.status = "over"
        if not self.audiences.built:  # rebuilding on start: the audiences come later, from the records
            return True
        return self.audiences.show(state, self._with_timer_line(record, entries), record.seat, self.turn)

    def _with_timer_line(self, record: ActionRecord, entries: list[LogEntry]) -> list[LogEntry]:
        if record.by != "timer":
            return entries
        return [LogEntry(f"the turn timer ran out: the {self.bots.builtin(self.game)} bot moved"
                         f" for {{p{record.seat}}}"), *entries]

    # -- after every change: watchers, bots, timer ---------------------------------------------
    def resume(self) -> None:
        """Runs the bots and the timer of a room this process just restored (it leads it)."""
        self._changed()

    def _changed(self, action_seen_by_all: bool | None = None, game: bool = True, here_only: bool = False,
                 change: Change | None = None) -> None:
        """After any change; ``action_seen_by_all`` after an action: whether every audience saw it;
        ``game`` False when only the status changed; ``here_only`` when the change is not one to
        tell the other processes of the hall (a connection came or went here; a change they made);
        ``change``: what was committed, which they apply to their copies (:meth:`apply_change`)."""
        if action_seen_by_all is None:  # seats, the start: show them to everyone
            if not self.audiences.built:
                self._track()
            elif game:
                self.audiences.show(self.state)
        if self.status == "playing":
            self._arm_timer(bool(action_seen_by_all))
            if self.leading and not holding(self):  # the coach may hold the bots' answer
                self.driver.play_bots(self.to_act(), self.seats, self._asked)
        else:
            self.timer.stop()
        self.touched = self.context.clock.now()
        # after an action the status changes only when the game ends
        self.audiences.refresh_shared(status=action_seen_by_all is None or self.status == "over")
        broadcast = self.context.broadcast()
        if here_only:
            broadcast.publish_here(self.code)
        else:
            payload = dumps_bytes(change()) if change is not None and broadcast.carries_payloads else None
            broadcast.publish(self.code, payload)

    def _arm_timer(self, restart: bool) -> None:
        humans = self.seats.humans(self.to_act())
        asked_anew = restart and any(self.play.waiting_since[s] == self.turn for s in humans)
        # a replica counts from its owner's time of the last action, as the store has it
        began = self.context.clock.now() if self.leading or not self.records else self.records[-1].at
        self.timer.arm(asked_anew, bool(humans), began, self.leading)

    def _asked(self, seat: int) -> tuple[int | None, int, Any]:
        """Since when ``seat`` has been asked to act, the turns it has seen, and the state."""
        return self.play.waiting_since[seat], self.audience(seat).turn, self.state

    async def _bot_act(self, seat: int, turn: int, action: Any, by: By) -> None:
        await self.handle(Act(seat, turn, action, by))

    def _seed(self, label: str, *labels: object) -> int:
        """A seed for a bot or its move, fixed by the room's seed when the hall's is (tests)."""
        return self.context.new_seed(label, self.seed, *labels)

    # -- following another process (hall/cluster/) ------------------------------------------------
    async def became_owner(self, lease: Lease) -> None:
        """This process applies the room from now on, its commits fenced by ``lease``: the room is
        caught up from the store (whatever its last owner committed is there, fencing saw to it),
        then its bots and timer run here."""
        async with self.lock:
            record = await self._read_committed()
            if record is not None:
                self.apply_committed(record, quiet=True)
            self.leading, self.lease = True, lease
            resume_vote(self, self.votes, record)  # the vote under way, as the store keeps it (room/votes.py)
            self.chat.forget()
            self.timer.stop()  # the turn timer starts again, here
            self.driver.forget()  # whatever this process's bots began choosing before is moot
        self._changed(here_only=True)

    def lost_ownership(self) -> None:
        """Another process applies the room now: this copy stops deciding, and follows."""
        if not self.leading:
            return
        self.leading, self.lease = False, None
        self.timer.follow()
        self.refresh()

    def follow(self) -> None:
        """A replica just read from the store shows its owner's deadline."""
        if self.status == "playing":
            self._arm_timer(False)

    def refresh(self) -> None:
        """A replica catches up with what its owner committed, in the background (not while an
        action of its own is being forwarded: that action's ack goes out first)."""
        if not self.leading and not self.forwarding:
            self.context.spawn(self.sync_from_store())

    async def sync_from_store(self) -> bool:
        """Brings this replica up to what the store has committed (read on a thread); returns
        whether anything changed."""
        record = await self._read_committed()
        async with self.lock:
            if record is None or self.leading:
                return False
            return self.apply_committed(record)

    async def _read_committed(self) -> RoomRecord | None:
        return await self.context.store.room(self.code, self.turn)

    def apply_change(self, change: dict[str, Any]) -> bool:
        """Takes one change the room's owner committed and published (:meth:`_changed`), without
        reading the store; False when it does not follow on from this copy (a change was missed,
        or an action of this copy's is being forwarded): the copy is then caught up from the store."""
        if self.forwarding:
            return False
        self.pace.deadline = change.get("deadline", self.pace.deadline)
        if "action" in change:
            record = ActionRecord(**change["action"])
            if record.turn < self.turn and self.records[record.turn].at != record.at:
                rewind(self, record.turn)  # a move taken back (room/takeback.py) whose news this copy missed
            if record.turn != self.turn or self.status != "playing":
                return record.turn < self.turn  # had it already, or missed one
            self._changed(self._take_action(record), here_only=True)
            return True
        if "taken_back" in change:  # the coach (room/takeback.py)
            rewind(self, change["taken_back"])
        if "coach_hold" in change:
            self.coaching.followed = change["coach_hold"]
        if "vote" in change:
            self.votes.followed = change["vote"]
        self._take(change.get("seats"), change.get("rematch", self.rematch), change.get("status"))
        self._changed(here_only=True)
        return True

    def apply_committed(self, record: RoomRecord, quiet: bool = False) -> bool:
        """Takes what the store has committed: the room's seats and status, and its actions from
        this copy's turn on, applied in order (the store holds every turn, so none is skipped).
        Its watchers here are told unless ``quiet``. Returns whether anything changed."""
        changed = self._take(record.seats, record.rematch, record.status)
        if self.pace.turn_based and record.deadline != self.pace.deadline:
            self.pace.deadline, changed = record.deadline, True
        applied, seen_by_all = False, False
        for action in record.actions:
            if action.turn < self.turn:
                continue
            if action.turn != self.turn:
                raise StoreError(f"room {self.code}: turn {self.turn} is missing from the store")
            seen_by_all = self._take_action(action) or seen_by_all
            applied = changed = True
        if changed and not quiet:
            self._changed(seen_by_all if applied else None, here_only=True)
        return changed

    def _take(self, seats: list[dict[str, Any]] | None, rematch: str | None, status: str | None) -> bool:
        changed = seats is not None and self.seats.replace(seats)
        if rematch != self.rematch:
            self.rematch, changed = rematch, True
        if self.status == "waiting" and status not in (None, "waiting"):
            self.status = "playing"
            self.play.begin()
            if self.audiences.built:  # as the owner showed it
                self.audiences.show(self.state)
            changed = True
        if self.status == "playing" and status == "over":  # ended before its rules ended it
            self.status, changed = "over", True
        return changed

    def _take_action(self, record: ActionRecord) -> bool:
        record = self.play.cleaned(record)
        entries: list[LogEntry] = []
        return self._advance(record, self.game.apply(self.state, record.seat, record.action, entries), entries)

