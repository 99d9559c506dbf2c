"""The game contract and what every game shares. No I/O, and it never imports a game."""

from .bot import Bot
from .errors import BadOptions, IllegalAction, ParlourError, UnknownGame
from .game import (
                   Action,
                   FieldsState,
                   Game,
                   LogEntry,
                   Option,
                   Result,
                   View,
                   normalise_action,
                   replay,
                   require_action,
                   require_int,
                   with_names,
)
from .rng import derive, fresh_seed

__all__ = ["Action", "FieldsState", "BadOptions", "Bot", "Game", "IllegalAction", "LogEntry", "Option",
           "ParlourError", "Result", "UnknownGame", "View", "derive", "fresh_seed", "normalise_action", "replay",
           "require_action", "require_int", "with_names"]
