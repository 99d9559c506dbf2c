"""The players' votes: the people still playing a game agree to end it, or to hand an absent
player's seat to a bot. One vote at a time per room, kept by the process that applies the room
and with the room's record in the store (``rooms.vote``), committed before anyone is told of it:
a restart of that process, or another process taking the room over, carries the vote on
(:meth:`Votes.restore`), and counts it again as it would have.

    await vote(room, Vote(seat=0, motion="bot", target=1))   # proposed: Ana says yes
    await vote(room, Vote(seat=2, motion="bot", target=1))   # Cy too: passed, a bot plays seat 1

Who must agree: every person still playing but the seat in question, except those absent, who
cannot hold a game up by being away: in a live room those gone for ``AWAY_GRACE`` seconds
(:mod:`.leaving`); in a turn-based room, whose players come and go by the day, those whose time to
move ran out (*late*, room/pace.py). So in a game of two the one who stayed decides alone, once
the other has been gone that long (or is late). A vote lapses ``VOTE_TIME`` seconds after it was
proposed (in a turn-based room, its time per move); one "no" ends it.

- ``end``: the game ends now (:func:`.leaving.ending`): the absent players forfeit as ``away``
  (nobody gains from it), the others share first place; with nobody absent, everyone agreeing, it
  is a draw. A late seat's "forfeit" choice (hall/late.py) is this vote. Those it places last must
  still be absent when it is carried out.
- ``bot``: the seat of an absent player goes to a bot (:func:`.leaving.departing`,
  as ``away``): they lose as a forfeit, the game goes on, nobody gains from it.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import HallError
from ..store import RoomRecord
from .commands import Vote
from .leaving import (
    AWAY_GRACE,
    Farewell,
    Room,
    away_for,
    check_absent,
    departing,
    duration,
    ending,
    forfeited,
    leave,
    people,
)
from .pace import Pace
from .seats import SeatBook

VOTE_TIME = 120.0  # seconds a vote stays open
PROPOSE_EVERY = 30.0  # seconds between two votes one seat proposes (each is said in the chat)


@dataclass
class Ballot:
    motion: str
    seat: int | None  # "bot": the seat in question
    by: int
    until: float
    yes: set[int] = field(default_factory=set)
    out: list[int] = field(default_factory=list)  # "end", once passed: who it placed last

    def record(self) -> dict[str, Any]:
        """The ballot as the store keeps it (:meth:`of` reads it back)."""
        return {"motion": self.motion, "seat": self.seat, "by": self.by, "until": self.until,
                "yes": sorted(self.yes), "out": list(self.out)}

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> Ballot:
        return cls(str(record["motion"]), record.get("seat"), int(record["by"]), float(record["until"]),
                   set(record.get("yes", ())), list(record.get("out", ())))

    def describe(self, names: list[str]) -> str:
        if self.motion == "end":
            return "to end the game now"
        assert self.seat is not None
        return f"to let a bot play {names[self.seat]}'s seat"


def absent(seats: SeatBook, now: float, but: set[int], late: Sequence[int] | None = None) -> list[int]:
    """The people still playing who are absent, but those in ``but``: in a live room (``late``
    None) those gone ``AWAY_GRACE`` seconds; in a turn-based one, whose players come and go by the
    day, only the ``late`` seats, whose time to move ran out (room/pace.py)."""
    if late is not None:
        return [s for s in people(seats.records()) if s not in but and s in late]
    return [s for s in people(seats.records()) if s not in but and away_for(seats[s], now) >= AWAY_GRACE]


class Table(Protocol):
    """What the votes ask of their room (room/room.py's :class:`~.room.Room`)."""

    seats: SeatBook
    pace: Pace
    leading: bool

    def to_act(self) -> frozenset[int]: ...


class Votes:
    """A room's vote under way, if any (``table``: the room; None: a live room's, in tests)."""

    def __init__(self, table: Table | None = None) -> None:
        self._table = table
        self.ballot: Ballot | None = None
        self.followed: dict[str, Any] | None = None  # a replica's copy of the owner's, as published
        self.proposed: dict[int, float] = {}  # seat -> when it last proposed a vote

    def late(self, now: float) -> Sequence[int] | None:
        """A turn-based room's seats whose time to move ran out (room/pace.py), who are its only
        absent players; None in a live room."""
        table = self._table
        return None if table is None else table.pace.absent(table.seats.humans(table.to_act()), now)

    def lasts(self) -> float:
        """How long a vote stays open: ``VOTE_TIME``, or in a turn-based room its time per move
        (its players come by now and then)."""
        table = self._table
        return float(table.pace.seconds or VOTE_TIME) if table is not None and table.pace.turn_based else VOTE_TIME

    def current(self, now: float) -> Ballot | None:
        if self.ballot is not None and now > self.ballot.until:
            self.ballot = None
        return self.ballot

    def needed(self, seats: SeatBook, now: float) -> list[int]:
        """The seats whose yes the vote under way still needs."""
        ballot = self.current(now)
        if ballot is None:
            return []
        away = set(absent(seats, now, ballot.yes, self.late(now)))
        return [s for s in people(seats.records()) if s != ballot.seat and s not in away]

    def restore(self, record: RoomRecord) -> None:
        """The vote under way is the one ``record`` (the room as the store has it) keeps."""
        self.ballot = Ballot.of(record.vote) if record.vote and record.status == "playing" else None

    def kept(self) -> dict[str, Any]:
        """The vote under way as the store keeps it (``{}``: none)."""
        return self.ballot.record() if self.ballot is not None else {}

    def to_json(self, seats: SeatBook, now: float) -> dict[str, Any] | None:
        leading = self._table is None or self._table.leading
        ballot = self.current(now) if leading else None  # a replica shows its owner's (followed)
        if ballot is None:
            shown = self.followed
            return shown if shown is not None and now <= shown["until"] else None
        return {"motion": ballot.motion, "seat": ballot.seat, "by": ballot.by, "yes": sorted(ballot.yes),
                "needed": self.needed(seats, now), "until": ballot.until}

    def cast(self, seats: SeatBook, status: str, command: Vote, now: float) -> tuple[list[str], Ballot | None]:
        """Counts ``command``'s vote: the chat's lines about it, and the ballot if it passed now.
        :class:`HallError` in words when it cannot be cast."""
        if status != "playing":
            raise HallError("conflict", "votes are for a game being played")
        voter, names = command.seat, seats.names()
        if voter not in people(seats.records()):
            raise HallError("not_a_player", "only a person still playing the game votes")
        ballot = self.current(now)
        if not command.agree:
            if ballot is None:
                raise HallError("conflict", "there is no vote under way to refuse")
            self.ballot = None
            return [f"{names[voter]} said no: the vote {ballot.describe(names)} ends"], None
        if ballot is not None and (ballot.motion, ballot.seat) != (command.motion, command.target):
            raise HallError("conflict", f"another vote is under way ({ballot.describe(names)}): answer it first")
        lines: list[str] = []
        if ballot is None:
            ballot = self.propose(seats, command, now)
            if set(self.needed(seats, now)) - {voter}:  # else it passes at once: decided() says it
                lines.append(f"{names[voter]} proposes {ballot.describe(names)}: the others agree or say no"
                             f" within {duration(self.lasts())}")
        elif voter in ballot.yes:  # counted again: someone it waited for may be gone long enough now
            passed = self.tally(seats, now)
            if passed is None:
                waiting = [names[s] for s in self.needed(seats, now) if s not in ballot.yes]
                raise HallError("conflict", f"you have voted already; waiting for {', '.join(waiting)}")
            return lines, passed
        else:
            lines.append(f"{names[voter]} agrees")
        ballot.yes.add(voter)
        return lines, self.tally(seats, now)

    def tally(self, seats: SeatBook, now: float) -> Ballot | None:
        """The vote under way if it has passed now (it is then closed), else None."""
        ballot = self.current(now)
        if ballot is None:
            return None
        if ballot.seat is not None:
            check_absent(seats, ballot.seat, now, self.late(now))  # they may have come back meanwhile
        if set(self.needed(seats, now)) <= ballot.yes:
            self.ballot = None
            ballot.out = absent(seats, now, ballot.yes, self.late(now)) if ballot.motion == "end" else []
            return ballot
        return None

    def recount_at(self, seats: SeatBook, now: float) -> float | None:
        """When the vote under way may pass without a new vote: when the first player it waits
        for who is not connected will have been gone ``AWAY_GRACE`` seconds (None: nobody such)."""
        ballot = self.current(now)
        if ballot is None:
            return None
        times = [since + AWAY_GRACE for s in self.needed(seats, now)
                 if s not in ballot.yes and not seats[s].present and (since := seats[s].gone_since()) is not None]
        return min(times) if times and min(times) <= ballot.until else None

    def propose(self, seats: SeatBook, command: Vote, now: float) -> Ballot:
        wait = self.proposed.get(command.seat, -PROPOSE_EVERY) + PROPOSE_EVERY - now
        if wait > 0:
            raise HallError("throttled", f"you proposed a vote a moment ago: wait {wait:.0f} seconds")
        if command.motion == "bot":
            target = seats.check_seat(command.target)
            if target == command.seat:
                raise HallError("conflict", "to leave your own seat, resign")
            check_absent(seats, target, now, self.late(now))
        elif command.motion != "end":
            raise HallError("bad_request", f"a vote is 'end' or 'bot', not {str(command.motion)[:20]!r}")
        elif len(people(seats.records())) < 2 and not any(forfeited(s.record()) for s in seats) and \
                not absent(seats, now, {command.seat}, self.late(now)):
            raise HallError("conflict", "you play against bots alone: nobody has left, so there is nothing"
                            " to end by agreement (resign to leave the game)")
        self.ballot = Ballot(command.motion, command.target if command.motion == "bot" else None, command.seat,
                             now + self.lasts())
        self.proposed[command.seat] = now
        return self.ballot


def decided(room: Room, ballot: Ballot) -> Farewell:
    """What a vote that passed changes, judged anew under the room's lock."""
    now = room.context.clock.now()
    if room.status != "playing":
        raise HallError("over", "the game is over")
    if ballot.motion == "bot":
        assert ballot.seat is not None
        check_absent(room.seats, ballot.seat, now, room.votes.late(now))
        return departing(room.seats, [ballot.seat], "away", room.status, room.bots.builtin(room.game))
    gone = absent(room.seats, now, ballot.yes, room.votes.late(now))
    names = room.names()
    back = [names[s] for s in ballot.out if s not in gone]
    if back:  # moved, or came back, since the vote passed: nobody is placed last behind their back
        raise HallError("conflict", f"{', '.join(back)} moved or came back meanwhile: the game goes on"
                        " (vote again if you still want to end it)")
    out = gone + [s for s, seat in enumerate(room.seats) if forfeited(seat.record())]
    who = f"{names[ballot.by]} ended the game" if ballot.yes == {ballot.by} else "the players agreed to end the game"
    why = who + (f": {', '.join(names[s] for s in sorted(out))} left it and place{'s' if len(out) == 1 else ''} last"
                 if out else ", a draw")
    return ending(room.seats, gone, "away", why)


async def vote(room: Room, votes: Votes, command: Vote) -> None:
    """Casts ``command``'s vote in ``room`` (applied here; ``votes``: its votes); a vote that passes
    is carried out. One that waits for a player who is not connected is counted again once they
    have been gone ``AWAY_GRACE`` seconds."""
    async with room.lock:
        before, proposed = copy.deepcopy(votes.ballot), dict(votes.proposed)
        lines, passed = votes.cast(room.seats, room.status, command, room.context.clock.now())
        try:
            await room.save(vote=votes.kept())  # kept before anyone hears of it
        except HallError:
            votes.ballot, votes.proposed = before, proposed
            raise
        recount = votes.recount_at(room.seats, room.context.clock.now())
    room.show_status({"vote": votes.to_json(room.seats, room.context.clock.now())})
    for line in lines:
        await room.chat.tell(line)
    if passed is not None:
        await leave(room, lambda: decided(room, passed))
    elif recount is not None:
        room.context.spawn(_recount(room, votes, recount))


def resume_vote(room: Room, votes: Votes, record: RoomRecord | None) -> None:
    """This process applies ``room`` from now on (a restart, or a takeover from another process):
    its vote under way is the one the store keeps (``record``: the room as read from it, None: as
    this copy has it), counted again once a player it waits for has been gone long enough."""
    if record is not None:
        votes.restore(record)
    recount = votes.recount_at(room.seats, room.context.clock.now())
    if recount is not None:
        room.context.spawn(_recount(room, votes, recount))


async def _recount(room: Room, votes: Votes, when: float) -> None:
    """Counts the vote under way again at ``when`` (the hall's clock), and carries it out if it passed."""
    ballot = votes.ballot
    while room.context.clock.now() < when:
        await asyncio.sleep(min(1.0, max(0.05, when - room.context.clock.now())))
        if votes.ballot is not ballot:
            return  # decided, refused or lapsed meanwhile
    async with room.lock:
        if not room.leading:
            return  # another process applies the room now: it counts the vote (resume_vote)
        try:
            passed = votes.tally(room.seats, room.context.clock.now()) if votes.ballot is ballot else None
            if passed is not None:
                await room.save(vote={})
        except HallError:  # the player in question came back (the vote stays open), or the room was lost
            votes.ballot, passed = ballot, None
    if passed is not None:
        with contextlib.suppress(HallError):  # the game ended meanwhile
            await leave(room, lambda: decided(room, passed))
