"""players: accounts, their sessions, ratings per game, and who played in which room

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=False, unique=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("password", sa.String(255), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ratings_by_game", "ratings", ["game", "rating"])
    op.create_table(
        "room_players",
        sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
        sa.Column("forfeit", sa.Boolean, nullable=False),
        sa.Column("rank", sa.Integer, nullable=True),
        sa.Column("change", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("room_players")
    op.drop_index("ratings_by_game", "ratings")
    op.drop_table("ratings")
    op.drop_table("sessions")
    op.drop_table("accounts")
