"""Palace's heuristic player, from its seat's view alone."""

from __future__ import annotations

from typing import Any

from ...core import Action, Bot, View
from .cards import ACE, CARDINAL, FACE_BY_CODE, INVISIBLE, RULES, SOCIAL, VALUE, VALUE_BY_NAME
from .engine import BURNS_AS_WRITTEN

# What spending a card costs: low plain cards are a burden to shed early, high ones beat piles,
# and the special cards (2, 3, 7, 10, Rules, Cardinal, jokers) get a player out of trouble later.
KEEP = {4: 0.0, 5: 0.4, 6: 0.8, 8: 1.8, 9: 2.0, 11: 2.4, 12: 2.8, 13: 3.2, ACE: 3.8,
        2: 6.0, 3: 6.5, 7: 6.0, 10: 6.5, RULES: 5.0, SOCIAL: 4.0, CARDINAL: 6.0}
JOKER_KEEP = 8.0
SHED = 3.0  # the worth of one card fewer in hand
WANDER = 0.03  # how often it plays a random legal action: two sharks can never circle forever


def card_value(card: str) -> int:
    return VALUE[FACE_BY_CODE[card]]


def play_value(action: Action) -> int:
    if "as" in action:
        return VALUE_BY_NAME[action["as"]]
    return card_value(action["cards"][0])


