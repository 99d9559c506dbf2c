"""coach: whether a room has the coach at the table (docs/analysis.md): hints and take-backs, in an
unrated game against bots

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | Sequence[str] | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as rooms:
        rooms.add_column(sa.Column("coach", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as rooms:
        rooms.drop_column("coach")
