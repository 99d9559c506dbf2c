"""A finished room's replay, made with the one replay format (:mod:`parlour.core.replays`): the
game's seed, options and actions, and a page of its frames as one seat saw them."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from ...core import Game, Result
from ...core.replays import NORMAL, PAGE, paged, record
from ..store import ActionRecord


def replay_of(game: Game[Any], players: int, options: Mapping[str, Any], seed: int, names: list[str],
              records: Sequence[ActionRecord], state: Any, seen_by: int | None, start: int = 0,
              count: int | None = None, ended: Result | None = None, how: str | None = None) -> dict[str, Any]:
    """The replay file of a finished game with a page of its frames as ``seen_by`` saw them (a
    game of any length, one stored before its game had a cap on actions too, is served a page at a
    time: :func:`parlour.core.replays.paged`). Made on a worker thread, it lets go of the GIL after
    each action (:func:`yield_thread`). ``ended``: the result of a game ended before its rules
    ended it (room/leaving.py), ``how`` it ended."""
    replay = record(game, players, options, seed, names, ((r.seat, r.action) for r in records),
                    game.result(state) or ended, how or NORMAL)
    return paged(game, replay, seen_by, start, PAGE if count is None else count, yield_thread)


def yield_thread() -> None:
    """Let another thread that waits for the GIL (the event loop) run now, not after Python's
    switch interval (5 ms): a replay made on a worker thread delays other rooms' moves by little."""
    time.sleep(0)
