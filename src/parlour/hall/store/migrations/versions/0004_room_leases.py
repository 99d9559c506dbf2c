"""room leases: which hall process applies a room, with its fencing token (hall/cluster/leases.py)

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "room_leases",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("room_leases")
