"""The errors every layer of Parlour understands."""


class ParlourError(Exception):
    """Base of Parlour's own errors; the message is meant for a person."""


class IllegalAction(ParlourError):
    """An action that the rules do not allow now; the message says why.

    >>> raise IllegalAction("patch 12 is not on offer (the offer is 3, 17, 25)")
    Traceback (most recent call last):
    parlour.core.errors.IllegalAction: patch 12 is not on offer (the offer is 3, 17, 25)
    """


class BadOptions(ParlourError):
    """Game options that cannot start a game (unknown name, wrong type, out of range)."""


class UnknownGame(ParlourError):
    """A game id that the registry does not hold."""


class TooLong(IllegalAction):
    """An action past a game's cap on actions (:attr:`parlour.core.Game.max_actions`)."""
