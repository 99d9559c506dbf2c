"""Building Happy Little Dinosaurs situations for scenario tests: cards by name, states by hand."""

from __future__ import annotations

from typing import Any

from parlour.games.dinosaurs import GAME
from parlour.games.dinosaurs.engine import CARDS, DISASTER_CARDS, MAIN_CARDS, State

__all__ = ["GAME", "CARDS", "ids", "make_state", "answer_all", "PASS"]

PASS = {"type": "pass"}


def ids(key: str) -> list[int]:
    """Every card id of one kind ("pet_rock", "score_booster", "natural", "meteor"...)."""
    found = [c.id for c in CARDS if c.key == key]
    assert found, key
    return found


def make_state(players: int = 3, *, dinosaurs: tuple[str, ...] = ("stego", "nervous_rex", "bad_luck_bronto",
                                                                     "cry_ceratops"),
               hands: list[list[int]] | None = None, disaster: int | None = None, phase: str = "select",
               areas: list[list[int]] | None = None, escape: list[int] | None = None, deck_top: list[int] = (),
               discard: list[int] = (), two_player: bool = False, round: int = 1, out: list | None = None,
               **fields: Any) -> State:
    """A state in ``phase`` with the given hands and areas; every other card sits in the decks
    (``deck_top`` on top of the Main deck, the last one first to be drawn), so all 97 cards are there."""
    hands = [list(h) for h in (hands or [[] for _ in range(players)])]
    areas = [list(a) for a in (areas or [[] for _ in range(players)])]
    if disaster is None:
        disaster = ids("natural")[0]
    used = {c for h in hands for c in h} | {c for a in areas for c in a} | set(deck_top) | set(discard)
    for key in ("front", "hidden"):
        used |= {c for c in fields.get(key, []) if c is not None}
    used |= {c for s in fields.get("sudden", []) for c in s} | set(fields.get("peek", []))
    used |= {c for _seat, c, _t in fields.get("instants", [])}
    removed = list(fields.pop("removed", []))
    used |= set(removed)
    deck = [c for c in MAIN_CARDS if c not in used] + list(deck_top)
    disasters = [d for d in DISASTER_CARDS if d not in used and d != disaster]
    out = out or [None] * players
    active = [i for i in range(players) if out[i] is None]
    base = dict(players=players, two_player=two_player, seed=7, dinosaurs=list(dinosaurs[:players]), hands=hands,
                deck=deck, discard=list(discard), removed=removed, disaster_deck=disasters, known_bottom=0,
                disaster=disaster, areas=areas, escape=list(escape or [0] * players), out=out, round=round,
                phase=phase, waiting=active, hidden=[None] * players, front=[None] * players,
                sudden=[[] for _ in range(players)], sudden_seats=[], instants=[], answers=[None] * players,
                bonus=[0] * players, queue=[], ignored=False, peek=[], grab=None, victim=None,
                round_scores=None, winners=[], reason="", reshuffles=0, last_round=None)
    base.update(fields)
    return State(**base)


def answer_all(state: State, action: dict | None = None, log: list | None = None) -> State:
    """Every seat that must act in the current simultaneous phase passes (or does ``action``)."""
    for seat in sorted(GAME.to_act(state)):
        state = GAME.apply(state, seat, action or PASS, log)
    return state
