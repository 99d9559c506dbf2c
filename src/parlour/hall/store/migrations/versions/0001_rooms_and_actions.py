"""rooms and actions: the store as it was before it had migrations (main at 655da15)

Revision ID: 0001
Revises:
Create Date: 2026-11-25

A database made before migrations holds exactly these tables; it is stamped at this revision
(see ``parlour.hall.store.migrations.prepare``) and upgraded from here.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("turn_timer", sa.Float, nullable=True),
        sa.Column("host_token", sa.String(64), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "actions",
        sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("turn", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("by", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("rooms")