class SharkBot(Bot):
    """Sheds its low cards first and several at a time, keeps 2s, 3s, 7s, 10s, jokers and school
    cards for when nothing else goes, burns big piles, skips or blocks a player about to go out, and
    uses Cardinals to trade a fat hand for a thin one."""

    name = "shark"

    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if self.rng.random() < WANDER:
            return self.rng.choice(legal)
        kind = legal[0]["type"]
        if kind in ("swap", "no_swap"):
            return self._swap(view, seat, legal)
        if kind == "flip":
            return legal[0]  # face-downs are all alike to their owner
        threat = self._threat(view, seat)
        return max((a for a in legal if a["type"] == "play"), key=lambda a: self._worth(view, seat, a, threat))

    # -- plays ---------------------------------------------------------------------------------------
    def _worth(self, view: View, seat: int, action: Action, threat: dict[int, float] | None = None) -> float:
        """What a play is worth; ``threat`` is ``_threat(view, seat)``, worked out once per choice."""
        players = view["players"]
        me = players[seat]
        value = play_value(action)
        cards = action["cards"]
        pile = view["play_pile"]
        worth = 0.0
        # once the pick-up pile is gone, the fewer cards are left the less keeping any of them matters
        scale = min(1.0, me["cards_left"] / 8) if view["pick_up_pile"] == 0 else 1.0
        for card in cards:
            keep = JOKER_KEEP if card == "joker" else KEEP[card_value(card)]
            worth += SHED - keep * scale
        # burning: a big pile nobody must pick up, and with a 10 (or before rules edition 3 any burn)
        # another turn: one more card shed
        top = [VALUE_BY_NAME[p["as"]] for p in pile[-3:]]
        burns = value == 10 or (value not in (RULES, SOCIAL, CARDINAL)
                                and len(cards) + sum(1 for _ in _run(top, value)) >= 4)
        again = burns and (value == 10 or view.get("edition", 1) < BURNS_AS_WRITTEN)
        if burns:
            worth += 1.0 + 0.4 * len(pile) + (SHED if again else 0.0)
        if threat is None:
            threat = self._threat(view, seat)
        nxt = self._next(view, seat, 1)
        if not again:
            counting = None if burns else value if value not in INVISIBLE else _counting(pile)
            if counting is not None and counting not in (RULES, SOCIAL, CARDINAL):
                # a high card on top is hard for the next player to beat
                worth += 0.25 * max(0, counting - 9) * (1 + threat.get(nxt, 0))
            if value == 8:
                worth += sum(2.5 * threat.get(self._next(view, seat, k), 0) for k in range(1, len(cards) + 1))
            if value == SOCIAL and len(cards) % 2:
                prev = self._next(view, seat, -1)
                worth += 2.0 * (threat.get(nxt, 0) - threat.get(prev, 0))
            if value == CARDINAL:
                worth += self._best_own_swap(view, seat, len(cards))[1]
        return worth

    def _threat(self, view: View, seat: int) -> dict[int, float]:
        """How close each opponent is to going out: 1 for a last card, less for more."""
        out = {}
        for s, p in enumerate(view["players"]):
            if s != seat and p["place"] is None:
                out[s] = max(0.0, (6 - p["cards_left"]) / 5)
        return out

    def _next(self, view: View, seat: int, places: int) -> int:
        n = len(view["players"])
        step = view["direction"] if places > 0 else -view["direction"]
        s = seat
        for _ in range(abs(places)):
            for _ in range(n):
                s = (s + step) % n
                if view["players"][s]["place"] is None:
                    break
        return s

    # -- Cardinal swaps ------------------------------------------------------------------------------
    @staticmethod
    def _hand_weight(cards: list[str], count: int) -> float:
        """How heavy a hand is to carry: its size, less what its good cards are worth."""
        good = sum(JOKER_KEEP if c == "joker" else KEEP[card_value(c)] for c in cards)
        unknown = count - len(cards)
        return count * 2.0 - 0.3 * good - 0.3 * 2.5 * unknown

    def _best_own_swap(self, view: View, seat: int, played: int) -> tuple[int | None, float]:
        players = view["players"]
        mine = list(players[seat]["hand"] or [])
        gain_best, target = 0.0, None
        my_weight = self._hand_weight(mine, len(mine))
        for s, p in enumerate(players):
            if s == seat or p["place"] is not None:
                continue
            gain = my_weight - self._hand_weight(p["known_hand"], p["hand_count"])
            if gain > gain_best:
                gain_best, target = gain, s
        return target, gain_best

    def _swap(self, view: View, seat: int, legal: list[Action]) -> Action:
        swaps = [a for a in legal if a["type"] == "swap"]
        if view["swap_own"]:
            target, gain = self._best_own_swap(view, seat, 0)
            if target is not None and gain > 0.5:
                return {"type": "swap", "seats": sorted((seat, target))}
            return {"type": "no_swap"}
        players = view["players"]
        threat = self._threat(view, seat)
        best: tuple[float, Action | None] = (0.5, None)
        for action in swaps:
            a, b = action["seats"]
            if seat in (a, b):
                continue  # trading with myself was the first swap's business
            # give the heavier hand to whoever is closer to going out
            weight = {s: self._hand_weight(players[s]["known_hand"], players[s]["hand_count"]) for s in (a, b)}
            lead, other = (a, b) if threat.get(a, 0) >= threat.get(b, 0) else (b, a)
            gain = (weight[other] - weight[lead]) * (0.5 + threat.get(lead, 0))
            if gain > best[0]:
                best = (gain, action)
        return best[1] or {"type": "no_swap"}


def _run(top: list[int], value: int) -> Any:
    """The cards of ``value`` at the very top of the pile (``top`` is the last few values)."""
    for v in reversed(top):
        if v != value:
            return
        yield v


def _counting(pile: list[dict[str, Any]]) -> int | None:
    for p in reversed(pile):
        v = VALUE_BY_NAME[p["as"]]
        if v not in INVISIBLE:
            return v
    return None





class NoviceBot(Bot):
    """Plays the lowest card that goes, one at a time, special cards included, and never swaps
    hands: the way a first game of Palace goes."""

    name = "novice"

    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        plays = [a for a in legal if a["type"] == "play"]
        if not plays:
            return next((a for a in legal if a["type"] == "no_swap"), legal[0])
        return min(plays, key=lambda a: (len(a["cards"]), play_value(a), json_key(a)))


def json_key(action: Action) -> str:
    """A stable order among otherwise equal actions."""
    return repr(sorted(action.items()))
