"""What can be asked of a room, as data: one value per kind of change, with one JSON codec, so
that the hall runs a command where the room is applied, here or (forwarded) in another process
of a cluster, and the answer comes back the same way.

    answer = await hall.execute("KUYWKA", Act(seat=0, seq=3, action={"type": "pass"}))
    answer.turn   # the seat's own count of turns after its action
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from ..accounts import Account
from ..errors import HallError

By = Literal["player", "bot", "timer"]


@dataclass(frozen=True)
class Act:
    """``seat`` plays ``action``, chosen when it had seen ``seq`` turns (the protocol's "turn")."""

    seat: int
    seq: Any  # checked by the room: a client may send anything here
    action: Any
    by: By = "player"


@dataclass(frozen=True)
class Join:
    """A person takes ``seat`` (None: the first free) under ``name``; ``token``: their seat token
    in the last game, for a seat a rematch keeps; ``account``: signed in."""

    name: str
    seat: int | None = None
    token: str | None = None
    account: Account | None = None


@dataclass(frozen=True)
class GiveToBot:
    """``seat`` goes to ``bot``; ``forfeit``: the room takes it from a bot account whose turn ran
    out (room/leaving.py's time_out), connected or not."""

    seat: int
    bot: str
    name: str | None = None
    forfeit: bool = False


@dataclass(frozen=True)
class Start:
    pass


@dataclass(frozen=True)
class Say:
    """A chat line: a player's (``seat``), a spectator's (``name``) or the hall's own (system)."""

    kind: Literal["player", "spectator", "system"]
    text: Any  # checked where it was asked (room/checks.py): a client may send anything here
    seat: int | None = None
    name: str | None = None
    account: int | None = None  # the writer's account, signed in


@dataclass(frozen=True)
class OfferRematch:
    """The player holding ``token`` offers to play again (hall/rematch.py)."""

    token: str | None


@dataclass(frozen=True)
class Resign:
    """``seat``'s player leaves the game (room/leaving.py): mid-game a forfeit, a bot plays on;
    before the start the seat opens again."""

    seat: int


@dataclass(frozen=True)
class Vote:
    """``seat``'s player proposes or answers a vote (room/votes.py): ``motion`` "end" (the game
    ends now, absent players last) or "bot" (a bot plays the absent ``target`` seat on)."""

    seat: int
    motion: str
    target: int | None = None
    agree: bool = True


@dataclass(frozen=True)
class TakeBack:
    """``seat``'s player takes back its move the bots wait on (room/takeback.py), or lets it
    stand (``keep``)."""

    seat: int
    keep: bool = False


Command = Act | Join | GiveToBot | Start | Say | OfferRematch | Resign | Vote | TakeBack


@dataclass(frozen=True)
class Acted:
    turn: int


@dataclass(frozen=True)
class Joined:
    seat: int
    token: str


@dataclass(frozen=True)
class Done:
    pass


@dataclass(frozen=True)
class Said:
    n: int


@dataclass(frozen=True)
class Rematched:
    code: str
    host_token: str
    seat: int
    seat_token: str


Answer = Acted | Joined | Done | Said | Rematched

COMMANDS: dict[str, type[Command]] = {
    "act": Act, "join": Join, "give_to_bot": GiveToBot, "start": Start, "say": Say, "rematch": OfferRematch,
    "resign": Resign, "vote": Vote, "take_back": TakeBack}
NAMES = {kind: name for name, kind in COMMANDS.items()}
ANSWERS: dict[type[Command], type[Answer]] = {
    Act: Acted, Join: Joined, GiveToBot: Done, Start: Done, Say: Said, OfferRematch: Rematched,
    Resign: Done, Vote: Done, TakeBack: Done}


def command_name(command: Command) -> str:
    return NAMES[type(command)]


def command_to_json(command: Command) -> dict[str, Any]:
    return dataclasses.asdict(command)


def command_from_json(name: str, body: Any) -> Command:
    """The command ``name`` from its JSON (as :func:`command_to_json` wrote it); :class:`HallError`
    in words for one that does not read right."""
    kind = COMMANDS.get(name)
    if kind is None or not isinstance(body, dict):
        raise HallError("bad_request", f"no such command: {name[:40]!r}")
    fields = {field.name for field in dataclasses.fields(kind)}
    if not set(body) <= fields:
        raise HallError("bad_request", f"{name} takes {', '.join(sorted(fields))}")
    values = dict(body)
    if kind is Join and values.get("account") is not None:
        values["account"] = Account(**values["account"])
    try:
        return kind(**values)
    except TypeError as error:
        raise HallError("bad_request", f"{name}: {error}") from None


def answer_to_json(answer: Answer) -> dict[str, Any]:
    return dataclasses.asdict(answer)


def answer_from_json(command: Command, body: dict[str, Any]) -> Answer:
    return ANSWERS[type(command)](**body)
