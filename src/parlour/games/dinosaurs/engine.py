"""Happy Little Dinosaurs: every round a Disaster is flipped, everybody plays a Point card face
down, the cards are revealed, effects resolve lowest value first, Instants interrupt, the highest
score runs up the Escape Route and the lowest takes the Disaster.

Cards are numbers 0-96 into ``static/cards.json`` (53 Point, 16 Instant, 28 Disaster cards); a
view never holds the id of a card its seat may not see. Decks keep their top card last.

The actions, by phase (``view["phase"]``; ``pass`` declines whatever is offered):
``{"type": "dinosaur", "dinosaur": "stego"}``; ``{"type": "play", "card": 12}`` (select and
sudden_death); ``{"type": "discard", "cards": [3]}`` (Pet Rock, Smoothie, Fire Spray up to three,
the optional discard); ``{"type": "look_hand", "player": 1}`` then ``{"type": "take", "card": c}``
(Dino Grabber); ``{"type": "look_deck"}`` then ``take`` (Treenoculars); ``{"type": "swap",
"player": 1}`` (Grappling Snake) or ``{"type": "swap", "players": [1, 2]}`` (Hungry Plant);
``{"type": "instant", "card": c}`` with ``"player"`` for Score Booster, Sapper and Disaster Redirect.

>>> game = Dinosaurs(); state = game.start(2, {}, seed=1)
>>> sorted(game.to_act(state)), state.phase
([0], 'dinosaur')
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import combinations
from typing import Any

from ...core import Action, Game, IllegalAction, LogEntry, Option, Result, View, derive, require_action
from ...core.words import counted

# --- data -------------------------------------------------------------------------------------

DATA = json.loads(resources.files(__package__).joinpath("static", "cards.json").read_text())
HAND_SIZE: int = DATA["hand_size"]
GOAL: int = DATA["goal"]
DINOSAURS: dict[str, dict[str, Any]] = {d["key"]: d for d in DATA["dinosaurs"]}
DISASTER_TYPES = ("natural", "predatory", "emotional")  # a Meteor is any of them


@dataclass(frozen=True)
class Card:
    id: int
    kind: str  # "point", "instant" or "disaster"
    key: str  # the kind of card ("pet_rock", "score_booster"...; a Disaster's type)
    name: str
    value: int = 0  # Point cards
    effect: str = ""  # the card's text; "" for plain Point cards and Disasters
    timing: str | None = None  # Point cards with an effect: "now", "round" or "scoring"
    window: str | None = None  # Instants: "scoring" or "disaster"


CARDS: tuple[Card, ...] = tuple(
    Card(c["id"], c["kind"], c["key"], c["name"], c.get("value", 0), c.get("effect", ""), c.get("timing"),
         c.get("window")) for c in DATA["cards"])
assert [c.id for c in CARDS] == list(range(len(CARDS))) == list(range(97))
MAIN_CARDS = tuple(c.id for c in CARDS if c.kind != "disaster")
DISASTER_CARDS = tuple(c.id for c in CARDS if c.kind == "disaster")
IS_POINT = tuple(c.kind == "point" for c in CARDS)
SMALL_POINT_CARDS = frozenset(c.id for c in CARDS if c.kind == "point" and c.value in (1, 2, 3))


def card_name(cid: int) -> str:
    c = CARDS[cid]
    return f"{c.name} ({c.value})" if c.kind == "point" else c.name


def trait(dinosaur: str | None, disaster: int | None) -> int:
    """The dinosaur's advantage (+) or disadvantage (-) against the face-up Disaster."""
    if dinosaur is None or disaster is None:
        return 0
    advantage: int = DINOSAURS[dinosaur]["traits"][CARDS[disaster].key]
    return advantage


def _card(cid: int | None) -> Card:
    """The card in a place its caller knows is not empty (a Point card in front, the face-up Disaster)."""
    assert cid is not None, "an empty place"
    return CARDS[cid]


def _held(cid: int | None) -> int:
    """The card id in a place its caller knows is not empty."""
    assert cid is not None, "an empty place"
    return cid


def eliminates(area: Iterable[int], two_player: bool = False) -> bool:
    """Whether a Disaster Area eliminates its dinosaur: three of one type or three different
    types (four of one type or two of each type under the 2-player rules), a Meteor counting as
    whichever type completes a set."""
    return _eliminated(_type_counts(area), two_player)


def deadly_types(area: Iterable[int], two_player: bool = False) -> tuple[str, ...]:
    """The Disaster types (and "meteor") one more of which would eliminate the area's dinosaur."""
    return _deadly(_type_counts(area), two_player)


_AREA_TYPES = DISASTER_TYPES + ("meteor",)
_TYPE_INDEX = {c.id: _AREA_TYPES.index(c.key) for c in CARDS if c.kind == "disaster"}


def _type_counts(area: Iterable[int]) -> tuple[int, ...]:
    counts = [0, 0, 0, 0]  # natural, predatory, emotional, meteor
    for cid in area:
        counts[_TYPE_INDEX[cid]] += 1
    return tuple(counts)


@cache  # a few hundred Disaster Areas are possible: search asks about them constantly
def _eliminated(counts: tuple[int, ...], two_player: bool) -> bool:
    *types, meteors = counts
    same, each = (4, 2) if two_player else (3, 1)
    return max(types) + meteors >= same or sum(max(0, each - n) for n in types) <= meteors


@cache
def _deadly(counts: tuple[int, ...], two_player: bool) -> tuple[str, ...]:
    return tuple(t for k, t in enumerate(_AREA_TYPES)
                 if _eliminated(tuple(n + (i == k) for i, n in enumerate(counts)), two_player))


# --- state ------------------------------------------------------------------------------------

PHASES = ("dinosaur", "select", "effect", "scoring", "disaster", "sudden_death", "discard", "over")
PASS = -1  # a scoring-window answer that plays nothing


_NESTED = frozenset(("hands", "areas", "sudden", "instants", "answers"))  # lists of lists


