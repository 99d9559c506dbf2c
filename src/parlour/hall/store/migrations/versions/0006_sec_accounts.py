"""accounts and ratings hardened: names keyed by their confusable skeleton (hall/text.py's
name_key), the rated games between the same two players and the pairs flagged for moderators, and
the cluster's forwarding secret no longer kept in the store (it comes from the halls' environment)

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACCOUNTS = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String),
                    sa.column("name_key", sa.String))
SETTINGS = sa.table("cluster_settings", sa.column("name", sa.String), sa.column("value", sa.String))


def upgrade() -> None:
    from parlour.hall.text import name_key

    connection = op.get_bind()
    taken: set[str] = set()
    # Two accounts whose names now look alike: the older keeps the name; the newer one's key gets
    # its id (its name can no longer be typed to reach it: a moderator renames it)
    for row in connection.execute(sa.select(ACCOUNTS.c.id, ACCOUNTS.c.name).order_by(ACCOUNTS.c.id)).all():
        key = name_key(row.name)[:112]
        if key in taken:
            key = f"{key}#{row.id}"
        taken.add(key)
        connection.execute(ACCOUNTS.update().where(ACCOUNTS.c.id == row.id).values(name_key=key))
    connection.execute(SETTINGS.delete().where(SETTINGS.c.name == "forward_secret"))
    op.create_table(
        "rated_pairs",
        sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("first", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("second", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("rated_pairs_by_pair", "rated_pairs", ["first", "second", "game", "at"])
    op.create_table(
        "flagged_pairs",
        sa.Column("first", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("second", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("last", sa.Float, nullable=False),
        sa.Column("unrated", sa.Integer, nullable=False),
        sa.Column("last_code", sa.String(16), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("flagged_pairs")
    op.drop_index("rated_pairs_by_pair", "rated_pairs")
    op.drop_table("rated_pairs")
    connection = op.get_bind()
    for row in connection.execute(sa.select(ACCOUNTS.c.id, ACCOUNTS.c.name)).all():
        connection.execute(ACCOUNTS.update().where(ACCOUNTS.c.id == row.id).values(name_key=row.name.casefold()))
