"""Prestige Cities: simultaneous city building from era cards and dice, with its three expansions."""

from .bots import GreedyBot
from .engine import PrestigeCities

GAME = PrestigeCities()
GAME.bots = {"greedy": GreedyBot}
