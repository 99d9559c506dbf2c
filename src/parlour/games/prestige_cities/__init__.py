"""Prestige Cities: simultaneous city building from era cards and dice, with its three expansions."""

from pathlib import Path

from ...core import GameEntry, Level
from .bots import GreedyBot, PlannerlessBot
from .engine import PrestigeCities
from .search import PlannerBot

GAME = PrestigeCities(
    bots={"greedy": GreedyBot},
    levels={  # for the lobby and the arena (builtin:easy|medium|hard); docs/bots.md
        "easy": Level(PlannerlessBot, "Takes any die, lays each block where it scores most right now, with no plan for"
                                      " the group"),
        "medium": Level("greedy", "Plans each group block by block from its most promising first squares to raise its"
                                  " overall score"),
        "hard": Level(PlannerBot, "Searches each placement wider than medium and races for the bonus cards"),
    },
)

# where its companions live, for the registry (parlour.games) and its readers
ENTRY = GameEntry(
    GAME,
    assets=Path(__file__).parent,
    terminal=f"{__name__}.terminal",
    encoding="parlour.rl.encodings.prestige_cities",
)
