"""chat: each room's chat lines, the hall's system lines among them (hall/table.py)

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_lines")
