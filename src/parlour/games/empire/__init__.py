"""Empire: the two-player game of hidden roles, bluffs and deduction."""

from .bots import DetectiveBot
from .engine import Empire

GAME = Empire()
GAME.bots = {"detective": DetectiveBot}
