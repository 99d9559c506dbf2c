"""Prestige Cities: simultaneous city building from era cards and dice, with its three expansions."""

from .engine import PrestigeCities

GAME = PrestigeCities()
