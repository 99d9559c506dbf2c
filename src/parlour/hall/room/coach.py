"""The coach at the table (docs/analysis.md): in a room made with ``coach`` on, a person playing
against bots may ask for a hint, the move the after-game analysis would call best (the hard
level's search, :func:`parlour.bots.analysis.advise`) with its chance of winning. The game is
never rated.

A hint is made from the seat's own view and nothing else, in the bot pool's worker processes
(:mod:`.thinkers`) under a deadline, never on the event loop; one per seat and turn (asked again,
it is the same one), at most ``PER_MINUTE`` and ``PER_GAME`` made for a seat, ``AT_ONCE`` being
made in the whole hall::

    room.coaching.check(room, seat)              # HallError in words where the coach may not help
    hint = await hint(room, seat)               # {"best": {...}, "win_chance": 0.62, "line": "...", ...}
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import deque
from typing import Any, Final, Protocol

from ...bots.analysis import DEFAULT_BUDGET, move_seed
from ...core import Action, Game, View
from ...games import entry
from ..errors import HallError
from ..store import Settlement
from .audience import Audience
from .bots import BotPool
from .context import RoomContext
from .seats import SeatBook
from .thinkers import ThinkerFailed

PER_MINUTE: Final = 6  # hints made for one seat in a minute (asking again for the same turn is free)
PER_GAME: Final = 300  # hints made for one seat in a game
AT_ONCE: Final = 4  # hints being made in the whole hall at one time
TAKE_BACKS_PER_MINUTE: Final = 6  # moves one seat may take back in a minute (room/takeback.py)
TAKE_BACKS_PER_GAME: Final = 100  # ... and in a game
SECONDS: Final = 30.0  # a hint's worker still at it after this long is ended (its budget is rounds, not time)


class Room(Protocol):
    """What the coach uses of a room (room/room.py's :class:`~.room.Room`)."""

    code: str
    game: Game[Any]
    seed: int
    status: str
    coach: bool
    coaching: Coaching
    seats: SeatBook
    bots: BotPool
    context: RoomContext

    @property
    def state(self) -> Any: ...

    @property
    def turn(self) -> int: ...

    def to_act(self) -> frozenset[int]: ...

    def audience(self, seat: int | None) -> Audience: ...


@dataclasses.dataclass
class Hold:
    """The bots wait: ``seat``'s move of the room's turn ``turn`` is being judged, or was judged
    wrong-looking (``judged``) and may be taken back until ``until`` (room/takeback.py)."""

    seat: int
    turn: int
    before: Any  # the state before the move
    waiting: list[int | None]  # who had been asked to act since when, before it
    judged: dict[str, Any] | None = None
    until: float | None = None

    def to_json(self) -> dict[str, Any]:
        """What everyone's status shows: whose move, and (once it is held for its player's answer)
        until when. The judgement is the seat's alone (GET .../coach): it was made from its view."""
        return {"seat": self.seat, "turn": self.turn, "until": self.until}


class Coaching:
    """One room's coach: the hints made this turn, what each seat has used, and the move the bots
    wait on (``hold``)."""

    making: int = 0  # hints and judgements being made in this process (every room's): at most AT_ONCE

    def __init__(self) -> None:
        self.hints: dict[tuple[int, int], asyncio.Future[dict[str, Any]]] = {}  # (seat, room turn) -> its hint
        self.made: dict[int, deque[float]] = {}  # seat -> when its hints were made (the last PER_MINUTE)
        self.used: dict[int, int] = {}  # seat -> hints made this game
        self.hold: Hold | None = None
        self.followed: dict[str, Any] | None = None  # in a cluster's copy: the owner's hold, as published
        self.taken: dict[int, deque[float]] = {}  # seat -> when it took moves back (the last PER_MINUTE)
        self.taken_back: dict[int, int] = {}  # seat -> moves taken back this game

    def hold_json(self, turn: int) -> dict[str, Any] | None:
        """The hold as everyone's status shows it, the room being at ``turn``."""
        if self.hold is None:  # a cluster's copy shows what the room's owner published, while it is current
            followed = self.followed
            if followed is None or followed["turn"] != turn - 1:
                return None
            return {k: v for k, v in followed.items() if k != "judged"}
        return self.hold.to_json()

    def helps(self, room: Room, seat: int) -> bool:
        try:
            self.check(room, seat)
        except HallError:
            return False
        return True

    def check(self, room: Room, seat: int) -> None:
        """:class:`HallError` in words where the coach may not help ``seat`` now."""
        if not room.coach:
            raise HallError("conflict", "this room has no coach: the coach is chosen when a room for a game"
                            " against bots is made, and that game is not rated")
        if room.status == "waiting":
            raise HallError("not_started", "the game has not started yet")
        if room.status == "over":
            raise HallError("over", "the game is over: its analysis judges every move"
                            f" (/r/{room.code}/analysis)")
        others = [s.name for i, s in enumerate(room.seats) if i != seat and s.kind != "bot"]
        if others:
            raise HallError("conflict", f"the coach helps only in a game against bots, and {others[0]} plays"
                            " here too")

    def forget(self) -> None:
        """The game moved on: hints of earlier turns are no use."""
        self.hints = {key: hint for key, hint in self.hints.items() if not hint.done()}

    def count(self, seat: int, now: float) -> None:
        """Counts one hint made for ``seat``, or refuses in words past its rates."""
        if Coaching.making >= AT_ONCE:
            raise HallError("throttled", "the coach is busy with other tables: ask again in a moment"
                            " (nothing was counted)")
        _rate(self.made, self.used, seat, now, PER_MINUTE, PER_GAME, "hints")

    def count_take_back(self, seat: int, now: float) -> None:
        """Counts one move ``seat`` takes back, or refuses in words past its rates."""
        _rate(self.taken, self.taken_back, seat, now, TAKE_BACKS_PER_MINUTE, TAKE_BACKS_PER_GAME, "take-backs")


def _rate(times: dict[int, deque[float]], totals: dict[int, int], seat: int, now: float, per_minute: int,
          per_game: int, what: str) -> None:
    """Counts one of ``what`` for ``seat`` at ``now``; :class:`HallError` past ``per_minute`` or
    ``per_game`` (and nothing is counted)."""
    if totals.get(seat, 0) >= per_game:
        raise HallError("throttled", f"the coach gives at most {per_game} {what} a game, and this seat"
                        " has had them all")
    made = times.setdefault(seat, deque(maxlen=per_minute))
    if len(made) == per_minute and now - made[0] < 60:
        raise HallError("throttled", f"the coach gives at most {per_minute} {what} a minute: ask again in"
                        f" {max(1, round(60 - (now - made[0])))} s")
    made.append(now)
    totals[seat] = totals.get(seat, 0) + 1


async def hint(room: Room, seat: int) -> dict[str, Any]:
    """The coach's hint for ``seat``, whose turn it must be: made once per turn, from its view."""
    coaching: Coaching = room.coaching
    coaching.check(room, seat)
    if seat not in room.to_act():
        raise HallError("not_your_turn", "a hint is for your own turn: wait until you are asked to move")
    key, seen = (seat, room.turn), room.audience(seat).turn
    made = coaching.hints.get(key)
    if made is None or made.done() and (made.cancelled() or made.exception() is not None):
        game, pool = room.game, room.bots
        if game.id not in pool.registry:
            raise HallError("conflict", f"the coach does not know {game.name}")
        coaching.forget()
        coaching.count(seat, room.context.clock.now())
        # the seat's view now, and the seed the analysis judges this move by: the hint is the move
        # it would call best. A task of its own: a requester that goes away leaves nobody waiting.
        made = coaching.hints[key] = asyncio.ensure_future(_advise(
            pool, game.id, move_seed(room.seed, room.turn + 1), game.view(room.state, seat), seat,
            game.legal_actions(room.state, seat), room.seats.names()))
        Coaching.making += 1
        made.add_done_callback(_made)
    answer = await asyncio.shield(made)
    return {**answer, "seat": seat, "turn": seen}


def _made(_: asyncio.Future[dict[str, Any]]) -> None:
    Coaching.making -= 1


async def _advise(pool: BotPool, game_id: str, seed: int, view: View, seat: int, legal: list[Action],
                  names: list[str]) -> dict[str, Any]:
    try:
        advice = await asyncio.get_running_loop().run_in_executor(
            pool.thinking, pool.thinkers.advise, game_id, seed, DEFAULT_BUDGET.rounds, DEFAULT_BUDGET.width,
            view, seat, legal, SECONDS)
    except ThinkerFailed as error:
        raise HallError("retry", f"the coach could not make a hint ({error}): ask again") from None
    words = entry(game_id).describer(names)  # the move in words, from the seat's view
    return {**advice, "line": line(advice), **({"best_words": words(advice["best"], view, seat)} if words else {})}


def line(advice: dict[str, Any]) -> str:
    """Why, in one line: the hinted move's chance of winning, and the next best one's.

    >>> line({"win_chance": 0.62, "next_chance": 0.481, "choices": 9})
    'The coach would play the highlighted move: a 62% chance of winning (the next best: 48%).'
    """
    percent = round(100 * advice["win_chance"])
    chance = f"{'an' if str(percent).startswith('8') or percent in (11, 18) else 'a'} {percent}% chance of winning"
    if advice["choices"] == 1:
        return f"Only one move is possible here: {chance}."
    after = "" if advice["next_chance"] is None else f" (the next best: {round(100 * advice['next_chance'])}%)"
    return f"The coach would play the highlighted move: {chance}{after}."


def unrated(settle: Settlement | None, coach: bool) -> Settlement | None:
    """A finished game's places and ratings; a coached game's places only (nobody's rating moves)."""
    return dataclasses.replace(settle, only=frozenset()) if settle is not None and coach else settle
