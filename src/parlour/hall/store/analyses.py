"""Analyses of finished games (the SQL behind ``/api/rooms/{code}/analysis``): made once, then read."""

from __future__ import annotations

import json

import sqlalchemy as sa

from .records import AnalysisRecord
from .schema import analyses_table
from .writes import Write


def saving(analysis: AnalysisRecord) -> Write:
    """Keep ``analysis`` (a second one of the same game, made meanwhile by another hall, is dropped:
    a finished game's analysis at the same budget is the same)."""
    def write(conn: sa.Connection) -> None:
        if conn.execute(sa.select(analyses_table.c.code).where(analyses_table.c.code == analysis.code)).first():
            return
        conn.execute(analyses_table.insert().values(code=analysis.code, made=analysis.made,
                                                    budget=json.dumps(analysis.budget),
                                                    moves=json.dumps(analysis.moves, separators=(",", ":"))))
    return write


def load(conn: sa.Connection, code: str) -> AnalysisRecord | None:
    row = conn.execute(sa.select(analyses_table).where(analyses_table.c.code == code)).first()
    if row is None:
        return None
    return AnalysisRecord(row.code, row.made, json.loads(row.budget), json.loads(row.moves))
