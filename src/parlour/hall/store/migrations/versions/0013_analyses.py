"""analyses: a finished game's moves judged by the search, stored once made

Revision ID: 0013
Revises: 0005
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("made", sa.Float, nullable=False),
        sa.Column("budget", sa.Text, nullable=False),
        sa.Column("moves", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
