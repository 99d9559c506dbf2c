"""What anyone may see of a room: its status, each seat's ``state`` message (holding only what
that seat may see, made once per change for all alike connections: :mod:`.audience`), and the
finished game's replay. It reads the room and changes nothing of it but its audiences, which it
builds when first needed by replaying the room's actions.

    status(room)                       # the status everyone is shown (without "turn": each counts its own)
    audience(room, 0).turn             # the turns seat 0 has seen
    state_text(room, None)             # a spectator's state message
    replay(room, 1, start=0, count=50)  # once the game is over: a page of its frames as seat 1 saw it
"""

from __future__ import annotations

from typing import Any, Protocol

from ...core import Game, LogEntry, Result
from ..errors import HallError
from ..store import ActionRecord
from ..wire import dumps_bytes
from .audience import Audience, Audiences
from .bots import BotPool
from .coach import Coaching
from .context import RoomContext
from .leaving import ENDED
from .pace import Pace
from .play import Play
from .replay import replay_of
from .seats import SeatBook
from .votes import Votes


class Room(Protocol):
    """What is shown of a room (room/room.py's :class:`~.room.Room`): its public face."""

    code: str
    game: Game[Any]
    players: int
    options: dict[str, Any]
    seed: int
    status: str
    created: float
    rematch: str | None
    coach: bool
    coaching: Coaching
    seats: SeatBook
    votes: Votes
    pace: Pace
    play: Play
    audiences: Audiences
    bots: BotPool
    context: RoomContext

    @property
    def turn_timer(self) -> float | None: ...

    def to_act(self) -> frozenset[int]: ...

    def ended(self) -> Result | None: ...

    def host_away(self) -> bool: ...


def status(room: Room) -> dict[str, Any]:
    """The room's status, as everyone is shown it (without ``turn``, which each audience counts)."""
    now = room.context.clock.now()
    return {"code": room.code, "game": room.game.id, "options": room.options, "status": room.status,
            "seats": room.seats.to_json(now), "turn_timer": room.turn_timer, "created": room.created,
            "rematch": room.rematch, "vote": room.votes.to_json(room.seats, now), "host_away": room.host_away(),
            "coach": room.coach, "coach_hold": room.coaching.hold_json(room.play.turn),
            **room.pace.status(room.seats.humans(room.to_act()), now)}


def audience(room: Room, seat: int | None) -> Audience:
    """What ``seat`` (None: the spectators) has been shown, with its own count of the turns."""
    if not room.audiences.built:
        track(room)
    return room.audiences[seat]


def state_text(room: Room, seat: int | None, legal: bool = True, log_start: int = 0, skipped: int = 0) -> str:
    """The ``state`` message for ``seat`` (None: a spectator), holding only what it may see, with
    its log lines from ``log_start`` on (``skipped``: the lines its connection never got)."""
    audience(room, seat)
    return room.audiences.state_text(seat, room.play.state, lambda: _moves(room, seat), legal, log_start, skipped)


def _moves(room: Room, seat: int | None) -> bytes:
    """``seat``'s legal actions as JSON, if a person there must act; else ``null``."""
    if seat is None or seat not in room.to_act() or room.seats[seat].kind != "human":
        return b"null"
    return dumps_bytes(room.game.legal_actions(room.play.state, seat))


def track(room: Room) -> None:
    """Builds every audience by replaying the room's actions (on first need after a start)."""
    if room.status == "waiting":
        room.audiences.track(None, ())
        return
    bot = room.bots.builtin(room.game)
    room.audiences.track(room.play.start_state(), (
        (state, with_timer_line(record, entries, bot), record.seat, record.turn + 1)
        for state, record, entries in room.play.steps()))


def with_timer_line(record: ActionRecord, entries: list[LogEntry], bot: str) -> list[LogEntry]:
    """``record``'s log ``entries``, after a line saying so when the turn timer made it (``bot``
    moved for the seat)."""
    if record.by != "timer":
        return entries
    return [LogEntry(f"the turn timer ran out: the {bot} bot moved for {{p{record.seat}}}"), *entries]


def replay(room: Room, seat: int | None = None, start: int = 0, count: int | None = None) -> dict[str, Any]:
    """The finished game's replay, a page of its frames (from ``start``) as ``seat`` saw the game
    (None: a spectator); refused while the game runs, when nothing of it may be revealed."""
    if room.status != "over":
        raise HallError("conflict", "the replay is shown once the game is over"
                        " (its seed stays secret until then)")
    if seat is not None:
        room.seats.check_seat(seat)
    ended = room.ended()
    return replay_of(room.game, room.players, room.options, room.seed, room.seats.names(), room.play.records,
                     room.play.state, seat, start, count, ended,
                     ended.details.get("ended", ENDED) if ended is not None else None)
