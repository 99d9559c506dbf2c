"""The cluster's settings: what every hall process on one database shares (the forwarding secret)."""

from __future__ import annotations

import secrets

import sqlalchemy as sa

from .schema import cluster_settings_table

SECRET_NAME = "forward_secret"


def shared_secret(engine: sa.Engine) -> str:
    """The secret every hall process on this database forwards with: made by the first one."""
    table = cluster_settings_table
    try:
        with engine.begin() as connection:
            connection.execute(table.insert().values(name=SECRET_NAME, value=secrets.token_urlsafe(32)))
    except sa.exc.IntegrityError:
        pass  # another process made it first
    with engine.connect() as connection:
        return str(connection.execute(sa.select(table.c.value).where(table.c.name == SECRET_NAME)).scalar_one())
