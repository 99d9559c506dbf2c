"""Checks every game must pass, shared by the games' test modules.

Each helper plays or inspects real games through the public contract and asserts; a game's tests
call them from hypothesis-driven tests with their own strategies.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from parlour.core import Game, IllegalAction, LogEntry, replay


def play_random(game: Game[Any], players: int, seed: int, options: dict | None = None,
                max_moves: int = 20_000, rng_seed: int | None = None,
                each: Callable[[Any, random.Random], object] | None = None) -> tuple[Any, list[tuple[int, dict]]]:
    """A uniformly random game to its end: (final state, moves). ``each`` is called with every
    state, the last included, and the game's random generator, before the next move is chosen."""
    rng = random.Random(seed if rng_seed is None else rng_seed)
    state = game.start(players, options, seed)
    moves: list[tuple[int, dict]] = []
    for _ in range(max_moves):
        if each is not None:
            each(state, rng)
        seats = game.to_act(state)
        if not seats:
            return state, moves
        seat = rng.choice(sorted(seats))
        action = game.random_action(state, seat, rng)
        state = game.apply(state, seat, action)
        moves.append((seat, action))
    raise AssertionError(f"{game.id} did not end within {max_moves} moves")


def play_bots(game: Game[Any], names: list[str], seed: int, options: dict | None = None) -> Any:
    """A game to its end between bots called ``names`` (by seat), each told only its seat's view;
    every action they choose must be one of the legal ones. Returns the game's Result."""
    from parlour import bots

    players = [bots.create(game, name, seed=seed * 10 + i) for i, name in enumerate(names)]
    state = game.start(len(names), options, seed)
    while not game.is_over(state):
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        action = players[seat].choose(game.view(state, seat), seat, legal)
        assert action in legal, f"{names[seat]} chose {action!r}, which is not legal"
        state = game.apply(state, seat, action)
    return game.result(state)


def assert_replays(game: Game[Any], players: int, seed: int, options: dict | None,
                   moves: list[tuple[int, dict]], final: Any) -> None:
    """(seed, options, actions) rebuilds the same state bit for bit, also through JSON."""
    moves = json.loads(json.dumps(moves))
    again = replay(game, players, options, seed, moves)
    assert game.state_to_json(again) == game.state_to_json(final)
    assert json.dumps(game.state_to_json(again), sort_keys=True) == json.dumps(
        game.state_to_json(game.state_from_json(json.loads(json.dumps(game.state_to_json(final))))),
        sort_keys=True)


def assert_check_matches_legal(game: Game[Any], state: Any, seat: int) -> None:
    """Every listed action passes ``check`` and applies; the seat's view is JSON-ready."""
    legal = game.legal_actions(state, seat)
    for action in legal:
        game.check(state, seat, action)
    before = game.state_to_json(state)
    for action in legal[:50]:
        game.apply(state, seat, action, [])
    assert game.state_to_json(state) == before, "apply changed the state it was given"
    json.dumps(game.view(state, seat))
    json.dumps(game.view(state, None))


def assert_refused(game: Game[Any], state: Any, seat: int, action: Any, *words: str) -> IllegalAction:
    """``action`` is refused with a message holding ``words``, and the state is unchanged."""
    before = game.state_to_json(state)
    try:
        game.apply(state, seat, action, [])
    except IllegalAction as error:
        message = str(error)
        for word in words:
            assert word in message, f"{message!r} does not mention {word!r}"
        assert game.state_to_json(state) == before
        return error
    raise AssertionError(f"{action!r} was accepted")


def log_texts(entries: list[LogEntry], names: list[str]) -> list[str]:
    return [entry.render(names) for entry in entries]


def json_safe(value: Any) -> bool:
    """JSON that any reader takes exactly: integers within JavaScript's 2**53."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and json_safe(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(json_safe(v) for v in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value) <= 2**53
    return value is None or isinstance(value, (str, float, bool))
