"""Empire: the two-player game of hidden roles, bluffs and deduction."""

from pathlib import Path

from ...core import GameEntry, Level
from .bots import DetectiveBot, RookieBot, SleuthBot
from .engine import Empire
from .search import EmpireSearch

GAME = Empire(
    bots={"detective": DetectiveBot},
    search=EmpireSearch(),  # hooks for the generic search bot, parlour.bots.mcts
    levels={  # for the lobby and the arena (builtin:easy|medium|hard); docs/bots.md
        "easy": Level(RookieBot, "Claims big only with a strong role, never bluffs, buys only Discover"),
        "medium": Level("detective", "Weighs claims, challenges and guesses by expected coins; bluffs, buys clues,"
                                     " accuses when sure"),
        "hard": Level(SleuthBot, "Deduces the culprit exactly, watches how close the opponent is, and never hands it"
                                 " the first chance to accuse"),
    },
)

# where its companions live, for the registry (parlour.games) and its readers
ENTRY = GameEntry(
    GAME,
    assets=Path(__file__).parent,
    terminal=f"{__name__}.terminal",
    encoding="parlour.rl.encodings.empire",
)
