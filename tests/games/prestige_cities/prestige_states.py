"""Build Prestige Cities situations directly, for scenario tests."""

from __future__ import annotations

from typing import Any

from parlour.games import get
from parlour.games.prestige_cities.engine import (
    BLOCKS,
    CATASTROPHES,
    CHOOSE,
    COLS,
    LETTERS,
    ROWS,
    START_CITY,
    State,
    bit,
    catastrophe_targets,
    era_queue,
)

GAME = get("prestige_cities")

# dice in the engine's order: industry (yellow), commerce (blue), residential (red), culture (purple), parks (green)
ALL_SIX = (6, 6, 6, 6, 6)


def city(*rows: str) -> tuple[int, ...]:
    """A city drawn as rows of letters (I C R U P B, '.' or M for nothing built); missing rows are empty."""
    masks = [0] * 6
    for r, row in enumerate(rows):
        for c, ch in enumerate(row.replace(" ", "")):
            if ch in LETTERS:
                masks[LETTERS.index(ch)] |= bit(r, c)
    return tuple(masks)


def full_city(letter: str = "P", *holes: tuple[int, int], base: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """Every square built with ``letter`` (over ``base``'s blocks kept), except ``holes``."""
    rows = []
    for r in range(ROWS):
        rows.append("".join("." if (r, c) in holes else letter for c in range(COLS)))
    made = list(city(*rows))
    if base is not None:
        taken = 0
        for m in base:
            taken |= m
        made = [m & ~taken for m in made]
        made = [m | base[b] for b, m in enumerate(made)]
    return tuple(made)


def era_state(era: str, dice: tuple[int, ...] = (1, 2, 3, 4, 5), cities: list | None = None, players: int = 2,
              options: dict[str, Any] | None = None, bonus: tuple[int, ...] | None = None, seed: int = 1,
              **fields: Any) -> State:
    """A game whose current era is ``era`` with ``dice``, just revealed, with the given cities."""
    state = GAME.start(players, {"pregame": False, **(options or {})}, seed)
    s = state.copy()
    s.cities = tuple(cities) if cities is not None else (START_CITY,) * players
    s.start = s.cities
    s.bonus = bonus if bonus is not None else (0,) * players
    for name, value in fields.items():
        setattr(s, name, value)
    s.era, s.dice, s.phase = era, dice, CHOOSE
    s.groups = (0,) * players
    s.removals = (None,) * players
    s.emptied = (0,) * players
    s.targets = catastrophe_targets(s, s.cities) if era in CATASTROPHES else ()
    s.queues = tuple(era_queue(s, seat) for seat in range(players))
    return s


def build(block: str, row: int, col: int) -> dict:
    assert block in BLOCKS
    return {"type": "build", "block": block, "row": row, "col": col}


def act(kind: str, row: int, col: int) -> dict:
    return {"type": kind, "row": row, "col": col}


def squares_of_legal(state: State, seat: int, block: str | None = None) -> set[tuple[int, int]]:
    return {(a["row"], a["col"]) for a in GAME.legal_actions(state, seat)
            if a["type"] != "stop" and (block is None or a.get("block") == block)}


def blocks_offered(state: State, seat: int) -> set[str]:
    return {a["block"] for a in GAME.legal_actions(state, seat) if a["type"] == "build"}


def run(state: State, seat: int, *actions: dict, log: list | None = None) -> State:
    for action in actions:
        state = GAME.apply(state, seat, action, log)
    return state


def finish_choices(state: State, *skip: int) -> State:
    """Every seat (but ``skip``) plays its first legal action until this round is over (or nobody
    but ``skip`` has anything left to do)."""
    round_ = state.round
    while state.round == round_:
        seats = sorted(set(GAME.to_act(state)) - set(skip))
        if not seats:
            return state
        state = GAME.apply(state, seats[0], GAME.legal_actions(state, seats[0])[0])
    return state
