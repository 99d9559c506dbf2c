"""Empire for learning agents: a fixed list of every action, one token each.

Roles are numbered 1 to 15; a role's place in a block is its number less one.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from ...core import View
from ...games.empire.engine import CLAIM_MAX, CLAIM_MIN, NUMBERS, SLOTS
from ..encoding import CatalogueCodec, Layout, ObservationEncoder, Tokens

ROLES = len(NUMBERS)
STEPS = ("turn", "respond", "collect", "draw", "accuse_chance", "keep")
EXTRAS = ("promote", "reveal", "spy", "discover")


def _catalogue() -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = [{"type": t} for t in ("income", "end", "promote", "spy", "discover", "pass",
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
    ("coins", 2, "the seat's, the opponent's coins / 20", (0.0, 5.0)),
    ("step", len(STEPS), "one-hot of what is decided now: turn, respond, collect, draw, accuse_chance,"
                         " keep"),
    ("turn", 4, "the seat is the active player, the seat must act now, main action done (0/1), the"
                " claim being answered / 4"),
    ("used", len(EXTRAS), "extras done this turn: promote, reveal, spy, discover"),
    ("discovered", 2, "the seat, the opponent has looked at the culprit"),
    ("promoting", 2, "the seat, the opponent is promoting (holds two cards)"),
    ("counts", 3, "cards in the deck / 15, cards held by the seat / 2, by the opponent / 2"),
])


# where each role goes in each block of roles (roles are numbered from 1)
BY_ROLE = {n: n - 1 for n in NUMBERS}
ROLE, DRAWN, OPPONENT_ROLE, OPPONENT_DRAWN, RULED_OUT, KNOWS, KNOWS_RULED_OUT, SUSPECTS, CULPRIT, PILE = (
    LAYOUT.places(b, BY_ROLE) for b in ("role", "drawn", "opponent_role", "opponent_drawn", "opponent_ruled_out",
                                        "opponent_knows", "opponent_knows_ruled_out", "suspects", "culprit", "pile"))
REVELATORY, COINS, TURN, COUNTS = (LAYOUT[b].start for b in ("revelatory", "coins", "turn", "counts"))
STEP = LAYOUT.places("step", {step: i for i, step in enumerate(STEPS)})
USED = LAYOUT.places("used", {extra: i for i, extra in enumerate(EXTRAS)})
DISCOVERED, PROMOTING = LAYOUT["discovered"].start, LAYOUT["promoting"].start


class EmpireObservation(ObservationEncoder):
    layout = LAYOUT

    def encode(self, view: View, seat: int, chosen: Tokens = ()) -> np.ndarray:
        other = 1 - seat
        you, opponent, knows = view["you"], view["opponent"], view["opponent_knows"]
        places = []
        for block, n in ((ROLE, you["role"]), (DRAWN, you["drawn"]), (OPPONENT_ROLE, opponent["role"]),
                         (OPPONENT_DRAWN, opponent["drawn"]), (CULPRIT, view["culprit"])):
            if n is not None:
                places.append(block[n])
        places += map(RULED_OUT.__getitem__, opponent["ruled_out"])
        places += map(KNOWS.__getitem__, knows["cards"])
        places += map(KNOWS_RULED_OUT.__getitem__, knows["ruled_out"])
        places += map(SUSPECTS.__getitem__, view["suspects"])
        places += map(PILE.__getitem__, view["pile"])
        for slot in view["revelatory"]:
            base = REVELATORY + slot["slot"] * (5 + ROLES)
            looked, taken = slot["looked_at_by"], slot["taken_by"]
            if slot["present"]:
                places.append(base)
            if looked:
                if seat in looked:
                    places.append(base + 1)
                if other in looked:
                    places.append(base + 2)
            if taken is not None:
                places.append(base + 3 + (taken != seat))
            if slot["card"] is not None:
                places.append(base + 4 + slot["card"])
        if view["step"] is not None:
            places.append(STEP[view["step"]])
        places += map(USED.__getitem__, view["used"])
        if view["active"] == seat:
            places.append(TURN)
        if seat in view["to_act"]:
            places.append(TURN + 1)
        if view["main_done"]:
            places.append(TURN + 2)
        discovered, promoting = view["discovered"], view["promoting"]
        if discovered[seat]:
            places.append(DISCOVERED)
        if discovered[other]:
            places.append(DISCOVERED + 1)
        if promoting is not None:
            places.append(PROMOTING + (promoting != seat))
        out = LAYOUT.ones(places)
        coins, holding = view["coins"], view["holding"]
        out[COINS] = coins[seat] / 20
        out[COINS + 1] = coins[other] / 20
        out[TURN + 3] = view["claim"] / 4
        out[COUNTS] = view["deck_count"] / ROLES
        out[COUNTS + 1] = holding[seat] / 2
        out[COUNTS + 2] = holding[other] / 2
        return out


ACTIONS = CatalogueCodec(_catalogue())
OBSERVATION = EmpireObservation()
