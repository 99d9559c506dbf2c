"""What the store's collaborators for one concern have in common (:mod:`.bots`, :mod:`.social`,
:mod:`.moderation`): they read on the store's reader threads and write through its one writer, both
given by :class:`~.sql.SqlStore`, which makes one of each.

    class BotRows(Rows): ...
    store.bots = BotRows(store._read, store.write)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import sqlalchemy as sa

from .writes import Write

T = TypeVar("T")
Reader = Callable[[Callable[[sa.Connection], T]], Awaitable[T]]  # runs a query on a reader thread
Writer = Callable[[list[Write]], Awaitable[None]]  # commits writes in one transaction, in order


class Rows:
    """The rows of one concern, read through ``read`` and written through ``write``."""

    def __init__(self, read: Reader[Any], write: Writer) -> None:
        self._read = read
        self._write = write
