"""Palace, by the Judd School rules: the shedding card game better known as Shithead."""

from .bots import NoviceBot, SharkBot
from .engine import Palace
from .search import PalaceSearch

GAME = Palace()
GAME.bots = {"shark": SharkBot}
GAME.levels = {  # for the lobby and the arena (builtin:easy|medium|hard); docs/bots.md
    "easy": (NoviceBot, "Plays the lowest card that goes, one at a time, and never swaps hands"),
    "medium": ("shark", "Sheds low cards in sets, keeps 2s, 3s, 7s, 10s and jokers for trouble, burns big piles"),
    "hard": ("mcts", "Plays the hands out ahead over guesses at the unseen cards before each move"),
}
GAME.search = PalaceSearch()  # hooks for the generic search bot, parlour.bots.mcts
