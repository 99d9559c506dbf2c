"""Property tests: random Patchwork games to the end, checking invariants, replay, the agreement of
``check`` with ``legal_actions``, and the uniformity of ``random_action``."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from patchwork_states import GAME, bit, full_except, make_state

from contract import assert_check_matches_legal, assert_replays, play_random
from parlour.core import IllegalAction
from parlour.games.patchwork.engine import FULL, LAST_SPACE, PATCHES, SPECIAL_TIMES, has_bonus_square, score

seeds = st.integers(min_value=0, max_value=2**63 - 1)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def shape_squares(shape: str, rotation: int, flip: bool, x: int, y: int) -> frozenset[tuple[int, int]]:
    """The squares a patch covers, worked out here from the data file's words (not the engine's masks):
    mirror each row if flipped, then turn clockwise ``rotation`` times, top-left corner at (x, y)."""
    cells = [(c, r) for r, row in enumerate(shape.split("|")) for c, ch in enumerate(row) if ch == "O"]
    width = len(shape.split("|")[0])
    if flip:
        cells = [(width - 1 - c, r) for c, r in cells]
    for _ in range(rotation):
        height = max(r for _, r in cells) + 1
        cells = [(height - 1 - r, c) for c, r in cells]
        left, top = min(c for c, _ in cells), min(r for _, r in cells)
        cells = [(c - left, r - top) for c, r in cells]
    return frozenset((x + c, y + r) for c, r in cells)


def shape_of(pid: int) -> str:
    return "O" if pid < 0 else PATCHES[pid].shape


def key(action: dict) -> tuple:
    """What an action does, whatever (rotation, flip) spelling it uses."""
    if action["type"] == "skip":
        return ("skip",)
    flip = bool(action.get("flip", False))
    return ("play", action["patch"], shape_squares(shape_of(action["patch"]), action.get("rotation", 0), flip,
                                                    action["x"], action["y"]))


def states_of(moves, seed):
    state = GAME.start(2, {}, seed)
    yield state
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
        yield state


def assert_invariants(state) -> None:
    taken = []
    for seat in (0, 1):
        assert state.buttons[seat] >= 0, "buttons never negative"
        assert 0 <= state.time[seat] <= LAST_SPACE, "tokens never past 53"
        quilt = 0
        size = 0
        for pid, rotation, flip, x, y in state.placed[seat]:
            squares = shape_squares(shape_of(pid), rotation, flip, x, y)
            mask = sum(bit(sx, sy) for sx, sy in squares)
            assert not quilt & mask, "patches never overlap"
            quilt |= mask
            size += len(squares)
            if pid >= 0:
                taken.append(pid)
        assert quilt == state.quilts[seat] and state.quilts[seat].bit_count() == size, "squares counted once"
        assert state.income[seat] == sum(PATCHES[p[0]].income for p in state.placed[seat] if p[0] >= 0)
        empty = 81 - size
        assert score(state, seat) == 200 + state.buttons[seat] + 7 * (state.bonus == seat) - 2 * empty
        for pid in state.pending[seat]:
            assert -pid in SPECIAL_TIMES and -pid not in state.specials_left
    assert sorted(list(state.circle) + taken) == list(range(33)), "circle and quilts partition the patches"
    assert set(state.specials_left) <= set(SPECIAL_TIMES)
    if state.bonus is not None:
        assert has_bonus_square(state.quilts[state.bonus])
    assert (state.first_home is not None) == (LAST_SPACE in state.time)
    assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(state)))) == state
    assert GAME.is_over(state) == (state.time == (LAST_SPACE, LAST_SPACE) and not any(state.pending))


@SETTINGS
@given(seed=seeds, rng_seed=seeds)
def test_random_games_keep_the_invariants_and_replay(seed, rng_seed):
    final, moves = play_random(GAME, 2, seed, rng_seed=rng_seed)
    assert GAME.is_over(final) and GAME.result(final) is not None
    for state in states_of(moves, seed):
        assert_invariants(state)
    result = GAME.result(final)
    assert result.scores == (score(final, 0), score(final, 1))
    assert_replays(GAME, 2, seed, {}, moves, final)
    assert_replays(GAME, 2, seed, None, moves, final)


actions = st.one_of(
    st.fixed_dictionaries({"type": st.just("skip")}),
    st.fixed_dictionaries({
        "type": st.just("play"),
        "patch": st.one_of(st.integers(-55, 40), st.sampled_from([None, "3", 1.0, True])),
        "rotation": st.one_of(st.integers(-1, 4), st.just("1")),
        "flip": st.sampled_from([True, False, 0, 1, 2, None, "true"]),
        "x": st.one_of(st.integers(-2, 10), st.just(2.0)),
        "y": st.integers(-2, 10),
    }),
    st.fixed_dictionaries({"type": st.sampled_from(["pass", "PLAY", "", "skip "])}),
    st.sampled_from([None, "skip", 3, [], {"patch": 1}]),
)


def well_formed(action) -> bool:
    if not isinstance(action, dict) or action.get("type") not in ("skip", "play"):
        return False
    if action["type"] == "skip":
        return True
    ints = all(type(action.get(k)) is int for k in ("patch", "rotation", "x", "y"))
    return (ints and action["patch"] < len(PATCHES) and 0 <= action["rotation"] <= 3
            and action["flip"] in (True, False) and type(action["flip"]) in (bool, int))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, stop=st.integers(0, 60), tries=st.lists(actions, min_size=40, max_size=40))
def test_check_accepts_exactly_the_listed_actions(seed, stop, tries):
    """Every listed action passes check; every other action is refused, and anything accepted does what
    a listed action does."""
    _, moves = play_random(GAME, 2, seed)
    states = list(states_of(moves, seed))
    state = states[min(stop, len(states) - 2)]
    seat = min(GAME.to_act(state))
    assert_check_matches_legal(GAME, state, seat)
    legal = GAME.legal_actions(state, seat)
    listed = {key(a) for a in legal}
    assert len(listed) == len(legal), "each action listed once"
    assert GAME.random_action(state, seat, random.Random(seed)) in legal
    # the patches on offer, the pending special patch, and every square of the quilt get tried
    pool = list(tries) + [dict(a, x=a["x"] + dx) for a in legal[:5] if a["type"] == "play" for dx in (-1, 1)]
    pool += [{"type": "play", "patch": p, "rotation": r, "flip": f, "x": x, "y": y}
             for p in (list(state.circle[:3]) + list(state.pending[seat]))[:2]
             for r in range(4) for f in (False, True) for x, y in ((0, 0), (5, 5), (7, 2))]
    before = GAME.state_to_json(state)
    for action in pool:
        try:
            GAME.check(state, seat, action)
        except IllegalAction as error:
            assert str(error)
            accepted = False
        else:
            accepted = True
        expected = False
        if well_formed(action):
            squares = key(action) if action["type"] == "play" else None
            on_board = squares is None or all(0 <= c < 9 and 0 <= r < 9 for c, r in squares[2])
            expected = on_board and key(action) in listed
        assert accepted == expected, (action, accepted)
        for other_seat in (0, 1):
            if other_seat != seat:
                try:
                    GAME.check(state, other_seat, action)
                    raise AssertionError("out of turn accepted")
                except IllegalAction:
                    pass
    assert GAME.state_to_json(state) == before


def chi_square_is_uniform(state, seat, draws: int, seed: int) -> tuple[int, float, int]:
    legal = GAME.legal_actions(state, seat)
    index = {json.dumps(a, sort_keys=True): i for i, a in enumerate(legal)}
    rng = random.Random(seed)
    counts = Counter(index[json.dumps(GAME.random_action(state, seat, rng), sort_keys=True)]
                     for _ in range(draws))
    expected = draws / len(legal)
    chi2 = sum((counts.get(i, 0) - expected) ** 2 / expected for i in range(len(legal)))
    return len(legal), chi2, len(counts)


def test_random_action_is_uniform_on_an_open_quilt():
    # patches 30 ('OO|.O'), 31 ('O.|OO'), 32 ('OO') on a quilt with a few squares patched
    quilt = sum(bit(x, y) for x in range(9) for y in range(9) if (x + 2 * y) % 4 == 0 and y < 6)
    state = make_state(circle=(30, 31, 32), quilts=(quilt, 0), buttons=(10, 5))
    n, chi2, seen = chi_square_is_uniform(state, 0, 30_000, seed=1)
    assert n > 100 and seen == n
    df = n - 1
    assert chi2 < df + 6 * (2 * df) ** 0.5, (n, chi2)


def test_random_action_is_uniform_on_a_crowded_quilt():
    # few places fit, so most draws as if the quilt were empty are refused and the count takes over
    holes = [(0, 0), (1, 0), (4, 4), (4, 5), (5, 5), (8, 8), (8, 7), (2, 7), (6, 1), (7, 1), (8, 1)]
    state = make_state(circle=(32, 31, 18), quilts=(full_except(*holes), 0), buttons=(10, 5))
    n, chi2, seen = chi_square_is_uniform(state, 0, 6_000, seed=2)
    assert 5 < n < 40 and seen == n
    df = n - 1
    assert chi2 < df + 6 * (2 * df) ** 0.5, (n, chi2)


def test_random_action_when_holding_a_special_patch():
    state = make_state(time=(20, 19), pending=((-20,), ()), quilts=(full_except((3, 3), (6, 6)), 0))
    drawn = Counter(json.dumps(GAME.random_action(state, 0, random.Random(s)), sort_keys=True) for s in range(400))
    assert {json.loads(a)["x"] for a in drawn} == {3, 6} and all(json.loads(a)["patch"] == -20 for a in drawn)
    assert min(drawn.values()) > 150


def test_states_are_never_changed_by_apply():
    state = GAME.start(2, {}, 4)
    frozen = GAME.state_to_json(state)
    for action in GAME.legal_actions(state, 0)[::37]:
        GAME.apply(state, 0, action)
    assert GAME.state_to_json(state) == frozen
    assert FULL == (1 << 81) - 1