class State:
    """One moment of a game; immutable by convention (the engine copies it before a change).

    Per-seat lists are indexed by seat. ``waiting`` is who must act; in the simultaneous phases
    (select, scoring, sudden_death) a seat leaves it when it answers.
    """

    FIELDS = ("players", "two_player", "seed", "dinosaurs", "hands", "deck", "discard", "removed",
              "disaster_deck", "known_bottom", "disaster", "areas", "escape", "out", "round", "phase",
              "waiting", "hidden", "front", "sudden", "sudden_seats", "instants", "answers", "bonus",
              "queue", "ignored", "peek", "grab", "victim", "round_scores", "winners", "reason",
              "reshuffles", "last_round")
    __slots__ = FIELDS

    players: int
    two_player: bool  # the 2-player rules are in force
    seed: int
    dinosaurs: list[str | None]
    hands: list[list[int]]
    deck: list[int]  # the Main deck, top card last
    discard: list[int]  # face up, top card last
    removed: list[int]  # out of the game (Point cards of value 1-3 under the 2-player rules)
    disaster_deck: list[int]  # top card last
    known_bottom: int  # how many cards at the bottom of the Disaster deck everybody saw go there
    disaster: int | None  # the face-up Disaster
    areas: list[list[int]]  # Disaster Areas
    escape: list[int]  # places on the Escape Route
    out: list[int | None]  # the round each seat was eliminated in
    round: int
    phase: str
    waiting: list[int]
    hidden: list[int | None]  # face-down Point cards (select and sudden_death)
    front: list[int | None]  # face-up Point cards of the round
    sudden: list[list[int]]  # face-up Point cards of Sudden Death
    sudden_seats: list[int]
    instants: list[list[int]]  # Instants played this round: [seat, card, target or -1]
    answers: list[list[int] | None]  # scoring window: [card or PASS, target or -1], hidden until all answer
    bonus: list[int]  # points added by Pet Rock and "Delicious" Smoothie
    queue: list[int]  # Point cards whose effect is still to be used, in order
    ignored: bool  # Flaming Chainsaw: all other Point card effects are ignored
    peek: list[int]  # Treenoculars: the top cards taken to look at
    grab: int | None  # Dino Grabber: the seat whose hand is being looked at
    victim: int | None  # who would add the Disaster now
    round_scores: list[int | None] | None  # the scores of the round once calculated
    winners: list[int]
    reason: str
    reshuffles: int
    last_round: dict[str, Any] | None  # what the table showed when the previous round ended

    def __init__(self, **fields: Any) -> None:
        for name in self.FIELDS:
            setattr(self, name, fields[name])

    def copy(self) -> State:
        new = State.__new__(State)
        for name in self.FIELDS:
            value = getattr(self, name)
            if name in _NESTED:
                value = [None if v is None else list(v) for v in value]
            elif type(value) is list:  # last_round (a dict) is replaced, never changed in place
                value = list(value)
            setattr(new, name, value)
        return new

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.FIELDS}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"State(round={self.round}, phase={self.phase!r}, escape={self.escape}, waiting={self.waiting})"

    # -- who is who --------------------------------------------------------------------------
    def active(self) -> list[int]:
        return [i for i in range(self.players) if self.out[i] is None]

    def holder(self, cid: int) -> int | None:
        """The seat with Point card ``cid`` face up in front of it."""
        for i, c in enumerate(self.front):
            if c == cid:
                return i
        return None

    def effect_owner(self) -> int | None:
        return self.holder(self.queue[0]) if self.phase == "effect" and self.queue else None

    def neighbours(self, seat: int) -> list[int]:
        """The dinosaurs still in the game to ``seat``'s left (next seat) and right (previous)."""
        active = self.active()
        if len(active) < 2:
            return []
        k = active.index(seat)
        left, right = active[(k + 1) % len(active)], active[(k - 1) % len(active)]
        return [left] if left == right else [left, right]


def has_point_card(hand: Iterable[int]) -> bool:
    return any(IS_POINT[c] for c in hand)


def round_disaster(state: State) -> int | None:
    """The Disaster the round is played against: the face-up one, or once it was given away or buried
    this round, that one (the round's scores do not change when it leaves the table)."""
    if state.disaster is not None:
        return state.disaster
    last = state.last_round
    return last["disaster"] if last is not None and last.get("round") == state.round else None


def round_scores(state: State) -> tuple[list[int | None], list[int | None]]:
    """(calculated, final) scores of the round: the face-up card's value, the trait, Pet Rock and
    Smoothie bonuses, Score Boosters and Sappers (doubled by each Special Star Fruit), then each
    Mouth Trap and Score Inversion switching the highest and lowest scores. A dinosaur eliminated
    by this round's Disaster keeps the score it had."""
    scoring_effects = [] if state.ignored else [CARDS[c].key for c in state.front if c is not None]
    factor = 2 ** scoring_effects.count("special_star_fruit")
    switches = scoring_effects.count("mouth_trap")
    calculated: list[int | None] = [None] * state.players
    disaster = round_disaster(state)
    for i in range(state.players):
        front = state.front[i]
        if front is not None and state.out[i] in (None, state.round):
            calculated[i] = CARDS[front].value + trait(state.dinosaurs[i], disaster) + state.bonus[i]
    for _seat, cid, target in state.instants:
        key = CARDS[cid].key
        if key == "score_inversion":
            switches += 1
        elif key in ("score_booster", "score_sapper") and calculated[target] is not None:
            calculated[target] += (2 if key == "score_booster" else -2) * factor
    final = list(calculated)
    for _ in range(switches):
        present = [s for s in final if s is not None]
        if not present:
            break
        high, low = max(present), min(present)
        final = [None if s is None else low if s == high else high if s == low else s for s in final]
    return calculated, final


def _copied(value: Any) -> Any:
    """A JSON-ready value (dicts, lists and scalars) copied all the way down."""
    if type(value) is list:
        return [_copied(v) for v in value]
    if type(value) is dict:
        return {k: _copied(v) for k, v in value.items()}
    return value


# --- the log ----------------------------------------------------------------------------------

def _say(log: list[LogEntry] | None, text: str, seats: Iterable[int] | None = None) -> None:
    if log is not None:
        log.append(LogEntry(text, None if seats is None else frozenset(seats)))


def _p(seat: int) -> str:
    return f"{{p{seat}}}"


def _names(cards: Iterable[int]) -> str:
    return ", ".join(card_name(c) for c in cards) or "nothing"


# --- the flow of a round (these change the copy they are given) --------------------------------

def _reshuffle_if_empty(s: State, log: list[LogEntry] | None) -> None:
    """"If at any time the Main deck has no remaining cards, the discard pile will be shuffled"."""
    if not s.deck and s.discard:
        deck = list(s.discard)
        derive(s.seed, "reshuffle", s.reshuffles).shuffle(deck)
        s.deck, s.discard = deck, []
        s.reshuffles += 1
        _say(log, f"The discard pile ({counted(len(deck), 'card')}) was shuffled to form a new Main deck")


