"""A signed-in player's games in progress: those where it is their turn first (the soonest
deadline first), then those waiting for others; and the cap on how many one player may be in at
once (as Board Game Arena has: ``--limit games_per_player=N``).

    playing = your_turn_first(entries)
    await check_cap(hall, account, cap=50)    # HallError before a seat is taken past the cap
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .accounts import Account
from .errors import HallError
from .hall import Hall

NEVER = float("inf")


def your_turn_first(entries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``entries`` (as ``GET /api/me/games`` lists them, newest first) with those where it is the
    player's turn first, soonest deadline first (no deadline last among them); the rest keep their order."""
    mine = [e for e in entries if e.get("your_turn")]
    others = [e for e in entries if not e.get("your_turn")]
    return sorted(mine, key=lambda e: e.get("deadline") or NEVER) + others


async def check_cap(hall: Hall, account: Account | None, cap: int) -> None:
    """Refuses in words a signed-in player's new seat when they already play ``cap`` unfinished
    games (guests are not counted: their seat token is their only way back)."""
    if account is None:
        return
    playing = await hall.store.games_of(account.id, finished=False, limit=cap)
    if len(playing) >= cap:
        raise HallError("conflict", f"you are in {cap} unfinished games already, this hall's most per player:"
                        " finish or leave one first")
