"""Build Empire situations directly, for scenario tests; and play long random games for property tests.

Uniformly random play accuses at once (most of the legal actions are accusations), so the property
tests play with a wanderer that picks an action type first and accuses rarely: its games run long
enough to empty the deck, draw revelatory cards and reach the tie."""

from __future__ import annotations

import random

from parlour.games import get
from parlour.games.empire.engine import SLOTS, State

GAME = get("empire")
NOTHING: frozenset[int] = frozenset()


def make_state(*, deck=(8, 9, 10, 11, 12, 13, 14, 15), slots=(1, 2, 4, 5), culprit=6, roles=(7, 3), drawn=None,
               coins=(2, 2), pile=(), active=0, queue=(), claim=0, used=(), main_done=False,
               looked=((), ()), taken=(None,) * SLOTS, discovered=(False, False), known=((), ()),
               ruled_out=((), ()), challenge=None, guess=None, turn=1, outcome=None) -> State:
    """A state with the given pieces; by default the start of a game where player 1 is the Captain (7),
    player 2 the Jester (3), the revelatory cards 1, 2, 4, 5, the culprit the Alchemist (6)."""
    return State(tuple(deck), tuple(slots), culprit, tuple(roles), drawn, tuple(coins), tuple(pile), active,
                 tuple(tuple(s) for s in queue), claim, frozenset(used), main_done,
                 tuple(frozenset(x) for x in looked), tuple(taken), tuple(discovered),
                 tuple(frozenset(x) for x in known), tuple(frozenset(x) for x in ruled_out), challenge, guess,
                 turn, outcome)


def run(state: State, *moves: tuple[int, dict], log: list | None = None) -> State:
    """``state`` after the (seat, action) ``moves``."""
    for seat, action in moves:
        state = GAME.apply(state, seat, action, log)
    return state


def claim(amount: int) -> dict:
    return {"type": "claim", "amount": amount}


INCOME = {"type": "income"}
END = {"type": "end"}
PASS = {"type": "pass"}
CHALLENGE = {"type": "challenge"}
PROMOTE = {"type": "promote"}
SPY = {"type": "spy"}
DISCOVER = {"type": "discover"}
DECLINE = {"type": "decline"}


def guess(role: int) -> dict:
    return {"type": "guess", "role": role}


def accuse(role: int) -> dict:
    return {"type": "accuse", "role": role}


def reveal(*slots: int) -> dict:
    return {"type": "reveal", "slots": list(slots)}


def keep(card: str) -> dict:
    return {"type": "keep", "card": card}


def draw(slot: int) -> dict:
    return {"type": "draw", "slot": slot}


def collect(from_opponent: int) -> dict:
    return {"type": "collect", "from_opponent": from_opponent}


def all_cards(state: State) -> list[int]:
    """Every card where it lies now (a drawn revelatory card is counted where it went)."""
    present = [state.slots[i] for i in range(SLOTS) if state.taken[i] is None]
    hands = [r for r in state.roles if r is not None] + ([state.drawn] if state.drawn is not None else [])
    return sorted(list(state.deck) + present + [state.culprit] + hands + list(state.pile))


def wander(state, seat, rng: random.Random) -> dict:
    """A legal action: its type uniformly among the types on offer, accusing only now and then, and
    only now and then promoting with nothing left to draw (which ends the game in a tie)."""
    legal = GAME.legal_actions(state, seat)
    types = sorted({a["type"] for a in legal})
    if len(types) > 1 and "accuse" in types and rng.random() < 0.98:
        types.remove("accuse")
    if "promote" in types and not state.deck and None not in state.taken and rng.random() < 0.9:
        types.remove("promote")
    kind = rng.choice(types)
    return rng.choice([a for a in legal if a["type"] == kind])


def play_wandering(seed: int, rng_seed: int, max_moves: int = 5_000):
    rng = random.Random(rng_seed)
    state = GAME.start(2, {}, seed)
    states, moves = [state], []
    while not GAME.is_over(state):
        assert len(moves) < max_moves, "the game did not end"
        seat = min(GAME.to_act(state))
        action = wander(state, seat, rng)
        state = GAME.apply(state, seat, action)
        states.append(state)
        moves.append((seat, action))
    return states, moves
