"""What crosses the wire on the REST side: the OpenAPI schema is built from these."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StringConstraints

from .text import NAME_MAX, TEXT_MAX

# A name as it enters (seats, bots, replay files); the hall trims it and checks it again.
Name = Annotated[str, StringConstraints(max_length=NAME_MAX)]
# A short word the client chooses among known ones: a game's id, a bot's name.
Word = Annotated[str, StringConstraints(max_length=64)]


class Wire(BaseModel):
    """What a client sends: no unknown key, and no type taken for another (``"seat": true``
    is not seat 1, ``"3"`` is not 3)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class OptionOut(BaseModel):
    name: str
    label: str
    kind: Literal["bool", "int", "choice"]
    default: Any
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: list[str] | None = None


class GameOut(BaseModel):
    id: str
    name: str
    pitch: str
    min_players: int
    max_players: int
    hidden_information: bool
    bots: list[str] = Field(description="bots that can take a seat, the game's own heuristic ones first")
    bot_notes: dict[str, str] = Field(description="one line on how each bot plays, by name (easy, medium"
                                           " and hard are the levels every game offers)")
    options: list[OptionOut]
    rules_url: str
    renderer_url: str


class OpenSeat(Wire):
    kind: Literal["open"]


class BotSeat(Wire):
    kind: Literal["bot"]
    bot: Word = Field(description="a bot name from the game's catalogue entry")
    name: Name | None = Field(None, description="the name shown for it (default: the bot's name)")


SeatSpec = Annotated[OpenSeat | BotSeat, Field(discriminator="kind")]


class CreateRoom(Wire):
    game: Word
    options: dict[Word, Any] = Field(default_factory=dict, max_length=32)
    seats: list[SeatSpec] = Field(min_length=1, max_length=16)
    turn_timer: float | None = Field(None, description="seconds per turn; null: no timer")
    host_name: Name | None = Field(None, description="the creator's name, when taking a seat")
    take_seat: int | None = Field(None, description="an open seat the creator takes at once")


class RoomCreated(BaseModel):
    code: str
    host_token: str
    seat: int | None
    seat_token: str | None


class SeatOut(BaseModel):
    seat: int
    kind: Literal["open", "human", "bot"]
    name: str | None
    bot: str | None
    connected: bool
    profile: str | None = Field(None, description="a signed-in player's account name (their profile)")
    kept_for: str | None = Field(None, description="an open seat a rematch keeps for this player a while")


class RoomOut(BaseModel):
    code: str
    game: str
    options: dict[str, Any]
    status: Literal["waiting", "playing", "over"]
    seats: list[SeatOut]
    turn_timer: float | None
    turn: int = Field(description="how many actions the spectators have seen (each seat counts the ones it saw)")
    created: float
    rematch: str | None = Field(None, description="once the game is over: the room its players are invited to next")


class LobbyRoomOut(BaseModel):
    code: str
    game: str
    status: Literal["waiting", "playing"]
    seats: list[SeatOut]
    created: float
    turn: int = Field(description="how far along: the moves a spectator has seen (0 while waiting)")
    watchers: int = Field(description="connections to the room now, spectators' included")


class Join(Wire):
    name: Name = Field(description="1 to 32 characters, kept as plain text")
    seat: int | None = Field(None, description="null: the first open seat")


class Joined(BaseModel):
    seat: int
    seat_token: str


class GiveToBot(Wire):
    bot: Word
    name: Name | None = None


class ReplayIn(BaseModel):
    """A replay file. Unknown keys are let through (files may carry more than the hall reads),
    but what it reads is checked like the rest: names capped like a seat's."""

    format: Literal["parlour-replay/1"]
    game: Word
    players: StrictInt = Field(ge=1, le=16)
    options: dict[Word, Any] = Field(default_factory=dict, max_length=32)
    seed: StrictInt
    names: list[Name] = Field(default_factory=list, max_length=16)
    actions: list[tuple[StrictInt, dict[str, Any]]] = Field(max_length=100_000)
    result: dict[str, Any] | None = None
    ended: Annotated[str, StringConstraints(max_length=TEXT_MAX)] | None = None


class Frame(BaseModel):
    turn: int
    view: dict[str, Any]
    to_act: list[int]
    log: list[str] = Field(description="the lines this action added, as a spectator may read them")


class ReplayOut(ReplayIn):
    seen_by: int | None = Field(None, description="the seat whose view the frames show (null: a spectator's)")
    frames: list[Frame] = Field(description="frames[0] is the start, frames[k] follows action k")


class ErrorOut(BaseModel):
    detail: str
