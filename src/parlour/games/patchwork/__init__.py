"""Patchwork: the CodinGame arena's two-player quilt game."""

from .bots import GreedyBot
from .engine import Patchwork

GAME = Patchwork()
GAME.bots = {"greedy": GreedyBot}
