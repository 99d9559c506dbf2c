"""Patchwork: the CodinGame arena's two-player quilt game."""

from pathlib import Path

from ...core import GameEntry, Level
from .bots import BeginnerBot, GreedyBot
from .engine import Patchwork
from .search import PatchworkSearch

GAME = Patchwork(
    bots={"greedy": GreedyBot},
    search=PatchworkSearch(),  # hooks for the generic search bot, parlour.bots.mcts
    levels={  # for the lobby and the arena (builtin:easy|medium|hard); docs/bots.md
        "easy": Level(BeginnerBot, "Buys any patch it can afford and lays it in the first place it fits"),
        "medium": Level("greedy", "Weighs each purchase now (squares, income, price, time, how snugly it packs); no"
                                  " look-ahead"),
        "hard": Level("mcts", "Searches a few moves ahead among the best placements, judging each quilt's projected"
                              " score, and plays the last turns exactly"),
    },
)

# where its companions live, for the registry (parlour.games) and its readers
ENTRY = GameEntry(
    GAME,
    assets=Path(__file__).parent,
    terminal=f"{__name__}.terminal",
    protocol=f"{__name__}.protocol",
    encoding="parlour.rl.encodings.patchwork",
)
