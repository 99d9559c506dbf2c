"""Property tests: random Empire games to the end, checking invariants, replay, and the agreement of
``check`` with ``legal_actions``; the games are played by empire_states.play_wandering."""

from __future__ import annotations

import json

from empire_states import GAME, all_cards, play_wandering
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contract import assert_check_matches_legal, assert_replays, play_random
from parlour.core import IllegalAction
from parlour.games.empire.engine import NUMBERS, SLOTS, seen_by

seeds = st.integers(min_value=0, max_value=2**63 - 1)
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_invariants(state) -> None:
    assert min(state.coins) >= 0, "coins never negative"
    assert all_cards(state) == list(NUMBERS), "every card is in exactly one place: the card count is constant"
    for i in range(SLOTS):
        if state.taken[i] is not None:
            held = [r for r in state.roles if r is not None] + ([state.drawn] if state.drawn is not None else [])
            assert state.slots[i] in held + list(state.pile), "a drawn revelatory card is in a hand or on the pile"
    for seat in (0, 1):
        assert state.known[seat] <= set(state.holder_hand(1 - seat)), "a seat knows only cards the other holds"
        assert state.roles[1 - seat] not in state.ruled_out[seat], "a wrong guess is never the role"
        if not state.discovered[seat]:
            assert state.culprit not in seen_by(state, seat), "nobody has seen the culprit without discovering it"
    assert GAME.is_over(state) or (state.drawn is not None) == any(step[0] == "keep" and not any(
        s[0] == "draw" for s in state.queue[:state.queue.index(step)]) for step in state.queue)
    assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(state)))) == state
    assert len(GAME.to_act(state)) == (0 if GAME.is_over(state) else 1)


@SETTINGS
@given(seed=seeds, rng_seed=seeds)
def test_wandering_games_keep_the_invariants_and_replay(seed, rng_seed):
    states, moves = play_wandering(seed, rng_seed)
    for state in states:
        assert_invariants(state)
    final = states[-1]
    assert GAME.result(final) is not None and sorted(GAME.result(final).scores) in ([0.0, 1.0], [0.5, 0.5])
    assert_replays(GAME, 2, seed, {}, moves, final)
    assert_replays(GAME, 2, seed, None, moves, final)


@SETTINGS
@given(seed=seeds, rng_seed=seeds)
def test_uniformly_random_games_end_and_replay(seed, rng_seed):
    final, moves = play_random(GAME, 2, seed, rng_seed=rng_seed)
    assert_invariants(final)
    assert GAME.is_over(final)
    assert_replays(GAME, 2, seed, {}, moves, final)


def test_wandering_reaches_every_kind_of_situation():
    """The property tests above really visit the rare corners: the empty deck, the accuse chance, the tie."""
    steps, ends = set(), set()
    for seed in range(60):
        states, moves = play_wandering(seed, seed)
        steps |= {s.queue[0][0] if s.queue else "turn" for s in states}
        ends.add(states[-1].outcome.reason.split()[-1])
        steps |= {a["type"] for _, a in moves}
    assert {"respond", "collect", "draw", "accuse_chance", "keep", "turn"} <= steps
    assert {"claim", "income", "promote", "reveal", "spy", "guess", "challenge", "pass", "decline"} <= steps
    assert {"tie", "rightly", "wrongly"} <= ends


actions = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["income", "end", "promote", "spy", "discover", "pass",
                                                    "challenge", "decline"])}),
    st.fixed_dictionaries({"type": st.just("claim"), "amount": st.one_of(st.integers(-1, 6), st.just("2"))}),
    st.fixed_dictionaries({"type": st.sampled_from(["accuse", "guess"]),
                           "role": st.one_of(st.integers(-1, 14), st.just(None))}),
    st.fixed_dictionaries({"type": st.just("reveal"),
                           "slots": st.one_of(st.lists(st.integers(-1, 4), max_size=3), st.just("01"))}),
    st.fixed_dictionaries({"type": st.just("collect"), "from_opponent": st.integers(-1, 6)}),
    st.fixed_dictionaries({"type": st.just("draw"), "slot": st.integers(-1, 4)}),
    st.fixed_dictionaries({"type": st.just("keep"), "card": st.sampled_from(["role", "drawn", "old", None])}),
    st.fixed_dictionaries({"type": st.sampled_from(["Claim", "", "fly"])}),
    st.sampled_from([None, "income", 3, [], {"role": 1}]),
)


def canonical(action) -> str:
    if isinstance(action, dict) and action.get("type") == "reveal" and isinstance(action.get("slots"), list):
        action = dict(action, slots=sorted(action["slots"]))
    return json.dumps(action, sort_keys=True)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, stop=st.integers(0, 400), tries=st.lists(actions, min_size=40, max_size=40))
def test_check_accepts_exactly_the_listed_actions(seed, stop, tries):
    """Every listed action passes check; every other action is refused in words by both seats and changes
    nothing."""
    states, _ = play_wandering(seed, seed)
    state = states[min(stop, len(states) - 2)]
    seat = min(GAME.to_act(state))
    assert_check_matches_legal(GAME, state, seat)
    legal = GAME.legal_actions(state, seat)
    listed = {canonical(a) for a in legal}
    assert len(listed) == len(legal), "each action listed once"
    before = GAME.state_to_json(state)
    for action in list(tries) + legal:
        try:
            GAME.check(state, seat, action)
            accepted = True
        except IllegalAction as error:
            assert str(error)
            accepted = False
        assert accepted == (canonical(action) in listed), (action, accepted)
        try:
            GAME.check(state, 1 - seat, action)
            raise AssertionError(f"out of turn accepted: {action}")
        except IllegalAction:
            pass
    assert GAME.state_to_json(state) == before
