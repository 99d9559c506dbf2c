"""Happy Little Dinosaurs for learning agents.

Cards are named by their id (0-96, ``static/cards.json``); players by where they sit from the
seat (0 the seat itself, 1 the next one...), so an agent learns one policy for every seat. One
token per action, but for Fire Spray's discard of two or three cards: the cards go one token each,
lowest id first, ``discard_more`` for each but the last and ``discard`` for the last one.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ...core import Action, View
from ...games.dinosaurs.engine import CARDS, DINOSAURS, DISASTER_TYPES, GOAL, PHASES
from ..encoding import CatalogueCodec, Layout, ObservationEncoder, Tokens, relative

MAX_PLAYERS = 4
N_CARDS = len(CARDS)
DINOSAUR_KEYS = tuple(DINOSAURS)
AREA_TYPES = DISASTER_TYPES + ("meteor",)


def _catalogue() -> list[Action]:
    actions: list[Action] = [{"type": "pass"}, {"type": "look_deck"}]
    actions += [{"type": "dinosaur", "dinosaur": d} for d in DINOSAUR_KEYS]
    for kind in ("play", "take", "instant"):
        actions += [{"type": kind, "card": c} for c in range(N_CARDS)]
    actions += [{"type": "discard", "cards": [c]} for c in range(N_CARDS)]
    actions += [{"type": "discard_more", "card": c} for c in range(N_CARDS)]
    actions += [{"type": "instant", "card": c, "player": r} for c in range(N_CARDS) for r in range(MAX_PLAYERS)]
    actions += [{"type": "look_hand", "player": r} for r in range(MAX_PLAYERS)]
    actions += [{"type": "swap", "player": r} for r in range(MAX_PLAYERS)]
    actions += [{"type": "swap", "players": list(p)} for p in combinations(range(MAX_PLAYERS), 2)]
    return actions


class DinosaursActions(CatalogueCodec):
    """The catalogue's actions with players counted from the seat; ``discard_more`` is the token
    of a card discarded with more to come."""

    def __init__(self) -> None:
        super().__init__(_catalogue())

    def encode(self, view: View, action: Action) -> Tokens:
        seat, n = view["seat"], len(view["players"])
        if action.get("type") == "discard" and len(action["cards"]) > 1:
            cards = sorted(action["cards"])
            more = tuple(self.token({"type": "discard_more", "card": c}) for c in cards[:-1])
            return more + (self.token({"type": "discard", "cards": [cards[-1]]}),)
        if "player" in action:
            action = {**action, "player": relative(seat, action["player"], n)}
        elif "players" in action:
            action = {**action, "players": sorted(relative(seat, p, n) for p in action["players"])}
        return (self.token(action),)


PLAYER = 16
LAYOUT = Layout([
    ("hand", N_CARDS, "the seat's hand, one per card id"),
    ("face_down", N_CARDS, "one-hot: the Point card the seat has put face down"),
    ("phase", len(PHASES), "one-hot: dinosaur, select, effect, scoring, disaster, sudden_death, discard,"
                           " over"),
    ("round", 1, "the round / 20"),
    ("options", 1, "the 2-player rules are in force"),
    ("disaster", N_CARDS, "one-hot: the face-up Disaster card"),
    ("players", MAX_PLAYERS * PLAYER, "per player from the seat (0 the seat, 1 the next...; zeros for"
                                      " seats a smaller game lacks): in the game, to act now, eliminated,"
                                      " escape / 50, hand size / 10, has a card face down, answered the"
                                      " scoring window, bonus / 10, round score / 20, final score / 20,"
                                      " trait against the Disaster, Disaster Area counts natural,"
                                      " predatory, emotional, meteor / 4, Sudden Death cards / 5"),
    ("dinosaurs", MAX_PLAYERS * len(DINOSAUR_KEYS), "per player from the seat, one-hot of its dinosaur"),
    ("deadly", MAX_PLAYERS * len(AREA_TYPES), "per player from the seat: a Disaster of this type"
                                              " (natural, predatory, emotional, meteor) would eliminate it"),
    ("front", MAX_PLAYERS * N_CARDS, "per player from the seat, one-hot of its face-up Point card"),
    ("areas", N_CARDS, "Disaster cards in anybody's Disaster Area"),
    ("discard", N_CARDS, "the discard pile"),
    ("instants", N_CARDS, "Instant cards played this round"),
    ("sudden_death", N_CARDS, "Point cards face up in Sudden Death"),
    ("effect", N_CARDS, "one-hot: the Point card whose effect is being used"),
    ("effect_player", MAX_PLAYERS, "one-hot: who uses it, from the seat"),
    ("queue", N_CARDS, "Point cards whose effect is still to come"),
    ("peek", N_CARDS, "the cards the seat looks at with Treenoculars"),
    ("grab", N_CARDS, "the hand the seat looks at with Dino Grabber"),
    ("grab_player", MAX_PLAYERS, "one-hot: whose hand that is, from the seat"),
    ("victim", MAX_PLAYERS, "one-hot: who would add the Disaster, from the seat"),
    ("disaster_bottom", N_CARDS, "Disaster cards everybody saw go to the bottom of its deck"),
    ("sizes", 4, "Main deck / 70, Disaster deck / 28, reshuffles / 5, effects ignored (0/1)"),
    ("chosen", N_CARDS, "cards the seat has chosen so far to discard with Fire Spray (the action under way)"),
])


BY_ID = {c: c for c in range(N_CARDS)}
HAND, FACE_DOWN, DISASTER, AREAS, DISCARD, INSTANTS, SUDDEN_DEATH, EFFECT, QUEUE, PEEK, GRAB, DISASTER_BOTTOM = (
    LAYOUT.places(b, BY_ID) for b in ("hand", "face_down", "disaster", "areas", "discard", "instants",
                                      "sudden_death", "effect", "queue", "peek", "grab", "disaster_bottom"))
PHASE = LAYOUT.places("phase", {phase: i for i, phase in enumerate(PHASES)})
FRONT = [LAYOUT.places("front", BY_ID, r * N_CARDS) for r in range(MAX_PLAYERS)]
DINOSAUR = [LAYOUT.places("dinosaurs", {d: i for i, d in enumerate(DINOSAUR_KEYS)}, r * len(DINOSAUR_KEYS))
            for r in range(MAX_PLAYERS)]
DEADLY = [LAYOUT.places("deadly", {t: i for i, t in enumerate(AREA_TYPES)}, r * len(AREA_TYPES))
          for r in range(MAX_PLAYERS)]
ROUND, NUMBERS, SIZES = LAYOUT["round"].start, LAYOUT["players"].start, LAYOUT["sizes"].start
EFFECT_PLAYER, GRAB_PLAYER, VICTIM = (LAYOUT[b].start for b in ("effect_player", "grab_player", "victim"))
CHOSEN = LAYOUT["chosen"].start
CARD_KEY = tuple(card.key for card in CARDS)
NO_AREA = (0.0,) * len(AREA_TYPES)


class DinosaursObservation(ObservationEncoder):
    layout = LAYOUT

    def encode(self, view: View, seat: int, chosen: Tokens = ()) -> np.ndarray:
        players = view["players"]
        n = len(players)
        places = list(map(HAND.__getitem__, view["hand"] or ()))
        if view["face_down"] is not None:
            places.append(FACE_DOWN[view["face_down"]])
        places.append(PHASE[view["phase"]])
        if view["disaster"] is not None:
            places.append(DISASTER[view["disaster"]])
        to_act = view["to_act"]
        numbers: list[float | bool] = []  # the players block, from the seat
        for r in range(n):
            i = (seat + r) % n
            p = players[i]
            area = p["area"]
            if area:
                keys = [CARD_KEY[c] for c in area]
                area_counts = tuple(keys.count(t) / 4 for t in AREA_TYPES)
            else:
                area_counts = NO_AREA
            numbers += (1.0, i in to_act, p["eliminated"], p["escape"] / GOAL, p["hand_size"] / 10, p["face_down"],
                        p["answered"], p["bonus"] / 10, (p["score"] or 0) / 20, (p["final_score"] or 0) / 20,
                        p["trait"], *area_counts, len(p["sudden_death"]) / 5)
            if p["dinosaur"] is not None:
                places.append(DINOSAUR[r][p["dinosaur"]])
            places += map(DEADLY[r].__getitem__, p["deadly"])
            if p["card"] is not None:
                places.append(FRONT[r][p["card"]])
            places += map(AREAS.__getitem__, p["area"])
            places += map(SUDDEN_DEATH.__getitem__, p["sudden_death"])
        places += map(DISCARD.__getitem__, view["discard"])
        places += [INSTANTS[i["card"]] for i in view["instants"]]
        if view["effect"] is not None:
            places += (EFFECT[view["effect"]["card"]], EFFECT_PLAYER + (view["effect"]["player"] - seat) % n)
        places += map(QUEUE.__getitem__, view["queue"])
        places += map(PEEK.__getitem__, view["peek"] or ())
        if view["grab"] is not None:
            places += map(GRAB.__getitem__, view["grab"]["hand"] or ())
            places.append(GRAB_PLAYER + (view["grab"]["player"] - seat) % n)
        if view["victim"] is not None:
            places.append(VICTIM + (view["victim"] - seat) % n)
        places += map(DISASTER_BOTTOM.__getitem__, view["disaster_bottom"])
        places += [CHOSEN + ACTIONS.actions[token]["card"] for token in chosen]
        out = LAYOUT.counted(places)
        out[NUMBERS:NUMBERS + len(numbers)] = numbers
        out[ROUND] = view["round"] / 20
        out[ROUND + 1] = view["options"]["two_player_rules"]
        out[SIZES:SIZES + 4] = (view["deck_size"] / 70, view["disaster_deck_size"] / 28, view["reshuffles"] / 5,
                                view["effects_ignored"])
        return out


ACTIONS = DinosaursActions()
OBSERVATION = DinosaursObservation()