def _draw(s: State, n: int, log: list[LogEntry] | None) -> list[int]:
    drawn = []
    for _ in range(n):
        _reshuffle_if_empty(s, log)
        if not s.deck:
            break
        drawn.append(s.deck.pop())
        _reshuffle_if_empty(s, log)
    return drawn


def _fill_hand(s: State, seat: int, log: list[LogEntry] | None) -> None:
    missing = HAND_SIZE - len(s.hands[seat])
    if missing > 0:
        drawn = _draw(s, missing, log)
        s.hands[seat].extend(drawn)
        _say(log, f"{_p(seat)} drew {counted(len(drawn), 'card')}")
        _say(log, f"{_p(seat)} drew {_names(drawn)}", [seat])


def _start_round(s: State, log: list[LogEntry] | None) -> None:
    s.round += 1
    s.disaster = s.disaster_deck.pop()
    s.known_bottom = min(s.known_bottom, len(s.disaster_deck))
    kind = CARDS[s.disaster].key
    _say(log, f"Round {s.round}: the Disaster is {CARDS[s.disaster].name} ({kind})")
    for i in s.active():
        tries = 0
        while not has_point_card(s.hands[i]):
            tries += 1
            assert tries < 100, "the Main deck and discard pile hold no Point card"
            _say(log, f"{_p(i)} has no Point card: discarded {_names(s.hands[i])} and drew a new hand")
            s.discard.extend(s.hands[i])
            s.hands[i] = []
            _reshuffle_if_empty(s, log)
            _fill_hand(s, i, log)
    s.phase = "select"
    s.waiting = s.active()
    s.hidden = [None] * s.players


def _reveal(s: State, log: list[LogEntry] | None) -> None:
    for i in s.active():
        s.front[i], s.hidden[i] = s.hidden[i], None
    _say(log, "Revealed: " + "; ".join(f"{_p(i)} {card_name(_held(s.front[i]))}" for i in s.active()))
    with_effects = [(c, i) for i, c in enumerate(s.front) if c is not None and CARDS[c].timing in ("now", "round")]
    if any(CARDS[c].timing == "round" for c, _ in with_effects):
        s.ignored = True
        chainsaw = next(i for c, i in with_effects if CARDS[c].timing == "round")
        _say(log, f"{_p(chainsaw)}'s Flaming Chainsaw: all other Point card effects are ignored this round")
        s.queue = []
    else:
        draw = derive(s.seed, "order", s.round)
        ties = {c: draw.random() for c, _ in sorted(with_effects)}
        with_effects.sort(key=lambda ci: (CARDS[ci[0]].value, s.escape[ci[1]], ties[ci[0]]))
        s.queue = [c for c, _ in with_effects]
    _next_effect(s, log)


def _effect_possible(s: State, owner: int, cid: int) -> bool:
    """Whether the effect has anything to work on, judged from what everybody can see."""
    key = CARDS[cid].key
    others = [i for i in s.active() if i != owner]
    if key in ("pet_rock", "delicious_smoothie", "fire_spray"):
        return bool(s.hands[owner])
    if key == "dino_grabber":
        return any(s.hands[i] for i in others)
    if key == "grappling_snake":
        return any(not _card(s.front[i]).effect for i in s.neighbours(owner))
    if key == "treenoculars":
        return bool(s.deck or s.discard)
    if key == "hungry_plant":
        return len(others) >= 2
    return False


def _next_effect(s: State, log: list[LogEntry] | None) -> None:
    while s.queue:
        cid = s.queue[0]
        owner = s.holder(cid)
        if owner is not None and _effect_possible(s, owner, cid):
            s.phase, s.waiting = "effect", [owner]
            return
        if owner is not None:
            _say(log, f"{_p(owner)}'s {CARDS[cid].name} has nothing to work on")
        s.queue.pop(0)
    _open_scoring(s, log)


def _effect_done(s: State, log: list[LogEntry] | None) -> None:
    s.queue.pop(0)
    _next_effect(s, log)


def _open_scoring(s: State, log: list[LogEntry] | None) -> None:
    """Scoring: every dinosaur holding cards may play an Instant (or pass), all at once; the
    window opens again after any Instant until everybody passes."""
    s.answers = [None] * s.players
    s.waiting = [i for i in s.active() if s.hands[i]]
    if s.waiting:
        s.phase = "scoring"
    else:
        _score(s, log)


def _close_scoring(s: State, log: list[LogEntry] | None) -> None:
    played = False
    for i in range(s.players):
        answer = s.answers[i]
        if answer is not None and answer[0] != PASS:
            cid, target = answer
            s.hands[i].remove(cid)
            s.instants.append([i, cid, target])
            played = True
            on = f" on {_p(target)}" if target >= 0 else ""
            _say(log, f"{_p(i)} played {CARDS[cid].name}{on}")
    s.answers = [None] * s.players
    if played:
        _open_scoring(s, log)
    else:
        _score(s, log)


def _score(s: State, log: list[LogEntry] | None) -> None:
    _calculated, final = round_scores(s)
    s.round_scores = final
    scores = {i: v for i in s.active() if (v := final[i]) is not None}
    _say(log, "Scores: " + "; ".join(f"{_p(i)} {v}" for i, v in scores.items()))
    high, low = max(scores.values()), min(scores.values())
    if high == low:
        _say(log, "Everybody tied: the Disaster goes to the bottom of the Disaster deck and nobody scores")
        _bury_disaster(s)
        _end_round(s, log)
        return
    for i, v in scores.items():
        if v == high:
            gained = max(v, 0)  # docs/rules/dinosaurs.md: a score below zero collects nothing
            s.escape[i] += gained
            _say(log, f"{_p(i)} collected {counted(gained, 'point')} ({s.escape[i]} on the Escape Route)")
    if _finish_if_home(s, log):
        return
    lowest = [i for i, v in scores.items() if v == low]
    if len(lowest) == 1:
        _threaten(s, lowest[0], log)
    else:
        _say(log, "Sudden Death between " + " and ".join(_p(i) for i in lowest))
        _sudden_death(s, lowest, log)


def _bury_disaster(s: State) -> None:
    s.last_round = {"round": s.round, "disaster": s.disaster, "to": None}
    s.disaster_deck.insert(0, _held(s.disaster))
    s.known_bottom += 1
    s.disaster = None


def _threaten(s: State, seat: int, log: list[LogEntry] | None) -> None:
    """``seat`` would add the Disaster: it may answer with a Disaster Instant first."""
    s.victim = seat
    if s.hands[seat]:
        s.phase, s.waiting = "disaster", [seat]
    else:
        _add_disaster(s, seat, log)


