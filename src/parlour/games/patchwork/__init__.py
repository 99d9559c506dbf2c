"""Patchwork: the CodinGame arena's two-player quilt game."""

from .bots import BeginnerBot, GreedyBot
from .engine import Patchwork
from .search import PatchworkSearch

GAME = Patchwork()
GAME.bots = {"greedy": GreedyBot}
GAME.search = PatchworkSearch()  # hooks for the generic search bot, parlour.bots.mcts
GAME.levels = {  # for the lobby and the arena (builtin:easy|medium|hard); docs/bots.md
    "easy": (BeginnerBot, "Buys any patch it can afford and lays it in the first place it fits"),
    "medium": ("greedy", "Weighs each purchase now (squares, income, price, time, how snugly it packs); no look-ahead"),
    "hard": ("mcts", "Searches a few moves ahead among the best placements, judging each quilt's projected score"),
}
