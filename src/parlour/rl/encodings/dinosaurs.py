"""Happy Little Dinosaurs for learning agents.

Cards are named by their id (0-96, ``static/cards.json``); players by where they sit from the
seat (0 the seat itself, 1 the next one...), so an agent learns one policy for every seat. One
token per action, but for Fire Spray's discard of two or three cards: the cards go one token each,
lowest id first, ``discard_more`` for each but the last and ``discard`` for the last one.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from operator import itemgetter

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

    rewritten = ("player", "players")  # and discards of several cards, which the catalogue lacks

    def __init__(self) -> None:
        super().__init__(_catalogue())
        # the actions naming one player (an Instant's target, whose hand to look at or swap): by
        # their fields (type, card or None, player from the seat)
        self.by_player = {(a["type"], a.get("card"), a["player"]): i for i, a in enumerate(self.actions)
                          if "player" in a}

    def encode(self, view: View, action: Action) -> Tokens:
        seat, n = view["seat"], len(view["players"])
        if action.get("type") == "discard" and len(action["cards"]) > 1:
            cards = sorted(action["cards"])
            more = tuple(self.token({"type": "discard_more", "card": c}) for c in cards[:-1])
            return more + (self.token({"type": "discard", "cards": [cards[-1]]}),)
        if "player" in action:
            if len(action) == 2 + ("card" in action):  # the quick way, for those the catalogue has
                i = self.by_player.get((action["type"], action.get("card"), relative(seat, action["player"], n)))
                if i is not None:
                    return (i,)
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
    ("round", 1, "the round / 20", (0.0, 5.0)),
    ("options", 1, "the 2-player rules are in force"),
    ("disaster", N_CARDS, "one-hot: the face-up Disaster card"),
    ("players", MAX_PLAYERS * PLAYER, "per player from the seat (0 the seat, 1 the next...; zeros for"
                                      " seats a smaller game lacks): in the game, to act now, eliminated,"
                                      " escape / 50, hand size / 10, has a card face down, answered the"
                                      " scoring window, bonus / 10, round score / 20, final score / 20,"
                                      " trait against the Disaster, Disaster Area counts natural,"
                                      " predatory, emotional, meteor / 4, Sudden Death cards / 5", (-5.0, 5.0)),
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
    ("sizes", 4, "Main deck / 70, Disaster deck / 28, reshuffles / 5, effects ignored (0/1)", (0.0, 5.0)),
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
# the view's fields the tensor reads, fetched at once
VIEW = itemgetter("players", "to_act", "hand", "face_down", "phase", "disaster", "discard", "instants", "effect",
                  "queue", "peek", "grab", "victim", "disaster_bottom", "round", "options", "deck_size",
                  "disaster_deck_size", "reshuffles", "effects_ignored")
PLAYER_FIELDS = itemgetter("eliminated", "escape", "hand_size", "face_down", "answered", "bonus", "score",
                           "final_score", "trait", "area", "sudden_death", "dinosaur", "deadly", "card")
CARD_OF = itemgetter("card")  # of an Instant played
# for n players and a seat: each player from the seat (r) and its seat (i)
FROM_SEAT = [[[(r, (seat + r) % n) for r in range(n)] for seat in range(n)] for n in range(MAX_PLAYERS + 1)]
# where the numbers go with n players: the players block's first n rows, the round, the options, the sizes
NUMBERED = [np.array([*range(NUMBERS, NUMBERS + PLAYER * n), ROUND, ROUND + 1, *range(SIZES, SIZES + 4)])
            for n in range(MAX_PLAYERS + 1)]


@lru_cache(maxsize=4096)
def area_counts(area: tuple[int, ...]) -> tuple[float, ...]:
    """A Disaster Area's counts of natural, predatory, emotional and meteor cards, / 4 (an area
    changes a few times a game)."""
    keys = [CARD_KEY[c] for c in area]
    return tuple(keys.count(t) / 4 for t in AREA_TYPES)


class DinosaursObservation(ObservationEncoder):
    layout = LAYOUT

    def encode(self, view: View, seat: int, chosen: Tokens = ()) -> np.ndarray:
        (players, to_act, hand, face_down, phase, disaster, discard, instants, effect, queue, peek, grab, victim,
         disaster_bottom, round_, options, deck_size, disaster_deck_size, reshuffles, effects_ignored) = VIEW(view)
        n = len(players)
        places = list(map(HAND.__getitem__, hand or ()))
        if face_down is not None:
            places.append(FACE_DOWN[face_down])
        places.append(PHASE[phase])
        if disaster is not None:
            places.append(DISASTER[disaster])
        numbers: list[float | bool] = []  # the players block from the seat, then the round, options and sizes
        for r, i in FROM_SEAT[n][seat]:
            (eliminated, escape, hand_size, down, answered, bonus, score, final_score, trait, area, sudden, dinosaur,
             deadly, card) = PLAYER_FIELDS(players[i])
            numbers += (1.0, i in to_act, eliminated, escape / GOAL, hand_size / 10, down, answered, bonus / 10,
                        (score or 0) / 20, (final_score or 0) / 20, trait)
            numbers += area_counts(tuple(area)) if area else NO_AREA
            numbers.append(len(sudden) / 5)
            if dinosaur is not None:
                places.append(DINOSAUR[r][dinosaur])
            if deadly:
                places += map(DEADLY[r].__getitem__, deadly)
            if card is not None:
                places.append(FRONT[r][card])
            if area:
                places += map(AREAS.__getitem__, area)
            if sudden:
                places += map(SUDDEN_DEATH.__getitem__, sudden)
        places += map(DISCARD.__getitem__, discard)
        if instants:
            places += map(INSTANTS.__getitem__, map(CARD_OF, instants))
        if effect is not None:
            places += (EFFECT[effect["card"]], EFFECT_PLAYER + (effect["player"] - seat) % n)
        places += map(QUEUE.__getitem__, queue)
        if peek:
            places += map(PEEK.__getitem__, peek)
        if grab is not None:
            places += map(GRAB.__getitem__, grab["hand"] or ())
            places.append(GRAB_PLAYER + (grab["player"] - seat) % n)
        if victim is not None:
            places.append(VICTIM + (victim - seat) % n)
        places += map(DISASTER_BOTTOM.__getitem__, disaster_bottom)
        places += [CHOSEN + ACTIONS.actions[token]["card"] for token in chosen]
        out = LAYOUT.ones(places)  # each place at most once: every card is in one place, every block its own
        numbers += (round_ / 20, options["two_player_rules"], deck_size / 70, disaster_deck_size / 28, reshuffles / 5,
                    effects_ignored)
        out[NUMBERED[n]] = numbers
        return out


ACTIONS = DinosaursActions()
OBSERVATION = DinosaursObservation()
