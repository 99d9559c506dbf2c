"""the cluster: each room's rematch kept in the store (a replica in another process shows it), and
the settings the hall processes share (the secret they forward each other's requests with)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as rooms:
        rooms.add_column(sa.Column("rematch", sa.String(16), nullable=True))
    op.create_table(
        "cluster_settings",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("cluster_settings")
    with op.batch_alter_table("rooms") as rooms:
        rooms.drop_column("rematch")
