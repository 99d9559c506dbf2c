"""What the store keeps and gives back, in the hall's words: no SQLAlchemy here.

A room is a :class:`RoomRecord` (its seats as JSON-ready dicts) with its :class:`ActionRecord`s; a
chat line is a :class:`ChatLine`; a player is an :class:`Account`. The rest describe what a write
carries besides its own rows (who holds a seat, the lease that fences it, the settlement of a
finished game) and what the players' pages read (games played, ratings, the leaderboard).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...core import ParlourError

# A seat as stored: ``{kind, name, bot, token}`` (``token``: the sha256 of the seat token, never the
# token itself), with ``account``, ``profile``, ``replaced``, ``rated_as``, ``reserved`` when set.
SeatRecord = dict[str, Any]


class StoreError(Exception):
    """The store could not write; the change it carried did not happen."""


class LeaseLost(ParlourError):
    """This process no longer holds the room's lease: it must not commit anything for the room."""


@dataclass
class ChatLine:
    """One line of a room's chat, as stored and as sent (``to_json``)."""

    n: int
    at: float
    kind: str
    seat: int | None
    name: str | None
    text: str
    account: int | None = None  # the writer's account, signed in: never sent to a client (blocks filter by it)

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "at": self.at, "kind": self.kind, "seat": self.seat, "name": self.name,
                "text": self.text}


@dataclass
class ActionRecord:
    turn: int
    seat: int
    action: dict[str, Any]
    by: str
    at: float


@dataclass
class RoomRecord:
    """A room as stored, with its actions in order."""

    code: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    status: str
    turn_timer: float | None
    host_token: str  # the sha256 hex of the host token
    seats: list[SeatRecord]
    created: float
    actions: list[ActionRecord] = field(default_factory=list)
    rematch: str | None = None  # the code of the room its players were invited to next
    pace: str = "live"  # or turn-based (hall/room/pace.py)
    deadline: float | None = None  # a turn-based room's deadline for the turn, as stored
    coach: bool = False  # hints and take-backs in an unrated game against bots (hall/room/coach.py)
    vote: dict[str, Any] | None = None  # the players' vote under way, as kept (hall/room/votes.py)


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    kind: str  # human | bot


@dataclass(frozen=True)
class SeatHolder:
    """The signed-in player ``account`` sits at ``seat`` (the rows "My games" and the ratings read)."""

    seat: int
    account: int


@dataclass(frozen=True)
class SeatLeft:
    """The signed-in player ``account`` leaves ``seat`` to a bot: mid-game (``forfeit``) they keep
    the seat in their history and are ranked last; before the game they just leave it."""

    seat: int
    account: int
    forfeit: bool


def leaving(seat: int, account: int | None, status: str) -> SeatLeft | None:
    """What the store notes when ``seat``'s player (``account``, None for a guest) gives it to a
    bot while the room is ``status``: nothing for a guest or once the game is over."""
    if account is None or status == "over":
        return None
    return SeatLeft(seat, account, forfeit=status == "playing")


@dataclass(frozen=True)
class Lease:
    """A room's lease (:mod:`.leases`): who applies the room, with which fencing token, until when."""

    code: str
    owner: str
    token: int
    expires: float


@dataclass(frozen=True)
class Skill:
    """A rating as stored: OpenSkill's ``mu`` and ``sigma``, and ``rating``, what is shown and ranked."""

    mu: float
    sigma: float
    rating: float


class Rater(Protocol):
    """The rating rules (:mod:`parlour.hall.ratings`, pure); the store runs them inside the transaction
    that reads and writes the ratings they change."""

    pair_games: int  # rated games of one game two signed-in players may have together...
    pair_period: float  # ...within this many seconds; later ones are not rated, and the pair is flagged

    def places(self, ranks: Sequence[int], forfeits: set[int]) -> list[int]:
        """The places the game's ``ranks`` give once the ``forfeits`` seats are accounted for."""
        ...

    def skill(self, mu: float | None = None, sigma: float | None = None) -> Skill:
        """The rating of ``mu`` and ``sigma``; a new player's without them."""
        ...

    def rate(self, before: list[Skill], places: list[int]) -> list[Skill]:
        """The ratings after a game where the players rated ``before`` finished at ``places``."""
        ...


@dataclass(frozen=True)
class Settlement:
    """A finished game's places and ratings, written in the transaction of its last action:
    ``bots`` maps each seat a built-in bot held from the start to its account's name (made on its
    first rated game); the other seats count if a signed-in player holds them."""

    code: str
    game: str
    players: int
    ranks: tuple[int, ...]
    bots: dict[int, str]
    at: float
    rater: Rater
    only: frozenset[int] | None = None  # the seats whose ratings may move (None: all), see hall/ratings.py


@dataclass(frozen=True)
class FlaggedPair:
    """Two players who met at ``game`` more often than is rated (for the moderators): since when,
    until when, how many games were not rated for it, and the latest such room."""

    first: str
    second: str
    game: str
    since: float
    last: float
    unrated: int
    last_code: str


@dataclass(frozen=True)
class PlayedGame:
    """A room an account played in, as "My games" and profiles list it."""

    code: str
    game: str
    status: str
    seats: list[SeatRecord]
    created: float
    seat: int
    rank: int | None
    change: float | None


@dataclass(frozen=True)
class GamesPlayed:
    game: str
    played: int
    won: int


@dataclass(frozen=True)
class Rating:
    game: str
    rating: float
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class Leader:
    place: int
    name: str
    kind: str
    rating: float
    games: int


@dataclass(frozen=True)
class AnalysisRecord:
    """A finished game's analysis: when it was made, the search's budget (``rounds``, ``width``) and
    one judgement per move (parlour.bots.analysis's JSON)."""

    code: str
    made: float
    budget: dict[str, Any]
    moves: list[dict[str, Any]]
