"""Property tests: random Prestige Cities games to the end, with every option, checking invariants,
replay determinism, that ``check`` accepts exactly what ``legal_actions`` lists, and that a seat's
view neither shows another seat's secret choice nor changes when that choice is resampled."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prestige_states import GAME

from contract import assert_check_matches_legal, assert_replays, json_safe, play_random
from parlour.core import IllegalAction
from parlour.games.prestige_cities.engine import (
    BLOCKS,
    CHOOSE,
    COLS,
    FULL,
    MOUNTAINS,
    OVER,
    ROWS,
    built,
    empty_squares,
    overall_score,
)

seeds = st.integers(min_value=0, max_value=2**63 - 1)
players = st.integers(min_value=1, max_value=6)
options = st.fixed_dictionaries({"blight": st.booleans(), "ocean": st.booleans(), "mountains": st.booleans(),
                                 "pregame": st.booleans(), "edition": st.sampled_from((1, 2, 3))})
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_invariants(state) -> None:
    terrain = MOUNTAINS if state.config.mountains else 0
    for city in state.cities:
        masks = list(city)
        for i, a in enumerate(masks):
            assert a & ~FULL == 0
            for b in masks[i + 1:]:
                assert not a & b, "a square holds one block"
        if not state.config.blight:
            assert not city[5]
        assert not (city[0] | city[1] | city[3] | city[4]) & terrain, "only homes and Blight over mountains"
    view = GAME.view(state, None)
    assert view["scores"] == [c["overall"] for c in view["cities"]]
    if state.phase != CHOOSE:
        for seat, city in enumerate(state.cities):
            assert view["scores"][seat] == overall_score(city, state.bonus[seat], state.config.ocean)
    assert (state.phase == OVER) == GAME.is_over(state) == (GAME.result(state) is not None)
    assert all(b >= 0 for b in state.bonus)
    reached = {seat for seat, r in enumerate(state.reached) if r}
    assert not reached or state.config.edition >= 3, "only edition 3 notes a Deck 1 objective reached"
    if state.phase == CHOOSE:
        assert not reached or state.winners[0] is None, "reached while the card is open"
    else:
        assert reached <= set(state.winners[0] or ()), "whoever reached it during the era shares the card"


@SETTINGS
@given(seed=seeds, n=players, opts=options)
def test_random_games_end_replay_and_keep_invariants(seed, n, opts):
    final, moves = play_random(GAME, n, seed, opts)
    assert GAME.is_over(final)
    assert any(not empty_squares(c, MOUNTAINS if opts["mountains"] else 0) for c in final.cities), \
        "the game ends when a city is full"
    result = GAME.result(final)
    assert len(result.ranks) == n and min(result.ranks) == 1
    assert_replays(GAME, n, seed, opts, moves, final)
    state = GAME.start(n, opts, seed)
    assert_invariants(state)
    for i, (seat, action) in enumerate(moves):
        state = GAME.apply(state, seat, action)
        if i % 9 == 0:
            assert_invariants(state)
    assert GAME.state_to_json(state) == GAME.state_to_json(final)


def random_walk(n, opts, seed, steps):
    """(step, state, seat, next state) along a uniformly random game, for at most ``steps`` actions."""
    rng = random.Random(seed)
    state = GAME.start(n, opts, seed)
    for step in range(steps):
        if GAME.is_over(state):
            return
        seat = rng.choice(sorted(GAME.to_act(state)))
        after = GAME.apply(state, seat, GAME.random_action(state, seat, rng))
        yield step, state, seat, after
        state = after


def all_square_actions():
    """Every action naming a square, of every type and block: listed or not, check must agree."""
    for kind in ("build", "remove", "blight", "convert"):
        for r in range(ROWS):
            for c in range(COLS):
                for block in (BLOCKS[:5] if kind == "build" else (None,)):
                    yield {"type": kind, "row": r, "col": c, **({"block": block} if block else {})}


@SETTINGS
@given(seed=seeds, n=st.integers(min_value=1, max_value=4), opts=options)
def test_check_accepts_exactly_what_legal_lists(seed, n, opts):
    for step, state, seat, _ in random_walk(n, opts, seed, 400):
        if step % 15:
            continue
        assert_check_matches_legal(GAME, state, seat)
        listed = {json.dumps(a, sort_keys=True) for a in GAME.legal_actions(state, seat)}
        for action in all_square_actions():
            try:
                GAME.check(state, seat, action)
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted == (json.dumps(action, sort_keys=True) in listed), action
        for other in set(range(n)) - GAME.to_act(state):
            assert GAME.legal_actions(state, other) == []


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, n=st.integers(min_value=2, max_value=4), opts=options)
def test_views_hide_choices_and_survive_resampling(seed, n, opts):
    for step, state, seat, after in random_walk(n, opts, seed, 200):
        if step % 9 == 0:
            for viewer in range(n):
                view = GAME.view(state, viewer)
                assert json_safe(view), "a view must read the same in any JSON reader (integers within 2**53)"
                again = GAME.sample(view, viewer, random.Random(step))
                assert GAME.view(again, viewer) == view
                if state.phase == CHOOSE:
                    for other in range(n):
                        if other != viewer:
                            assert view["cities"][other]["rows"] == GAME.view(state, None)["cities"][other]["rows"]
                    assert str(state.seed) not in json.dumps(view) or state.seed < 10**6
        if step % 3 == 0 and after.phase == CHOOSE and after.round == state.round:
            for viewer in set(range(n)) - {seat}:  # an action during the choice shows nothing to others
                old, new = GAME.view(state, viewer), GAME.view(after, viewer)
                assert [c["rows"] for c in new["cities"]] == [c["rows"] for c in old["cities"]]
                assert new["scores"] == old["scores"]
                if seat in GAME.to_act(after):  # a step of a choice still under way: nothing at all
                    assert new == old


@settings(max_examples=6, deadline=None)
@given(seed=seeds)
def test_random_action_is_uniform_over_legal(seed):
    state = GAME.start(2, {}, seed)
    legal = GAME.legal_actions(state, 0)
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    draws = 40 * len(legal)
    for _ in range(draws):
        key = json.dumps(GAME.random_action(state, 0, rng), sort_keys=True)
        counts[key] = counts.get(key, 0) + 1
    assert set(counts) == {json.dumps(a, sort_keys=True) for a in legal}
    assert max(counts.values()) < 3 * 40 and min(counts.values()) > 40 // 4


def test_built_squares_only_grow_outside_catastrophes():
    final, moves = play_random(GAME, 3, 77, {})
    state = GAME.start(3, {}, 77)
    for seat, action in moves:
        nxt = GAME.apply(state, seat, action)
        if action["type"] == "build":
            assert built(nxt.cities[seat]) & built(state.cities[seat]) == built(state.cities[seat])
        state = nxt
