"""Patchwork: the CodinGame arena's two-player quilt game."""

from .bots import GreedyBot
from .engine import Patchwork
from .search import PatchworkSearch

GAME = Patchwork()
GAME.bots = {"greedy": GreedyBot}
GAME.search = PatchworkSearch()  # hooks for the generic search bot, parlour.bots.mcts
