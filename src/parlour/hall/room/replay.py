"""A finished room's replay, made with the one replay format (:mod:`parlour.core.replays`): the
game's seed, options and actions, and its frames as one seat saw them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...core import Game, Result
from ...core.replays import NORMAL, frames, record
from ..store import ActionRecord


def replay_of(game: Game[Any], players: int, options: Mapping[str, Any], seed: int, names: list[str],
              records: Sequence[ActionRecord], state: Any, seen_by: int | None,
              ended: Result | None = None, how: str | None = None) -> dict[str, Any]:
    """The replay file of a finished game, its frames as ``seen_by`` saw them; ``ended``: the
    result of a game ended before its rules ended it (room/leaving.py), ``how`` it ended."""
    replay = record(game, players, options, seed, names, ((r.seat, r.action) for r in records),
                    game.result(state) or ended, how or NORMAL)
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
