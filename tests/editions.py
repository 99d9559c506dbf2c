"""Old games replayed through today's engine, shared by the games' rules-edition tests
(tests/games/*/test_*_editions.py) and the scripts that record those games (old_*/record.py).

A record holds a game's players, seed, options and actions, a digest of the legal actions at every
step and a digest of the final state; an engine that keeps an edition replays it to the same digests.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any


def digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


def state_digest(game: Any, state: Any, newer: str) -> str:
    """The digest of ``state`` without the field ``newer``, which older engines lack."""
    data = game.state_to_json(state)
    data.pop(newer, None)
    return digest(data)


def legal_lines(game: Any, state: Any, seat: int) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in game.legal_actions(state, seat))


def records(folder: Path, editions: tuple[int, ...] = (1, 2)) -> dict[int, Any]:
    """The recorded games of each edition, from ``folder/edition<N>.json``."""
    return {edition: json.loads((folder / f"edition{edition}.json").read_text()) for edition in editions}


def write_records(out: str | Path, edition: int, games: list[dict[str, Any]]) -> None:
    """The recorded games of ``edition`` as :func:`records` reads them (``edition<N>.json``)."""
    with open(out, "w") as f:
        json.dump({"edition": edition, "games": games}, f, separators=(",", ":"))


def recorded(game: Any, players: int, seed: int, options: dict[str, Any], newer: str,
             seat_of: Callable[[Any, random.Random], int],
             action_of: Callable[[Any, int, random.Random], Any]) -> tuple[dict[str, Any], Any]:
    """A game played to its end, ``seat_of(state, rng)`` choosing who moves and ``action_of(state,
    seat, rng)`` what: (its record, its final state)."""
    state = game.start(players, options, seed)
    rng = random.Random(seed)
    actions, legal = [], []
    while not game.is_over(state):
        seat = seat_of(state, rng)
        legal.append(legal_lines(game, state, seat))
        action = action_of(state, seat, rng)
        actions.append([seat, action])
        state = game.apply(state, seat, action)
    return {"players": players, "seed": seed, "options": options, "actions": actions,
            "legal": digest(legal), "final": state_digest(game, state, newer)}, state


def replayed(game: Any, record: dict[str, Any], options: dict[str, Any], newer: str) -> tuple[str, str, Any]:
    """A recorded game's actions replayed under ``options``: (legal digest, final digest, final state)."""
    state = game.start(record["players"], game.stored_options(options), record["seed"])
    legal = []
    for seat, action in record["actions"]:
        legal.append(legal_lines(game, state, seat))
        state = game.apply(state, seat, action)
    return digest(legal), state_digest(game, state, newer), state


def differing(game: Any, games: list[dict[str, Any]], edition: int, newer: str) -> int:
    """How many recorded games fail when replayed by ``edition`` (with their other options), or replay
    to other digests."""
    differ = 0
    for record in games:
        try:
            legal, final, _ = replayed(game, record, {**record["options"], "edition": edition}, newer)
        except Exception:  # an action the other edition refuses, or a seat with nothing to do
            differ += 1
            continue
        differ += (legal, final) != (record["legal"], record["final"])
    return differ
