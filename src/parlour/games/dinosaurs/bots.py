"""Happy Little Dinosaurs' heuristic player, working from its seat's view alone."""

from __future__ import annotations

from collections.abc import Callable

from ...core import Action, Bot, View
from .engine import CARDS, GOAL, IS_POINT, MAIN_CARDS

# How much an Instant or a card in hand is worth keeping, best first.
_KEEP = {"disaster_insurance": 30, "disaster_redirect": 28, "score_inversion": 14, "score_booster": 12,
         "score_sapper": 11}
_SAMPLES = 120


def keep_value(cid: int) -> float:
    c = CARDS[cid]
    if c.kind == "instant":
        return _KEEP[c.key]
    return c.value + (3 if c.key in ("pet_rock", "flaming_chainsaw", "hungry_plant", "treenoculars") else 0)


class SurvivorBot(Bot):
    """Weighs the points a card may win against the risk of taking the Disaster, given its own trait
    and Disaster Area: it plays high when the Disaster would eliminate it, counts a strong card's
    worth in hand against the points it wins now, and keeps its Instants for when they save it,
    eliminate someone else or win the round."""

    name = "survivor"
    samples = _SAMPLES  # guesses at the others' cards when choosing one

    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        phase = view["phase"]
        if phase == "dinosaur":
            return legal[0]
        if phase == "select":
            return self._select(view, seat, legal)
        if phase == "sudden_death":
            return max(legal, key=lambda a: CARDS[a["card"]].value)
        if phase == "scoring":
            return self._scoring(view, seat, legal)
        if phase == "disaster":
            return self._disaster(view, seat, legal)
        if phase == "discard":
            return self._discard(view, legal)
        return self._effect(view, seat, legal)

    # -- what is at stake ---------------------------------------------------------------------
    def _disaster_cost(self, view: View, seat: int) -> float:
        """What taking the face-up Disaster would cost: the game when it eliminates, else the more
        types that would eliminate afterwards, the more it costs (each Disaster also pays a space a round)."""
        me = view["players"][seat]
        kind = CARDS[view["disaster"]].key
        if kind in me["deadly"]:
            return 60.0
        danger = len(me["deadly"])
        return 3.0 + 3.0 * danger

    def _unseen_point_values(self, view: View, seat: int) -> list[int]:
        seen = set(view["hand"]) | set(view["discard"]) | set(view["removed"])
        for p in view["players"]:
            if p["card"] is not None:
                seen.add(p["card"])
            seen |= set(p["sudden_death"])
        values = [CARDS[c].value for c in MAIN_CARDS if IS_POINT[c] and c not in seen]
        return values or [4]

    def _select(self, view: View, seat: int, legal: list[Action]) -> Action:
        players = view["players"]
        others = [i for i, p in enumerate(players) if i != seat and not p["eliminated"]]
        pool = self._unseen_point_values(view, seat)
        cost = self._disaster_cost(view, seat)
        me = players[seat]
        my_trait = me["trait"]
        leader = max(p["escape"] for p in players)
        hand = view["hand"]
        odds = self._odds(pool, [players[i]["trait"] for i in others])
        best, best_value = legal[0], float("-inf")
        for action in legal:
            c = CARDS[action["card"]]
            score = c.value + my_trait
            if c.key == "pet_rock":
                score += max((CARDS[x].value for x in hand if IS_POINT[x] and x != c.id), default=0)
            elif c.key == "delicious_smoothie":
                score += max((CARDS[x].value for x in hand if IS_POINT[x] and CARDS[x].effect and x != c.id),
                             default=0)
            low, high = odds(score)
            points = high * max(score, 0)
            if me["escape"] + score >= GOAL:
                points += high * 40
            # spend strong cards when the Disaster threatens, keep them when it does not
            value = points - low * cost - 0.35 * keep_value(c.id) * (1.0 if cost < 60 else 0.2)
            if c.key == "flaming_chainsaw" and leader > me["escape"]:
                value += 1.0
            if value > best_value:
                best, best_value = action, value
        return best

    def _odds(self, pool: list[int], traits: list[int]) -> Callable[[int], tuple[float, float]]:
        """For a score, the chances (estimated over ``samples`` guesses at the others' Point cards,
        each a value of ``pool`` plus its trait) that it is the lowest (a tie counting half) and
        that it is the highest or tied for it."""
        samples = self.samples
        draws = [[self.rng.choice(pool) + t for t in traits] for _ in range(samples)]
        extremes = [(min(row), max(row)) for row in draws]

        def odds(score: int) -> tuple[float, float]:
            low = high = 0.0
            for lowest_other, highest_other in extremes:
                if score < lowest_other:
                    low += 1
                elif score == lowest_other:
                    low += 0.5
                if score >= highest_other:
                    high += 1
            return low / samples, high / samples
        return odds

    # -- effects --------------------------------------------------------------------------------
    def _effect(self, view: View, seat: int, legal: list[Action]) -> Action:
        kinds = {a["type"] for a in legal}
        if "take" in kinds:
            return max(legal, key=lambda a: keep_value(a["card"]))
        if "look_deck" in kinds:
            return {"type": "look_deck"}
        if "look_hand" in kinds:
            players = view["players"]
            return max((a for a in legal if a["type"] == "look_hand"),
                       key=lambda a: (players[a["player"]]["hand_size"], players[a["player"]]["escape"]))
        card = CARDS[view["effect"]["card"]]
        if card.key in ("pet_rock", "delicious_smoothie"):
            options = [a for a in legal if a["type"] == "discard"]
            if options:
                return max(options, key=lambda a: CARDS[a["cards"][0]].value)
        if card.key == "fire_spray":
            weak = [a for a in legal if a["type"] == "discard"
                    and all(IS_POINT[c] and CARDS[c].value <= 2 and not CARDS[c].effect for c in a["cards"])]
            if weak:
                return max(weak, key=lambda a: len(a["cards"]))
        if card.key in ("grappling_snake", "hungry_plant"):
            return self._swap(view, seat, legal)
        return {"type": "pass"}

    def _scores_after(self, view: View, fronts: list[int | None]) -> list[int | None]:
        players = view["players"]
        out: list[int | None] = []
        for p, front in zip(players, fronts):
            if p["final_score"] is None or front is None:
                out.append(None)
            else:
                out.append(p["final_score"] - CARDS[p["card"]].value + CARDS[front].value)
        return out

    def _standing(self, view: View, seat: int, scores: list[int | None]) -> float:
        """How good round scores are for ``seat``: points if highest, the Disaster's cost if lowest."""
        present = [s for s in scores if s is not None]
        mine = scores[seat]
        if mine is None or not present:
            return 0.0
        value = 0.0
        if mine == max(present) and mine != min(present):
            value += max(mine, 0)
        if mine == min(present) and mine != max(present):
            value -= self._disaster_cost(view, seat) * (1.0 if present.count(mine) == 1 else 0.5)
        # hurting the leader helps too
        players = view["players"]
        leader = max((i for i in range(len(players)) if i != seat and scores[i] is not None),
                     key=lambda i: players[i]["escape"], default=None)
        lead = None if leader is None else scores[leader]
        if lead is not None and lead == max(present):
            value -= 0.3 * max(lead, 0)
        return value

    def _swap(self, view: View, seat: int, legal: list[Action]) -> Action:
        fronts = [p["card"] for p in view["players"]]
        best, best_value = {"type": "pass"}, self._standing(view, seat, self._scores_after(view, fronts))
        for action in legal:
            if action["type"] != "swap":
                continue
            a, b = action["players"] if "players" in action else (seat, action["player"])
            swapped = list(fronts)
            swapped[a], swapped[b] = swapped[b], swapped[a]
            value = self._standing(view, seat, self._scores_after(view, swapped))
            if value > best_value + 0.5:
                best, best_value = action, value
        return best

    # -- Instants -------------------------------------------------------------------------------
    def _scoring(self, view: View, seat: int, legal: list[Action]) -> Action:
        scores = [p["final_score"] for p in view["players"]]
        now = self._standing(view, seat, scores)
        factor = 1
        if not view["effects_ignored"]:
            factor = 2 ** sum(1 for p in view["players"] if p["card"] is not None
                              and CARDS[p["card"]].key == "special_star_fruit")
        best, best_gain = {"type": "pass"}, 0.0
        for action in legal:
            if action["type"] != "instant":
                continue
            c = CARDS[action["card"]]
            after = list(scores)
            if c.key == "score_inversion":
                present = [s for s in after if s is not None]
                high, low = max(present), min(present)
                after = [None if s is None else low if s == high else high if s == low else s for s in after]
            else:
                t = action["player"]
                if after[t] is None:
                    continue
                after[t] += (2 if c.key == "score_booster" else -2) * factor
            gain = self._standing(view, seat, after) - now - 0.5 * _KEEP[c.key]
            if gain > best_gain:
                best, best_gain = action, gain
        return best

    def _disaster(self, view: View, seat: int, legal: list[Action]) -> Action:
        cost = self._disaster_cost(view, seat)
        kind = CARDS[view["disaster"]].key
        players = view["players"]
        redirects = [a for a in legal if a["type"] == "instant" and "player" in a]
        # a Disaster that eliminates somebody else is worth sending
        for a in sorted(redirects, key=lambda a: -players[a["player"]]["escape"]):
            if kind in players[a["player"]]["deadly"]:
                return a
        if cost >= 9:
            insurance = [a for a in legal if a["type"] == "instant" and "player" not in a]
            if insurance:
                return insurance[0]
            if redirects:
                return max(redirects, key=lambda a: players[a["player"]]["escape"])
        return {"type": "pass"}

    def _discard(self, view: View, legal: list[Action]) -> Action:
        weak = [a for a in legal if a["type"] == "discard" and IS_POINT[a["cards"][0]]
                and CARDS[a["cards"][0]].value <= 2 and not CARDS[a["cards"][0]].effect]
        return min(weak, key=lambda a: CARDS[a["cards"][0]].value) if weak else {"type": "pass"}


class HatchlingBot(Bot):
    """Plays its highest Point card every round and never uses an Instant or an effect's choice:
    easy to read and to beat."""

    name = "hatchling"

    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        if view["phase"] in ("select", "sudden_death"):
            return max(legal, key=lambda a: (CARDS[a["card"]].value, -a["card"]))
        if {"type": "pass"} in legal:
            return {"type": "pass"}
        return legal[0]  # a dinosaur to pick, a card to take: the first offered
