"""Observation tensors written the plain way, block by block as docs/rl.md describes them, for the
encoders (which are written for speed) to be checked against."""

from __future__ import annotations

from typing import Any

import numpy as np


def palace_tensor_plainly(view: dict[str, Any], seat: int) -> np.ndarray:
    from parlour.games.palace.cards import FACE_BY_CODE, FACES, VALUE_BY_NAME
    from parlour.rl.encodings.palace import LAYOUT, PAIRS, PLAYER, VALUES

    out = np.zeros(LAYOUT.size, dtype=np.float32)
    players = view["players"]
    n = len(players)

    def count(block: str, codes: list[str], offset: int = 0) -> None:
        for card in codes:
            out[LAYOUT[block].start + offset + FACE_BY_CODE[card]] += 1

    count("hand", players[seat]["hand"])
    for r in range(n):
        i = (seat + r) % n
        p = players[i]
        count("known_hands", p["known_hand"], r * FACES)
        count("face_ups", p["face_ups"], r * FACES)
        start = LAYOUT["players"].start + r * PLAYER
        out[start:start + PLAYER] = (1.0, i in view["to_act"], p["hand_count"] / 20, p["face_downs"] / 3,
                                     p["cards_left"] / 30, p["place"] is not None)
    pile = view["play_pile"]
    count("pile", [card["card"] for card in pile])
    for k, card in enumerate(reversed(pile[-4:])):  # a joker not yet played counts as 0
        out[LAYOUT["pile_top"].start + k * VALUES + VALUE_BY_NAME.get(card["as"], 0)] = 1
    if view["counts"] is not None:
        out[LAYOUT["counts"].start + VALUE_BY_NAME[view["counts"]]] = 1
    out[LAYOUT["pile_state"]] = (len(pile) / 20, view["capped"], view["rules_on_top"])
    count("burned", view["burn_pile"])
    out[LAYOUT["table"]] = (view["pick_up_pile"] / 60, view["direction"], view["swaps_left"] / 2, view["swap_own"],
                            view["revealed"] is not None, len(view["finished"]) / 6)
    for pair in view["swapped"]:
        out[LAYOUT["swapped"].start + PAIRS.index(tuple(sorted((s - seat) % n for s in pair)))] += 1
    return out


def dinosaurs_tensor_plainly(view: dict[str, Any], seat: int, chosen: tuple[int, ...] = ()) -> np.ndarray:
    from parlour.games.dinosaurs.engine import PHASES
    from parlour.rl.encodings.dinosaurs import ACTIONS, LAYOUT

    out = np.zeros(LAYOUT.size, dtype=np.float32)

    def one(block: str, i: int) -> None:
        out[LAYOUT[block].start + i] += 1

    players = view["players"]
    n = len(players)
    for card in view["hand"] or ():
        one("hand", card)
    if view["face_down"] is not None:
        one("face_down", view["face_down"])
    one("phase", PHASES.index(view["phase"]))
    out[LAYOUT["round"]] = view["round"] / 20
    out[LAYOUT["options"]] = view["options"]["two_player_rules"]
    if view["disaster"] is not None:
        one("disaster", view["disaster"])
    for r in range(n):
        _dinosaurs_player_plainly(out, view, (seat + r) % n, r)
    for card in view["discard"]:
        one("discard", card)
    for instant in view["instants"]:
        one("instants", instant["card"])
    if view["effect"] is not None:
        one("effect", view["effect"]["card"])
        one("effect_player", (view["effect"]["player"] - seat) % n)
    for card in view["queue"]:
        one("queue", card)
    for card in view["peek"] or ():
        one("peek", card)
    if view["grab"] is not None:
        for card in view["grab"]["hand"] or ():
            one("grab", card)
        one("grab_player", (view["grab"]["player"] - seat) % n)
    if view["victim"] is not None:
        one("victim", (view["victim"] - seat) % n)
    for card in view["disaster_bottom"]:
        one("disaster_bottom", card)
    out[LAYOUT["sizes"]] = (view["deck_size"] / 70, view["disaster_deck_size"] / 28, view["reshuffles"] / 5,
                            view["effects_ignored"])
    for token in chosen:
        one("chosen", ACTIONS.actions[token]["card"])
    return out


def _dinosaurs_player_plainly(out: np.ndarray, view: dict[str, Any], i: int, r: int) -> None:
    """Player ``i``'s part of the Dinosaurs tensor, ``r`` seats from the observing seat."""
    from parlour.games.dinosaurs.engine import GOAL
    from parlour.rl.encodings.dinosaurs import AREA_TYPES, CARD_KEY, DINOSAUR_KEYS, LAYOUT, N_CARDS, PLAYER

    def one(block: str, k: int) -> None:
        out[LAYOUT[block].start + k] += 1

    p = view["players"][i]
    keys = [CARD_KEY[c] for c in p["area"]]
    start = LAYOUT["players"].start + r * PLAYER
    out[start:start + PLAYER] = (1.0, i in view["to_act"], p["eliminated"], p["escape"] / GOAL, p["hand_size"] / 10,
                                 p["face_down"], p["answered"], p["bonus"] / 10, (p["score"] or 0) / 20,
                                 (p["final_score"] or 0) / 20, p["trait"], *(keys.count(t) / 4 for t in AREA_TYPES),
                                 len(p["sudden_death"]) / 5)
    if p["dinosaur"] is not None:
        one("dinosaurs", r * len(DINOSAUR_KEYS) + DINOSAUR_KEYS.index(p["dinosaur"]))
    for kind in p["deadly"]:
        one("deadly", r * len(AREA_TYPES) + AREA_TYPES.index(kind))
    if p["card"] is not None:
        one("front", r * N_CARDS + p["card"])
    for card in p["area"]:
        one("areas", card)
    for card in p["sudden_death"]:
        one("sudden_death", card)
