"""The game contract and what every game shares. No I/O, and it never imports a game."""

from .actions import Action, View, normalise_action, require_action, require_int
from .entry import GameEntry
from .errors import BadOptions, IllegalAction, ParlourError, TooLong, UnknownGame
from .game import (
    Bot,
    FieldsState,
    Game,
    Level,
    LogEntry,
    Option,
    Result,
    SearchHooks,
    TimeLimits,
    replay,
    with_names,
)
from .rng import derive, fresh_seed

__all__ = ["Action", "BadOptions", "Bot", "FieldsState", "Game", "GameEntry", "IllegalAction", "Level", "LogEntry",
           "Option", "ParlourError", "Result", "SearchHooks", "TimeLimits", "TooLong", "UnknownGame", "View", "derive",
           "fresh_seed", "normalise_action", "replay", "require_action", "require_int", "with_names"]
