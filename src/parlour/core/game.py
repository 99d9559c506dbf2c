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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Generic, TypeVar

from .errors import BadOptions, IllegalAction

Action = dict[str, Any]
View = dict[str, Any]
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
        return type(other) is type(self) and self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._key())


class Game(ABC, Generic[S]):
    """One game's rules. Subclasses set the class attributes and implement the verbs."""

    id: ClassVar[str]
    name: ClassVar[str]
    pitch: ClassVar[str]  # one line for the catalogue
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    hidden_information: ClassVar[bool] = False
    options: ClassVar[tuple[Option, ...]] = ()
    # The game's own heuristic bots by name; the game's package fills this in.
    bots: Mapping[str, type] = MappingProxyType({})
    # Each action type and the fields it carries besides "type", by kind: "int", "bool", "str",
    # "ints" or "strs" (lists of those); a trailing "?" makes a field optional (absent or null).
    # None: the generic check of :func:`normalise_action` (flat JSON values).
    action_fields: ClassVar[Mapping[str, Mapping[str, str]] | None] = None

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
        return {"id": self.id, "name": self.name, "pitch": self.pitch,
                "min_players": self.min_players, "max_players": self.max_players,
                "hidden_information": self.hidden_information,
                "bots": sorted(self.bots),
                "options": [o.to_json() for o in self.options]}


def require_action(action: Any) -> str:
    """The action's ``type``, or :class:`IllegalAction` if it is not an action at all."""
    if not isinstance(action, Mapping):
        raise IllegalAction(f"an action must be a JSON object with a 'type', not {action!r}")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise IllegalAction(f"an action needs a 'type' naming what to do, got {dict(action)!r}")
    return kind


ACTION_TEXT_MAX = 64  # characters of a text field of an action
ACTION_LIST_MAX = 64  # items of a list field of an action
ACTION_KEYS_MAX = 16  # fields of an action a game declares no fields for
_KINDS: dict[str, Any] = {"int": int, "bool": bool, "str": str}


def normalise_action(fields: Mapping[str, Mapping[str, str]] | None, action: Any,
                     lenient: bool = False) -> Action:
    """``action`` checked against ``fields`` (a game's ``action_fields``) and copied: its type
    and its declared fields only. ``lenient``: unknown fields are left out rather than refused
    (actions stored before the check existed). Without ``fields``, any field goes whose value is
    flat JSON: a whole number, true/false, null, a short text, or a short list of those::

        normalise_action({"skip": {}}, {"type": "skip"})  # {"type": "skip"}
        normalise_action({"skip": {}}, {"type": "skip", "pad": 1})  # IllegalAction: takes no 'pad'
    """
    kind = require_action(action)
    if len(kind) > ACTION_TEXT_MAX:
        raise IllegalAction(f"an action type has at most {ACTION_TEXT_MAX} characters")
    if fields is None:
        return _flat_action(action, lenient)
    declared = fields.get(kind)
    if declared is None:
        raise IllegalAction(f"unknown action type {kind!r}: the actions are {', '.join(fields)}")
    extra = [key for key in action if key != "type" and key not in declared]
    if extra and not lenient:
        shown = ", ".join(repr(key[:ACTION_TEXT_MAX]) for key in extra[:3])
        raise IllegalAction(f"a {kind!r} action takes no {shown}"
                            f" (its fields: {', '.join(declared) or 'none but its type'})")
    out: Action = {"type": kind}
    for name, spec in declared.items():
        value = action.get(name)
        if value is None:
            if not spec.endswith("?"):
                raise IllegalAction(f"a {kind!r} action needs {name!r} ({_kind_words(spec)})")
            if name in action:
                out[name] = None
            continue
        if not _is_kind(value, spec.rstrip("?")):
            raise IllegalAction(f"{kind!r} needs {name!r} to be {_kind_words(spec)}, not"
                                f" {_shown(value)}")
        out[name] = list(value) if isinstance(value, list) else value
    return out


def _is_kind(value: Any, kind: str) -> bool:
    if kind in ("ints", "strs"):
        item = _KINDS[kind[:-1]]
        return (isinstance(value, list) and len(value) <= ACTION_LIST_MAX
                and all(type(v) is item and _short(v) for v in value))
    return type(value) is _KINDS[kind] and _short(value)


def _short(value: Any) -> bool:
    return not isinstance(value, str) or len(value) <= ACTION_TEXT_MAX


def _kind_words(spec: str) -> str:
    words = {"int": "a whole number", "bool": "true or false", "str": f"a text of at most {ACTION_TEXT_MAX}"
             " characters", "ints": f"a list of at most {ACTION_LIST_MAX} whole numbers",
             "strs": f"a list of at most {ACTION_LIST_MAX} texts"}[spec.rstrip("?")]
    return words + (", or nothing" if spec.endswith("?") else "")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= ACTION_TEXT_MAX else text[:ACTION_TEXT_MAX] + "..."


def _flat_action(action: Mapping[str, Any], lenient: bool) -> Action:
    if len(action) > ACTION_KEYS_MAX and not lenient:
        raise IllegalAction(f"an action has at most {ACTION_KEYS_MAX} fields, not {len(action)}")
    out: Action = {}
    for key, value in action.items():
        if not isinstance(key, str) or len(key) > ACTION_TEXT_MAX:
            if lenient:
                continue
            raise IllegalAction(f"an action's field names have at most {ACTION_TEXT_MAX} characters")
        if not (_is_flat(value) or isinstance(value, list) and len(value) <= ACTION_LIST_MAX
                and all(map(_is_flat, value))):
            if lenient:
                continue
            raise IllegalAction(f"the field {key[:ACTION_TEXT_MAX]!r} holds {_shown(value)}: an action's fields"
                                " are whole numbers, true/false, short texts or short lists of those")
        out[key] = list(value) if isinstance(value, list) else value
    return out


def _is_flat(value: Any) -> bool:
    return value is None or any(_is_kind(value, kind) for kind in ("int", "bool", "str"))


def require_int(action: Mapping[str, Any], key: str) -> int:
    """The integer field ``key`` of ``action``, or :class:`IllegalAction` naming the field."""
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"{action.get('type', 'the')} action needs a whole number {key!r}, got {value!r}")
    return value


def replay(game: Game[S], players: int, options: Mapping[str, Any] | None, seed: int,
           moves: Iterable[tuple[int, Action]], log: list[LogEntry] | None = None) -> S:
    """The state reached by playing ``moves`` (seat, action) from the start: a game is its
    seed, its options and its list of actions."""
    state = game.start(players, options, seed)
    for seat, action in moves:
        state = game.apply(state, seat, action, log)
    return state
