"""Empire: the two-player game of hidden roles, bluffs and deduction."""

from .engine import Empire

GAME = Empire()
