"""What crosses the wire on the REST side, every model of it: the OpenAPI schema is built from these.

The lobby's and the rooms' first, then the players' (accounts, profiles, "My games", leaderboards).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StringConstraints

from ..accounts import PASSWORD_MAX
from ..text import NAME_MAX, TEXT_MAX

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
    choice_labels: list[str] | None = Field(None, description="the words shown for each of choices, in their order")
    replay_only: bool = Field(False, description="kept for old games and their replays: new rooms take the default")


class GameOut(BaseModel):
    id: str
    name: str
    pitch: str
    scores_label: str = Field("points", description="what the number beside each player's name counts")
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
    turn_timer: float | None = Field(None, description="seconds per turn; null: no timer. Turn-based: the time"
                                     " per move, 3600 (an hour) to 1209600 (14 days), e.g. 86400")
    pace: Literal["live", "turn-based"] = Field("live", description="live: everyone at the table until the end;"
                                                " turn-based: a move when you can, within turn_timer")
    host_name: Name | None = Field(None, description="the creator's name, when taking a seat")
    take_seat: int | None = Field(None, description="an open seat the creator takes at once")
    coach: bool = Field(False, description="the coach at the table: hints and take-backs for a person playing"
                        " against bots; the game is then never rated (docs/analysis.md)")


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
    left: Literal["resigned", "away", "abandoned", "timed_out"] | None = Field(
        None, description="mid-game, how this seat's person left the game (a forfeit): a bot plays it on")
    # and "bot_account": true on a seat a bot account holds (docs/bot-api.md); absent on every other seat
    model_config = ConfigDict(extra="allow")


class BallotOut(BaseModel):
    motion: Literal["end", "bot"] = Field(description="end: end the game now, absent players last;"
                                          " bot: a bot plays the absent player's seat")
    seat: int | None = Field(None, description="bot: the seat to hand to a bot")
    by: int = Field(description="the seat that proposed it")
    yes: list[int] = Field(description="the seats that agreed")
    needed: list[int] = Field(description="the seats whose yes it needs")
    until: float = Field(description="when it lapses unless passed (epoch seconds)")


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
    vote: BallotOut | None = Field(None, description="the players' vote under way, if any (POST .../vote)")
    host_away: bool = Field(False, description="waiting: the host has been gone a while, so any seated player"
                            " may start the game and seat bots")
    pace: Literal["live", "turn-based"] = "live"
    deadline: float | None = Field(None, description="turn-based: when the time of those to act runs out (epoch s)")
    late: list[int] = Field(default_factory=list, description="turn-based: the seats whose time ran out; the others"
                            " may hand one to a bot or end the game with its player last")
    coach: bool = Field(False, description="the coach is at the table: hints and take-backs (docs/analysis.md)")
    coach_hold: dict[str, Any] | None = Field(None, description="the coach: the move the bots wait on, {seat, turn,"
                                              " label (null while it is judged), until}")


class LobbyRoomOut(BaseModel):
    code: str
    game: str
    status: Literal["waiting", "playing"]
    seats: list[SeatOut]
    created: float
    turn: int = Field(description="how far along: the moves a spectator has seen (0 while waiting)")
    watchers: int = Field(description="connections to the room now, spectators' included")
    host_here: bool = Field(True, description="waiting: the host is here (else any seated player may start)")
    pace: Literal["live", "turn-based"] = "live"
    turn_timer: float | None = None


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


# -- the players' ------------------------------------------------------------------------------------
class Credentials(Wire):
    name: str = Field(max_length=200, description="1 to 32 characters, shown as text; unique whatever the case")
    password: str = Field(max_length=PASSWORD_MAX * 4, description=f"8 to {PASSWORD_MAX} characters")


class NewPassword(Wire):
    password: str = Field(max_length=PASSWORD_MAX * 4, description="the current password")
    new_password: str = Field(max_length=PASSWORD_MAX * 4, description=f"8 to {PASSWORD_MAX} characters")


class AccountOut(BaseModel):
    name: str
    kind: str = Field(description="human, bot for a built-in bot's account, or botacct for a bot account"
                                  " (docs/bot-api.md)")


class SessionOut(BaseModel):
    player: AccountOut | None = Field(description="the signed-in player; null for a guest")


class RatingOut(BaseModel):
    game: str
    rating: float = Field(description="OpenSkill's ordinal, mu - 3 sigma: 0 for a new player"
                                      " (the pages show 1500 + 20 x it)")
    mu: float
    sigma: float
    games: int = Field(description="rated games")


class PlayedOut(BaseModel):
    game: str
    played: int
    won: int


class GameEntry(BaseModel):
    code: str
    game: str
    status: str
    seat: int
    players: list[str]
    created: float
    url: str
    to_act: list[str] = Field(default_factory=list, description="in progress: whose turn it is")
    your_turn: bool = False
    pace: str = "live"
    deadline: float | None = Field(None, description="turn-based, in progress: when the turn's time runs out")
    rank: int | None = Field(None, description="finished: the place, 1 for a win (a forfeit is last)")
    change: float | None = Field(None, description="finished and rated: how the rating moved")
    replay_url: str | None = None


class ProfileOut(BaseModel):
    name: str
    kind: str
    ratings: list[RatingOut]
    played: list[PlayedOut]
    recent: list[GameEntry] = Field(description="finished games, newest first, with their replays")
    reputation: dict[str, Any] | None = Field(None, description="finished, left, and share: of the games they"
                                              " ended or left, the share they played to the end; resigned,"
                                              " away, abandoned, timed_out: how they left")


class MyGamesOut(BaseModel):
    playing: list[GameEntry] = Field(description="games not over: those where it is your turn first, soonest"
                                     " deadline first, then the others, newest first")
    finished: list[GameEntry]


class LeaderOut(BaseModel):
    place: int
    name: str
    kind: str
    rating: float
    games: int
