"""What the learning-agent tests share: the games, player counts and options they play, and a
random player that goes deep."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from parlour.rl.encodings import GAMES
from parlour.rl.table import Table

__all__ = ["CONFIGS", "GAMES", "Config", "config_id", "random_tokens"]

Config = tuple[str, int, dict[str, Any]]  # a game, its players, its options

# Every game, every player count, and the options that change what is played. Each row is a
# (game, players, options) the tests play a few bounded random games of.
CONFIGS: list[Config] = [
    ("patchwork", 2, {}),
    ("empire", 2, {}),
    ("dinosaurs", 2, {}),
    ("dinosaurs", 2, {"two_player_rules": False}),
    ("dinosaurs", 3, {}),
    ("dinosaurs", 4, {}),
    ("prestige_cities", 1, {}),
    ("prestige_cities", 2, {"blight": True, "ocean": True, "mountains": True, "pregame": False}),
    ("prestige_cities", 3, {"blight": True}),
    ("prestige_cities", 4, {"mountains": True, "deck1": "cheap_labor", "deck4": "champs_central"}),
    ("prestige_cities", 5, {"ocean": True}),
    ("prestige_cities", 6, {}),
    ("palace", 2, {}),
    ("palace", 3, {}),
    ("palace", 4, {}),
    ("palace", 5, {}),
    ("palace", 6, {}),
]


def config_id(config: Config) -> str:
    game_id, players, options = config
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{game_id}-{players}p" + (f"-{extra}" if extra else "")


def random_tokens(table: Table, seed: int, max_tokens: int) -> Iterator[int]:
    """Plays random legal actions on ``table`` token by token (at most ``max_tokens``), yielding
    before each token the seat about to choose. The kind of action is drawn first, then one of
    that kind, so that games go deep (a uniform draw in Empire mostly accuses at once)."""
    rng = random.Random(seed)
    planned: list[int] = []
    for _ in range(max_tokens):
        seat = table.seat()
        if seat is None:
            return
        if not planned:
            by_kind: dict[str, list[tuple[int, ...]]] = {}
            for tokens, action in table.choices(seat).by_tokens.items():
                by_kind.setdefault(action["type"], []).append(tokens)
            planned = list(rng.choice(by_kind[rng.choice(sorted(by_kind))]))
        yield seat
        table.step(planned.pop(0))
