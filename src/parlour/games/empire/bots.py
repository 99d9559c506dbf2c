"""Empire's heuristic player: the detective.

It reasons from its seat's view alone. The view's ``suspects`` are the roles it has not seen: the
culprit is one of them, and so is every other card it cannot see (the opponent's role, the
revelatory cards it has not looked at, the deck). With every card unique and dealt at random, each
suspect is equally likely to be the culprit, and the opponent's role is equally likely to be any
suspect but those its wrong guesses ruled out. From that it weighs challenges and guesses by their
expected coins, accuses when it is sure (or when the opponent is sure and will accuse first), buys
Discover when it can, and cheaper clues while it saves up.
"""

from __future__ import annotations

from typing import Any

from ...core import Action, Bot, View
from .engine import COSTS, NUMBERS

WEAK_ROLE = 5       # a role this low or lower is worth promoting away from
BLUFF_RATE = 0.5    # how often a weak role still claims the most it can


def _first(legal: list[Action], kind: str, **fields: Any) -> Action | None:
    for action in legal:
        if action["type"] == kind and all(action.get(k) == v for k, v in fields.items()):
            return action
    return None


class DetectiveBot(Bot):
    name = "detective"

    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        step = view["step"]
        action: Action = getattr(self, f"_{step}")(view, seat, legal)
        return action

    # -- what it knows ---------------------------------------------------------------------------
    @staticmethod
    def _suspects(view: View) -> list[int]:
        suspects: list[int] = view["suspects"]
        return suspects

    @staticmethod
    def _opponent_candidates(view: View) -> list[int]:
        """The roles the opponent may hold now."""
        known = view["opponent"]["role"]
        if known is not None:
            return [known]
        ruled_out = set(view["opponent"]["ruled_out"])
        return [n for n in view["suspects"] if n not in ruled_out] or list(view["suspects"])

    @staticmethod
    def _opponent_suspects(view: View, seat: int) -> int:
        """How many roles the opponent cannot yet rule out, counted from what it has visibly seen."""
        other = 1 - seat
        if view["discovered"][other]:
            return 1
        looked = sum(1 for s in view["revelatory"] if s["present"] and other in s["looked_at_by"])
        seen: int = len(view["pile"]) + view["holding"][other] + looked + len(view["opponent_knows"]["cards"])
        return max(1, len(NUMBERS) - seen)

    def _best_guess(self, view: View) -> int:
        """The likeliest culprit: a suspect the opponent is known not to hold, else any suspect."""
        suspects = self._suspects(view)
        culprit: int | None = view["culprit"]
        if culprit is not None:
            return culprit
        ruled_out = [n for n in suspects if n in view["opponent"]["ruled_out"] or (
            view["opponent"]["role"] is not None and n != view["opponent"]["role"])]
        return self.rng.choice(ruled_out or suspects)

    def _should_accuse(self, view: View, seat: int) -> bool:
        """Sure of the culprit, or the opponent is and will accuse before this seat's next chance."""
        if len(self._suspects(view)) == 1:
            return True
        return self._opponent_suspects(view, seat) == 1

    def _win_chance(self, mine: int | None, view: View) -> float:
        """The chance that role ``mine`` beats the opponent's in a challenge."""
        if mine is None:
            return 0.0
        candidates = self._opponent_candidates(view)
        return sum(1 for n in candidates if n < mine) / len(candidates)

    @staticmethod
    def _reveal_unseen(view: View, legal: list[Action]) -> Action | None:
        """A Reveal of revelatory cards this seat has not seen (one seen card beside the last unseen
        one), or None when it has seen them all."""
        unseen = [s["slot"] for s in view["revelatory"] if s["present"] and s["card"] is None]
        if not unseen:
            return None
        present = [s["slot"] for s in view["revelatory"] if s["present"]]
        pick = unseen[:2] if len(unseen) >= 2 or len(present) == 1 else unseen + [
            next(i for i in present if i not in unseen)]
        action = {"type": "reveal", "slots": sorted(pick)}
        return action if action in legal else None

    # -- the steps -----------------------------------------------------------------------------
    def _accuse_chance(self, view: View, seat: int, legal: list[Action]) -> Action:
        if self._should_accuse(view, seat):
            return {"type": "accuse", "role": self._best_guess(view)}
        return {"type": "decline"}

    def _respond(self, view: View, seat: int, legal: list[Action]) -> Action:
        amount = view["claim"]
        candidates = self._opponent_candidates(view)
        can_guess = view["coins"][seat] >= COSTS["guess"]
        if len(candidates) == 1 and can_guess:
            return {"type": "guess", "role": candidates[0]}
        # expected change of (my coins - their coins) for each answer
        lose_to = min(amount, view["coins"][seat])
        p = self._win_chance(view["you"]["role"], view)
        values = {"pass": -amount, "challenge": p * amount - (1 - p) * (amount + lose_to)}
        if not self._may_challenge(view, seat):
            del values["challenge"]
        if can_guess:
            q = 1 / len(candidates)
            values["guess"] = -COSTS["guess"] + q * 2 * amount - (1 - q) * amount
        best = max(values, key=lambda k: values[k])
        if best == "guess":
            ruled_out = set(view["opponent"]["ruled_out"])
            return {"type": "guess", "role": self.rng.choice([n for n in candidates if n not in ruled_out])}
        return {"type": best}

    def _may_challenge(self, view: View, seat: int) -> bool:
        """Whether a challenge is worth weighing by its coins at all (the detective: always)."""
        return True

    def _collect(self, view: View, seat: int, legal: list[Action]) -> Action:
        return max(legal, key=lambda a: a["from_opponent"])

    def _draw(self, view: View, seat: int, legal: list[Action]) -> Action:
        """Prefer a revelatory card the opponent has not looked at (so it stays secret), then one this
        seat has not seen (so it learns a card), then the highest it knows."""
        other = 1 - seat

        def rank(action: Action) -> tuple[int, int, int]:
            slot = view["revelatory"][action["slot"]]
            return (other not in slot["looked_at_by"], slot["card"] is None, slot["card"] or 0)

        return max(legal, key=rank)

    def _keep(self, view: View, seat: int, legal: list[Action]) -> Action:
        role, drawn = view["you"]["role"], view["you"]["drawn"]
        known = set(view["opponent_knows"]["cards"])
        if (role in known) != (drawn in known):
            return {"type": "keep", "card": "drawn" if role in known else "role"}
        return {"type": "keep", "card": "role" if role > drawn else "drawn"}

    def _turn(self, view: View, seat: int, legal: list[Action]) -> Action:
        coins = view["coins"][seat]
        used = set(view["used"])
        if self._should_accuse(view, seat):
            return {"type": "accuse", "role": self._best_guess(view)}
        knows_culprit = view["culprit"] is not None
        role = view["you"]["role"]
        exposed = role in view["opponent_knows"]["cards"]
        can_promote = _first(legal, "promote") is not None and view["deck_count"] > 0
        if not view["main_done"]:
            weak = exposed or role <= WEAK_ROLE
            if can_promote and weak and COSTS["promote"] + 2 <= coins < COSTS["discover"]:
                return {"type": "promote"}
            claims = [a["amount"] for a in legal if a["type"] == "claim"]
            if not claims or exposed:
                return {"type": "income"}
            if coins >= COSTS["discover"] and not knows_culprit:
                safe = [a for a in claims if coins - a >= COSTS["discover"]]
                return {"type": "claim", "amount": max(safe)} if safe else {"type": "income"}
            strong = self._win_chance(role, view) >= 0.5
            if strong or self.rng.random() < BLUFF_RATE:
                return {"type": "claim", "amount": max(claims)}
            return {"type": "claim", "amount": min(claims)}
        if "discover" not in used and not knows_culprit and _first(legal, "discover"):
            return {"type": "discover"}
        if "reveal" not in used and coins >= COSTS["reveal"] + 2 and not knows_culprit:
            action = self._reveal_unseen(view, legal)
            if action is not None:
                return action
        if ("spy" not in used and view["opponent"]["role"] is None and not knows_culprit
                and COSTS["spy"] + 6 <= coins < COSTS["discover"]):
            return {"type": "spy"}
        if can_promote and "promote" not in used and role <= WEAK_ROLE and coins >= COSTS["promote"] + 4:
            return {"type": "promote"}
        return {"type": "end"}


