"""The game contract: what Parlour asks of every game.

A game object is stateless; states are immutable values that it creates and transforms::

    state = game.start(2, {}, seed=1)
    seat = min(game.to_act(state))
    state = game.apply(state, seat, game.legal_actions(state, seat)[0])

Actions are JSON objects with a ``type`` field. ``apply`` never changes the state it is given:
search bots keep old states and branch from them.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic, NamedTuple, TypedDict, TypeVar

from .actions import Action, View, normalise_action
from .errors import BadOptions, TooLong

S = TypeVar("S")


@dataclass(frozen=True)
class Option:
    """One game option, declared once with its default; everything else reads it.

    ``kind`` is ``"bool"``, ``"int"`` or ``"choice"``. ``legacy`` is the value of an option that a
    game stored before the option existed takes (see :meth:`Game.stored_options`); None: the default.
    """

    name: str
    label: str
    kind: str
    default: Any
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    legacy: Any = None
    # what players read for each of ``choices`` (the same order), where an id is no word for them
    choice_labels: tuple[str, ...] = ()
    # a setting the hall keeps for the games stored before it existed and for their replays (a rules
    # edition): new rooms take the default, and the lobby does not offer it
    replay_only: bool = False

    def coerce(self, value: Any) -> Any:
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise BadOptions(f"option {self.name!r} must be true or false, not {value!r}")
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadOptions(f"option {self.name!r} must be a whole number, not {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise BadOptions(f"option {self.name!r} must be at least {self.minimum}, not {value}")
            if self.maximum is not None and value > self.maximum:
                raise BadOptions(f"option {self.name!r} must be at most {self.maximum}, not {value}")
            return value
        if self.kind == "choice":
            if value not in self.choices:
                allowed = ", ".join(self.choices)
                raise BadOptions(f"option {self.name!r} must be one of {allowed}, not {value!r}")
            return value
        raise BadOptions(f"option {self.name!r} has an unknown kind {self.kind!r}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "label": self.label, "kind": self.kind,
                               "default": self.default, "help": self.help}
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.choices:
            out["choices"] = list(self.choices)
        if self.choice_labels:
            out["choice_labels"] = list(self.choice_labels)
        if self.replay_only:
            out["replay_only"] = True
        return out


@dataclass(frozen=True)
class LogEntry:
    """A line of the game's log in plain words.

    ``text`` names seats as ``{p0}``, ``{p1}``... so that the hall can put in players' names.
    ``seats`` is who may read it: ``None`` means everybody, spectators included.
    """

    text: str
    seats: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)

    def render(self, names: list[str]) -> str:
        return self.text.format(**{f"p{i}": name for i, name in enumerate(names)})


_SEAT_NAME = re.compile(r"\{p(\d+)\}")


def with_names(text: str, names: list[str] | tuple[str, ...]) -> str:
    """``text`` with each ``{p0}``, ``{p1}``... replaced by that seat's name; anything else, other
    braces included, stays as it is (a reason may quote a bot's JSON)::

        with_names("{p1} accused the Thief rightly", ["Ana", "Ben"])  # "Ben accused the Thief rightly"
    """
    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else match.group(0)

    return _SEAT_NAME.sub(name, text)


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game. ``ranks[i]`` is 1 for the winner(s); ties share a rank.

    ``reason`` names seats as ``{p0}``, ``{p1}``... like a log entry; :meth:`render_reason` and
    ``to_json(names)`` put in the players' names.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    reason: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(i for i, r in enumerate(self.ranks) if r == 1)

    def render_reason(self, names: list[str] | tuple[str, ...]) -> str:
        return with_names(self.reason, names)

    def to_json(self, names: list[str] | tuple[str, ...] | None = None) -> dict[str, Any]:
        """JSON-ready; with ``names``, the reason has the players' names put in (for people),
        without, it keeps its ``{p0}`` placeholders (for views, which know no names)."""
        reason = self.reason if names is None else self.render_reason(names)
        return {"scores": list(self.scores), "ranks": list(self.ranks),
                "winners": list(self.winners), "reason": reason, "details": dict(self.details)}

    @staticmethod
    def from_scores(scores: Iterable[float], tiebreak: Iterable[float] | None = None,
                    reason: str = "", **details: Any) -> Result:
        """Rank by score, higher first, then by ``tiebreak`` (higher first); equal keys share a rank."""
        scores = tuple(scores)
        breaks = tuple(tiebreak) if tiebreak is not None else (0,) * len(scores)
        keys = list(zip(scores, breaks))
        ranks = tuple(1 + sum(1 for other in keys if other > key) for key in keys)
        return Result(scores, ranks, reason, details)


class FieldsState:
    """Base of a game state whose value is its ``FIELDS``: two states are equal (and hash alike)
    when every field is, so search bots can key tables by state."""

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


class TimeLimits(TypedDict):
    """How long a bot may think on a turn in the arena, in milliseconds: its first turn (which may
    set itself up) and every later one."""

    first_turn: int
    turn: int


DEFAULT_TIME_LIMITS_MS: Final[TimeLimits] = {"first_turn": 1000, "turn": 100}
DEFAULT_MAX_ACTIONS: Final = 5_000  # a game's cap on actions unless it declares its own


class Game(ABC, Generic[S]):
    """One game's rules, and what its package declares for bots.

    A subclass sets the class attributes and implements the verbs. The game's package makes its
    one object with what it offers bots (docs/adding-a-game.md)::

        GAME = Patchwork(bots={"greedy": GreedyBot}, search=PatchworkSearch(),
                         levels={"easy": Level(BeginnerBot, "Buys any patch it can afford"), ...})
    """

    id: ClassVar[str]
    name: ClassVar[str]
    pitch: ClassVar[str]  # one line for the catalogue
    scores_label: ClassVar[str] = "points"  # what a view's scores count, shown beside each player's name
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    hidden_information: ClassVar[bool] = False
    # True when every seat's view is the spectators' with its own "seat": view(state, seat) ==
    # {**view(state, None), "seat": seat}, keys in the same order (a game that hides nothing and
    # words nothing for a seat; tests/games/test_views.py checks it). The hall then makes one view
    # and its JSON a change for all of a room's seats (hall/room/audience.py).
    same_view_but_seat: ClassVar[bool] = False
    options: ClassVar[tuple[Option, ...]] = ()
    # Each action type and the fields it carries besides "type", by kind: "int", "bool", "str",
    # "ints" or "strs" (lists of those); a trailing "?" makes a field optional (absent or null).
    # None: the generic check of :func:`normalise_action` (flat JSON values).
    action_fields: ClassVar[Mapping[str, Mapping[str, str]] | None] = None
    # A bot's thinking time per turn in the arena (the game's rules document may set it).
    time_limits_ms: ClassVar[TimeLimits] = DEFAULT_TIME_LIMITS_MS
    # The most actions one game may have (docs/adding-a-game.md, "The cap on actions"): the game's
    # rules end it long before (its random games' longest is far below), and :meth:`check_length`,
    # which the hall, the arena and uploaded replays call, refuses one more action past it, so a game
    # that never ends (a bug, an old edition's endless round) costs a bounded amount.
    max_actions: ClassVar[int] = DEFAULT_MAX_ACTIONS
    # The game's own heuristic bots by name (besides the generic ones every game has).
    bots: Mapping[str, type[Bot]]
    # The levels of play the lobby and the arena offer by name: easy, medium and hard (docs/bots.md).
    levels: Mapping[str, Level]
    # Hooks that guide the generic search bot (parlour.bots.mcts); None: it searches unguided.
    search: SearchHooks[S] | None

    def __init__(self, *, bots: Mapping[str, type[Bot]] | None = None, levels: Mapping[str, Level] | None = None,
                 search: SearchHooks[S] | None = None) -> None:
        """The game with what it offers bots; a game made without (in a test) has no bots of its
        own and no levels, and the search bot plays it unguided."""
        self.bots = dict(bots or {})
        self.levels = dict(levels or {})
        self.search = search

    # --- set-up -----------------------------------------------------------------------------
    def resolve_options(self, options: Mapping[str, Any] | None, players: int | None = None) -> dict[str, Any]:
        """Every option with its value: given ones checked, missing ones at their default."""
        options = dict(options or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise BadOptions(f"{self.name} has no option {', '.join(map(repr, unknown))}"
                             f" (its options: {', '.join(known) or 'none'})")
        return {name: (opt.coerce(options[name]) if name in options else opt.default)
                for name, opt in known.items()}

    def stored_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The options of a stored game (a hall room, a replay file) to replay it by.

        Games are stored with every option resolved, so an option missing from a stored game did
        not exist when it was played: it takes its ``legacy`` value, and the game replays under the
        rules it was played by (an ``edition`` option keeps a ruling that changed what an action does).
        """
        stored = dict(options or {})
        for option in self.options:
            if option.name not in stored and option.legacy is not None:
                stored[option.name] = option.legacy
        return stored

    def check_players(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not (
                self.min_players <= players <= self.max_players):
            span = (f"{self.min_players}" if self.min_players == self.max_players
                    else f"{self.min_players} to {self.max_players}")
            raise BadOptions(f"{self.name} is played by {span} players, not {players!r}")

    @abstractmethod
    def start(self, players: int, options: Mapping[str, Any] | None, seed: int) -> S:
        """A new game. All of its randomness comes from ``seed``."""

    # --- whose turn, and what may be done ----------------------------------------------------
    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """The seats that must act now (several in simultaneous phases; none once it is over)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now (empty if the seat need not act)."""

    @abstractmethod
    def check(self, state: S, seat: int, action: Any) -> None:
        """Raise :class:`IllegalAction` saying why, if ``seat`` may not do ``action`` now."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: Action, log: list[LogEntry] | None = None) -> S:
        """The state after ``seat`` does ``action``; raises :class:`IllegalAction` if it may not.

        When ``log`` is a list, the log entries of this action are appended to it.
        """

    def check_length(self, actions: int) -> None:
        """Raise :class:`TooLong` if a game that has had ``actions`` actions may have no more: the
        one place the cap on actions (``max_actions``) is enforced."""
        if actions >= self.max_actions:
            raise TooLong(f"a game of {self.name} has at most {self.max_actions} actions and this one has had"
                          " them: no more are taken")

    def normalise(self, action: Any) -> Action:
        """``action`` as it is to be applied and stored: a new dict holding its type and the
        fields that type takes (``action_fields``), each of the right kind; raises
        :class:`IllegalAction` naming what is wrong (an unknown type or field, a wrong kind).
        Whether the action is legal now is :meth:`check`'s business."""
        return normalise_action(self.action_fields, action)

    def random_action(self, state: S, seat: int, rng: random.Random) -> Action:
        """A uniformly random legal action. Games may do this without listing them all."""
        return rng.choice(self.legal_actions(state, seat))

    # --- what people and bots see ------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> View:
        """JSON-ready data: what ``seat`` may know and nothing more; ``None`` is a spectator."""

    @abstractmethod
    def is_over(self, state: S) -> bool:
        ...

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """Scores and ranks once the game is over, else ``None``."""

    def capped(self, state: S, players: int) -> Result:
        """The result of a game stopped by its cap on actions (:attr:`max_actions`) before its
        rules ended it, as the game's rules document decides (docs/rules/<game>.md). By default a
        draw, every seat first: a game whose rules end it far below its cap reaches it only through
        a bug, and nobody gains from a bug. A game whose endless rounds its rules allowed (Palace's
        old editions) overrides it."""
        return Result(tuple(0.5 for _ in range(players)), tuple(1 for _ in range(players)),
                      f"the game reached its cap of {self.max_actions:,} actions before its rules ended it: a draw",
                      {"capped": self.max_actions})

    def sample(self, view: View, seat: int, rng: random.Random) -> S:
        """A full state consistent with ``seat``'s view, the unknown drawn at random.

        For open-information games this rebuilds the one state there is.
        """
        raise NotImplementedError(f"{self.name} cannot rebuild a state from a view")

    # --- (de)serialisation -------------------------------------------------------------------
    @abstractmethod
    def state_to_json(self, state: S) -> dict[str, Any]:
        ...

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> S:
        ...

    # --- what the catalogue says --------------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "pitch": self.pitch, "scores_label": self.scores_label,
                "min_players": self.min_players, "max_players": self.max_players,
                "hidden_information": self.hidden_information,
                "bots": sorted(self.bots),
                "options": [o.to_json() for o in self.options]}


class Bot(ABC):
    """A player. It is told its seat's view and legal actions, never the full state.

    ``game`` is the game's rules object and ``seed`` fixes the bot's own random choices.
    ``time_limit`` (seconds) is how long it may think on one move, if it thinks at all.
    """

    name: str = "bot"
    # True for a bot that thinks for its whole time limit (a search): the hall runs its moves in
    # worker processes, off the server's event loop.
    thinks: bool = False

    def __init__(self, game: Game[Any], seed: int = 0, time_limit: float | None = None) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.time_limit = time_limit

    @abstractmethod
    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        """One of ``legal``, chosen from what ``view`` shows."""


class Level(NamedTuple):
    """A level of play (easy, medium, hard): the bot that plays it, by name (one of the game's own
    bots or a generic one) or as a bot class of the game's, and one line on how it plays, for the
    lobby's seat menu."""

    bot: str | type[Bot]
    about: str


class SearchHooks(Generic[S]):
    """What a game tells the generic search bot (:class:`parlour.bots.mcts.MctsBot`) to make it much
    stronger. A game's ``search`` subclasses this and sets what it needs; the rest keeps the
    defaults below. A hook left None is one the bot does without, as said beside it.
    """

    # -- the search's settings ---------------------------------------------------------------------
    exploration: float = 0.7  # the UCT constant
    time_share: float = 0.6  # the share of the time limit spent searching; the rest is margin for a busy machine
    # How many levels of moves the tree grows (None: unbounded). 1 is flat Monte Carlo instead of a
    # tree: the first ``width`` root candidates are each played out on the same guess at the hidden
    # state with the same random numbers, guess after guess, and the best average wins, the first
    # candidate keeping ``first_bonus`` of an edge; with fewer than ``min_rounds`` guesses played
    # (a busy machine), the first candidate. Comparing candidates on the same guesses and dice makes
    # a few dozen playouts tell them apart, and no move in the search is chosen knowing the guessed cards.
    tree_depth: int | None = None
    width: int = 6
    first_bonus: float = 0.0
    min_rounds: int = 1
    # With ``evaluate``: playouts stop after this many moves and the leaf is evaluated (None:
    # unbounded; or a function of the root state giving the number).
    rollout_depth: int | Callable[[S], int] | None = None
    # A bot class, or the name of one of the game's own bots or levels (such as "medium"): without
    # ``rollout``, playouts are played by that bot for every seat, each from its seat's view of the
    # guessed state; without ``candidates``, a node's first candidate is that bot's choice, the rest
    # in a random order.
    playout_bot: str | type[Bot] | None = None

    # -- the hooks (None: the bot's default) ---------------------------------------------------------
    # (state, seat, depth) -> the actions worth searching at a node, best first. Children are added
    # in this order as the node is visited more (progressive widening), so a good order matters.
    # None: every legal action, in a random order.
    candidates: Callable[[S, int, int], list[Action]] | None = None
    # (state, seat, rng) -> the playout policy's action. None: ``game.random_action``.
    rollout: Callable[[S, int, random.Random], Action] | None = None
    # state -> each seat's chance of winning from a non-final state, in [0, 1]. None: playouts go
    # to the end of the game.
    evaluate: Callable[[S], list[float]] | None = None
    # (start, state) -> with ``evaluate``, whether a playout from ``start`` stops here (and its leaf
    # is evaluated), e.g. at the end of a round. None: only ``rollout_depth`` stops it.
    playout_end: Callable[[S, S], bool] | None = None
    # result -> each seat's value of a finished game. None: its share of the others it beat
    # (``parlour.bots.mcts.seat_values``); a game where only first place counts gives the winners
    # everything (``parlour.bots.mcts.winner_values``).
    result_values: Callable[[Result], list[float]] | None = None
    # (view, seat, rng) -> the belief, a guess at the hidden state drawn from what the seat has
    # seen others do. None: ``game.sample``, every consistent state alike.
    sample: Callable[[View, int, random.Random], S] | None = None
    # (state, positions) -> the game played out exactly from ``state`` (an open-information game,
    # near its end): each seat's value with perfect play from both sides and a move of the seat to
    # act that keeps its own, or None when finding out takes more than ``positions`` positions (a
    # count, not the clock: the same state and budget give the same answer). The search asks before
    # it searches and plays the move when it wins; the analysis judges each move by it
    # (docs/bots.md). None: the search's estimates everywhere.
    solve: Callable[[S, int], tuple[list[float], Action] | None] | None = None
    solve_positions: int = 20_000  # the most positions the search lets ``solve`` visit for one question


def replay(game: Game[S], players: int, options: Mapping[str, Any] | None, seed: int,
           moves: Iterable[tuple[int, Action]], log: list[LogEntry] | None = None) -> S:
    """The state reached by playing ``moves`` (seat, action) from the start: a game is its
    seed, its options and its list of actions."""
    state = game.start(players, options, seed)
    for seat, action in moves:
        state = game.apply(state, seat, action, log)
    return state
