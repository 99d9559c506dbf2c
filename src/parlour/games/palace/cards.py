"""Palace's cards: the pack, the value each card plays as, and how cards are written.

A physical card is an ``id`` (its place in the unshuffled packs, 0..56 for the first pack, 57..113
for the second); what is printed on it is its ``face``; what it counts as on the play pile is its
``value``. Views and actions only ever name cards by their printed code (``"7H"``, ``"10S"``,
``"joker"``), never by id, so ids carry no secret.

>>> code(ID_FACE[0]), VALUE[ID_FACE[0]], value_name(11)
('2H', 2, 'J')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

SUITS = "HDCS"  # hearts, diamonds, clubs, spades: suits never matter, they are only printed
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

# Faces: 0..51 the ranked cards (rank-major, so sorting faces sorts by rank), then the extras.
JOKER, RULES_CARD, SOCIAL_CARD, CARDINAL_CARD = 52, 53, 54, 55
FACES = 56
# One pack as players have it (docs/rules/palace.md): 52 cards, 2 Jokers, 1 Rules, 1 Social, 1 Cardinal.
PACK: tuple[int, ...] = tuple(range(52)) + (JOKER, JOKER, RULES_CARD, SOCIAL_CARD, CARDINAL_CARD)
PACK_SIZE = len(PACK)
MAX_PACKS = 2

# Values: the ranked cards 2..14 (aces high), the three school cards 15..17; a joker has none
# until it is played as something.
ACE = 14
RULES, SOCIAL, CARDINAL = 15, 16, 17
JOKER_VALUE = 0
NUMBER_VALUES = range(2, ACE + 1)
AS_VALUES: tuple[int, ...] = tuple(range(2, CARDINAL + 1))  # what a joker may be played as
INVISIBLE = frozenset((3, 7, RULES, SOCIAL, CARDINAL))  # never the card that counts
ANYWHERE = frozenset((2, 3, 7, RULES, SOCIAL, CARDINAL))  # go on any card (a Rules card aside, for some)
NOT_ON_RULES = frozenset((2, 3, 7, RULES))  # what a Rules card on top refuses (edition 1: ANYWHERE)
PLAIN = frozenset((4, 5, 6, 11, 12, 13, ACE))  # edition 1: a joker played alone as one goes on anything

VALUE: tuple[int, ...] = tuple(f // 4 + 2 for f in range(52)) + (JOKER_VALUE, RULES, SOCIAL, CARDINAL)
_VALUE_NAMES = {v: RANKS[v - 2] for v in NUMBER_VALUES} | {RULES: "rules", SOCIAL: "social",
                                                            CARDINAL: "cardinal", JOKER_VALUE: "joker"}
VALUE_BY_NAME = {name: v for v, name in _VALUE_NAMES.items() if v != JOKER_VALUE}
_CODES = tuple(RANKS[f // 4] + SUITS[f % 4] for f in range(52)) + ("joker", "rules", "social", "cardinal")
FACE_BY_CODE = {c: f for f, c in enumerate(_CODES)}

ID_FACE: tuple[int, ...] = PACK * MAX_PACKS
ID_VALUE: tuple[int, ...] = tuple(VALUE[f] for f in ID_FACE)
ID_CODE: tuple[str, ...] = tuple(_CODES[f] for f in ID_FACE)
# Sorting key of an id: by face (so by rank, then suit, the extras last), ties by id.
ID_ORDER: tuple[int, ...] = tuple(f * 1000 + i for i, f in enumerate(ID_FACE))


def code(face: int) -> str:
    return _CODES[face]


def value_name(value: int) -> str:
    return _VALUE_NAMES[value]


def card_name(value: int) -> str:
    """How the log names a value: 'a 7', 'an A', 'a Rules card'."""
    if value in (RULES, SOCIAL, CARDINAL):
        return f"a {_VALUE_NAMES[value].capitalize()} card"
    name = _VALUE_NAMES[value]
    return f"an {name}" if name in ("8", "A") else f"a {name}"


# --- how the log writes cards, as the board draws them ("Q♣", "10♥") and as people say them ---------
_SIGNS = dict(zip(SUITS, "♥♦♣♠"))
_LABELS = tuple(RANKS[f // 4] + _SIGNS[SUITS[f % 4]] for f in range(52)) + (
    "a Joker", "a Rules card", "a Social card", "a Cardinal card")
_VALUE_WORDS = {v: RANKS[v - 2] for v in NUMBER_VALUES} | {11: "Jack", 12: "Queen", 13: "King", ACE: "Ace",
                                                          RULES: "Rules card", SOCIAL: "Social card",
                                                          CARDINAL: "Cardinal card"}
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def label(face: int) -> str:
    """A card as the log writes it: 'Q♣', '10♥', 'a Joker', 'a Rules card'."""
    return _LABELS[face]


def listed(words: list[str]) -> str:
    """'7♥', '7♥ and 7♦', '7♥, 7♦ and a Joker'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def number(n: int) -> str:
    return _NUMBERS[n] if n < len(_NUMBERS) else str(n)


def a_value(value: int) -> str:
    """One card of a value, as people say it: 'a 7', 'an 8', 'an Ace', 'a Rules card'."""
    word = _VALUE_WORDS[value]
    return f"an {word}" if word in ("8", "Ace") else f"a {word}"


def plural(value: int) -> str:
    """'7s', 'Kings', 'Rules cards'."""
    return f"{_VALUE_WORDS[value]}s"


def values(n: int, value: int) -> str:
    """Several cards of a value: 'three 7s', 'two Kings', 'four 10s'."""
    return f"{number(n)} {plural(value)}"


def codes(ids: Iterable[int]) -> list[str]:
    return [ID_CODE[i] for i in ids]


_ORDER_OF = dict(enumerate(ID_ORDER)).__getitem__  # a dict's lookup is a quicker sort key than a tuple's


def sort_ids(ids: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(ids, key=_ORDER_OF))


def packs_for(players: int) -> int:
    """One pack for 2 to 5 players, two shuffled together for 6 (docs/rules/palace.md)."""
    return 1 if players <= 5 else 2


def pack_faces(packs: int) -> Counter[int]:
    return Counter(PACK * packs)
