"""``parlour admin``: the hall's roles. ``parlour admin grant NAME moderator --db URL`` makes a
player a moderator (``/moderation``); ``revoke`` takes it back."""

from __future__ import annotations

import argparse

from .serve import DEFAULT_DB


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("admin", help="the hall's roles: grant or revoke a player's role (moderator)",
                            description="Grant a player a role of the hall, or revoke it. The roles: moderator"
                                        " (reads the reports and acts on them at /moderation).")
    parser.add_argument("what", choices=("grant", "revoke"), help="grant the role, or revoke it")
    parser.add_argument("name", help="the player's account name (any case)")
    parser.add_argument("role", help="the role: moderator")
    parser.add_argument("--db", default=DEFAULT_DB, help=f"the store's SQLAlchemy URL (default {DEFAULT_DB})")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from ..hall.errors import HallError
    from ..hall.moderation import grant
    from ..hall.store import SqlStore

    store = SqlStore(args.db)
    try:
        print(asyncio.run(grant(store, args.name, args.role, give=args.what == "grant")))
    except HallError as refused:
        print(f"parlour admin: {refused}")
        return 1
    finally:
        store.close()
    return 0