def _sudden_death(s: State, seats: list[int], log: list[LogEntry] | None) -> None:
    s.sudden_seats = seats
    s.victim = None
    empty = [i for i in seats if not has_point_card(s.hands[i])]
    if len(empty) == 1:
        _say(log, f"{_p(empty[0])} has no Point card for Sudden Death")
        _add_disaster(s, empty[0], log)
    elif empty:
        _say(log, "Several dinosaurs in Sudden Death have no Point card: the Disaster goes to the bottom"
                  " of the Disaster deck and the round ends")
        _bury_disaster(s)
        _end_round(s, log)
    else:
        s.phase, s.waiting = "sudden_death", list(seats)
        s.hidden = [None] * s.players


def _reveal_sudden_death(s: State, log: list[LogEntry] | None) -> None:
    seats = s.sudden_seats
    for i in seats:
        s.sudden[i].append(_held(s.hidden[i]))
        s.hidden[i] = None
    _say(log, "Sudden Death: " + "; ".join(f"{_p(i)} {card_name(s.sudden[i][-1])}" for i in seats))
    low = min(CARDS[s.sudden[i][-1]].value for i in seats)
    lowest = [i for i in seats if CARDS[s.sudden[i][-1]].value == low]
    if len(lowest) == 1:
        _add_disaster(s, lowest[0], log)
    else:
        _say(log, "Sudden Death again between " + " and ".join(_p(i) for i in lowest))
        _sudden_death(s, lowest, log)


def _add_disaster(s: State, seat: int, log: list[LogEntry] | None) -> None:
    cid = _held(s.disaster)
    s.last_round = {"round": s.round, "disaster": cid, "to": seat}
    s.areas[seat].append(cid)
    s.disaster = None
    s.victim = None
    _say(log, f"{_p(seat)} added {CARDS[cid].name} ({CARDS[cid].key}) to their Disaster Area")
    if eliminates(s.areas[seat], s.two_player):
        s.out[seat] = s.round
        _say(log, f"{_p(seat)} is eliminated and discards their hand")
        s.discard.extend(s.hands[seat])
        s.hands[seat] = []
        left = s.active()
        if len(left) == 1:
            _finish(s, left, "last dinosaur standing", log)
            return
        _end_round(s, log)
    elif s.hands[seat]:
        s.phase, s.waiting = "discard", [seat]
    else:
        _end_round(s, log)


def _finish_if_home(s: State, log: list[LogEntry] | None) -> bool:
    home = [i for i in s.active() if s.escape[i] >= GOAL]
    if not home:
        return False
    best = max(s.escape[i] for i in home)
    _finish(s, [i for i in home if s.escape[i] == best], f"reached {GOAL} points", log)
    return True


def _finish(s: State, winners: list[int], reason: str, log: list[LogEntry] | None) -> None:
    s.phase, s.waiting, s.winners, s.reason = "over", [], winners, reason
    _say(log, " and ".join(_p(i) for i in winners) + f" won: {reason}")


def _end_round(s: State, log: list[LogEntry] | None) -> None:
    for i in s.active():
        if s.areas[i]:
            s.escape[i] += len(s.areas[i])
            _say(log, f"{_p(i)} moved {counted(len(s.areas[i]), 'space')} for their Disasters"
                      f" ({s.escape[i]} on the Escape Route)")
    if _finish_if_home(s, log):
        return
    for i in s.active():
        _fill_hand(s, i, log)
    summary = s.last_round if s.last_round and s.last_round.get("round") == s.round else {}
    s.last_round = {"round": s.round, "disaster": summary.get("disaster"), "to": summary.get("to"),
                    "front": list(s.front), "sudden": [list(c) for c in s.sudden], "bonus": list(s.bonus),
                    "instants": [list(i) for i in s.instants], "scores": s.round_scores}
    for i in range(s.players):
        front = s.front[i]
        if front is not None:
            s.discard.append(front)
        s.discard.extend(s.sudden[i])
    s.discard.extend(cid for _seat, cid, _target in s.instants)
    s.front = [None] * s.players
    s.sudden = [[] for _ in range(s.players)]
    s.instants, s.bonus, s.queue, s.ignored = [], [0] * s.players, [], False
    s.sudden_seats, s.victim, s.round_scores = [], None, None
    _reshuffle_if_empty(s, log)
    _start_round(s, log)


# --- actions ----------------------------------------------------------------------------------

def _seat_word(seat: int) -> str:
    return f"player {seat + 1}"


def _card_field(action: Mapping[str, Any], key: str = "card") -> int:
    value = action.get(key)
    if type(value) is not int or not 0 <= value < len(CARDS):
        raise IllegalAction(f"{action.get('type')} needs {key!r}, a card number from 0 to 96, not {value!r}")
    return value


def _seat_field(s: State, action: Mapping[str, Any], key: str = "player") -> int:
    value = action.get(key)
    if type(value) is not int or not 0 <= value < s.players:
        raise IllegalAction(f"{action.get('type')} needs {key!r}, a seat from 0 to {s.players - 1}, not {value!r}")
    return value


def _cards_field(action: Mapping[str, Any]) -> list[int]:
    value = action.get("cards")
    if type(value) is not list or not value or any(type(c) is not int or not 0 <= c < len(CARDS) for c in value):
        raise IllegalAction(f"discard needs 'cards', a non-empty list of card numbers, not {value!r}")
    if len(set(value)) != len(value):
        raise IllegalAction(f"discard names a card twice: {value!r}")
    return value


# The fields each action type may carry besides its type.
ACTION_FIELDS = {"dinosaur": {"type", "dinosaur"}, "play": {"type", "card"}, "pass": {"type"},
                 "discard": {"type", "cards"}, "instant": {"type", "card", "player"}, "take": {"type", "card"},
                 "look_hand": {"type", "player"}, "look_deck": {"type"}, "swap": {"type", "player", "players"}}


def _check_effect_discard(c: Card, hand: list[int], action: Mapping[str, Any]) -> None:
    """Is ``action`` a discard that the effect of card ``c`` allows from ``hand``?"""
    cards = _cards_field(action)
    for cid in cards:
        if cid not in hand:
            raise IllegalAction(f"card {cid} is not in your hand")
    if c.key == "fire_spray":
        if len(cards) > 3:
            raise IllegalAction("Fire Spray discards up to 3 cards")
        return
    if len(cards) != 1:
        raise IllegalAction(f"{c.name} discards one Point card")
    d = CARDS[cards[0]]
    if d.kind != "point":
        raise IllegalAction(f"{c.name} discards a Point card, and {d.name} is an Instant")
    if c.key == "delicious_smoothie" and not d.effect:
        raise IllegalAction(f"\"Delicious\" Smoothie discards a Point card with an effect, and {d.name} has none")


