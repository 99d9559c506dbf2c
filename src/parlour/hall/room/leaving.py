"""Leaving a game: a player resigns, a seat is taken from a player who is away, a game nobody
plays any more ends, and a game ends before its rules end it. The room's collaborator for every
way a person stops playing; :mod:`.votes` decides when the others may do it for them.

    farewell = resigned(room.seats, 1, "playing", bot="greedy")   # judged under the room's lock
    await room.leave(lambda: farewell)                             # committed, shown, said

A person who leaves mid-game *forfeits*: their seat goes to a bot that plays it on under their
name ("Ana (bot)"), the seat record keeps how they left (``left``), and the ratings rank them
below everyone else (:mod:`parlour.hall.ratings`), as they always ranked a seat a bot took over.
How they left decides whether the others gain from it:

- ``resigned``: they chose to; the game is rated as played, the forfeit last.
- ``away``: the others (a vote, :mod:`.votes`) or the host took the seat of a player gone for at
  least ``AWAY_GRACE`` seconds: the player loses as a forfeit and nobody else's rating moves,
  so taking a seat from someone who reloads never pays.
- ``abandoned``: nobody played for ``ABANDONED_AFTER`` seconds and no person was connected: the
  hall ends the game, the absent people forfeiting, nobody else's rating moving.
- ``timed_out``: the turn timer ran out on a seat a bot account holds (docs/bot-api.md): as the
  arena takes out a program that stalls, crashes or plays illegally, the bot forfeits, rated as
  played, the forfeit last (a person instead gets one move from the built-in bot: :func:`time_out`).

A game left to bots alone ends at once (every hall game can seat a bot: the game's own, else
``random``, so a seat never stays empty). A game that ends before its rules end it ranks every
seat still played by its person (or by a bot it had from the start) first, tied, and every
forfeit after them; its scores are 1 and 0 on that line. Nothing of the game is revealed: the
state is not touched, only the seats and the status.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from ...core import Game, Result
from ..errors import HallError
from ..ratings import settlement
from ..store import ActionRecord, SeatLeft, SeatRecord, leaving
from .bots import Asked, BotDriver, BotPool
from .chat import Chat
from .coach import unrated
from .commands import GiveToBot, Resign
from .context import RoomContext
from .pace import Pace
from .seats import Seat, SeatBook
from .timer import TurnTimer

Departure = Literal["resigned", "away", "abandoned", "timed_out"]
AWAY_GRACE = 120.0  # seconds a player must be gone before the others may take their seat mid-game
ABANDONED_AFTER = 3600.0  # seconds without a person connected or a move before a game ends by itself
HOST_AWAY = 60.0  # seconds the host of a waiting room may be gone before any seated player may start it
HOST_CHECK_EVERY = 2.0  # seconds between two looks at a watched waiting room's host
ENDED = "forfeit"  # a replay's "ended" for a game ended before its rules ended it
CAPPED = "cap"  # a replay's "ended" for a game stopped at its cap on actions (Game.max_actions)


class Ballots(Protocol):
    ballot: Any  # the vote under way (room/votes.py), dropped when people leave

    def late(self, now: float) -> Sequence[int] | None: ...  # a turn-based room's late seats (None: live)


class Room(Protocol):
    """What leaving and voting use of a room (room/room.py's :class:`~.room.Room`)."""

    code: str
    game: Game[Any]
    status: str
    watchers: int
    host_watched: bool
    seats: SeatBook
    context: RoomContext
    bots: BotPool
    chat: Chat
    lock: asyncio.Lock
    leading: bool
    pace: Pace
    timer: TurnTimer
    coach: bool  # a coached game is never rated (room/coach.py)

    @property
    def votes(self) -> Ballots: ...

    @property
    def records(self) -> Sequence[ActionRecord]: ...

    @property
    def turn_timer(self) -> float | None: ...

    def names(self) -> list[str]: ...

    def to_act(self) -> frozenset[int]: ...

    async def save(self, **changes: Any) -> None: ...

    def committed(self, change: dict[str, Any]) -> None: ...

    def show_status(self, change: dict[str, Any] | None = None) -> None: ...

    def host_away(self) -> bool: ...

    def check_host(self, token: str | None) -> None: ...

    def seat_for_token(self, token: str | None) -> int: ...


@dataclass
class Farewell:
    """What leaving changes, judged under the room's lock: the seats' records after it, whether
    the game ends now, what the store notes of signed-in players (:class:`SeatLeft`), and the
    chat's lines about it."""

    seats: list[SeatRecord]
    ends: bool = False
    left: list[SeatLeft] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def forfeited(record: Mapping[str, Any]) -> bool:
    """Whether the person of this seat left the game before its end (a forfeit)."""
    return bool(record.get("left")) or bool(record.get("replaced"))


def away_for(seat: Seat, now: float) -> float:
    """How long ``seat``'s player has been gone (0 while connected, or a bot's)."""
    if seat.kind != "human" or seat.present:
        return 0.0
    since = seat.gone_since()
    return now - since if since is not None else 0.0


def check_away(seats: SeatBook, seat: int, now: float) -> None:
    """Refuses to take ``seat`` from its player unless they have been gone ``AWAY_GRACE`` seconds."""
    current = seats[seat]
    if current.kind != "human":
        raise HallError("conflict", f"seat {seat} is not a person's")
    if current.present:
        raise HallError("conflict", f"seat {seat} is {current.name}'s, who is still here;"
                        " only an empty or abandoned seat can go to a bot")
    gone = away_for(current, now)
    if gone < AWAY_GRACE:
        raise HallError("conflict", f"{current.name} has been gone {gone:.0f} seconds: their seat can be"
                        f" given away once they have been gone {AWAY_GRACE:.0f} (a reload is not leaving);"
                        f" {AWAY_GRACE - gone:.0f} more seconds")


def check_absent(seats: SeatBook, seat: int, now: float, late: Sequence[int] | None) -> None:
    """Refuses to take ``seat`` from its player unless they are absent: in a live room (``late``
    None) gone ``AWAY_GRACE`` seconds (:func:`check_away`); in a turn-based room, whose players
    come and go by the day, late (their time to move ran out, room/pace.py)."""
    if late is None:
        check_away(seats, seat, now)
        return
    current = seats[seat]
    if current.kind != "human":
        raise HallError("conflict", f"seat {seat} is not a person's")
    if seat not in late:
        raise HallError("conflict", f"{current.name}'s time to move has not run out: in a turn-based game a"
                        " seat is taken from its player only once they are late")


def people(records: Sequence[Mapping[str, Any]]) -> list[int]:
    """The seats a person still plays."""
    return [i for i, record in enumerate(records) if record.get("kind") == "human" and not record.get("left")]


def departing(seats: SeatBook, leavers: Sequence[int], how: Departure, status: str, bot: str) -> Farewell:
    """The seats after ``leavers`` leave the game (``status``) as ``how`` says: before the game
    a seat just opens again; mid-game it goes to ``bot`` and its player forfeits, and a game left
    to bots alone ends."""
    if status == "over":
        raise HallError("over", "the game is over")
    records = seats.records()
    farewell = Farewell(records)
    for seat in leavers:
        current = seats[seat]
        if current.kind != "human":
            raise HallError("conflict", f"seat {seat} is not a person's: nobody is there to leave it")
        gone = leaving(seat, current.account, status)
        if gone is not None:
            farewell.left.append(gone)
        if status == "waiting":
            records[seat] = {"kind": "open", "name": None, "bot": None, "token": None}
            farewell.lines.append(f"{current.name} left seat {seat + 1}")
            continue
        name = f"{current.name} (bot)"
        records[seat] = {**seats.for_bot(seat, bot, name, playing=True), "left": how}
        farewell.lines.append(_said(current.name or f"seat {seat + 1}", how, bot))
    if status == "playing" and not people(records):
        farewell.ends = True
        farewell.lines.append("nobody is left to play against the bots: the game is over")
    return farewell


def ending(seats: SeatBook, absent: Sequence[int], how: Departure, why: str) -> Farewell:
    """The game ends now, before its rules end it: the ``absent`` seats' players forfeit (``how``),
    the others share first place. ``why``: the chat's words for it."""
    records = seats.records()
    farewell = Farewell(records, ends=True, lines=[why])
    for seat in absent:
        records[seat] = {**records[seat], "left": how}
        gone = leaving(seat, seats[seat].account, "playing")
        if gone is not None:
            farewell.left.append(gone)
    return farewell


def ended_result(records: Sequence[Mapping[str, Any]]) -> Result:
    """The result of a game ended before its rules ended it (see the module's doc)."""
    out = [forfeited(record) for record in records]
    if all(out):  # everybody left: nobody won
        return Result(tuple(0.0 for _ in out), tuple(1 for _ in out), "Everybody left: the game was abandoned.",
                      {"ended": ENDED})
    ranks = tuple(2 if gone else 1 for gone in out)
    gone_names = [f"{{p{seat}}}" for seat, gone in enumerate(out) if gone]
    reason = f"The game ended early: {_listed(gone_names)} left it." if gone_names else \
        "The game ended early, by agreement: a draw."
    return Result(tuple(0.0 if gone else 1.0 for gone in out), ranks, reason, {"ended": ENDED})


def ended_early(status: str, game: Game[Any], state: Any, seats: SeatBook, actions: int) -> Result | None:
    """The result of a game that ended before its rules ended it (after ``actions`` actions): at
    its cap on actions (:func:`final`), else by its people leaving; None if its rules ended it."""
    if status != "over" or state is None or game.is_over(state):
        return None
    return final(game, state, len(seats.records()), actions) or ended_result(seats.records())


def final(game: Game[Any], state: Any, players: int, actions: int) -> Result | None:
    """The result of a game after ``actions`` actions made ``state`` if that ends it: its rules',
    or once it reached its cap on actions, the one its rules document gives for that
    (``Game.capped``, docs/rules/<game>.md), marked ``"ended": "cap"``; else None."""
    result = game.result(state)
    if result is not None or actions < game.max_actions:
        return result
    capped = game.capped(state, players)
    return Result(capped.scores, capped.ranks, capped.reason, {**capped.details, "ended": CAPPED})


def farewell(room: Room, command: Resign | GiveToBot) -> Farewell:
    """What ``command`` changes (under the room's lock): a player resigns, a bot account's turn
    ran out (:func:`time_out`), or the host gives the seat of a player gone ``AWAY_GRACE`` seconds
    to a bot."""
    if isinstance(command, Resign):
        return departing(room.seats, [command.seat], "resigned", room.status, room.bots.builtin(room.game))
    if command.forfeit:
        check_timed_out(room, command.seat)
        return departing(room.seats, [command.seat], "timed_out", room.status, command.bot)
    now = room.context.clock.now()
    check_absent(room.seats, command.seat, now, room.votes.late(now))
    return departing(room.seats, [command.seat], "away", room.status, command.bot)


async def leave(room: Room, plan: Callable[[], Farewell]) -> None:
    """People leave ``room``'s game, or it ends before its rules end it: ``plan()``, judged under
    the room's lock, says how. A game that ends commits its places and ratings with it, as its
    last action would; then everyone is shown the change and the chat says it."""
    async with room.lock:
        told = plan()
        result = ended_result(told.seats) if told.ends else None
        settle = unrated(None if result is None else settlement(
            room.code, room.game.id, told.seats, result.ranks, room.context.clock.now()), room.coach)
        status = "over" if told.ends else None
        await room.save(seats=told.seats, status=status, left=told.left, settle=settle, vote={})  # a vote ends too
        room.seats.replace(told.seats)
        room.status = status or room.status
        room.votes.ballot = None
    room.committed({"seats": told.seats, "status": status, "vote": None})
    for line in told.lines:
        await room.chat.tell(line)


def bot_accounts(seats: SeatBook, to_act: frozenset[int]) -> frozenset[int]:
    """The seats of ``to_act`` a bot account holds."""
    return frozenset(s for s in to_act if seats[s].kind == "human" and seats[s].bot_account)


def time_out(room: Room, to_act: frozenset[int], driver: BotDriver, asked: Asked) -> None:
    """``room``'s turn timer ran out while ``to_act`` must act: each bot account among them
    forfeits its seat to the game's built-in bot (``timed_out``); each person gets one move from
    the built-in bot, as before."""
    stalled = bot_accounts(room.seats, to_act)

    async def forfeit(seat: int) -> None:
        with contextlib.suppress(HallError):  # it moved at the last moment, or the game ended: nothing done
            await room.context.execute(room.code, GiveToBot(seat, room.bots.builtin(room.game), forfeit=True))

    for seat in sorted(stalled):
        room.context.spawn(forfeit(seat))
    driver.time_out(to_act - stalled, room.seats, asked)


def check_timed_out(room: Room, seat: int) -> None:
    """Refuses the forfeit of ``seat`` unless a bot account holds it, it must act and the turn
    timer's deadline has passed (judged again under the lock: a move may have come meanwhile)."""
    deadline = room.timer.deadline
    if seat not in bot_accounts(room.seats, room.to_act()) or \
            deadline is not None and deadline > room.context.clock.now():
        raise HallError("conflict", f"seat {seat} is not a bot account's whose turn ran out")


def host_away(status: str, seats: SeatBook, host_seen: float, now: float, after: float = HOST_AWAY) -> bool:
    """A waiting room whose host has been gone ``after`` seconds (``HOST_AWAY``): any seated player
    may act as its host (start it, seat bots). The host is the seat they took when they made the
    room, else whoever last sent the host token (``host_seen``)."""
    if status != "waiting":
        return False
    held = [seat for seat in seats if seat.host and seat.kind == "human"]
    if held:
        return all(not seat.present and away_for(seat, now) >= after for seat in held)
    return now - host_seen >= after


def host_away_after(context: RoomContext) -> float:
    """The seconds a waiting room's host may be gone in this hall (``HOST_AWAY`` unless set)."""
    return HOST_AWAY if context.host_away is None else context.host_away


async def watch_host(room: Room) -> None:
    """While a waiting room has watchers, shows them when its host's absence makes any seated
    player a host (or the host is back): every ``HOST_CHECK_EVERY`` seconds."""
    try:
        shown = room.host_away()
        while room.status == "waiting" and room.watchers > 0:
            await asyncio.sleep(HOST_CHECK_EVERY)
            away = room.host_away()
            if away != shown:
                shown = away
                room.show_status()
    finally:
        room.host_watched = False


def _said(name: str, how: Departure, bot: str) -> str:
    if how == "resigned":
        return f"{name} resigned: a bot ({bot}) plays their seat on"
    if how == "away":
        return f"{name} was away too long: a bot ({bot}) plays their seat on"
    if how == "timed_out":
        return f"{name} did not move in time and forfeits: a bot ({bot}) plays their seat on"
    return f"{name} left the game: a bot ({bot}) plays their seat on"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def abandoned(room: Room, now: float, after: float = ABANDONED_AFTER) -> list[int] | None:
    """The people of ``room``'s game if nobody plays it any more (applied here, being played, no
    person connected, here or at another process of a cluster, and none was, nor any move made,
    for ``after`` seconds (``ABANDONED_AFTER``), or the turn timer's time if that is longer), else
    None. Spectators do not keep a game going; a game of bots alone plays itself to its end. A
    turn-based game is never abandoned so: days between moves are its pace, and a seat whose time
    ran out is the others' to decide (room/pace.py)."""
    if room.status != "playing" or not room.leading or room.pace.turn_based:
        return None
    gone = people(room.seats.records())
    if not gone or any(room.seats[seat].present for seat in gone):
        return None
    last = max([room.seats[seat].gone_since() or now for seat in gone] + [r.at for r in room.records[-1:]])
    return gone if now - last >= max(after, room.turn_timer or 0.0) else None


async def end_if_abandoned(room: Room, after: float = ABANDONED_AFTER) -> None:
    """Ends ``room``'s game if it is abandoned (judged again under its lock): its people forfeit."""

    def plan() -> Farewell:
        gone = abandoned(room, room.context.clock.now(), after)
        if gone is None:
            raise HallError("conflict", "somebody came back")
        return ending(room.seats, gone, "abandoned", f"nobody played for {duration(after)}:"
                      " the game is over, and those who left it forfeit")

    with contextlib.suppress(HallError):  # they came back, or another process took the room: nothing done
        await leave(room, plan)


def duration(seconds: float) -> str:
    """``seconds`` in the words of the chat: "30 seconds", "2 minutes", "24 hours", "14 days"."""
    if seconds < 120:
        return f"{seconds:.0f} seconds"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:.0f} hours" if seconds < 2 * 86400 else f"{seconds / 86400:.0f} days"


def check_standing_host(room: Room, token: str | None) -> None:
    """Refuses ``token`` unless it is the room's host's or, once the host has been gone
    ``HOST_AWAY`` seconds from a waiting room, a seated player's (who may then start it)."""
    after = host_away_after(room.context)
    try:
        room.check_host(token)
    except HallError:
        try:
            room.seat_for_token(token)
        except HallError:
            raise HallError("not_host", "only the room's host may do this (send the host token), or a seated"
                            f" player once the host has been gone {after:.0f} seconds") from None
        if not room.host_away():
            raise HallError("not_host", "only the room's host may do this while they are here; a seated player"
                            f" may once the host has been gone {after:.0f} seconds") from None
