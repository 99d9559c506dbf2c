"""Palace, by the Judd School rules: the shedding card game better known as Shithead."""

from .engine import Palace

GAME = Palace()
