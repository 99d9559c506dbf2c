"""Palace, by the Judd School rules: the shedding card game better known as Shithead."""

from pathlib import Path

from ...core import GameEntry, Level
from .bots import NoviceBot, SharkBot
from .engine import Palace
from .search import PalaceSearch

GAME = Palace(
    bots={"shark": SharkBot},
    search=PalaceSearch(),  # hooks for the generic search bot, parlour.bots.mcts
    levels={  # for the lobby and the arena (builtin:easy|medium|hard); docs/bots.md
        "easy": Level(NoviceBot, "Plays the lowest card that goes, one at a time, and never swaps hands"),
        "medium": Level("shark", "Sheds low cards in sets, keeps 2s, 3s, 7s, 10s and jokers for trouble, burns big"
                                 " piles"),
        "hard": Level("mcts", "Plays the hands out ahead over guesses at the unseen cards before each move"),
    },
)

# where its companions live, for the registry (parlour.games) and its readers
ENTRY = GameEntry(
    GAME,
    assets=Path(__file__).parent,
    terminal=f"{__name__}.terminal",
    encoding="parlour.rl.encodings.palace",
)
