"""One write of a transaction, as the store's SQL modules hand them to the writer (:mod:`.sql`):
a statement with its parameters (runs of the same statement go as one executemany), or a function
that reads and writes on the transaction's connection (what must see the rows as they are, such
as a rating update or a lease's fencing check)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Union

import sqlalchemy as sa

Write = Union[tuple[sa.Executable, dict[str, Any]], Callable[[sa.Connection], None]]  # noqa: UP007 - a runtime alias


def execute(conn: sa.Connection, writes: list[Write]) -> None:
    """``writes`` in order on ``conn``, each run of one statement as one executemany."""
    run: list[dict[str, Any]] = []
    statement: sa.Executable | None = None
    for write in writes:
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
