"""Empire for learning agents: a fixed list of every action, one token each.

Roles are numbered 1 to 15; a role's place in a block is its number less one.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ...core import View
from ...games.empire.engine import CLAIM_MAX, CLAIM_MIN, NUMBERS, SLOTS
from ..encoding import CatalogueCodec, Layout, ObservationEncoder, Tokens, one_hot

ROLES = len(NUMBERS)
STEPS = ("turn", "respond", "collect", "draw", "accuse_chance", "keep")
EXTRAS = ("promote", "reveal", "spy", "discover")


def _catalogue() -> list[dict]:
    actions: list[dict] = [{"type": t} for t in ("income", "end", "promote", "spy", "discover", "pass",
                                                  "challenge", "decline")]
    actions += [{"type": "keep", "card": card} for card in ("role", "drawn")]
    actions += [{"type": "claim", "amount": a} for a in range(CLAIM_MIN, CLAIM_MAX + 1)]
    actions += [{"type": "collect", "from_opponent": k} for k in range(CLAIM_MAX + 1)]
    actions += [{"type": "draw", "slot": i} for i in range(SLOTS)]
    actions += [{"type": "reveal", "slots": [i]} for i in range(SLOTS)]
    actions += [{"type": "reveal", "slots": list(p)} for p in combinations(range(SLOTS), 2)]
    actions += [{"type": "accuse", "role": n} for n in NUMBERS]
    actions += [{"type": "guess", "role": n} for n in NUMBERS]
    return actions


LAYOUT = Layout([
    ("role", ROLES, "one-hot: the seat's role"),
    ("drawn", ROLES, "one-hot: the card the seat drew while promoting"),
    ("opponent_role", ROLES, "one-hot: the opponent's role, when the seat knows it"),
    ("opponent_drawn", ROLES, "one-hot: the opponent's drawn card, when the seat knows it"),
    ("opponent_ruled_out", ROLES, "roles the seat guessed wrongly for the opponent's role"),
    ("opponent_knows", ROLES, "cards of the seat's hand the opponent knows"),
    ("opponent_knows_ruled_out", ROLES, "roles the opponent guessed wrongly for the seat's"),
    ("suspects", ROLES, "roles that can still be the culprit as far as the seat knows"),
    ("culprit", ROLES, "one-hot: the culprit, once the seat has discovered it"),
    ("pile", ROLES, "cards on the face-up discard pile"),
    ("revelatory", SLOTS * (5 + ROLES), "per revelatory card A-D: present, looked at by the seat, by"
                                         " the opponent, taken by the seat, by the opponent (0/1), then"
                                         " one-hot of the card when the seat knows it"),
    ("coins", 2, "the seat's, the opponent's coins / 20"),
    ("step", len(STEPS), "one-hot of what is decided now: turn, respond, collect, draw, accuse_chance,"
                         " keep"),
    ("turn", 4, "the seat is the active player, the seat must act now, main action done (0/1), the"
                " claim being answered / 4"),
    ("used", len(EXTRAS), "extras done this turn: promote, reveal, spy, discover"),
    ("discovered", 2, "the seat, the opponent has looked at the culprit"),
    ("promoting", 2, "the seat, the opponent is promoting (holds two cards)"),
    ("counts", 3, "cards in the deck / 15, cards held by the seat / 2, by the opponent / 2"),
])


class EmpireObservation(ObservationEncoder):
    layout = LAYOUT

    def encode(self, view: View, seat: int, chosen: Tokens = ()) -> np.ndarray:
        out = LAYOUT.zeros()
        other = 1 - seat
        you, opponent = view["you"], view["opponent"]
        role = lambda n: None if n is None else n - 1  # noqa: E731
        one_hot(out, LAYOUT["role"], role(you["role"]))
        one_hot(out, LAYOUT["drawn"], role(you["drawn"]))
        one_hot(out, LAYOUT["opponent_role"], role(opponent["role"]))
        one_hot(out, LAYOUT["opponent_drawn"], role(opponent["drawn"]))
        one_hot(out, LAYOUT["culprit"], role(view["culprit"]))
        for block, cards in (("opponent_ruled_out", opponent["ruled_out"]),
                             ("opponent_knows", view["opponent_knows"]["cards"]),
                             ("opponent_knows_ruled_out", view["opponent_knows"]["ruled_out"]),
                             ("suspects", view["suspects"]), ("pile", view["pile"])):
            start = LAYOUT[block].start
            for n in cards:
                out[start + n - 1] = 1.0
        start = LAYOUT["revelatory"].start
        for slot in view["revelatory"]:
            base = start + slot["slot"] * (5 + ROLES)
            out[base:base + 5] = (slot["present"], seat in slot["looked_at_by"], other in slot["looked_at_by"],
                                  slot["taken_by"] == seat, slot["taken_by"] == other)
            if slot["card"] is not None:
                out[base + 5 + slot["card"] - 1] = 1.0
        out[LAYOUT["coins"]] = (view["coins"][seat] / 20, view["coins"][other] / 20)
        if view["step"] is not None:
            one_hot(out, LAYOUT["step"], STEPS.index(view["step"]))
        out[LAYOUT["turn"]] = (view["active"] == seat, seat in view["to_act"], view["main_done"], view["claim"] / 4)
        out[LAYOUT["used"]] = tuple(extra in view["used"] for extra in EXTRAS)
        out[LAYOUT["discovered"]] = (view["discovered"][seat], view["discovered"][other])
        out[LAYOUT["promoting"]] = (view["promoting"] == seat, view["promoting"] == other)
        out[LAYOUT["counts"]] = (view["deck_count"] / ROLES, view["holding"][seat] / 2, view["holding"][other] / 2)
        return out


ACTIONS = CatalogueCodec(_catalogue())
OBSERVATION = EmpireObservation()
