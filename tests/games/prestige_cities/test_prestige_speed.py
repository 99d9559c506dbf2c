"""What the engine's speed rests on gives the same answers as the plain way: random_action maps its
one random draw one-to-one onto legal_actions (so it is uniform over them), and the connected
groups found from an era-old mask's groups are the groups found from scratch."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prestige_states import GAME

from parlour.games.prestige_cities.board import _KNOWN, FULL, _flood, _nth_square, components, largest, neighbours


class OneDraw:
    """A stand-in for random.Random whose single draw is outcome ``k`` of ``n`` equally likely ones,
    however random_action asks for it (``randrange(n)`` or ``int(random() * n)``)."""

    def __init__(self, k: int, n: int) -> None:
        self.k, self.n, self.draws = k, n, 0

    def randrange(self, n: int) -> int:
        assert n == self.n, f"drew among {n} outcomes, but there are {self.n} legal actions"
        self.draws += 1
        return self.k

    def random(self) -> float:
        self.draws += 1
        return (self.k + 0.5) / self.n


def assert_draw_is_one_to_one(state, seat) -> None:
    """Outcome k of random_action's one draw, for every k, gives every legal action exactly once:
    a uniform draw therefore gives each legal action the same chance."""
    legal = [json.dumps(a, sort_keys=True) for a in GAME.legal_actions(state, seat)]
    drawn = []
    for k in range(len(legal)):
        rng = OneDraw(k, len(legal))
        drawn.append(json.dumps(GAME.random_action(state, seat, rng), sort_keys=True))
        assert rng.draws == 1
    assert sorted(drawn) == sorted(legal)
    assert len(set(drawn)) == len(drawn)


OPTIONS = [{}, {"blight": True, "deck3": "urban_rehab"}, {"mountains": True, "ocean": True, "deck3": "the_new_economy"},
           {"blight": True, "mountains": True, "deck3": "rails_to_trails", "pregame": False}]


def test_random_action_draws_every_legal_action_once_for_every_kind_of_task():
    kinds = set()
    for game_number, options in enumerate(OPTIONS * 2):
        rng = random.Random(game_number)
        state = GAME.start(3, options, 100 + game_number)
        step = 0
        while not GAME.is_over(state):
            seat = rng.choice(sorted(GAME.to_act(state)))
            task = state.queues[seat][0]
            kind = task.kind + (" under way" if task.kind in ("build", "remove") and task[4] else "")
            if task.kind == "build" and not task.by_die:  # a Deck 1 card's blocks, which may stop
                kind = "bonus " + kind
            if kind not in kinds or step % 7 == 0:
                assert_draw_is_one_to_one(state, seat)
                kinds.add(kind)
            state = GAME.apply(state, seat, GAME.random_action(state, seat, rng))
            step += 1
    assert kinds >= {"pick", "build under way", "golden", "remove", "remove under way", "blight", "convert",
                     "bonus build"}


masks = st.integers(min_value=0, max_value=FULL)


def plain_groups(mask: int) -> set[int]:
    return set(_flood(mask))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parent=masks, taken=masks, added=masks)
def test_groups_from_a_parent_mask_are_the_groups_from_scratch(parent, taken, added):
    mask = (parent & ~taken) | (added & taken & ~parent)
    _KNOWN.clear()
    components(parent)
    from_parent = components(mask, parent)
    assert set(from_parent) == plain_groups(mask)
    assert [g.bit_count() for g in from_parent] == sorted((g.bit_count() for g in from_parent), reverse=True)
    assert largest(mask, parent) == max((g.bit_count() for g in from_parent), default=0)


@settings(max_examples=200, deadline=None)
@given(mask=masks)
def test_plain_groups_are_connected_maximal_and_cover_the_mask(mask):
    groups = _flood(mask)
    union = 0
    for group in groups:
        assert not union & group
        union |= group
        assert not neighbours(group) & mask & ~group, "a group takes in every square next to it"
        grown = group & -group  # connected: it grows from one square to the whole group
        while (bigger := (grown | neighbours(grown)) & group) != grown:
            grown = bigger
        assert grown == group
    assert union == mask


@given(mask=st.integers(min_value=1, max_value=FULL), data=st.data())
def test_nth_square_counts_squares_in_reading_order(mask, data):
    k = data.draw(st.integers(min_value=0, max_value=mask.bit_count() - 1))
    squares = [i for i in range(72) if mask >> i & 1]
    assert _nth_square(mask, k) == squares[k]