class RookieBot(DetectiveBot):
    """Claims big only with a strong role and never bluffs, challenges only a claim it is likely to
    beat, buys Discover when it can and no other clue: it accuses when it is sure."""

    name = "rookie"

    def _respond(self, view: View, seat: int, legal: list[Action]) -> Action:
        return {"type": "challenge" if self._win_chance(view["you"]["role"], view) >= 0.6 else "pass"}

    def _turn(self, view: View, seat: int, legal: list[Action]) -> Action:
        if len(self._suspects(view)) == 1:
            return {"type": "accuse", "role": self._best_guess(view)}
        if not view["main_done"]:
            claims = [a["amount"] for a in legal if a["type"] == "claim"]
            if claims and self._win_chance(view["you"]["role"], view) >= 0.5:
                return {"type": "claim", "amount": max(claims)}
            return {"type": "income"}
        if "discover" not in view["used"] and view["culprit"] is None and _first(legal, "discover"):
            return {"type": "discover"}
        return {"type": "end"}


class SleuthBot(DetectiveBot):
    """The detective with exact deduction and an eye on who gets the first chance to accuse.

    - **The belief.** Every card its seat has not seen is equally likely to be anywhere it cannot
      see, except that the opponent's role is none of the roles its wrong guesses ruled out. So a
      suspect that was ruled out as the opponent's role is likelier to be the culprit, and with two
      suspects and one of them ruled out the culprit is certain: it accuses then, where the
      detective, counting suspects only, would wait or toss a coin.
    - **The race.** What each player has seen is public in number (its own cards, the pile, the
      revelatory cards it looked at), so the count of suspects the opponent has left is known: at
      one, the opponent will accuse at its next chance, and the sleuth accuses first (its likeliest
      suspect) rather than lose for sure.
    - **Tempo.** With the deck empty, a challenged claim makes the claimant draw a revelatory card
      first, handing the opponent, who has just seen the claimant's role, the first chance to
      accuse: the sleuth does not claim then (income instead). Answering a claim with two suspects
      left (the claimant's role and the culprit), it challenges: the claimant draws first and the
      sleuth, now sure, accuses; with no revelatory card left to draw (a challenge would end in a
      tie) it guesses instead: right or wrong, one suspect is left. Otherwise it does not challenge
      when the claimant, having seen its role and drawn a card, would be sure first.
    - **Clues.** Once the deck is empty (and it no longer claims) it buys a Reveal of unseen
      revelatory cards as soon as it has 3 coins (the detective keeps 2 back for claims), and it
      Spies when the opponent's role is the last thing between it and the culprit (it then accuses
      in the same turn).
    """

    name = "sleuth"

    def culprit_odds(self, view: View) -> dict[int, float]:
        """Each suspect's chance of being the culprit.

        The opponent holds one of the suspects as its role (when this seat does not know it): of the
        ``R`` suspects it may hold (those its wrong guesses did not rule out), a suspect among them
        is the culprit in ``R - 1`` of the ways the two cards can lie, one outside them in ``R``.
        """
        if view["culprit"] is not None:
            return {view["culprit"]: 1.0}
        suspects = self._suspects(view)
        other = 1 - view["seat"]
        holds_one = view["holding"][other] - (view["promoting"] == other) == 1
        may_hold = [n for n in suspects if n not in view["opponent"]["ruled_out"]]
        if view["opponent"]["role"] is not None or not holds_one or not may_hold:
            return {n: 1 / len(suspects) for n in suspects}
        weights = {n: len(may_hold) - (n in may_hold) for n in suspects}
        total = sum(weights.values())
        return {n: w / total for n, w in weights.items()}

    def _best_guess(self, view: View) -> int:
        odds = self.culprit_odds(view)
        top = max(odds.values())
        return self.rng.choice([n for n in sorted(odds) if odds[n] == top])

    def _sure(self, view: View) -> bool:
        return max(self.culprit_odds(view).values()) >= 1.0

    def _should_accuse(self, view: View, seat: int) -> bool:
        return self._sure(view) or self._opponent_suspects(view, seat) == 1

    def _last_two(self, view: View) -> bool:
        """Two suspects left, the opponent's role one of them: learning that role settles the culprit."""
        return (view["culprit"] is None and len(self._suspects(view)) == 2 and view["opponent"]["role"] is None
                and len(self.culprit_odds(view)) == 2 and not self._sure(view))

    def _respond(self, view: View, seat: int, legal: list[Action]) -> Action:
        # With two suspects, one the claimant's role, the deck is empty (its cards would be suspects).
        if self._last_two(view):
            if any(s["present"] for s in view["revelatory"]):
                return {"type": "challenge"}  # the claimant draws a revelatory card, then this seat accuses
            if view["coins"][seat] >= COSTS["guess"]:  # a challenge would end in a tie: nothing to draw
                return {"type": "guess", "role": self.rng.choice(self._suspects(view))}
        return super()._respond(view, seat, legal)

    def _may_challenge(self, view: View, seat: int) -> bool:
        """Not when the challenge would make the claimant sure of the culprit before this seat's first
        chance to accuse: it sees this seat's role, then draws a card it has not seen (from the
        deck, or with the deck empty a revelatory card it has not looked at, if one is left) and
        has the first chance (its turn goes on; with the deck empty its draw comes first)."""
        other = 1 - seat
        unseen = view["deck_count"] > 0 or any(
            s["present"] and other not in s["looked_at_by"] for s in view["revelatory"])
        return self._opponent_suspects(view, seat) - 1 - unseen > 1

    def _turn(self, view: View, seat: int, legal: list[Action]) -> Action:
        if self._should_accuse(view, seat):
            return {"type": "accuse", "role": self._best_guess(view)}
        used = set(view["used"])
        if self._last_two(view) and "spy" not in used and _first(legal, "spy"):
            return {"type": "spy"}
        if view["deck_count"] == 0 and view["main_done"] and "reveal" not in used and view["culprit"] is None:
            # no more claims to keep coins back for (see below): every 3 coins buy a Reveal
            action = self._reveal_unseen(view, legal)
            if action is not None:
                return action
        action = super()._turn(view, seat, legal)
        if action["type"] == "claim" and view["deck_count"] == 0:
            return {"type": "income"}  # a challenge now would give the opponent the first chance to accuse
        return action
