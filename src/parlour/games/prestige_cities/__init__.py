"""Prestige Cities: simultaneous city building from era cards and dice, with its three expansions."""

from .bots import GreedyBot, PlannerlessBot
from .engine import PrestigeCities
from .search import PlannerBot

GAME = PrestigeCities()
GAME.bots = {"greedy": GreedyBot}
GAME.levels = {  # for the lobby and the arena (builtin:easy|medium|hard); docs/bots.md
    "easy": (PlannerlessBot, "Takes any die, lays each block where it scores most right now, with no plan for the group"),
    "medium": ("greedy", "Plans each group block by block from its most promising first squares to raise its overall score"),
    "hard": (PlannerBot, "Searches each placement wider than medium and races for the bonus cards"),
}
