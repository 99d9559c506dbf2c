"""Prestige Cities' scores: culture, wealth and happiness, the overall score and the ranking."""

from __future__ import annotations

from .board import BLIGHT, COMMERCE, CULTURE, INDUSTRY, INNER, PARKS, RESIDENTIAL, SHORE, City, neighbours


def culture_score(city: City) -> int:
    return (city[CULTURE] & INNER).bit_count()


def wealth_score(city: City, ocean: bool = False) -> float:
    """Average of Industry and Commerce, +1 per Commerce in the Inner District (+1 per Industry on
    the shore with the Ocean)."""
    wealth = (city[INDUSTRY].bit_count() + city[COMMERCE].bit_count()) / 2 + (city[COMMERCE] & INNER).bit_count()
    if ocean:
        wealth += (city[INDUSTRY] & SHORE).bit_count()
    return wealth


def happiness_score(city: City, ocean: bool = False) -> int:
    homes = city[RESIDENTIAL]
    happy = ((homes & neighbours(city[PARKS])).bit_count() + (homes & neighbours(city[CULTURE])).bit_count()
             - (homes & neighbours(city[INDUSTRY])).bit_count() - (homes & neighbours(city[BLIGHT])).bit_count())
    if ocean:
        happy += (homes & SHORE).bit_count()
    return happy


def category_scores(city: City, ocean: bool = False) -> tuple[int, float, int]:
    """(culture, wealth, happiness)."""
    return culture_score(city), wealth_score(city, ocean), happiness_score(city, ocean)


def overall_score(city: City, bonus: int, ocean: bool = False) -> float:
    """The two lowest of culture, wealth and happiness, plus bonus points."""
    c, w, h = category_scores(city, ocean)
    return c + w + h - max(c, w, h) + bonus


def number(x: float) -> int | float:
    """``x`` for JSON: a whole number as an int."""
    return int(x) if x == int(x) else x


def rank_key(city: City, bonus: int, ocean: bool) -> tuple[float, ...]:
    """Overall, then population (Residential), bonus, happiness, culture, wealth: higher first."""
    c, w, h = category_scores(city, ocean)
    return (c + w + h - max(c, w, h) + bonus, city[RESIDENTIAL].bit_count(), bonus, h, c, w)
