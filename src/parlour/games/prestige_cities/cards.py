"""Prestige Cities' bonus cards: the four decks, the deal, and what the Deck 2 and Deck 4 cards measure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...core import derive
from .board import (
    BLIGHT,
    COMMERCE,
    CULTURE,
    DATA,
    DIE_BLOCKS,
    EDGE,
    INDUSTRY,
    INNER,
    PARKS,
    RESIDENTIAL,
    City,
    built,
    components,
    largest,
    neighbours,
)

CARDS = {int(deck): {c["id"]: c for c in cards} for deck, cards in DATA["cards"].items()}
CARD_DECK = {cid: deck for deck, cards in CARDS.items() for cid in cards}
GOAL: int = DATA["deck1_goal"]  # blocks of its type a Deck 1 card asks for
FULL_REWARD: int = DATA["reward"]["full"]
SHARED_REWARD: int = DATA["reward"]["shared"]


def deal_cards(seed: int, blight: bool, chosen: Mapping[str, str]) -> tuple[str, ...]:
    """One card per deck; no two share a group letter (a later deck is redealt); chosen ones kept."""
    rng = derive(seed, "bonus cards")
    groups = {CARDS[d][chosen[f"deck{d}"]]["group"] for d in CARDS if chosen[f"deck{d}"] != "random"} - {None}
    dealt = []
    for deck in sorted(CARDS):
        name = chosen[f"deck{deck}"]
        if name == "random":
            fits = [c for c, card in CARDS[deck].items()
                    if card["group"] not in groups and (blight or not card.get("blight"))]
            name = rng.choice(sorted(fits))
            if CARDS[deck][name]["group"]:
                groups.add(CARDS[deck][name]["group"])
        dealt.append(name)
    return tuple(dealt)


def best_seats(measures: Sequence[float], lowest: bool = False) -> list[int]:
    """The seats with the best measure; a "most" card needs at least 1 (docs/rules)."""
    best = min(measures) if lowest else max(measures)
    if not lowest and best <= 0:
        return []
    return [s for s, m in enumerate(measures) if m == best]


def deck2_measure(card: str, city: City) -> int:
    if card == "downtown_developer":
        return (built(city) & INNER).bit_count()
    if card == "race_to_the_exurbs":
        return (built(city) & EDGE).bit_count()
    if card == "monument_builder":
        return city[PARKS].bit_count()
    if card == "measured_growth":
        return built(city).bit_count()
    if card == "retail_entrepreneur":
        return (city[COMMERCE] & neighbours(city[RESIDENTIAL])).bit_count()
    if card == "industrial_powerhouse":
        return city[INDUSTRY].bit_count()
    raise AssertionError(card)


def least_numerous(city: City) -> list[int]:
    """The types (of the five) the city has fewest blocks of."""
    fewest = min(city[b].bit_count() for b in DIE_BLOCKS)
    return [b for b in DIE_BLOCKS if city[b].bit_count() == fewest]


def deck4_measure(card: str, city: City, blight: bool) -> int:
    if card == "champs_central":
        return largest(city[PARKS] & INNER)
    if card == "mixed_use_builder":
        return min(city[b].bit_count() for b in DIE_BLOCKS)
    if card == "global_hub_of_finance":
        return largest(city[COMMERCE])
    if card == "district_developer":
        return max(len(components(city[b])) for b in least_numerous(city))
    if card == "suburban_lifestyle_dream":
        homes = city[RESIDENTIAL] & EDGE
        if blight:
            homes &= ~neighbours(city[BLIGHT])
        return homes.bit_count()
    if card == "culture_for_the_masses":
        return (city[CULTURE] & ~INNER).bit_count()
    raise AssertionError(card)
