"""Parlour: a game hall for small-press board and card games, for people and bots."""

__version__ = "0.1.0"
