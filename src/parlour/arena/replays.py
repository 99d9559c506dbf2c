"""Replay files: one JSON file per game, in the format of ``docs/protocol.md`` that the hall shows.

A replay is ``(game, players, options, seed, actions)``, which rebuild the game bit for bit, with
the bots' names, the result and how the game ended.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..core import Game, LogEntry, ParlourError
from .match import REPLAY_FORMAT

FIELDS = ("format", "game", "players", "options", "seed", "names", "actions", "result", "ended")


class BadReplay(ParlourError):
    """A file that is not a replay Parlour can read."""


def write(folder: str | Path, number: int, replay: dict[str, Any]) -> Path:
    """Write ``replay`` as ``<folder>/<game>-<number>.json``; the path written."""
    path = Path(folder) / f"{replay['game']}-{number:04d}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(replay, separators=(",", ":")) + "\n")
    return path


def read(path: str | Path) -> dict[str, Any]:
    """The replay in ``path``, checked to have every field; :class:`BadReplay` in words if not."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as error:
        raise BadReplay(f"cannot read {path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise BadReplay(f"{path} is not JSON ({error.msg}, line {error.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != REPLAY_FORMAT:
        raise BadReplay(f"{path} is not a replay file (its format should be {REPLAY_FORMAT!r})")
    missing = [name for name in FIELDS if name not in data]
    if missing:
        raise BadReplay(f"{path} lacks {', '.join(missing)}")
    return data


def frames(game: Game[Any], replay: dict[str, Any]) -> Iterator[tuple[int, Any, list[LogEntry]]]:
    """(actions applied, state, log of the last action) from the start to the end of the replay."""
    state = game.start(replay["players"], game.stored_options(replay["options"]), replay["seed"])
    yield 0, state, []
    for number, (seat, action) in enumerate(replay["actions"], 1):
        log: list[LogEntry] = []
        try:
            state = game.apply(state, seat, action, log)
        except ParlourError as error:
            raise BadReplay(f"move {number} of the replay does not apply: {error}") from None
        yield number, state, log
