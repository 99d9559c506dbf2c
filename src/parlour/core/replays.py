"""The replay format, in one place: what a replay holds, how it is written and checked, and how it is
played back into states and into frames as a seat saw them (docs/protocol.md, "The replay format").

A replay is ``(game, players, options, seed, actions)``, which rebuild the game bit for bit, with the
players' names, the result and how the game ended::

    data = record(game, 2, options, seed, ["Ana", "Ben"], actions, game.result(state))
    check(loads(dumps(data)))  # the same replay, checked field by field
    frames(game, data, seen_by=0)  # [{"turn": 0, "view": ..., "to_act": [...], "log": [...]}, ...]
    paged(game, data, seen_by=0, start=100)  # the replay with frames 100 to 199, and how many there are

The hall, the arena and the CLI read and write replays through this module only; files are read
and written by their callers (``core`` does no I/O).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Final

from .actions import Action
from .errors import ParlourError
from .game import Game, LogEntry, Result

FORMAT: Final = "parlour-replay/1"
# every field, in the order a replay is written; the hall's answers add "seen_by" and "frames"
FIELDS: Final = ("format", "game", "players", "options", "seed", "names", "actions", "result", "ended")
# what a replay cannot do without; the rest has defaults (no names: "seat 1"...; no result yet)
REQUIRED: Final = ("format", "game", "players", "seed", "actions")
NORMAL: Final = "normal"  # "ended" of a game played to its end


class BadReplay(ParlourError):
    """Data that is not a replay Parlour can read, or a replay whose moves do not apply."""


def record(game: Game[Any], players: int, options: Mapping[str, Any], seed: int, names: Sequence[str],
           actions: Iterable[tuple[int, Action] | list[Any]], result: Result | None,
           ended: str = NORMAL) -> dict[str, Any]:
    """A replay of ``game`` as it is written: ``options`` as played (every option resolved),
    ``actions`` the ``(seat, action)`` pairs in the order applied, ``result`` None while unfinished
    (its reason is written with the players' names filled in)."""
    names = list(names)
    return {"format": FORMAT, "game": game.id, "players": players, "options": dict(options), "seed": seed,
            "names": names, "actions": [[seat, action] for seat, action in actions],
            "result": result.to_json(names) if result is not None else None, "ended": ended}


def dumps(replay: Mapping[str, Any]) -> str:
    """``replay`` as the one line of JSON of a replay file (no trailing newline)."""
    return json.dumps(replay, separators=(",", ":"))


def loads(text: str | bytes, where: str = "the replay", required: Sequence[str] = FIELDS) -> dict[str, Any]:
    """The replay in ``text``, checked (:func:`check`); :class:`BadReplay` in words if it is not one.
    ``where`` names it in the messages (a file's path)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise BadReplay(f"{where} is not JSON ({error.msg}, line {error.lineno})") from None
    except UnicodeDecodeError:
        raise BadReplay(f"{where} is not JSON (it is not UTF-8 text)") from None
    return check(data, where, required)


def check(data: Any, where: str = "the replay", required: Sequence[str] = FIELDS) -> dict[str, Any]:
    """``data`` if it is a replay: the right format, the ``required`` fields present and every field
    of its kind (the game's own rules are checked when it is played back, by :func:`states`);
    else :class:`BadReplay` saying what is wrong, e.g. "the replay's players must be a whole
    number of at least 1, not 'two'"."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadReplay(f"{where} is not a replay file (its format should be {FORMAT!r})")
    missing = [name for name in required if name not in data]
    if missing:
        raise BadReplay(f"{where} lacks {', '.join(missing)}")
    for name, (test, words) in _KINDS.items():
        if name in data and not test(data[name]):
            raise BadReplay(f"{where}'s {name} must be {words}, not {_shown(data[name])}")
    players = data.get("players", 0)
    for number, (seat, _) in enumerate(data.get("actions", ()), 1):
        if not 0 <= seat < players:
            raise BadReplay(f"{where}'s move {number} is by seat {seat}, but the seats are 0 to"
                            f" {players - 1}")
    return data


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_move(value: Any) -> bool:
    return (isinstance(value, list | tuple) and len(value) == 2 and _whole(value[0])
            and isinstance(value[1], dict))


_KINDS: dict[str, tuple[Any, str]] = {
    "game": (lambda v: isinstance(v, str), "a game's id"),
    "players": (lambda v: _whole(v) and v >= 1, "a whole number of at least 1"),
    "options": (lambda v: isinstance(v, dict), "an object of options"),
    "seed": (_whole, "a whole number"),
    "names": (lambda v: isinstance(v, list) and all(isinstance(n, str) for n in v), "a list of names"),
    "actions": (lambda v: isinstance(v, list) and all(map(_is_move, v)), "a list of [seat, action] pairs"),
    "result": (lambda v: v is None or isinstance(v, dict), "a result object or null"),
    "ended": (lambda v: v is None or isinstance(v, str), "a text or null"),
}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def states(game: Game[Any], replay: Mapping[str, Any], normalise: bool = False
           ) -> Iterator[tuple[int, Any, list[LogEntry]]]:
    """(actions applied, state, log entries of the last action) from the start of a checked replay
    to its end. Options missing from it take their ``legacy`` value (:meth:`Game.stored_options`),
    so it replays under the rules it was played by. ``normalise``: each action goes through
    :meth:`Game.normalise` first (data from outside, such as an uploaded file). A move that does not
    apply raises :class:`BadReplay` naming it."""
    state = game.start(replay["players"], game.stored_options(replay.get("options")), replay["seed"])
    yield 0, state, []
    for number, (seat, action) in enumerate(replay["actions"], 1):
        log: list[LogEntry] = []
        try:
            state = game.apply(state, seat, game.normalise(action) if normalise else action, log)
        except ParlourError as error:
            raise BadReplay(f"move {number} of the replay does not apply: {error}") from None
        yield number, state, log


def names(replay: Mapping[str, Any]) -> list[str]:
    """The players' names of a replay, "seat 1", "seat 2"... for those it does not name."""
    given = list(replay.get("names") or [])
    players: int = replay["players"]
    return (given + [f"seat {i + 1}" for i in range(len(given), players)])[:players]


def frame(game: Game[Any], turn: int, state: Any, log: Sequence[LogEntry], seen_by: int | None,
          names: Sequence[str]) -> dict[str, Any]:
    """What ``seen_by`` (None: a spectator) saw after action ``turn``: its view, who was to act and
    the log lines it may read, with the players' names put in."""
    return {"turn": turn, "view": game.view(state, seen_by), "to_act": sorted(game.to_act(state)),
            "log": [entry.render(list(names)) for entry in log if entry.visible_to(seen_by)]}


def frames(game: Game[Any], replay: Mapping[str, Any], seen_by: int | None = None, start: int = 0,
           count: int | None = None, pause: Callable[[], object] | None = None) -> list[dict[str, Any]]:
    """The frames of a checked replay as ``seen_by`` saw the game (None: a spectator): ``frames[0]``
    is the start, ``frames[k]`` follows action ``k``. Only frames ``start`` to ``start + count - 1``
    are made (``count`` None: to the end): the actions before ``start`` are applied, never viewed,
    and none after the last frame asked for. ``pause()``, if given, is called after each action (a
    server's worker thread lets its event loop run there). Each action is normalised first; a move that does not
    apply raises :class:`BadReplay` naming it."""
    if seen_by is not None and not 0 <= seen_by < replay["players"]:
        raise BadReplay(f"this replay has seats 0 to {replay['players'] - 1}, not {seen_by}")
    total = len(replay["actions"]) + 1
    if not 0 <= start < total:
        raise BadReplay(f"this replay has frames 0 to {total - 1}, so none from {start}")
    end = total if count is None else min(total, start + count)
    shown = names(replay)
    made = []
    for turn, state, log in states(game, replay, normalise=True):
        if pause is not None:
            pause()
        if turn >= start:
            made.append(frame(game, turn, state, log, seen_by, shown))
        if turn + 1 >= end:
            break
    return made


PAGE = 100  # frames in a page of a replay, unless asked for fewer
PAGE_MAX = 200  # the most frames one page holds


def paged(game: Game[Any], replay: Mapping[str, Any], seen_by: int | None = None, start: int = 0,
          count: int = PAGE, pause: Callable[[], object] | None = None) -> dict[str, Any]:
    """``replay`` with one page of its frames as ``seen_by`` saw the game: ``frames`` (frames
    ``start`` on, ``count`` at most, ``PAGE_MAX`` at most), ``frames_start`` (``start``),
    ``frames_total`` (every frame: the actions and the start) and ``seen_by``; a replay of any
    length is served this way, a page at a time, the work of each bounded by its page."""
    count = max(1, min(count, PAGE_MAX))
    page = frames(game, replay, seen_by, start, count, pause)
    return {**replay, "seen_by": seen_by, "frames": page, "frames_start": start,
            "frames_total": len(replay["actions"]) + 1}


def page_cost(start: int, count: int) -> int:
    """What making frames ``start`` to ``start + count - 1`` costs, in frames made: each made (a view
    and its JSON) and a tenth for each action applied before them (an action costs about a tenth
    of a frame)."""
    return max(1, min(count, PAGE_MAX)) + start // 10
