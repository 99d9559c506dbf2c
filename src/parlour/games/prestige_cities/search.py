"""Prestige Cities' search bot: the greedy planner's search over each placement, wider, judging a
city by what it is heading for at the end, bonus cards included.

Every city gets the same era card and dice, so two players who judge a city alike build alike and
tie; what tells them apart is the judgement. The greedy bot weighs only its own overall score; this
bot also weighs the four bonus cards of the game (each 5 points to one winner, 2 each if shared),
as the chance of winning each race given where every city stands now (a logistic in the lead, in
blocks), and tries more first squares per die.
"""

from __future__ import annotations

import math
import time
from typing import Any

from ...core import Action, View
from .bots import GreedyBot, _value
from .engine import (
    BLOCK_INDEX,
    CARDS,
    FULL_REWARD,
    GOAL,
    City,
    city_from_rows,
    deck2_measure,
    deck4_measure,
    empty_squares,
)


def _chance(lead: float, spread: float) -> float:
    return 1.0 / (1.0 + math.exp(-lead / spread))

class PlannerBot(GreedyBot):
    """Searches each placement wider than the greedy bot and judges a city by its score plus what
    it may win of the bonus cards still open."""

    name = "planner"
    starts = 10  # first squares tried to the end for each die
    spread = 1.0  # blocks of lead that make a 73% favourite in a bonus card's race
    convert_worth = 2.0  # what a Deck 3 card's conversion is worth, in points
    time_share = 0.4  # of its time limit, past which it tries no further first squares

    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        self._deadline = (None if self.time_limit is None
                          else time.perf_counter() + self.time_share * self.time_limit)
        cards = {c["deck"]: c for c in view["bonus_cards"]}
        self._open = {deck: c["id"] for deck, c in cards.items() if c["winners"] is None}
        if view["round"] > 12 or view["deck"]["decks"] > 1:
            self._open.pop(2, None)  # Deck 2 is judged after round 12
        self._blight = view["options"]["blight"]
        self._others = [city_from_rows(c["rows"]) for s, c in enumerate(view["cities"]) if s != seat]
        self._rivals = {deck: self._rival_measure(deck, card) for deck, card in self._open.items()}
        return super().choose(view, seat, legal)

    def _measure(self, deck: int, card: str, city: City) -> float:
        if deck == 1:
            return min(city[BLOCK_INDEX[CARDS[1][card]["goal"]]].bit_count(), GOAL)
        if deck == 2:
            m = deck2_measure(card, city)
            return -m if card == "measured_growth" else m
        if deck == 3:
            return -empty_squares(city, self._terrain).bit_count()
        return deck4_measure(card, city, self._blight)

    def _hurry(self) -> bool:
        return self._deadline is not None and time.perf_counter() > self._deadline

    def _rival_measure(self, deck: int, card: str) -> float | None:
        values = [self._measure(deck, card, city) for city in self._others]
        return max(values) if values else None

    def _worth(self, city: City, ocean: bool) -> float:
        value = _value(city, ocean)
        for deck, card in self._open.items():
            mine = self._measure(deck, card, city)
            rival = self._rivals[deck]
            prize: float = FULL_REWARD
            if deck == 3 and not CARDS[3][card].get("points"):
                prize = self.convert_worth
            if rival is None:  # playing alone: only the goal itself counts
                value += prize * _chance(mine - (GOAL - 1 if deck == 1 else 0), self.spread)
            else:
                value += prize * _chance(mine - rival, self.spread)
        return value

    _open: dict[int, str] = {}
    _rivals: dict[int, Any] = {}
    _others: list[City] = []
    _blight = False
    _deadline: float | None = None

