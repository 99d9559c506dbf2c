"""Palace, by the Judd School rules: the shedding card game better known as Shithead."""

from .bots import SharkBot
from .engine import Palace

GAME = Palace()
GAME.bots = {"shark": SharkBot}
