"""Empire: the two-player game of hidden roles, bluffs and deduction."""

from .bots import DetectiveBot, RookieBot, SleuthBot
from .engine import Empire
from .search import EmpireSearch

GAME = Empire()
GAME.bots = {"detective": DetectiveBot}
GAME.levels = {  # for the lobby and the arena (builtin:easy|medium|hard); docs/bots.md
    "easy": (RookieBot, "Claims big only with a strong role, never bluffs, buys only Discover"),
    "medium": ("detective", "Weighs claims, challenges and guesses by expected coins; bluffs, buys clues, accuses when sure"),
    "hard": (SleuthBot, "Deduces the culprit exactly, watches how close the opponent is, and never hands it the first chance to accuse"),
}
GAME.search = EmpireSearch()  # hooks for the generic search bot, parlour.bots.mcts
