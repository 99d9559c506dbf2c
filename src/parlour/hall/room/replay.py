"""A finished room's replay: the game's seed, options and actions, and its frames as one seat saw
them (the file format is docs/protocol.md's ``parlour-replay/1``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...core import Game, LogEntry
from ..store import ActionRecord

REPLAY_FORMAT = "parlour-replay/1"


def frames(game: Game[Any], replay: Mapping[str, Any], seen_by: int | None = None) -> list[dict[str, Any]]:
    """The view of ``seen_by`` (None: a spectator) and the log lines it may read after each action
    of a finished ``replay`` (``frames[0]`` is the start). Raises :class:`IllegalAction` for a
    replay that does not replay."""
    names = list(replay["names"])
    state = game.start(replay["players"], replay["options"], replay["seed"])
    out = [{"turn": 0, "view": game.view(state, seen_by), "to_act": sorted(game.to_act(state)), "log": []}]
    for turn, (seat, action) in enumerate(replay["actions"], start=1):
        entries: list[LogEntry] = []
        state = game.apply(state, seat, game.normalise(action), entries)
        out.append({"turn": turn, "view": game.view(state, seen_by), "to_act": sorted(game.to_act(state)),
                    "log": [e.render(names) for e in entries if e.visible_to(seen_by)]})
    return out


def replay_of(game: Game[Any], players: int, options: Mapping[str, Any], seed: int, names: list[str],
              records: Sequence[ActionRecord], state: Any, seen_by: int | None) -> dict[str, Any]:
    """The replay file of a finished game, its frames as ``seen_by`` saw them."""
    result = game.result(state)
    replay: dict[str, Any] = {
        "format": REPLAY_FORMAT, "game": game.id, "players": players, "options": dict(options), "seed": seed,
        "names": names, "actions": [[record.seat, record.action] for record in records],
        "result": result.to_json(names) if result else None, "ended": "normal"}
    replay["seen_by"] = seen_by
    replay["frames"] = frames(game, replay, seen_by)
    return replay


class Replays:
    """A finished room's replays, made once for each seat that asks (a finished game never changes)."""

    def __init__(self) -> None:
        self._made: dict[int | None, dict[str, Any]] = {}

    def of(self, seen_by: int | None, make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        if seen_by not in self._made:
            self._made[seen_by] = make()
        return self._made[seen_by]
