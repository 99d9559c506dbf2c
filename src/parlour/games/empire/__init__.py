"""Empire: the two-player game of hidden roles, bluffs and deduction."""

from .bots import DetectiveBot, RookieBot
from .engine import Empire
from .search import EmpireSearch

GAME = Empire()
GAME.bots = {"detective": DetectiveBot}
GAME.levels = {  # for the lobby and the arena (builtin:easy|medium|hard); docs/bots.md
    "easy": (RookieBot, "Claims big only with a strong role, never bluffs, buys only Discover"),
    "medium": ("detective", "Weighs claims, challenges and guesses by expected coins; bluffs, buys clues, accuses when sure"),
    "hard": ("mcts", "Searches the turns ahead over guesses at the hidden cards, weighing what the opponent's moves reveal"),
}
GAME.search = EmpireSearch()  # hooks for the generic search bot, parlour.bots.mcts
