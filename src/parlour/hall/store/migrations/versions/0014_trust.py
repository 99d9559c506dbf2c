"""trust: the author's account on each chat line and lines a moderator hid; friends (follows),
blocks, invitations (and whether a player wants them by mail and push), reports, moderators'
roles, sanctions and the moderation log (issue 30)

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("follows", "blocks", "invitations", "roles", "reports", "sanctions", "moderation_log")


def upgrade() -> None:
    with op.batch_alter_table("chat_lines") as chat:
        chat.add_column(sa.Column("account", sa.Integer, nullable=True))
        chat.add_column(sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("notify_settings") as settings:  # a friend's invitations by mail and push
        settings.add_column(sa.Column("invites", sa.Boolean, nullable=False, server_default=sa.true()))
    accounts = "accounts.id"
    op.create_table("follows",
                    sa.Column("account", sa.Integer, sa.ForeignKey(accounts), primary_key=True),
                    sa.Column("friend", sa.Integer, sa.ForeignKey(accounts), primary_key=True, index=True),
                    sa.Column("created", sa.Float, nullable=False))
    op.create_table("blocks",
                    sa.Column("account", sa.Integer, sa.ForeignKey(accounts), primary_key=True),
                    sa.Column("blocked", sa.Integer, sa.ForeignKey(accounts), primary_key=True, index=True),
                    sa.Column("created", sa.Float, nullable=False))
    op.create_table("invitations",
                    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                    sa.Column("sender", sa.Integer, sa.ForeignKey(accounts), nullable=False),
                    sa.Column("recipient", sa.Integer, sa.ForeignKey(accounts), nullable=False, index=True),
                    sa.Column("room", sa.String(16), nullable=False),
                    sa.Column("created", sa.Float, nullable=False),
                    sa.Column("seen", sa.Boolean, nullable=False))
    op.create_table("roles",
                    sa.Column("account", sa.Integer, sa.ForeignKey(accounts), primary_key=True),
                    sa.Column("role", sa.String(16), primary_key=True))
    op.create_table("reports",
                    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                    sa.Column("reporter", sa.Integer, sa.ForeignKey(accounts), nullable=False, index=True),
                    sa.Column("account", sa.Integer, nullable=True, index=True),
                    sa.Column("name", sa.String(64), nullable=False),
                    sa.Column("room", sa.String(16), nullable=True),
                    sa.Column("line", sa.Integer, nullable=True),
                    sa.Column("reason", sa.Text, nullable=False),
                    sa.Column("evidence", sa.Text, nullable=False),
                    sa.Column("created", sa.Float, nullable=False),
                    sa.Column("status", sa.String(8), nullable=False))
    op.create_table("sanctions",
                    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                    sa.Column("kind", sa.String(8), nullable=False),
                    sa.Column("account", sa.Integer, nullable=True, index=True),
                    sa.Column("address", sa.String(64), nullable=True, index=True),
                    sa.Column("room", sa.String(16), nullable=True),
                    sa.Column("reason", sa.Text, nullable=False),
                    sa.Column("starts", sa.Float, nullable=False),
                    sa.Column("ends", sa.Float, nullable=True),
                    sa.Column("lifted", sa.Boolean, nullable=False))
    op.create_table("moderation_log",
                    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                    sa.Column("moderator", sa.Integer, sa.ForeignKey(accounts), nullable=False),
                    sa.Column("action", sa.String(16), nullable=False),
                    sa.Column("account", sa.Integer, nullable=True),
                    sa.Column("target", sa.String(64), nullable=True),
                    sa.Column("room", sa.String(16), nullable=True),
                    sa.Column("line", sa.Integer, nullable=True),
                    sa.Column("days", sa.Float, nullable=True),
                    sa.Column("reason", sa.Text, nullable=False),
                    sa.Column("report", sa.Integer, nullable=True),
                    sa.Column("at", sa.Float, nullable=False),
                    sa.Column("seen", sa.Boolean, nullable=False))


def downgrade() -> None:
    for name in reversed(TABLES):
        op.drop_table(name)
    with op.batch_alter_table("chat_lines") as chat:
        chat.drop_column("hidden")
        chat.drop_column("account")
    with op.batch_alter_table("notify_settings") as settings:
        settings.drop_column("invites")
