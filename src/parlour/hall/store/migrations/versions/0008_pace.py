"""turn-based rooms and notifications: each room's pace and turn deadline (indexed, for the one
sweeper that looks for passed ones), players' e-mail settings, push subscriptions, the outbox of
mail and push, and the "your turn" alerts sent

Revision ID: 0008
Revises: 0005
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as rooms:
        rooms.add_column(sa.Column("pace", sa.String(16), nullable=True))
        rooms.add_column(sa.Column("deadline", sa.Float, nullable=True))
        rooms.add_column(sa.Column("overdue", sa.Boolean, nullable=True))
        rooms.create_index("rooms_by_deadline", ["deadline"])
    op.create_table(
        "notify_settings",
        sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("confirmed", sa.Boolean, nullable=False),
        sa.Column("confirm_token", sa.String(64), nullable=True),
        sa.Column("confirm_expires", sa.Float, nullable=True),
        sa.Column("turns", sa.Boolean, nullable=False),
        sa.Column("daily", sa.Boolean, nullable=False),
        sa.Column("last_daily", sa.Float, nullable=True),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
        sa.Column("endpoint", sa.String(2048), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account", sa.Integer, nullable=True, index=True),
        sa.Column("channel", sa.String(8), nullable=False),
        sa.Column("recipient", sa.String(2048), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("link", sa.String(512), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("due", sa.Float, nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("sent", sa.Float, nullable=True),
        sa.Column("error", sa.String(300), nullable=True),
        sa.Index("outbox_by_due", "due"),
        sa.Index("outbox_by_recipient", "recipient", "created"),
    )
    op.create_table(
        "turn_alerts",
        sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("turn_alerts")
    op.drop_table("outbox")
    op.drop_table("push_subscriptions")
    op.drop_table("notify_settings")
    with op.batch_alter_table("rooms") as rooms:
        rooms.drop_index("rooms_by_deadline")
        rooms.drop_column("overdue")
        rooms.drop_column("deadline")
        rooms.drop_column("pace")
