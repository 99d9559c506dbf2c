"""A room: the authority over one game, as a coordinator.

It takes commands as data (:mod:`.commands`) under its lock, judges them, commits what they change
to the store, then updates itself and tells its watchers; the work of each concern is done by a
collaborator with one job: the seats (:mod:`.seats`, :mod:`.seating`), an action judged
(:mod:`.acting`, :mod:`.play`), what anyone may see (:mod:`.showing`, :mod:`.audience`), the turn
timer (:mod:`.timer`), the bots (:mod:`.bots`), the chat (:mod:`.chat`), leaving and votes
(:mod:`.leaving`, :mod:`.votes`), the coach (:mod:`.coach`, :mod:`.takeback`). It sees its
surroundings only through a :class:`~.context.RoomContext`: it never touches a socket or a database
itself, and never asks where it is applied. A room either *leads* (this process applies it: always,
in a single process) or follows, as a replica, what another process of a cluster committed
(:mod:`.following`), and the cluster says which.

    room = Room(context, record, game, leading=True)
    answer = await room.handle(Act(seat=0, seq=0, action={"type": "pass"}))
"""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import Callable
from typing import Any

from ...core import Game, LogEntry, Result
from .. import observe
from ..accounts import Account
from ..errors import HallError
from ..store import ActionRecord, Lease, LeaseLost, RoomRecord, StoreError
from ..tokens import token_hash
from ..wire import dumps_bytes
from . import following, showing
from .acting import check_turn, commit, judge
from .audience import Audience, Audiences
from .bots import BotDriver
from .chat import Chat
from .checks import prepared
from .coach import Coaching
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
from .history import History
from .leaving import ended_early, farewell, host_away, host_away_after, leave, time_out, watch_host
from .pace import Pace
from .play import Play
from .seating import give_to_bot, join, start
from .seats import SeatBook
from .showing import with_timer_line
from .takeback import holding, moved, rewind, take_back
from .timer import TurnTimer
from .votes import Votes, resume_vote, vote

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
        self.audiences = Audiences(game, self.players, self.names, lambda: showing.status(self),
                                   lambda: self.timer.deadline or self.pace.deadline, self.ended)
        self.bots = context.bots
        self.driver = BotDriver(self.code, game, context.bots, self._seed, context.spawn, self._bot_act)
        self.chat = Chat(self.code, context, self.seats, lambda: self.lease, self.refusal,
                         lambda text: context.execute(self.code, Say("system", text)))  # said at the owner
        self.votes = Votes(self)
        if self.status != "waiting":
            self.play.begin()
            for action in map(self.play.cleaned, record.actions):
                self.advance(action, self.game.apply(self.state, action.seat, action.action, []), [])

    @property
    def state(self) -> Any:
        return self.play.state

    @property
    def turn(self) -> int:
        return self.play.turn

    @property
    def records(self) -> History:
        return self.play.records

    # -- what anyone may see ----------------------------------------------------------------------
    @property
    def turn_timer(self) -> float | None:
        return self.pace.seconds if self.pace.turn_based else self.timer.seconds

    def names(self) -> list[str]:
        return self.seats.names()

    def status_json(self, seat: int | None = None) -> dict[str, Any]:
        """The room's status; its ``turn`` is the turns ``seat`` has seen (None: a spectator)."""
        return {**showing.status(self), "turn": self.audience(seat).turn}

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.status == "over" else self.play.to_act()

    def ended(self) -> Result | None:
        """The result of a game ended before its rules ended it (room/leaving.py), else None."""
        return ended_early(self.status, self.game, self.state, self.seats, self.turn)

    def host_away(self) -> bool:
        return host_away(self.status, self.seats, self.host_seen, self.context.clock.now(),
                         host_away_after(self.context))

    def expired(self, now: float, ttl: float) -> bool:
        """A waiting room nobody has been connected to for ``ttl`` seconds."""
        watched = self.watchers or self.seats.watchers_elsewhere  # here, or at another process of a cluster
        return self.status == "waiting" and not watched and now - self.touched >= self.pace.waiting(ttl)

    def audience(self, seat: int | None) -> Audience:
        """What ``seat`` (None: the spectators) has been shown, with its own count of the turns."""
        return showing.audience(self, seat)

    def state_text(self, seat: int | None, legal: bool = True, log_start: int = 0, skipped: int = 0) -> str:
        """The ``state`` message for ``seat`` (None: a spectator): room/showing.py."""
        return showing.state_text(self, seat, legal, log_start, skipped)

    def replay_json(self, seat: int | None = None, start: int = 0, count: int | None = None) -> dict[str, Any]:
        """The finished game's replay as ``seat`` saw it: room/showing.py."""
        return showing.replay(self, seat, start, count)

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
        broadcast; a caller cancelled (a closed socket) while its commit is under way does not
        interrupt it: the room takes the move, then the caller gets its :class:`asyncio.CancelledError`
        (one cancelled before its move was judged leaves it undone). Refusals raise
        :class:`HallError` and change nothing."""
        if not self.leading:
            raise HallError("retry", f"room {self.code} is applied by another process of the hall now:"
                            " nothing was done; try again")
        if isinstance(command, Act):
            return Acted(await self._act(command, on_commit))
        if isinstance(command, Join):
            return Joined(*await join(self, command))
        if isinstance(command, Resign) or isinstance(command, GiveToBot) and self.status == "playing" \
                and self.seats[command.seat].kind == "human":  # room/leaving.py: a forfeit
            await leave(self, lambda: farewell(self, command))
            return Done()
        if isinstance(command, GiveToBot):
            await give_to_bot(self, command)
            return Done()
        if isinstance(command, Vote):
            await vote(self, self.votes, command)
            return Done()
        if isinstance(command, Start):
            await start(self)
            return Done()
        if isinstance(command, TakeBack):  # the coach (room/takeback.py)
            await take_back(self, command)
            return Done()
        if isinstance(command, Say):
            return Said((await self.chat.say(command)).n)
        raise HallError("bad_request", f"a room does not take {type(command).__name__} itself")

    def committed(self, change: dict[str, Any]) -> None:
        """A collaborator committed ``change`` (seats, status: room/leaving.py): shown to the
        watchers here, told to the other processes."""
        self._changed(change=lambda: change)

    def show_status(self, change: dict[str, Any] | None = None) -> None:
        """The room's status changed without a commit: its watchers here are shown it, and with
        ``change`` (a vote: room/votes.py) the other processes' copies too."""
        self._changed(game=False, here_only=change is None, change=None if change is None else lambda: change)

    async def offered_rematch(self, code: str) -> None:
        """Its players were invited to room ``code`` next (hall/rematch.py)."""
        async with self.lock:
            await self.save(rematch=code)
            self.rematch = code
        self._changed(game=False, change=lambda: {"rematch": code})

    async def save(self, **changes: Any) -> None:
        """Changes the room in the store (``seats``, ``status``, ``rematch``...: Store.update_room),
        fenced by its lease; for its collaborators too (room/seating.py, room/leaving.py)."""
        try:
            await self.context.store.update_room(self.code, lease=self.lease, **changes)
        except StoreError as error:
            raise self.refusal(error) from None

    def refusal(self, error: StoreError) -> HallError:
        """What a failed commit of this room tells the client (the room follows if it was lost)."""
        if isinstance(error.__cause__, LeaseLost):
            self.lost_ownership()
            return HallError("retry", "another process of the hall took this room over while the change was"
                             " being saved: nothing was done; look at the room's state, then try again")
        return HallError("store", str(error))

    # -- playing ------------------------------------------------------------------------------
    async def _act(self, command: Act, on_commit: Callable[[int], None] | None) -> int:
        """``command``'s action judged (room/acting.py), committed, taken, acknowledged, then told."""
        seat, by = command.seat, command.by
        async with self.lock:
            if by != "player" and not self.leading:  # bots and timers play only where the room is applied
                raise HallError("stale", f"room {self.code} is applied by another process of the hall now")
            check_turn(self, seat, command.seq)
            move = judge(self, command)
            cancelled = await commit(self, move)  # waited out even if this task is cancelled meanwhile
            moved(self, move.record, move.over)  # the coach may judge it, the bots waiting (room/takeback.py)
            seen_by_all = self.advance(move.record, move.state, move.entries, move.encoded)
            self.pace.committed(move.deadline, move.humans, self.leading)
            turn = self.audience(seat).turn
            if on_commit is not None:
                on_commit(turn)
            observe.moved(self.game.id, by)
        self._changed(action_seen_by_all=seen_by_all, change=move.change)
        if cancelled:  # the caller stopped waiting (a closed socket): the move is taken all the same
            raise asyncio.CancelledError
        return turn

    def advance(self, record: ActionRecord, state: Any, entries: list[LogEntry], encoded: bytes | None = None) -> bool:
        """The room after ``record`` (committed; ``encoded``: its action as JSON, if made already);
        returns whether every audience saw it."""
        self.play.advance(record, state, encoded)
        if self.game.is_over(state) or self.turn >= self.game.max_actions:  # its rules ended it, or its cap
            self.status = "over"
        if not self.audiences.built:  # rebuilding on start: the audiences come later, from the records
            return True
        return self.audiences.show(state, with_timer_line(record, entries, self.game), record.seat, self.turn)

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
                showing.track(self)
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
            record = await following.read_committed(self)
            if record is not None:
                following.apply_committed(self, record, quiet=True)
            self.leading, self.lease = True, lease
            self.context.broadcast().leading(self.code, True)
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
        self.context.broadcast().leading(self.code, False)
        self.timer.follow()
        self.refresh()

    def follow(self) -> None:
        """A replica just read from the store shows its owner's deadline."""
        if self.status == "playing":
            self._arm_timer(False)

    def refresh(self) -> None:
        """A replica catches up with what its owner committed, in the background: room/following.py."""
        following.refresh(self)

    async def sync_from_store(self) -> bool:
        """Brings this replica up to what the store has committed; whether anything changed."""
        return await following.sync_from_store(self)

    def apply_change(self, change: dict[str, Any]) -> bool:
        """Takes one change the room's owner committed and published (:meth:`_changed`), without
        reading the store; False when it does not follow on: room/following.py."""
        return following.apply_change(self, change)

    def shown_here(self, action_seen_by_all: bool | None) -> None:
        """A change another process made (a replica's) is shown to the watchers here."""
        self._changed(action_seen_by_all, here_only=True)

    def rewind(self, turn: int) -> None:
        """The room as it was before its action ``turn`` (a move taken back: room/takeback.py)."""
        rewind(self, turn)
