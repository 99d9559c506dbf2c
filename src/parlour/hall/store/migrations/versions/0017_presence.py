"""presence: the players' vote under way is kept with its room (hall/room/votes.py), so that a
restart of the process applying the room, or another process taking it over, carries it on

Revision ID: presence
Revises: 0016
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "presence"
down_revision: str | Sequence[str] | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as rooms:
        rooms.add_column(sa.Column("vote", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as rooms:
        rooms.drop_column("vote")
