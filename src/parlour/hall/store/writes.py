"""One write of a transaction, as the store's SQL modules hand them to the writer (:mod:`.sql`):
a statement with its parameters (runs of the same statement go as one executemany), a function
that reads and writes on the transaction's connection (what must see the rows as they are, such
as a rating update), or a :class:`Precondition` (a lease's fencing check), which the writer checks
for every write of the transaction together, in one statement before the others: a group commit
of many rooms' moves is then one fencing statement and one executemany, not two statements a move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Union

import sqlalchemy as sa


class Precondition:
    """What a transaction's writes need to hold when they commit, checked for all the writes of a
    transaction at once by the subclass's :meth:`check_all` (which raises if one does not hold)."""

    @classmethod
    def check_all(cls, conn: sa.Connection, items: list[Any]) -> None:
        raise NotImplementedError


Write = Union[tuple[sa.Executable, dict[str, Any]], Callable[[sa.Connection], None], Precondition]  # noqa: UP007 - a runtime alias


def execute(conn: sa.Connection, writes: list[Write]) -> None:
    """``writes`` on ``conn``: first every :class:`Precondition`, each kind together, then the
    others in order, each run of one statement as one executemany."""
    preconditions: dict[type[Precondition], list[Precondition]] = {}
    for write in writes:
        if isinstance(write, Precondition):
            preconditions.setdefault(type(write), []).append(write)
    for kind, items in preconditions.items():
        kind.check_all(conn, items)
    run: list[dict[str, Any]] = []
    statement: sa.Executable | None = None
    for write in writes:
        if isinstance(write, Precondition):
            continue
        if callable(write):
            if run and statement is not None:
                conn.execute(statement, run)
                run, statement = [], None
            write(conn)
            continue
        next_statement, params = write
        if next_statement is not statement and run and statement is not None:
            conn.execute(statement, run)
            run = []
        statement = next_statement
        run.append(params)
    if run and statement is not None:
        conn.execute(statement, run)