class Dinosaurs(Game[State]):
    id = "dinosaurs"
    name = "Happy Little Dinosaurs"
    pitch = ("Dodge Natural, Predatory and Emotional disasters and Meteors: play Point cards face down,"
             " reveal, and run 50 spaces up your Escape Route first.")
    min_players = 2
    max_players = 4
    hidden_information = True
    action_fields = {"dinosaur": {"dinosaur": "str"}, "play": {"card": "int"}, "pass": {}, "discard": {"cards": "ints"},
                     "instant": {"card": "int", "player": "int?"}, "take": {"card": "int"},
                     "look_hand": {"player": "int"}, "look_deck": {}, "swap": {"player": "int?", "players": "ints?"}}
    options = (Option("two_player_rules", "2-player rules", "bool", True,
                      "With two players: no Point cards of value 1-3, and a dinosaur is eliminated only"
                      " by four Disasters of one type or two of each type. Ignored with 3-4 players."),)

    # -- set-up ---------------------------------------------------------------------------------
    def start(self, players: int, options: Mapping[str, Any] | None, seed: int) -> State:
        self.check_players(players)
        opts = self.resolve_options(options, players)
        two_player = players == 2 and opts["two_player_rules"]
        removed = sorted(SMALL_POINT_CARDS) if two_player else []
        deck = [c for c in MAIN_CARDS if c not in SMALL_POINT_CARDS] if two_player else list(MAIN_CARDS)
        derive(seed, "main deck").shuffle(deck)
        disasters = list(DISASTER_CARDS)
        derive(seed, "disaster deck").shuffle(disasters)
        n = players
        return State(players=n, two_player=two_player, seed=seed, dinosaurs=[None] * n, hands=[[] for _ in range(n)],
                     deck=deck, discard=[], removed=removed, disaster_deck=disasters, known_bottom=0,
                     disaster=None, areas=[[] for _ in range(n)], escape=[0] * n, out=[None] * n, round=0,
                     phase="dinosaur", waiting=[0], hidden=[None] * n, front=[None] * n,
                     sudden=[[] for _ in range(n)], sudden_seats=[], instants=[], answers=[None] * n,
                     bonus=[0] * n, queue=[], ignored=False, peek=[], grab=None, victim=None,
                     round_scores=None, winners=[], reason="", reshuffles=0, last_round=None)

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset(state.waiting)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    # -- listing --------------------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        s = state
        if seat not in s.waiting:
            return []
        phase = s.phase
        hand = s.hands[seat]
        if phase == "dinosaur":
            taken = set(s.dinosaurs)
            return [{"type": "dinosaur", "dinosaur": d} for d in DINOSAURS if d not in taken]
        if phase in ("select", "sudden_death"):
            return [{"type": "play", "card": c} for c in hand if IS_POINT[c]]
        out: list[Action] = [{"type": "pass"}]
        if phase == "discard":
            return out + [{"type": "discard", "cards": [c]} for c in hand]
        if phase == "disaster":
            for c in hand:
                key = CARDS[c].key
                if key == "disaster_insurance":
                    out.append({"type": "instant", "card": c})
                elif key == "disaster_redirect":
                    out += [{"type": "instant", "card": c, "player": t} for t in s.active() if t != seat]
            return out
        if phase == "scoring":
            for c in hand:
                key = CARDS[c].key
                if key == "score_inversion":
                    out.append({"type": "instant", "card": c})
                elif key in ("score_booster", "score_sapper"):
                    out += [{"type": "instant", "card": c, "player": t} for t in s.active()]
            return out
        return self._effect_actions(s, seat)

    def _effect_actions(self, s: State, seat: int) -> list[Action]:
        key = CARDS[s.queue[0]].key
        hand = s.hands[seat]
        if s.peek:
            return [{"type": "take", "card": c} for c in s.peek]
        if s.grab is not None:
            return [{"type": "take", "card": c} for c in s.hands[s.grab]]
        out: list[Action] = [{"type": "pass"}]
        others = [i for i in s.active() if i != seat]
        if key == "pet_rock":
            out += [{"type": "discard", "cards": [c]} for c in hand if IS_POINT[c]]
        elif key == "delicious_smoothie":
            out += [{"type": "discard", "cards": [c]} for c in hand if IS_POINT[c] and CARDS[c].effect]
        elif key == "fire_spray":
            for k in (1, 2, 3):
                out += [{"type": "discard", "cards": list(cs)} for cs in combinations(hand, k)]
        elif key == "dino_grabber":
            out += [{"type": "look_hand", "player": i} for i in others if s.hands[i]]
        elif key == "grappling_snake":
            out += [{"type": "swap", "player": i} for i in s.neighbours(seat) if not _card(s.front[i]).effect]
        elif key == "treenoculars":
            out.append({"type": "look_deck"})
        elif key == "hungry_plant":
            out += [{"type": "swap", "players": [a, b]} for a, b in combinations(others, 2)]
        return out

    # -- checking -------------------------------------------------------------------------------
    def check(self, state: State, seat: int, action: Any) -> None:
        self._checked(state, seat, action)

    def _checked(self, s: State, seat: int, action: Any) -> str:
        kind = require_action(action)
        if s.phase == "over":
            raise IllegalAction("the game is over")
        if type(seat) is not int or not 0 <= seat < s.players:
            raise IllegalAction(f"there is no seat {seat!r} in this {s.players}-player game")
        if seat not in s.waiting:
            if s.out[seat] is not None:
                raise IllegalAction(f"{_seat_word(seat)} has been eliminated")
            who = ", ".join(_seat_word(i) for i in s.waiting)
            raise IllegalAction(f"{_seat_word(seat)} has nothing to do now ({self._phase_words(s)}; waiting for {who})")
        allowed = self._allowed_types(s)
        if kind not in allowed:
            raise IllegalAction(f"{kind!r} is not possible now ({self._phase_words(s)}): the possible actions"
                                f" are {', '.join(map(repr, allowed))}")
        extra = set(action) - ACTION_FIELDS[kind]
        if kind == "swap":
            extra |= {"players"} if CARDS[s.queue[0]].key == "grappling_snake" else {"player"}
            extra &= set(action)
        if extra:
            raise IllegalAction(f"a {kind!r} action takes no {', '.join(map(repr, sorted(extra)))}")
        getattr(self, f"_check_{s.phase}")(s, seat, action, kind)
        return kind

    def _phase_words(self, s: State) -> str:
        if s.phase == "effect":
            return f"{_seat_word(_held(s.effect_owner()))} is using {CARDS[s.queue[0]].name}"
        return {"dinosaur": "choosing dinosaurs", "select": "choosing Point cards face down",
                "scoring": "Instants may be played during scoring",
                "disaster": f"{_seat_word(s.victim or 0)} would add the Disaster",
                "sudden_death": "Sudden Death", "discard": "a dinosaur may discard after taking a Disaster"}[s.phase]

    def _allowed_types(self, s: State) -> tuple[str, ...]:
        if s.phase == "dinosaur":
            return ("dinosaur",)
        if s.phase in ("select", "sudden_death"):
            return ("play",)
        if s.phase == "discard":
            return ("pass", "discard")
        if s.phase in ("scoring", "disaster"):
            return ("pass", "instant")
        if s.peek or s.grab is not None:
            return ("take",)
        return {"pet_rock": ("pass", "discard"), "delicious_smoothie": ("pass", "discard"),
                "fire_spray": ("pass", "discard"), "dino_grabber": ("pass", "look_hand"),
                "grappling_snake": ("pass", "swap"), "treenoculars": ("pass", "look_deck"),
                "hungry_plant": ("pass", "swap")}[CARDS[s.queue[0]].key]

    def _check_dinosaur(self, s: State, seat: int, action: Mapping[str, Any], kind: str) -> None:
        d = action.get("dinosaur")
        if d not in DINOSAURS:
            raise IllegalAction(f"there is no dinosaur {d!r} (the dinosaurs: {', '.join(DINOSAURS)})")
        if d in s.dinosaurs:
            raise IllegalAction(f"{DINOSAURS[d]['name']} is already taken by {_seat_word(s.dinosaurs.index(d))}")

    def _check_select(self, s: State, seat: int, action: Mapping[str, Any], kind: str) -> None:
        cid = _card_field(action)
        if cid not in s.hands[seat]:
            raise IllegalAction(f"card {cid} is not in your hand")
        if not IS_POINT[cid]:
            raise IllegalAction(f"{CARDS[cid].name} is an Instant, not a Point card: only Point cards are played"
                                " face down")

    _check_sudden_death = _check_select

    def _check_discard(self, s: State, seat: int, action: Mapping[str, Any], kind: str) -> None:
        if kind == "discard":
            cards = _cards_field(action)
            if len(cards) != 1:
                raise IllegalAction("after taking a Disaster you may discard one card, not several")
            if cards[0] not in s.hands[seat]:
                raise IllegalAction(f"card {cards[0]} is not in your hand")

    def _check_instant(self, s: State, seat: int, action: Mapping[str, Any], window: str) -> None:
        cid = _card_field(action)
        if cid not in s.hands[seat]:
            raise IllegalAction(f"card {cid} is not in your hand")
        c = CARDS[cid]
        if c.kind != "instant":
            raise IllegalAction(f"{c.name} is not an Instant card")
        if c.window != window:
            when = "during scoring" if c.window == "scoring" else "when you would add a Disaster"
            raise IllegalAction(f"{c.name} is played {when}, not now")
        needs_target = c.key in ("score_booster", "score_sapper", "disaster_redirect")
        if not needs_target:
            if "player" in action and action["player"] is not None:
                raise IllegalAction(f"{c.name} takes no 'player'")
            return
        target = _seat_field(s, action)
        if s.out[target] is not None:
            raise IllegalAction(f"{_seat_word(target)} has been eliminated")
        if c.key == "disaster_redirect" and target == seat:
            raise IllegalAction("Disaster Redirect sends the Disaster to another player, not to yourself")

    def _check_scoring(self, s: State, seat: int, action: Mapping[str, Any], kind: str) -> None:
        if kind == "instant":
            self._check_instant(s, seat, action, "scoring")

    def _check_disaster(self, s: State, seat: int, action: Mapping[str, Any], kind: str) -> None:
        if kind == "instant":
            self._check_instant(s, seat, action, "disaster")

    def _check_effect(self, s: State, seat: int, action: Mapping[str, Any], kind: str) -> None:
        c = CARDS[s.queue[0]]
        if kind == "take":
            cid = _card_field(action)
            pool = s.peek if s.peek else s.hands[_held(s.grab)]
            if cid not in pool:
                where = "the top cards you looked at" if s.peek else f"{_seat_word(_held(s.grab))}'s hand"
                raise IllegalAction(f"card {cid} is not among {where}")
        elif kind == "discard":
            _check_effect_discard(c, s.hands[seat], action)
        elif kind == "look_hand":
            target = _seat_field(s, action)
            if target == seat or s.out[target] is not None:
                raise IllegalAction("Dino Grabber looks at the hand of another player still in the game")
            if not s.hands[target]:
                raise IllegalAction(f"{_seat_word(target)} has no cards in hand")
        elif kind == "swap" and c.key == "grappling_snake":
            target = _seat_field(s, action)
            if target not in s.neighbours(seat):
                raise IllegalAction("Grappling Snake swaps with the player to your right or left, not"
                                    f" {_seat_word(target)}")
            if _card(s.front[target]).effect:
                raise IllegalAction(f"you cannot swap for a card that has an effect ({_card(s.front[target]).name})")
        elif kind == "swap":
            pair = action.get("players")
            if (type(pair) is not list or len(pair) != 2 or any(type(p) is not int for p in pair)
                    or pair[0] == pair[1]):
                raise IllegalAction(f"Hungry Plant swap needs 'players', two different seats, not {pair!r}")
            for p in pair:
                if not 0 <= p < s.players or p == seat or s.out[p] is not None:
                    raise IllegalAction(f"Hungry Plant swaps the Point cards of two other players still in the game,"
                                        f" not {_seat_word(p) if 0 <= p < s.players else p}")

    # -- applying -------------------------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action, log: list[LogEntry] | None = None) -> State:
        kind = self._checked(state, seat, action)
        s = state.copy()
        getattr(self, f"_apply_{s.phase}")(s, seat, action, kind, log)
        _reshuffle_if_empty(s, log)
        return s

    def _apply_dinosaur(self, s: State, seat: int, action: Action, kind: str, log: list[LogEntry] | None) -> None:
        s.dinosaurs[seat] = action["dinosaur"]
        _say(log, f"{_p(seat)} is {DINOSAURS[action['dinosaur']]['name']}")
        if None in s.dinosaurs:
            s.waiting = [s.dinosaurs.index(None)]
            return
        for i in range(s.players):
            s.hands[i] = _draw(s, HAND_SIZE, log)
            _say(log, f"{_p(i)} was dealt {_names(s.hands[i])}", [i])
        _start_round(s, log)

    def _apply_select(self, s: State, seat: int, action: Action, kind: str, log: list[LogEntry] | None) -> None:
        cid = action["card"]
        s.hands[seat].remove(cid)
        s.hidden[seat] = cid
        s.waiting.remove(seat)
        _say(log, f"{_p(seat)} chose a card face down")
        _say(log, f"{_p(seat)} chose {card_name(cid)}", [seat])
        if not s.waiting:
            if s.phase == "select":
                _reveal(s, log)
            else:
                _reveal_sudden_death(s, log)

    _apply_sudden_death = _apply_select

    def _apply_scoring(self, s: State, seat: int, action: Action, kind: str, log: list[LogEntry] | None) -> None:
        if kind == "pass":
            s.answers[seat] = [PASS, -1]
        else:
            target = action.get("player")
            s.answers[seat] = [action["card"], target if type(target) is int else -1]
        s.waiting.remove(seat)
        _say(log, f"{_p(seat)} answered")
        if not s.waiting:
            _close_scoring(s, log)

    def _apply_disaster(self, s: State, seat: int, action: Action, kind: str, log: list[LogEntry] | None) -> None:
        if kind == "pass":
            _add_disaster(s, seat, log)
            return
        cid = action["card"]
        s.hands[seat].remove(cid)
        if CARDS[cid].key == "disaster_insurance":
            s.instants.append([seat, cid, -1])
            _say(log, f"{_p(seat)} played Disaster Insurance: {_card(s.disaster).name} goes to the bottom of"
                      " the Disaster deck")
            _bury_disaster(s)
            s.victim = None
            _end_round(s, log)
        else:
            target = action["player"]
            s.instants.append([seat, cid, target])
            _say(log, f"{_p(seat)} played Disaster Redirect: the Disaster goes to {_p(target)}")
            _threaten(s, target, log)

    def _apply_discard(self, s: State, seat: int, action: Action, kind: str, log: list[LogEntry] | None) -> None:
        if kind == "discard":
            cid = action["cards"][0]
            s.hands[seat].remove(cid)
            s.discard.append(cid)
            _say(log, f"{_p(seat)} discarded {card_name(cid)}")
        _end_round(s, log)

    def _apply_effect(self, s: State, seat: int, action: Action, kind: str, log: list[LogEntry] | None) -> None:
        c = CARDS[s.queue[0]]
        me = _p(seat)
        if kind == "pass":
            _say(log, f"{me} did not use {c.name}")
        elif kind == "discard":
            for cid in action["cards"]:
                s.hands[seat].remove(cid)
                s.discard.append(cid)
            if c.key == "fire_spray":
                _say(log, f"{me}'s Fire Spray: discarded {_names(action['cards'])}")
            else:
                gained = CARDS[action["cards"][0]].value
                s.bonus[seat] += gained
                _say(log, f"{me}'s {c.name}: discarded {card_name(action['cards'][0])} for {counted(gained, 'point')}")
        elif kind == "look_hand":
            s.grab = action["player"]
            _say(log, f"{me} looks at {_p(s.grab)}'s hand with Dino Grabber")
            _say(log, f"{me} sees {_names(s.hands[s.grab])} in {_p(s.grab)}'s hand", [seat])
            return
        elif kind == "look_deck":
            s.peek = _draw(s, 2, log)
            _say(log, f"{me} looks at the top {counted(len(s.peek), 'card')} of the Main deck with Treenoculars")
            _say(log, f"{me} sees {_names(s.peek)}", [seat])
            return
        elif kind == "take" and s.grab is not None:
            cid, target = action["card"], s.grab
            s.hands[target].remove(cid)
            s.hands[seat].append(cid)
            s.grab = None
            _say(log, f"{me} took a card from {_p(target)}'s hand")
            _say(log, f"{me} took {card_name(cid)} from {_p(target)}'s hand", [seat, target])
        elif kind == "take":
            cid = action["card"]
            s.hands[seat].append(cid)
            rest = [p for p in s.peek if p != cid]
            s.discard.extend(rest)
            s.peek = []
            _say(log, f"{me} kept one card and discarded {_names(rest)}")
            _say(log, f"{me} kept {card_name(cid)}", [seat])
        elif kind == "swap" and c.key == "grappling_snake":
            t = action["player"]
            s.front[seat], s.front[t] = s.front[t], s.front[seat]
            _say(log, f"{me}'s Grappling Snake: swapped Point cards with {_p(t)}")
        else:
            a, b = action["players"]
            s.front[a], s.front[b] = s.front[b], s.front[a]
            _say(log, f"{me}'s Hungry Plant: swapped the Point cards of {_p(a)} and {_p(b)}")
        _effect_done(s, log)

    # -- results and views ----------------------------------------------------------------------
    def result(self, state: State) -> Result | None:
        s = state
        if s.phase != "over":
            return None
        big = s.round + 1
        keys = [(i in s.winners, s.out[i] is None, s.out[i] if s.out[i] is not None else big, s.escape[i])
                for i in range(s.players)]
        ranks = tuple(1 + sum(1 for other in keys if other > key) for key in keys)
        return Result(tuple(float(e) for e in s.escape), ranks, s.reason,
                      {"eliminated_in_round": list(s.out), "rounds": s.round})

    def view(self, state: State, seat: int | None) -> View:
        s = state
        me = seat if type(seat) is int and 0 <= seat < s.players else None
        revealed = s.phase in ("effect", "scoring", "disaster", "sudden_death", "discard") or (
            s.phase == "over" and any(c is not None for c in s.front))
        calculated, final = round_scores(s) if revealed else ([None] * s.players, [None] * s.players)
        owner = s.effect_owner()
        players = []
        for i in range(s.players):
            players.append({
                "dinosaur": s.dinosaurs[i], "escape": s.escape[i], "area": list(s.areas[i]),
                "eliminated": s.out[i] is not None, "eliminated_round": s.out[i],
                "hand_size": len(s.hands[i]), "face_down": s.hidden[i] is not None,
                "card": s.front[i], "sudden_death": list(s.sudden[i]), "bonus": s.bonus[i],
                "answered": s.phase == "scoring" and s.answers[i] is not None,
                "score": calculated[i], "final_score": final[i],
                "trait": trait(s.dinosaurs[i], round_disaster(s) if revealed else s.disaster),
                "deadly": list(deadly_types(s.areas[i], s.two_player)),
            })
        mine = me is not None
        answer = s.answers[me] if me is not None and s.phase == "scoring" else None
        result = self.result(s)
        return {
            "game": self.id, "seat": me, "round": s.round, "phase": s.phase, "to_act": sorted(s.waiting),
            "options": {"two_player_rules": s.two_player}, "players": players,
            "scores": list(s.escape), "goal": GOAL,
            "disaster": s.disaster,
            "hand": list(s.hands[me]) if me is not None else None,
            "face_down": s.hidden[me] if me is not None else None,
            "answer": None if answer is None else {"card": answer[0], "player": answer[1]},
            "deck_size": len(s.deck), "discard": list(s.discard), "removed": list(s.removed),
            "disaster_deck_size": len(s.disaster_deck),
            "disaster_bottom": list(s.disaster_deck[:s.known_bottom]),
            "reshuffles": s.reshuffles,
            "effect": None if owner is None else {"card": s.queue[0], "player": owner},
            "queue": list(s.queue), "effects_ignored": s.ignored,
            "peek": list(s.peek) if mine and owner == me else None, "peek_size": len(s.peek),
            "grab": None if s.grab is None else {
                "player": s.grab, "hand": list(s.hands[s.grab]) if mine and owner == me else None},
            "instants": [{"player": p, "card": c, "target": None if t < 0 else t} for p, c, t in s.instants],
            "victim": s.victim, "sudden_death_seats": list(s.sudden_seats),
            "round_scores": None if s.round_scores is None else list(s.round_scores),
            "last_round": _copied(s.last_round),
            "result": None if result is None else result.to_json(),
        }

    def sample(self, view: View, seat: int, rng: random.Random) -> State:
        """A full state consistent with ``seat``'s view: the cards it cannot see (other hands,
        other face-down cards, the Main deck's order, another player's Treenoculars cards, the
        Disaster deck above the cards seen going to its bottom) are dealt at random, keeping every
        face-down card and the hand of each dinosaur still to choose holding a Point card. Other
        players' hidden answers in a scoring window are taken to be passes."""
        n = len(view["players"])
        players = view["players"]
        hand = list(view["hand"] or [])
        face_down = view["face_down"]
        peek_mine = view["peek"]
        grab = view["grab"]
        known_hands: dict[int, list[int]] = {seat: hand}
        if grab is not None and grab["hand"] is not None:
            known_hands[grab["player"]] = list(grab["hand"])
        seen = set(hand) | set(view["discard"]) | set(view["removed"])
        seen |= {p["card"] for p in players if p["card"] is not None}
        for p in players:
            seen |= set(p["sudden_death"])
        seen |= {i["card"] for i in view["instants"]}
        if face_down is not None:
            seen.add(face_down)
        if peek_mine:
            seen |= set(peek_mine)
        for cards in known_hands.values():
            seen |= set(cards)
        unknown = [c for c in MAIN_CARDS if c not in seen]
        phase = view["phase"]
        must_choose = [i for i in view["to_act"] if phase in ("select", "sudden_death") and i != seat]
        hidden_seats = [i for i in range(n) if players[i]["face_down"] and i != seat]
        hand_seats = [i for i in range(n) if i not in known_hands]
        peek_size = 0 if peek_mine is not None else view["peek_size"]
        for attempt in range(200):
            rng.shuffle(unknown)
            if attempt == 199:  # place Point cards where they are needed, then deal the rest
                points = [c for c in unknown if IS_POINT[c]]
                needed = hidden_seats + must_choose
                front = points[:len(needed)]
                unknown = front + [c for c in unknown if c not in front]
            pos = 0
            hidden: list[int | None] = [None] * n
            for i in hidden_seats:
                hidden[i] = unknown[pos]
                pos += 1
            hands: list[list[int]] = [[] for _ in range(n)]
            for i in must_choose:
                if i in hand_seats and players[i]["hand_size"]:
                    hands[i].append(unknown[pos])
                    pos += 1
            for i in hand_seats:
                k = players[i]["hand_size"] - len(hands[i])
                hands[i].extend(unknown[pos:pos + k])
                pos += k
            if all(IS_POINT[_held(hidden[i])] for i in hidden_seats) and all(
                    has_point_card(hands[i]) or i in known_hands for i in must_choose):
                break
        for i, cards in known_hands.items():
            hands[i] = list(cards)
        if face_down is not None:
            hidden[seat] = face_down
        peek = list(peek_mine) if peek_mine is not None else unknown[pos:pos + peek_size]
        pos += 0 if peek_mine is not None else peek_size
        deck = unknown[pos:]
        assert len(deck) == view["deck_size"], "the view's card counts do not add up"
        gone = {view["disaster"]} | set(view["disaster_bottom"])
        for p in players:
            gone |= set(p["area"])
        upper = [d for d in DISASTER_CARDS if d not in gone]
        rng.shuffle(upper)
        disaster_deck = list(view["disaster_bottom"]) + upper
        answers: list[list[int] | None] = [None] * n
        if phase == "scoring":
            for i in range(n):
                if players[i]["answered"]:
                    answers[i] = [PASS, -1]
            if view["answer"] is not None:
                answers[seat] = [view["answer"]["card"], view["answer"]["player"]]
        return State(
            players=n, two_player=view["options"]["two_player_rules"], seed=rng.getrandbits(63),
            dinosaurs=[p["dinosaur"] for p in players], hands=hands, deck=deck, discard=list(view["discard"]),
            removed=list(view["removed"]), disaster_deck=disaster_deck, known_bottom=len(view["disaster_bottom"]),
            disaster=view["disaster"], areas=[list(p["area"]) for p in players],
            escape=[p["escape"] for p in players], out=[p["eliminated_round"] for p in players],
            round=view["round"], phase=phase, waiting=list(view["to_act"]), hidden=hidden,
            front=[p["card"] for p in players], sudden=[list(p["sudden_death"]) for p in players],
            sudden_seats=list(view["sudden_death_seats"]),
            instants=[[i["player"], i["card"], -1 if i["target"] is None else i["target"]] for i in view["instants"]],
            answers=answers, bonus=[p["bonus"] for p in players], queue=list(view["queue"]),
            ignored=view["effects_ignored"], peek=peek, grab=None if grab is None else grab["player"],
            victim=view["victim"], round_scores=None if view["round_scores"] is None else list(view["round_scores"]),
            winners=list(view["result"]["winners"]) if view["result"] else [],
            reason=view["result"]["reason"] if view["result"] else "", reshuffles=view["reshuffles"],
            last_round=_copied(view["last_round"]))

    def state_to_json(self, state: State) -> dict[str, Any]:
        return state.copy().to_json()

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State(**{name: data[name] for name in State.FIELDS}).copy()

