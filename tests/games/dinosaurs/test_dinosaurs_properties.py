"""Property tests: random games of Happy Little Dinosaurs to the end, checking that all 97 cards are
always accounted for, the other invariants, replay determinism, the agreement of ``check`` with
``legal_actions``, and the hidden-information guarantees (views, samples and the log)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contract import assert_check_matches_legal, assert_replays, play_random
from parlour.core import IllegalAction, LogEntry
from parlour.games.dinosaurs import GAME
from parlour.games.dinosaurs.engine import CARDS, IS_POINT, eliminates

seeds = st.integers(min_value=0, max_value=2**63 - 1)
player_counts = st.integers(min_value=2, max_value=4)
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def where_cards_are(state) -> Counter:
    places = Counter()
    for c in state.deck + state.discard + state.removed + state.disaster_deck + state.peek:
        places[c] += 1
    for i in range(state.players):
        for c in state.hands[i] + state.areas[i] + state.sudden[i]:
            places[c] += 1
        for c in (state.hidden[i], state.front[i]):
            if c is not None:
                places[c] += 1
    for _seat, c, _target in state.instants:
        places[c] += 1
    if state.disaster is not None:
        places[state.disaster] += 1
    return places


def assert_invariants(state) -> None:
    places = where_cards_are(state)
    assert sorted(places) == list(range(97)) and set(places.values()) == {1}, "every card is in one place"
    assert state.deck or not state.discard, "an empty Main deck is refilled from the discard pile at once"
    for i in range(state.players):
        assert all(CARDS[d].kind == "disaster" for d in state.areas[i])
        assert all(CARDS[c].kind != "disaster" for c in state.hands[i])
        if state.out[i] is not None:
            assert not state.hands[i] and eliminates(state.areas[i], state.two_player)
            assert i not in state.waiting
        elif state.phase != "over":
            assert not eliminates(state.areas[i], state.two_player)
        if state.hidden[i] is not None:
            assert IS_POINT[state.hidden[i]]
    if state.phase in ("select", "sudden_death"):
        for i in state.waiting:
            assert any(IS_POINT[c] for c in state.hands[i]), "a dinosaur that must choose has a Point card"
    if state.two_player:
        assert all(CARDS[c].value not in (1, 2, 3) for c in places if CARDS[c].kind == "point"
                   and c not in state.removed)
    if state.phase == "over":
        result = GAME.result(state)
        assert result.winners and not state.waiting
        assert len(state.active()) == 1 or max(state.escape[i] for i in result.winners) >= 50


def play_checking(players: int, seed: int, options=None, every=None):
    """A random game to its end, its invariants checked at every state (and ``every`` called)."""
    def check(state, rng):
        assert_invariants(state)
        if every:
            every(state, rng)

    return play_random(GAME, players, seed, options, max_moves=5000, each=check)


@SETTINGS
@given(seeds, player_counts, st.booleans())
def test_random_games_keep_the_invariants_and_replay(seed, players, two_player_rules):
    options = {"two_player_rules": two_player_rules}
    state, moves = play_checking(players, seed, options)
    assert GAME.is_over(state)
    assert_replays(GAME, players, seed, options, moves, state)


@SETTINGS
@given(seeds, player_counts)
def test_check_agrees_with_legal_actions(seed, players):
    def every(state, rng):
        if rng.random() < 0.3:
            for seat in range(state.players):
                assert_check_matches_legal(GAME, state, seat)
                if seat not in GAME.to_act(state):
                    with pytest.raises(IllegalAction):
                        GAME.check(state, seat, {"type": "pass"})
            for seat in GAME.to_act(state):
                legal = GAME.legal_actions(state, seat)
                assert legal, "a seat that must act has something to do"
                for bad in mutations(state, legal, rng):
                    if not same_as_legal(bad, legal):
                        with pytest.raises(IllegalAction, match=".+"):
                            GAME.check(state, seat, bad)
    play_checking(players, seed, every=every)


def mutations(state, legal, rng):
    """Actions near the legal ones: other cards, other seats, other types."""
    out = [{"type": "nonsense"}, {"type": "play"}, "pass", {"type": "discard", "cards": []}]
    for action in rng.sample(legal, min(4, len(legal))):
        for key, value in action.items():
            if key == "type":
                for kind in ("pass", "play", "discard", "instant", "take", "swap", "look_hand", "look_deck"):
                    out.append({**action, "type": kind})
            elif key == "cards":
                out.append({**action, key: value + [rng.randrange(97)]})
                out.append({**action, key: [rng.randrange(97)]})
            elif key == "players":
                out.append({**action, key: [value[0], rng.randrange(-1, 5)]})
            elif isinstance(value, int):
                out += [{**action, key: rng.randrange(-1, 97)}, {**action, key: str(value)}]
    return [a for a in out if not (isinstance(a, dict) and same_as_legal(a, legal))]


def same_as_legal(action, legal) -> bool:
    """Whether ``action`` does what one of ``legal`` does (lists of cards or players in any order)."""
    def norm(a):
        return tuple(sorted((k, tuple(sorted(v, key=str)) if isinstance(v, list) else v) for k, v in a.items()))
    return isinstance(action, dict) and norm(action) in {norm(a) for a in legal}


# --- hidden information ----------------------------------------------------------------------------

def secrets_of(state, seat) -> set[int]:
    """The cards ``seat`` holds or has face down, which nobody else may see (a seat's view may hold
    them only if it is that seat, or the Dino Grabber's looker)."""
    found = set(state.hands[seat])
    if state.hidden[seat] is not None:
        found.add(state.hidden[seat])
    return found


def card_numbers_in(view) -> set[int]:
    """Every card number a view shows, wherever it is."""
    found = set()

    def walk(node, key=None):
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif isinstance(node, int) and not isinstance(node, bool) and key in CARD_KEYS:
            found.add(node)
    walk(view)
    return found


CARD_KEYS = {"hand", "face_down", "card", "sudden_death", "area", "discard", "removed", "disaster",
             "disaster_bottom", "queue", "peek"}


@SETTINGS
@given(seeds, player_counts)
def test_views_hold_no_other_seats_secrets_and_resampling_leaves_them_unchanged(seed, players):
    def every(state, rng):
        if state.phase == "dinosaur" or rng.random() > 0.4:
            return
        spectator = card_numbers_in(GAME.view(state, None))
        for seat in range(state.players):
            view = GAME.view(state, seat)
            shown = card_numbers_in(view)
            for other in range(state.players):
                if other == seat:
                    continue
                secret = secrets_of(state, other)
                allowed = set()
                if state.grab == other and state.effect_owner() == seat:
                    allowed = set(state.hands[other])  # Dino Grabber: the looker sees that hand
                assert not (secret - allowed) & shown, f"seat {seat} sees seat {other}'s secret cards"
                assert not secret & spectator
            if state.peek and state.effect_owner() != seat:
                assert not set(state.peek) & shown, "only the Treenoculars player sees the top cards"
            assert not set(state.deck) & shown, "nobody sees the Main deck"
            hidden_disasters = set(state.disaster_deck[state.known_bottom:])
            assert not hidden_disasters & shown, "nobody sees the Disaster deck above its known bottom"
            assert "seed" not in json.dumps(view)
            for _ in range(2):
                sample = GAME.sample(view, seat, rng)
                assert GAME.view(sample, seat) == view, "resampling what a seat cannot know changes its view"
                assert_invariants(sample)
                for s in GAME.to_act(sample):
                    assert GAME.legal_actions(sample, s), "a sampled state can go on"
    play_checking(players, seed, every=every)


@SETTINGS
@given(seeds, player_counts)
def test_log_entries_with_secrets_are_marked_for_their_readers(seed, players):
    """A log line naming a card a seat may not see is marked for the seats that may see it."""
    rng = random.Random(seed)
    state = GAME.start(players, None, seed)
    names = [f"P{i}" for i in range(players)]
    while not GAME.is_over(state):
        seat = rng.choice(sorted(GAME.to_act(state)))
        action = GAME.random_action(state, seat, rng)
        before = state
        log: list[LogEntry] = []
        state = GAME.apply(state, seat, action, log)
        public = [e for e in log if e.seats is None]
        private = [e for e in log if e.seats is not None]
        if action["type"] == "play":
            name = CARDS[action["card"]].name
            if GAME.to_act(state) == GAME.to_act(before) - {seat}:  # not yet revealed
                assert not any(name in e.text and "chose" in e.text for e in public)
                assert any(name in e.text and e.seats == frozenset({seat}) for e in private)
        if action["type"] == "take":
            assert all(e.seats <= {seat, before.grab if before.grab is not None else seat} for e in private)
        for e in private:
            assert e.render(names)


def test_face_down_choice_is_invisible_until_the_reveal():
    state = GAME.start(3, None, 5)
    for seat, d in enumerate(("stego", "nervous_rex", "cry_ceratops")):
        state = GAME.apply(state, seat, {"type": "dinosaur", "dinosaur": d})
    card = next(c for c in state.hands[0] if IS_POINT[c])
    log: list[LogEntry] = []
    state = GAME.apply(state, 0, {"type": "play", "card": card}, log)
    for seat in (1, 2, None):
        view = GAME.view(state, seat)
        assert view["players"][0]["face_down"] is True and view["players"][0]["card"] is None
        assert card not in card_numbers_in(view)
        assert all(CARDS[card].name not in e.text for e in log if e.visible_to(seat))
    assert GAME.view(state, 0)["face_down"] == card
