"""A room of the hall: a coordinator (:class:`Room`) and its collaborators, one job each."""

from .context import RoomContext
from .room import Room

__all__ = ["Room", "RoomContext"]
