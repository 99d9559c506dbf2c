"""Ratings: OpenSkill (Plackett-Luce) per game, the rules alone; the store applies them in the
transaction of a game's last action (:mod:`parlour.hall.store.ratings`).

Who is rated: every seat held by a signed-in player and every seat a built-in bot held from the
start, as the account ``bot:<bot name>`` (made on its first rated game). A game is rated when
every seat is one of those: one seat of a guest, or of a bot that stood in for a guest, and
nobody's rating moves (the signed-in players still get the game and its place in their
history). A player whose seat went to a bot mid-game forfeits: ranked below everyone else; when
the seat was taken from them while they were away, or they abandoned the game (``left``:
``away``, ``abandoned``, hall/room/leaving.py), only such forfeits' ratings move, so that taking
an absent player's seat never pays (:func:`unrewarded`). An
account at two seats (two ``random`` bots) rates the others but is not itself changed. What is
shown and ranked is the ordinal ``mu - 3 sigma`` (0 for a new player).

Two signed-in players are rated together at most ``PAIR_GAMES`` games of one game in
``PAIR_PERIOD`` seconds (a day): their later games together that day are played and placed, not
rated, and the pair is flagged for the moderators (``store.flagged_pairs``). Two accounts of one
person throwing games to each other move a rating three games a day at most, and show up.

    settle = settlement(room_code, "patchwork", seat_records, result.ranks, clock.now())
    await store.append_action(code, record, status="over", settle=settle)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from .store import Settlement, Skill

BOT_PREFIX = "bot:"
PAIR_GAMES = 3  # rated games of one game two signed-in players may have together...
PAIR_PERIOD = 24 * 3600.0  # ...in this many seconds


@lru_cache(maxsize=1)
def model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def bot_account_name(bot: str) -> str:
    return f"{BOT_PREFIX}{bot}"


def final_ranks(ranks: Sequence[int], forfeits: set[int]) -> list[int]:
    """The game's ranks with every forfeiting seat placed after all the others (tied among them).

    >>> final_ranks([1, 2, 3], {0})
    [3, 1, 2]
    """
    kept = sorted({r for i, r in enumerate(ranks) if i not in forfeits})
    dense = {r: k + 1 for k, r in enumerate(kept)}
    return [len(kept) + 1 if i in forfeits else dense[r] for i, r in enumerate(ranks)]


class OpenSkill:
    """The rating rules the store runs while it settles a game (:class:`~parlour.hall.store.Rater`)."""

    pair_games = PAIR_GAMES
    pair_period = PAIR_PERIOD

    def places(self, ranks: Sequence[int], forfeits: set[int]) -> list[int]:
        return final_ranks(ranks, forfeits)

    def skill(self, mu: float | None = None, sigma: float | None = None) -> Skill:
        rating = model().rating() if mu is None or sigma is None else model().rating(mu=mu, sigma=sigma)
        return Skill(rating.mu, rating.sigma, rating.ordinal())

    def rate(self, before: list[Skill], places: list[int]) -> list[Skill]:
        teams = [[model().rating(mu=skill.mu, sigma=skill.sigma)] for skill in before]
        return [Skill(rating.mu, rating.sigma, rating.ordinal())
                for (rating,) in model().rate(teams, ranks=places)]


OPENSKILL = OpenSkill()


def settlement(code: str, game: str, seats: Sequence[Mapping[str, Any]], ranks: Sequence[int],
               now: float) -> Settlement:
    """What the store writes with a finished game's last action: its places and ratings (see the
    module's doc); ``seats``: the room's seat records."""
    bots = {seat: bot_account_name(record["bot"]) for seat, record in enumerate(seats)
            if record.get("kind") == "bot" and not record.get("replaced") and record.get("bot")}
    return Settlement(code, game, len(seats), tuple(ranks), bots, now, OPENSKILL, only=unrewarded(seats))


UNREWARDED = frozenset({"away", "abandoned"})  # departures nobody else gains from


def unrewarded(seats: Sequence[Mapping[str, Any]]) -> frozenset[int] | None:
    """Whose rating may move: None for everyone's; when a seat was taken from a player who was
    away, or abandoned, only such forfeits' (nobody's when every person walked away).

    >>> unrewarded([{"kind": "human"}, {"kind": "bot", "replaced": True, "left": "away"}])
    frozenset({1})
    """
    taken = frozenset(i for i, record in enumerate(seats) if record.get("left") in UNREWARDED)
    if not taken:
        return None
    stayed = [i for i, record in enumerate(seats) if record.get("kind") == "human" and not record.get("left")]
    return taken if stayed or len(taken) == 1 else frozenset()
