"""The hall: every room by its code, where each command runs, and what the rooms share.

    hall = Hall(SqlStore("sqlite:///var/parlour.sqlite3"), all_games(), SystemClock())
    room, host, seat, token = await hall.create_room("patchwork", {}, [{"kind": "open"}] * 2)
    answer = await hall.execute(room.code, Join(name="Ana"))

Where a command runs is the :class:`Ownership`'s to say: in a single process every room is applied
here (:class:`LocalOwnership`); in a cluster (hall/cluster/) a room is applied by the process that
holds its lease, and a command asked of another process is forwarded there. The room itself never
asks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from typing import Any, Protocol

from ..core import Game, ParlourError, derive, fresh_seed
from . import observe
from .accounts import Account
from .broadcast import Broadcast, LocalBroadcast
from .clock import Clock
from .errors import HallError
from .room import Room, RoomContext
from .room.bots import BotPool
from .room.commands import Acted, Answer, Command, GiveToBot, Start, Vote
from .room.leaving import ABANDONED_AFTER, abandoned, end_if_abandoned
from .room.pace import LIVE, TURN_BASED, check_pace
from .room.seats import human
from .room.timer import MAX_TURN_TIMER, Deadlines
from .room.votes import resume_vote
from .store import ChatLine, RoomRecord, SeatHolder, Store, StoreError
from .text import clean_name, distinct_name
from .tokens import CODE_LENGTH, new_code, new_token, token_hash
from .wire import loads

log = logging.getLogger(__name__)

TIMER_TICK = 0.1  # seconds between two looks at the turn timers
KEEP_FINISHED = 600  # seconds a finished game nobody watches stays in memory (the store keeps it)
KEEP_REPLICA = 60  # seconds a room another process applies stays in memory here once nobody watches it
WAITING_TTL = 15 * 60  # seconds a waiting room stays listed with nobody connected to it
SWEEP_EVERY = 60  # seconds between two looks for such rooms
# commands judged by who is connected (a host gone a minute, a player gone two): in a cluster the
# process that applies the room reads who is connected at the others first (hall/cluster/presence.py)
BY_PRESENCE = (Start, GiveToBot, Vote)


class Ownership(Protocol):
    """Which process applies each room. The cluster's :class:`~parlour.hall.cluster.node.Node`
    implements it with leases and forwarding."""

    def adopt(self, room: Room) -> None:
        """A room this process just created or read from the store."""

    async def forward(self, room: Room, command: Command) -> Answer | None:
        """None when this process applies ``room`` (taken now if nobody did); else the answer of the
        process that does, once it applied ``command`` (a refusal raises :class:`HallError`)."""

    def let_go(self, room: Room) -> None:
        """The hall no longer keeps ``room`` in memory."""

    async def start(self, hall: Hall) -> Broadcast | None:
        """Starts with the hall; returns the broadcast the hall uses from then on (None: its own)."""

    async def stop(self) -> None: ...

    async def hand_over(self) -> None:
        """The hall drains (:meth:`Hall.drain`): give up every room this process held, at once, so
        that the others take them without waiting; take none from now on."""

    async def trouble(self) -> str | None:
        """What keeps this process from its whole part, in words (GET /readyz), or None."""

    async def look(self, rooms: Sequence[Room]) -> None:
        """Brings what this process knows of who is connected to ``rooms`` at the other processes
        up to date (the lobby is about to judge them)."""

    def knows_presence(self, room: Room) -> bool:
        """Whether this process knows who is connected to ``room`` anywhere, so that the lobby may
        leave it out and an abandoned game may end (alone: always; in a cluster, read lately)."""


class LocalOwnership:
    """A single process: it applies every room."""

    def adopt(self, room: Room) -> None:
        room.leading = True

    async def forward(self, room: Room, command: Command) -> Answer | None:
        return None

    def let_go(self, room: Room) -> None:
        pass

    async def start(self, hall: Hall) -> Broadcast | None:
        return None

    async def stop(self) -> None:
        pass

    async def hand_over(self) -> None:
        pass

    async def trouble(self) -> str | None:
        return None

    async def look(self, rooms: Sequence[Room]) -> None:
        pass

    def knows_presence(self, room: Room) -> bool:
        return True


class Hall:
    """Every room, with what they share: the store, the broadcast, the clock, the bots."""

    def __init__(self, store: Store, games: Mapping[str, Game[Any]], clock: Clock,
                 broadcast: Broadcast | None = None, bot_time_limit: float = 1.0, bot_threads: int = 4,
                 bot_workers: int = 1, seed: int | None = None, ownership: Ownership | None = None,
                 abandoned_after: float = ABANDONED_AFTER, host_away: float | None = None) -> None:
        """``ownership``: which process applies each room when several share them (hall/cluster/);
        by default this one applies them all. ``abandoned_after``: the seconds after which a game
        nobody plays any more ends, ``host_away`` those after which any seated player may start a
        waiting room whose host is gone (room/leaving.py; an hour and a minute, shorter in tests)."""
        self.store = store
        self.ownership: Ownership = ownership or LocalOwnership()
        self.clustered = ownership is not None
        self.abandoned_after = abandoned_after
        self.seed = seed  # None: every deal and bot seed is fresh; else all follow from it (new_seed)
        self._dealt = 0  # the rooms created since this hall started, for new_seed
        self.games = dict(games)
        self.clock = clock
        self.broadcast = broadcast or LocalBroadcast()
        self.bots = BotPool(bot_time_limit, bot_threads, bot_workers)
        self.deadlines = Deadlines()
        self.rooms: dict[str, Room] = {}
        # waiting rooms let go of as expired (the store keeps them; its link brings one back)
        self.abandoned: set[str] = set()
        # told where a room is applied when people of a turn-based room are asked anew (hall/notify/)
        self.on_asked: list[Callable[[Room, list[int]], None]] = []
        self.on_looked: list[Callable[[Room, int], None]] = []  # a seat's player opened its room
        self._tasks: set[asyncio.Task[Any]] = set()
        self.started = False  # every stored room is back (GET /readyz)
        self.draining = False  # stopping: no room is applied here any more (drain)
        self.context = RoomContext(clock=clock, store=store, broadcast=lambda: self.broadcast, spawn=self.spawn,
                                   new_seed=self.new_seed, bots=self.bots, deadlines=self.deadlines,
                                   execute=self.execute, asked=self._asked, host_away=host_away)

    async def start(self) -> None:
        """Rebuild every stored room whose game is not over by replaying its actions, wake its
        bots, run the timers. Finished games are loaded when someone asks for one. One of several
        processes: the ownership takes the rooms being played that no process holds; the others
        are read from the store when someone asks for one."""
        if self.clustered:
            self.broadcast = await self.ownership.start(self) or self.broadcast
        else:
            for record in self.store.load_blocking(finished=False):  # at start-up, before serving
                room = self._restore(record)
                if room is not None and room.status == "playing":
                    room.resume()
                    resume_vote(room, room.votes, record)  # the vote under way, as the store keeps it
        self.spawn(self._tick())
        self.started = True

    def _restore(self, record: RoomRecord) -> Room | None:
        """The room of a stored record, rebuilt by replay, or None (logged) if it cannot be."""
        game = self.games.get(record.game)
        if game is None:
            log.error("room %s plays %r, a game this hall does not have: left out", record.code, record.game)
            return None
        try:
            room = Room(self.context, record, game, leading=False)
        except Exception:  # e.g. the rules changed since: one broken room must not stop the hall
            log.exception("room %s no longer replays: left out", record.code)
            return None
        self.ownership.adopt(room)
        self.rooms[record.code] = room
        return room

    async def drain(self) -> None:
        """Stop applying rooms here, before the process stops or restarts (SIGTERM): from now on
        no command is applied here (alone, the hall refuses them with ``retry``; in a cluster they
        go to the process that takes the room over); each room's commit under way finishes first
        (its lock), and in a cluster every lease is given up at once, so the other processes take
        the rooms without waiting for the leases to expire. What was acknowledged is committed."""
        self.draining = True
        observe.DRAINS.inc()
        for _ in range(2):  # again for a room taken here while the first pass waited for a lock
            for room in [room for room in self.rooms.values() if room.leading]:
                async with room.lock:
                    room.lost_ownership()
            await self.ownership.hand_over()

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.ownership.stop()
        self.bots.close()

    def _asked(self, code: str, seats: list[int]) -> None:
        room = self.rooms.get(code)
        if room is not None:
            for listener in self.on_asked:
                listener(room, seats)

    def looked(self, room: Room, seat: int | None) -> None:
        """A connection of ``seat`` (None: a spectator) opened ``room``."""
        if seat is not None:
            for listener in self.on_looked:
                listener(room, seat)

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
        every = min(SWEEP_EVERY, self.abandoned_after / 4)  # a look at abandoned games
        next_look = self.clock.now() + every
        while True:
            await asyncio.sleep(TIMER_TICK)
            now = self.clock.now()
            for timer in self.deadlines.due(now):
                timer.fire()
            if now >= next_sweep:
                self.sweep(now)
                next_sweep, next_look = now + SWEEP_EVERY, now + every
            elif now >= next_look:
                self.end_abandoned(now)
                next_look = now + every

    def sweep(self, now: float) -> list[str]:
        """Let go of the finished games nobody has watched for ``KEEP_FINISHED`` seconds and of the
        waiting rooms that expired (:meth:`Room.expired`); they stay in the store, and come back
        when asked for. Returns their codes. Games nobody plays any more end (room/leaving.py:
        ``ABANDONED_AFTER``)."""
        idle = [code for code, room in self.rooms.items() if room.expired(now, WAITING_TTL) or (
                room.status == "over" and room.watchers == 0 and now - room.touched >= KEEP_FINISHED) or (
                not room.leading and room.watchers == 0 and now - room.touched >= KEEP_REPLICA)]
        self.end_abandoned(now)
        for code in idle:
            room = self.rooms.pop(code)
            if room.expired(now, WAITING_TTL):
                self.abandoned.add(code)
            room.timer.stop()
            self.ownership.let_go(room)
        return idle

    def end_abandoned(self, now: float) -> None:
        """Ends the games applied here that nobody plays any more (room/leaving.py): in a cluster,
        judged with who is connected at the other processes (hall/cluster/presence.py), read
        first, and only while that is known."""
        rooms = [room for room in self.rooms.values() if abandoned(room, now, self.abandoned_after) is not None]
        if rooms:
            self.spawn(self._end_abandoned(rooms))

    async def _end_abandoned(self, rooms: list[Room]) -> None:
        await self.ownership.look(rooms)
        for room in rooms:
            if self.ownership.knows_presence(room):
                await end_if_abandoned(room, self.abandoned_after)  # judged again under its lock

    def on_remote_change(self, key: str, payload: bytes | None = None) -> None:
        """Another process of the hall committed ``payload`` (JSON) to ``key`` (a room, or its
        chat: ``CODE/chat``): the copy here applies it. Without a payload, or when it does not
        follow on from the copy here, changes may have been missed (Redis was away): the copy
        catches up from the store, read on a thread."""
        code, _, chat = key.partition("/")
        room = self.rooms.get(code)
        if room is None and not code.isupper():  # not a room's: the hall's own (moderation/sanctions)
            self.broadcast.publish_here(key)
            return
        if room is not None and chat and payload is not None and b'"hidden"' in payload:
            said = loads(payload)  # a moderator hid a line (hall/moderation.py): each process's copy drops it
            if isinstance(said, dict) and isinstance(said.get("hidden"), int):
                room.chat.hide_here(said["hidden"])
                return
        if room is None or room.leading:
            return
        if chat:
            if payload is not None and room.chat.take(ChatLine(**loads(payload))):
                self.broadcast.publish_here(key)
            else:
                room.chat.forget()
                self.spawn(self._chat_changed(room, key))
        elif payload is None or not room.apply_change(loads(payload)):
            room.refresh()

    async def _chat_changed(self, room: Room, key: str) -> None:
        await room.chat.load()
        self.broadcast.publish_here(key)

    # -- rooms --------------------------------------------------------------------------------
    async def room(self, code: str) -> Room:
        """The room ``code``, from memory or else (a finished game, one another process applies)
        from the store, read on a thread."""
        code = code.upper()
        room = self.rooms.get(code)
        if room is not None:
            if not room.leading and room.watchers == 0:  # nothing here keeps it current: look again
                await room.sync_from_store()
            return room
        record = await self.store.room(code) if len(code) == CODE_LENGTH else None
        room = self.rooms.get(code)  # restored meanwhile by another request
        if room is None and record is not None:
            self.abandoned.discard(code)  # asked for again: the lobby judges it anew
            room = self._restore(record)
            if room is not None and not room.leading:
                room.follow()  # the deadline as its owner set it
        if room is None:
            raise HallError("unknown_room", f"there is no room {code!r}")
        return room

    async def rooms_of(self, codes: Iterable[str]) -> dict[str, Room]:
        """The rooms ``codes`` (games being played, say), from memory or else read from the store
        (in a cluster, one another process applies: a copy that follows it); one gone is left out."""
        rooms = {}
        for code in codes:
            with contextlib.suppress(HallError):
                rooms[code] = await self.room(code)
        return rooms

    async def execute(self, code: str, command: Command, on_commit: Callable[[int], None] | None = None) -> Answer:
        """Runs ``command`` for room ``code`` where the room is applied, here or in another
        process, and returns its answer once committed (``on_commit`` runs with an action's turn
        before anything else learns of it). Refusals raise :class:`HallError`."""
        return await self.run(await self.room(code), command, on_commit)

    async def run(self, room: Room, command: Command, on_commit: Callable[[int], None] | None = None) -> Answer:
        if self.draining and not self.clustered:
            raise HallError("retry", "the hall is restarting: nothing was done; reconnect in a moment and try again")
        command = room.prepare(command)
        answer = await self.forward_to_owner(room, command, on_commit)
        return answer if answer is not None else await self.apply(room, command, on_commit)

    async def apply(self, room: Room, command: Command, on_commit: Callable[[int], None] | None = None) -> Answer:
        """Applies ``command`` to ``room`` here (this process applies it, or it was forwarded here)."""
        if isinstance(command, BY_PRESENCE):
            await self.ownership.look([room])
        return await room.handle(command, on_commit)

    async def forward_to_owner(self, room: Room, command: Command,
                               on_commit: Callable[[int], None] | None = None) -> Answer | None:
        """None when this process applies ``room``; else the owner's answer to ``command``, once
        the copy here shows the change."""
        if room.leading:
            return None
        room.forwarding += 1  # the copy here waits: the ack goes out before the state it made
        try:
            answer = await self.ownership.forward(room, command)
            if isinstance(answer, Acted) and on_commit is not None:
                on_commit(answer.turn)
        finally:
            room.forwarding -= 1
        if answer is not None and not room.leading:
            await room.sync_from_store()
        return answer

    def game(self, game_id: str) -> Game[Any]:
        game = self.games.get(game_id)
        if game is None:
            raise HallError("bad_request", f"there is no game {game_id!r} (the games: {', '.join(self.games)})")
        return game

    async def create_room(self, game_id: str, options: Mapping[str, Any] | None, seats: Sequence[Mapping[str, Any]],
                          turn_timer: float | None = None, host_name: str | None = None,
                          take_seat: int | None = None, reserved: Mapping[int, dict[str, Any]] | None = None,
                          account: Account | None = None, pace: str = LIVE, coach: bool = False
                          ) -> tuple[Room, str, int | None, str | None]:
        """A new room: (room, host token, the host's seat, its seat token); ``reserved``: open
        seats kept for players of a last game (:attr:`Seat.reserved`); signed in (``account``),
        the host's seat is the account's, under its name; ``pace``: live or turn-based
        (room/pace.py: its turn_timer is then the time per move, an hour to 14 days)."""
        game = self.game(game_id)
        try:
            game.check_players(len(seats))
            resolved = game.resolve_options(options)
        except ParlourError as error:
            raise HallError("bad_request", str(error)) from None
        if check_pace(pace, turn_timer) == TURN_BASED and coach:
            raise HallError("bad_request", "the coach is for live games against bots, not turn-based ones")
        if check_pace(pace, turn_timer) == TURN_BASED:
            pass  # its timer was checked against a turn-based room's range
        elif turn_timer is not None and not 0 < turn_timer <= MAX_TURN_TIMER:
            raise HallError("bad_request", f"the turn timer must be between 0 and {MAX_TURN_TIMER} seconds")
        records: list[dict[str, Any]] = []
        for i, spec in enumerate(seats):
            if spec.get("kind") == "bot":
                self.bots.check(game, spec.get("bot", ""))
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
            records[take_seat] = {**human(clean_name(host_name), seat_token, account), "host": True}
        for i, seat_record in enumerate(records):
            if seat_record["name"] is not None:
                seat_record["name"] = distinct_name(seat_record["name"], [r["name"] for r in records[:i]])
        host_token = new_token()
        code = new_code()
        while code in self.rooms or await self.store.room_exists(code):
            code = new_code()
        self._dealt += 1
        record = RoomRecord(code=code, game=game.id, players=len(seats), options=resolved,
                            seed=self.new_seed("room", self._dealt),
                            status="waiting", turn_timer=turn_timer, host_token=token_hash(host_token),
                            seats=records, created=self.clock.now(), pace=pace, coach=coach)
        first_line = holder = None
        if take_seat is not None:  # nobody knows the room's code yet: written by whoever made it
            first_line = ChatLine(0, record.created, "system", None, None,
                                  f"{records[take_seat]['name']} took seat {take_seat + 1}")
            holder = SeatHolder(take_seat, account.id) if account is not None else None
        try:
            await self.store.create_room(record, holder=holder, first_line=first_line)
        except StoreError as error:
            raise HallError("store", str(error)) from None
        room = Room(self.context, record, game, leading=False)
        self.ownership.adopt(room)
        self.rooms[code] = room
        return room, host_token, take_seat, seat_token
