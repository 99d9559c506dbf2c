"""Property tests: random Palace games to the end, checking that every card is in exactly one place,
replay determinism, the agreement of ``check`` with ``legal_actions``, and the secrets of the views."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from palace_states import GAME, make, play, swap

from contract import assert_check_matches_legal, assert_refused, assert_replays, play_random
from parlour.core import LogEntry
from parlour.games.palace.cards import ID_FACE, PACK_SIZE, code, packs_for

seeds = st.integers(min_value=0, max_value=2**63 - 1)
players = st.integers(min_value=2, max_value=6)
SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def states_of(n, seed, moves):
    state = GAME.start(n, {}, seed)
    yield None, None, state
    for seat, action in moves:
        log: list[LogEntry] = []
        state = GAME.apply(state, seat, action, log)
        yield (seat, action), log, state


def assert_invariants(state) -> None:
    n = state.players
    places = [*state.pick_up, *(i for i, _ in state.pile), *state.burned]
    for seat in range(n):
        places += [*state.hands[seat], *state.face_ups[seat], *state.face_downs[seat]]
        assert list(state.hands[seat]) == sorted(state.hands[seat], key=lambda i: (ID_FACE[i], i))
        if state.pick_up and seat not in state.finished:
            assert len(state.hands[seat]) >= 3, "hands are drawn back up to three"
        if seat in state.finished and (state.current is not None or seat != state.finished[-1]):
            assert not state.hands[seat] and not state.face_ups[seat] and not state.face_downs[seat]
    if state.revealed is not None:
        places.append(state.revealed)
    assert sorted(places) == list(range(PACK_SIZE * packs_for(n))), "every card in exactly one place"
    for row in state.known:  # what anyone knows of a hand is in that hand
        for holder, known in enumerate(row):
            if known:
                assert not Counter(known) - Counter(ID_FACE[i] for i in state.hands[holder])
    assert len(set(state.finished)) == len(state.finished)
    # the game ends when all but one are out, or (edition 4) when a position comes up a third time
    assert (state.current is None) == (len(state.finished) == n or dict(state.last).get("repeated", False))
    view = GAME.view(state, None)
    assert view["scores"] == [len(state.hands[s]) + len(state.face_ups[s]) + len(state.face_downs[s]) for s in range(n)]


@SETTINGS
@given(players, seeds)
def test_random_games_keep_every_card_and_replay(n, seed):
    final, moves = play_random(GAME, n, seed)
    for step, (_, _, state) in enumerate(states_of(n, seed, moves)):
        if step % 4 == 0 or GAME.is_over(state):
            assert_invariants(state)
    assert_replays(GAME, n, seed, None, moves, final)
    result = GAME.result(final)
    if result.details.get("repetition"):  # a position came up a third time: places by cards left
        assert min(result.ranks) == 1 and all(result.ranks[s] == k + 1 for k, s in enumerate(final.finished))
    else:
        assert sorted(result.ranks) == list(range(1, n + 1))
        assert result.ranks[final.finished[0]] == 1 and result.ranks[final.finished[-1]] == n


@SETTINGS
@given(players, seeds)
def test_check_agrees_with_legal_actions(n, seed):
    _, moves = play_random(GAME, n, seed)
    rng = random.Random(seed)
    for step, (_move, _, state) in enumerate(states_of(n, seed, moves)):
        if GAME.is_over(state) or step % 10:
            continue
        seat = state.current
        assert_check_matches_legal(GAME, state, seat)
        others = [s for s in range(n) if s != seat]
        assert GAME.legal_actions(state, rng.choice(others)) == []
        assert_refused(GAME, state, rng.choice(others), GAME.legal_actions(state, seat)[0], "turn")


@SETTINGS
@given(players, seeds)
def test_resampling_the_unknown_leaves_a_view_unchanged(n, seed):
    """Hidden information: a state sampled from a seat's view gives that seat the same view, and its
    hidden cards really are drawn anew (the face-downs and others' hands vary between samples)."""
    _, moves = play_random(GAME, n, seed)
    rng = random.Random(seed)
    varied = 0
    for step, (_, _, state) in enumerate(states_of(n, seed, moves)):
        if step % 40:
            continue
        for seat in range(n):
            view = GAME.view(state, seat)
            samples = [GAME.sample(json.loads(json.dumps(view)), seat, rng) for _ in range(2)]
            for sample in samples:
                assert GAME.view(sample, seat) == view
                assert_invariants(sample)
                if not GAME.is_over(sample):
                    assert GAME.legal_actions(sample, sample.current) is not None
            hidden = [tuple(sorted(ID_FACE[i] for i in s.face_downs[seat])) + tuple(
                ID_FACE[i] for o in range(n) if o != seat for i in s.hands[o]) for s in samples]
            varied += hidden[0] != hidden[1]
    assert varied > 0


def secrets(state, seat):
    """The cards ``seat`` may not see: every face-down, and what it does not know of others' hands."""
    row = state.known[seat]
    out = Counter(code(ID_FACE[i]) for fd in state.face_downs for i in fd)
    for other in range(state.players):
        if other != seat:
            unknown = Counter(ID_FACE[i] for i in state.hands[other]) - Counter(row[other])
            out.update(code(f) for f in unknown.elements())
    return out


@SETTINGS
@given(players, seeds)
def test_no_view_carries_another_seats_secrets(n, seed):
    """No view shows a face-down or a hand card of another player beyond what that seat was shown;
    log lines that name hand cards are addressed only to those who may read them."""
    _, moves = play_random(GAME, n, seed)
    for step, (_move, log, state) in enumerate(states_of(n, seed, moves)):
        for seat in list(range(n)) + [None] if step % 3 == 0 else ():
            view = GAME.view(state, seat)
            for other, player in enumerate(view["players"]):
                assert isinstance(player["face_downs"], int)
                if other != seat:
                    assert player["hand"] is None
                    known = state.known[n if seat is None else seat][other]
                    assert Counter(player["known_hand"]) == Counter(code(f) for f in known)
            text = json.dumps(view)
            for forbidden in ("pick_up\"", "seed", "known\""):
                assert forbidden not in text
        for entry in log or []:
            if " drew " in entry.text:  # the public line counts the cards, the private one names them
                named = not re.fullmatch(r"\{p\d\} drew (a card|two cards|three cards)", entry.text)
                assert (entry.seats is not None and len(entry.seats) == 1) == named
            if " gave " in entry.text:
                assert entry.seats is not None and len(entry.seats) == 2


def test_sampling_remembers_what_a_swap_taught():
    """After a Cardinal swap each party knows the hand it gave away: every sample keeps it there,
    while a third seat's samples deal that hand afresh."""
    state = make(3, hands=[["cardinal", "9H", "9D", "9C"], ["4D", "5D"], ["6C", "6S"]], pick_up=[], complete=True)
    state = GAME.apply(GAME.apply(state, 0, play("cardinal")), 0, swap(0, 1))
    rng = random.Random(3)
    for _ in range(5):
        sample = GAME.sample(GAME.view(state, 0), 0, rng)
        assert sorted(code(ID_FACE[i]) for i in sample.hands[1]) == ["9C", "9D", "9H"]
        sample = GAME.sample(GAME.view(state, 1), 1, rng)
        assert sorted(code(ID_FACE[i]) for i in sample.hands[0]) == ["4D", "5D"]
    hands = {tuple(sorted(code(ID_FACE[i]) for i in GAME.sample(GAME.view(state, 2), 2, rng).hands[1]))
             for _ in range(10)}
    assert len(hands) > 1


class Drawn:
    """A stand-in random generator that draws index ``i`` out of ``n``: ``choice`` and ``randrange``
    are the only draws ``random_action`` may make, and each must be over every legal action."""

    def __init__(self, i: int, n: int) -> None:
        self.i, self.n = i, n

    def randrange(self, n: int) -> int:
        assert n == self.n, f"a draw out of {n}, but there are {self.n} legal actions"
        return self.i

    def choice(self, seq):
        return seq[self.randrange(len(seq))]


def assert_draws_each_legal_action(state) -> None:
    """Index i of the draw gives exactly legal_actions[i], for every i: random_action's support is the
    legal actions, each with the chance of its index, which ``randrange``/``choice`` draw uniformly."""
    seat = state.current
    legal = GAME.legal_actions(state, seat)
    assert [GAME.random_action(state, seat, Drawn(i, len(legal))) for i in range(len(legal))] == legal


@pytest.mark.parametrize("state", [
    make(2, hands=[["4H", "4D", "7S", "9C", "QH", "joker", "joker"]], pile=["8S"]),
    make(2, hands=[["9H", "9D", "joker"]], face_ups=[["9C", "joker", "KH"]], pile=["5S"]),
    make(2, hands=[["joker"]], face_ups=[["joker", "5C"]], pile=["9S"]),
    make(2, hands=[["3H", "3D"]], face_ups=[["3C"]], pick_up=["4S"]),
    make(2, hands=[[]], face_ups=[["6H", "6D", "joker", "AS"]], pile=["rules"]),
    make(2, hands=[["5H"]], pile=["AS"]),
], ids=["jokers", "face-ups join", "jokers join", "pick-up left", "face-ups", "take"])
def test_random_action_draws_each_legal_action_by_its_index(state):
    assert_draws_each_legal_action(state)


@SETTINGS
@given(players, seeds)
def test_random_action_is_uniform_over_legal_actions(n, seed):
    """In random games, random_action draws legal_actions[i] for a uniform i, exactly as
    ``rng.choice(legal_actions)`` would (the same draw from the same generator)."""
    _, moves = play_random(GAME, n, seed)
    for step, (_, _, state) in enumerate(states_of(n, seed, moves)):
        if GAME.is_over(state) or step % 5:
            continue
        assert_draws_each_legal_action(state)
        legal = GAME.legal_actions(state, state.current)
        assert GAME.random_action(state, state.current, random.Random(step)) == random.Random(step).choice(legal)
