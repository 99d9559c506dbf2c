"""Palace by the Judd School rules (the shedding game better known as Shithead).

Every player has a hand, three face-ups and three face-downs; the play pile must be matched or
beaten; a school's worth of special cards burn, skip, reverse and swap. Decisions where the rules
document is silent are in docs/rules/palace.md, one line each.

>>> game = Palace(); state = game.start(4, {}, seed=3)
>>> seat = min(game.to_act(state)); len(game.view(state, seat)["players"][seat]["hand"])
3
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any, cast

from ...core import (
    Action,
    FieldsState,
    Game,
    IllegalAction,
    LogEntry,
    Option,
    Result,
    View,
    derive,
    require_action,
    require_int,
)
from ...core.words import counted
from .cards import (
    ANYWHERE,
    AS_VALUES,
    CARDINAL,
    FACE_BY_CODE,
    ID_FACE,
    ID_VALUE,
    INVISIBLE,
    JOKER,
    JOKER_VALUE,
    NOT_ON_RULES,
    NUMBER_VALUES,
    PACK_SIZE,
    PLAIN,
    RULES,
    SOCIAL,
    VALUE,
    VALUE_BY_NAME,
    a_value,
    card_name,
    code,
    codes,
    label,
    listed,
    number,
    pack_faces,
    packs_for,
    plural,
    sort_ids,
    value_name,
    values,
)
from .repetition import NOTHING_SEEN, REPEATS, REPETITION_ENDS, Seen, seen_from_json, seen_to_json, standing

HAND_SIZE = 3  # hand cards are drawn back up to three
TABLE_CARDS = 3  # face-downs, and face-ups, each
STACK = 4  # four of a value on top of the play pile burn it
TEN = 10
SEVEN, EIGHT, NINE = 7, 8, 9
# The rules edition (docs/rules/palace.md). A game keeps the edition it was started with, so that it
# replays as it was played: 1 is how Parlour ruled until 25 November 2026; 2 (LOOSER_PLAYS) lets
# Social and Cardinal cards go on a Rules card, jokers played alone go on anything but what refuses
# the card they play as, and face-ups join the last hand cards whatever is left to draw; 3
# (BURNS_AS_WRITTEN) follows the document on burns: only a 10 gives another turn, and a burning play
# of 7s or 8s still turns play back or skips; 4 (REPETITION_ENDS) ends a game whose position comes
# up a third time.
LOOSER_PLAYS = 2
BURNS_AS_WRITTEN = 3
EDITION = REPETITION_ENDS  # 4: a position that comes up a third time ends the game (repetition.py)

Pile = tuple[tuple[int, int], ...]  # (card id, the value it was played as), bottom first
Known = tuple[tuple[tuple[int, ...], ...], ...]  # known[viewer][holder]: faces known in holder's hand


class State(FieldsState):
    """One moment of a game; the engine only ever builds new ones.

    ``known[v][h]`` is the multiset (sorted faces) of cards that seat ``v`` knows are in seat
    ``h``'s hand (picked up from the pile in sight of all, or handed over in a Cardinal swap);
    row ``players`` is what everybody, spectators included, knows.
    """

    FIELDS = ("hands", "face_ups", "face_downs", "pick_up", "pile", "burned", "direction", "current",
              "detour", "swaps_left", "swap_own", "swapped", "revealed", "finished", "known", "last", "first",
              "edition")
    __slots__ = (*FIELDS, "seen")

    def __init__(self, hands: tuple[tuple[int, ...], ...], face_ups: tuple[tuple[int, ...], ...],
                 face_downs: tuple[tuple[int, ...], ...], pick_up: tuple[int, ...], pile: Pile,
                 burned: tuple[int, ...], direction: int, current: int | None, detour: int | None,
                 swaps_left: int, swap_own: bool, swapped: tuple[tuple[int, int], ...], revealed: int | None,
                 finished: tuple[int, ...], known: Known, last: tuple[tuple[str, Any], ...], first: int,
                 edition: int = EDITION, seen: Seen = NOTHING_SEEN) -> None:
        self.hands = hands  # sorted ids
        self.face_ups = face_ups
        self.face_downs = face_downs
        self.pick_up = pick_up  # the next card drawn is pick_up[0]
        self.pile = pile
        self.burned = burned
        self.direction = direction  # +1: ascending player numbers; -1 after a Social card reversed it
        self.current = current  # the seat to act; None once the game is over
        self.detour = detour  # the 7-player whose follower plays after this one-turn reversal
        self.swaps_left = swaps_left  # Cardinal swaps the current player may still make
        self.swap_own = swap_own  # the next swap is the player's own hand with another's
        self.swapped = swapped  # pairs that swapped this turn (sorted pairs)
        self.revealed = revealed  # a face-down joker turned over, waiting to be named
        self.finished = finished  # seats in the order they went out (the last one remaining last)
        self.known = known
        self.last = last  # what the last action did, for everybody to see
        self.first = first  # who took the first turn
        self.edition = edition  # the rules edition (EDITION)
        # from edition 4, the positions since anything last left play for good (repetition.py)
        self.seen = seen

    def __eq__(self, other: object) -> bool:  # the same fields, and the same positions behind it
        return super().__eq__(other) and self.seen == cast(State, other).seen

    def __hash__(self) -> int:
        return super().__hash__()

    @property
    def players(self) -> int:
        return len(self.hands)

    def __repr__(self) -> str:
        return f"State(current={self.current}, pile={codes(i for i, _ in self.pile)}, finished={self.finished})"


# --- the play pile ---------------------------------------------------------------------------------

def counting_value(pile: Pile) -> int | None:
    """The value of the card that counts: the topmost card that is not invisible (None if none)."""
    for _, value in reversed(pile):
        if value not in INVISIBLE:
            return value
    return None


def rules_on_top(pile: Pile) -> bool:
    return bool(pile) and pile[-1][1] == RULES


_NOTHING: frozenset[int] = frozenset()
# by edition: what a Rules card on top refuses
_REFUSED = {1: ANYWHERE, 2: NOT_ON_RULES, 3: NOT_ON_RULES, 4: NOT_ON_RULES}
Situation = tuple[int | None, frozenset[int]]  # the value that counts, what the card on top refuses


def situation(pile: Pile, edition: int = EDITION) -> Situation:
    """What a play must answer: the value of the card that counts, and what the card on top refuses
    (a Rules card refuses 2s, 3s, 7s and Rules cards; nothing else refuses anything)."""
    if pile and pile[-1][1] not in INVISIBLE:
        return pile[-1][1], _NOTHING  # the top card counts (so it is no Rules card)
    return counting_value(pile), _REFUSED[edition] if rules_on_top(pile) else _NOTHING


def _follows(top: int | None, refused: frozenset[int], value: int) -> bool:
    """May a natural card of ``value`` go where ``top`` counts and the card on top refuses ``refused``?"""
    if value in refused:
        return False
    if value in ANYWHERE or top is None:
        return True
    if top == NINE:
        return value <= NINE  # docs/rules/palace.md: on a 9, 9 or lower
    return value >= top


_SITUATIONS = [(top, refused) for top in (None, *AS_VALUES) for refused in (_NOTHING, ANYWHERE, NOT_ON_RULES)]
# What may naturally follow in each situation: the rule above, tabled once.
_FOLLOWERS: dict[Situation, frozenset[int]] = {
    (top, refused): frozenset(v for v in AS_VALUES if _follows(top, refused, v)) for top, refused in _SITUATIONS}


def _joker_may(edition: int, top: int | None, refused: frozenset[int], value: int) -> bool:
    """May jokers played alone play as ``value`` where ``top`` counts and ``refused`` is refused?
    A joker ignores every play restriction but the one of the card it plays as: 2s, 3s, 7s and Rules
    cards never go on a Rules card (docs/rules/palace.md); in edition 1 only a joker played as a card
    without special properties went on anything, one played as a special card obeyed that card."""
    if edition < LOOSER_PLAYS and value not in PLAIN:
        return value in _FOLLOWERS[top, refused]
    return value not in refused


# What jokers played alone may be played as, by edition and situation: (value, may a natural card of it go).
_JOKER_VALUES: dict[int, dict[Situation, tuple[tuple[int, bool], ...]]] = {
    edition: {(top, refused): tuple((v, v in _FOLLOWERS[top, refused]) for v in AS_VALUES
                                    if _joker_may(edition, top, refused, v)) for top, refused in _SITUATIONS}
    for edition in _REFUSED}


def followers(pile: Pile, edition: int = EDITION) -> frozenset[int]:
    """The values natural cards may have to go on ``pile`` (jokers go on more)."""
    return _FOLLOWERS[situation(pile, edition)]


def may_follow(pile: Pile, value: int, natural: bool = True, edition: int = EDITION) -> bool:
    """May a card of ``value`` go on ``pile``? ``natural`` is False for jokers played as it alone."""
    top, refused = situation(pile, edition)
    if not natural:
        return _joker_may(edition, top, refused, value)  # a joker "ignores these restrictions"
    return value in _FOLLOWERS[top, refused]


def why_not(pile: Pile, value: int, edition: int = EDITION) -> str:
    """Why a card of ``value`` may not go on ``pile``, in words."""
    top, refused = situation(pile, edition)
    if value in refused:
        never = ("2s, 3s, 7s and Rules cards" if edition >= LOOSER_PLAYS
                 else "2s, 3s, 7s and Rules, Social and Cardinal cards")
        return f"{card_name(value)} may not go on a Rules card: {never} never go on one"
    if top == NINE:
        return (f"{card_name(value)} may not follow the 9 that counts on the play pile: on a 9 only 9 or"
                " lower may be played (or a 2, 3, 7, school card or joker)")
    return f"{card_name(value)} is lower than the {value_name(top or 0)} that counts on the play pile"


def stack_burns(pile: Pile) -> bool:
    """Are the top four cards of the pile of one number value?"""
    if len(pile) < STACK:
        return False
    value = pile[-1][1]
    return pile[-2][1] == value and value in NUMBER_VALUES and all(v == value for _, v in pile[-STACK:-2])


def _without(known: tuple[int, ...], gone: list[int]) -> tuple[int, ...]:
    """The multiset ``known`` (sorted faces) less ``gone``, as far as it holds them; still sorted
    (``known`` itself when it holds none of them)."""
    for f in gone:
        if f in known:
            k = known.index(f)
            known = known[:k] + known[k + 1:]
    return known


def _less(cards: tuple[int, ...], gone: list[int]) -> tuple[int, ...]:
    """``cards`` without the (distinct) ids ``gone``, in the same order."""
    return tuple([i for i in cards if i not in gone])


def _replaced(row: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return row[:index] + (value,) + row[index + 1:]


def _step(finished: Iterable[int], players: int, seat: int, direction: int, places: int) -> int:
    """The seat ``places`` places from ``seat`` in ``direction``, counting players still in only."""
    if not finished:
        return (seat + direction * places) % players
    out = set(finished)
    while places > 0:
        seat = (seat + direction) % players
        if seat not in out:
            places -= 1
    return seat


# _ROUND[players][seat]: every seat in seat order from ``seat``, round the table.
_ROUND = {n: tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n)) for n in range(1, 7)}


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _cards(ids: Iterable[int]) -> str:
    """Cards as the log writes them: '7♥, Q♣ and a Joker'."""
    return listed([label(ID_FACE[i]) for i in ids])


def _play_words(ids: list[int], value: int) -> str:
    """A play as people write it: 'Q♣', 'three 7s: 7♥, 7♦ and a Joker', 'a Joker as a 10',
    'two Jokers as Kings'."""
    naturals = [label(ID_FACE[i]) for i in ids if ID_VALUE[i] != JOKER_VALUE]
    jokers = len(ids) - len(naturals)
    if not naturals:
        return f"a Joker as {a_value(value)}" if jokers == 1 else f"{number(jokers)} Jokers as {plural(value)}"
    if len(ids) == 1:
        return naturals[0]
    if jokers:
        naturals.append("a Joker" if jokers == 1 else f"{number(jokers)} Jokers")
    return f"{values(len(ids), value)}: {listed(naturals)}"


_FROM = {"hand": "", "face-up": " from their face-ups", "hand and face-up": " from their hand and face-ups"}
_TIMES = ("", "once", "twice")


class _Play:
    """A checked play: the cards from each source, what is left of the first source once they are
    played, and the value they play as."""

    __slots__ = ("main", "extra", "rest", "revealed", "value", "naturals", "source")

    def __init__(self, main: list[int], extra: list[int], rest: list[int], revealed: bool, value: int, naturals: int,
                 source: str) -> None:
        self.main, self.extra, self.rest, self.revealed = main, extra, rest, revealed
        self.value, self.naturals, self.source = value, naturals, source

    @property
    def cards(self) -> list[int]:
        return self.main + self.extra


class _Turn:
    """A working copy of a state while one action is applied: the per-seat rows are lists whose
    entries (tuples, shared with the state) are replaced, never changed in place."""

    __slots__ = ("n", "hands", "face_ups", "face_downs", "pick_up", "pile", "burned", "direction", "current",
                 "detour", "swaps_left", "swap_own", "swapped", "revealed", "finished", "known", "first", "last",
                 "log", "edition")

    def __init__(self, state: State, log: list[LogEntry] | None) -> None:
        self.n = len(state.hands)
        self.hands = list(state.hands)
        self.face_ups = list(state.face_ups)
        self.face_downs = list(state.face_downs)
        self.pick_up = state.pick_up
        self.pile = state.pile
        self.burned = state.burned
        self.direction = state.direction
        self.current = state.current
        self.detour = state.detour
        self.swaps_left = state.swaps_left
        self.swap_own = state.swap_own
        self.swapped = state.swapped
        self.revealed = state.revealed
        self.finished = state.finished
        # made a list (of the state's rows, each replaced whole) once it changes
        self.known: Known | list[tuple[tuple[int, ...], ...]] = state.known
        self.first = state.first
        self.edition = state.edition
        self.last: dict[str, Any] = {}
        self.log = log  # None when nobody reads the log: then no line is even written

    def say(self, text: str, seats: Iterable[int] | None = None) -> None:
        self.log.append(LogEntry(text, None if seats is None else frozenset(seats)))  # type: ignore[union-attr]

    def active(self, seat: int) -> bool:
        return seat not in self.finished

    def order_from(self, seat: int) -> tuple[int, ...]:
        """Every seat, in seat order from ``seat``."""
        return _ROUND[self.n][seat]

    # -- knowledge of hands ----------------------------------------------------------------------
    # Most viewers know the same of a hand (the very same tuple), so it is worked out once for them.
    def forget(self, holder: int, ids: Iterable[int]) -> None:
        gone: list[int] | None = None
        before = after = None
        for viewer, row in enumerate(self.known):
            held = row[holder]
            if held:
                if held is not before:
                    gone = gone or [ID_FACE[i] for i in ids]
                    before, after = held, _without(held, gone)
                if after is not held:
                    self.known = list(self.known)
                    self.known[viewer] = _replaced(row, holder, after)

    def learn(self, holder: int, ids: Iterable[int]) -> None:
        faces = tuple([ID_FACE[i] for i in ids])
        before = after = None
        self.known = list(self.known)
        for viewer, row in enumerate(self.known):
            if viewer != holder:
                held = row[holder]
                if held is not before:
                    before, after = held, tuple(sorted(held + faces))
                self.known[viewer] = _replaced(row, holder, after)

    # -- moving cards --------------------------------------------------------------------------
    def burn(self) -> None:
        self.burned += tuple(i for i, _ in self.pile)
        self.pile = ()

    def take_pile(self, seat: int, extra: list[int]) -> int:
        cards = [i for i, _ in self.pile] + extra
        self.learn(seat, cards)
        self.hands[seat] = sort_ids(self.hands[seat] + tuple(cards))
        self.pile = ()
        return len(cards)

    def draw_up(self, first: int) -> None:
        if not self.pick_up:
            return
        for seat in self.order_from(first):
            hand = self.hands[seat]
            if not self.pick_up or len(hand) >= HAND_SIZE or seat in self.finished:
                continue
            k = HAND_SIZE - len(hand)
            drawn, self.pick_up = self.pick_up[:k], self.pick_up[k:]
            self.hands[seat] = sort_ids(hand + drawn)
            if self.log is not None:
                self.say(f"{{p{seat}}} drew {'a card' if len(drawn) == 1 else number(len(drawn)) + ' cards'}")
                self.say(f"{{p{seat}}} drew {_cards(drawn)}", (seat,))

    def check_out(self, first: int) -> None:
        for seat in self.order_from(first):
            if (not self.hands[seat] and not self.face_ups[seat] and not self.face_downs[seat]
                    and seat not in self.finished and not (seat == self.current and self.revealed is not None)):
                self.finished += (seat,)
                self.last["out"] = self.last.get("out", ()) + (seat,)
                if self.log is not None:
                    self.say(f"{{p{seat}}} is out in {_ordinal(len(self.finished))} place")
        if len(self.finished) == self.n - 1:
            (last,) = (s for s in range(self.n) if self.active(s))
            self.finished += (last,)
            if self.log is not None:
                self.say(f"{{p{last}}} is left holding cards and comes last")
            self.current = None

    def end_turn(self, seat: int, burned: bool = False, sevens: int = 0, eights: int = 0,
                 socials: int = 0) -> None:
        """Pass the turn on after ``seat``'s turn, applying what its play did to the order of play."""
        self.swaps_left, self.swap_own, self.swapped = 0, False, ()
        if self.current is None:
            return
        if burned and self.active(seat):
            self.current = seat
            self.last["again"] = True
            if self.log is not None:
                self.say(f"{{p{seat}}} takes another turn")
            return
        if sevens and not burned:
            # a 7 turns play back for one turn; 7s answering a 7 forget the earlier ones
            self.detour = seat
            self.current = _step(self.finished, self.n, seat, -self.direction, sevens)
            self.last["detour"] = self.current
            if self.log is not None:
                self.say(f"{{p{self.current}}} plays next, against the order of play, then play goes on"
                         f" after {{p{seat}}}")
            return
        base = seat if self.detour is None else self.detour
        self.detour = None
        if socials % 2:
            self.direction = -self.direction
            self.last["reversed"] = True
            if self.log is not None:
                self.say("The order of play is reversed")
        if eights:
            skipped = tuple(_step(self.finished, self.n, base, self.direction, k) for k in range(1, eights + 1))
            self.last["skipped"] = skipped
            if self.log is not None:
                self.say(listed([f"{{p{s}}}" for s in skipped]) + (" is" if len(skipped) == 1 else " are") + " skipped")
        self.current = _step(self.finished, self.n, base, self.direction, 1 + eights)

    def freeze(self) -> State:
        last = self.last  # its values are tuples or scalars, so it sorts into a hashable tuple
        return State(tuple(self.hands), tuple(self.face_ups), tuple(self.face_downs), self.pick_up, self.pile,
                     self.burned, self.direction, self.current, self.detour, self.swaps_left, self.swap_own,
                     self.swapped, self.revealed, self.finished, tuple(self.known),
                     tuple(sorted(last.items())), self.first, self.edition)


def _face_ups_may_join(state: State) -> bool:
    """May face-ups join the last hand cards now? From edition 2 always; in edition 1 only once the
    pick-up pile is empty."""
    return state.edition >= LOOSER_PLAYS or not state.pick_up


def _not_a_list_of_cards(cards: Any) -> IllegalAction:
    return IllegalAction("a play lists the cards it plays, as in {'type': 'play', 'cards': ['7H', '7D']},"
                         f" not {cards!r}")


_PlayOption = tuple[list[int], int, bool]  # a play as (card ids, value, whether jokers name it)


def _join_face_ups(options: list[Action | _PlayOption], face_ups: tuple[int, ...], cards: list[int], value: int,
                   natural_ok: bool, jokers_in: bool) -> None:
    """Add the play ``cards`` (all of the hand) joined by matching face-ups and face-up jokers."""
    more = [i for i in face_ups if ID_VALUE[i] == value]
    face_up_jokers = [i for i in face_ups if ID_VALUE[i] == JOKER_VALUE]
    for a in range(len(more) + 1):
        if a and not natural_ok:
            break  # face-up naturals obey the play restrictions
        for b in range(len(face_up_jokers) + 1):
            if a or b:
                options.append((cards + more[:a] + face_up_jokers[:b], value, jokers_in or b > 0))


def _action(option: Action | _PlayOption) -> Action:
    """A legal option as the action it stands for (plays are written out only when asked for)."""
    if isinstance(option, dict):
        return option
    cards, value, with_jokers = option
    action: Action = {"type": "play", "cards": codes(cards)}
    if with_jokers:
        action["as"] = value_name(value)
    return action


_NOBODY: frozenset[int] = frozenset()
_IDS_OF_FACE: dict[int, tuple[int, ...]] = {}  # face: the ids printed with it, lowest first
for _id, _face in enumerate(ID_FACE):
    _IDS_OF_FACE[_face] = _IDS_OF_FACE.get(_face, ()) + (_id,)
_JOKERS = frozenset(i for i, value in enumerate(ID_VALUE) if value == JOKER_VALUE)
_ALONE = tuple(frozenset((seat,)) for seat in range(6))  # to_act: one seat, made once
_ACTION_TYPES = "'play', 'take', 'flip', 'swap' and 'no_swap'"


class Palace(Game[State]):
    id = "palace"
    name = "Palace"
    pitch = ("The shedding card game better known as Shithead, by the Judd School rules: burn the pile,"
             " skip, reverse and swap hands, and do not be the last one holding cards.")
    scores_label = "cards left"
    min_players = 2
    max_players = 6
    hidden_information = True
    # random games' longest in 300 was 2,602 actions (p99 1,986); a position's third time ends a
    # cycle (edition 4); older editions' endless rounds stop here
    max_actions = 4_000
    action_fields = {"play": {"cards": "strs", "as": "str?"}, "take": {}, "swap": {"seats": "ints"}, "no_swap": {},
                     "flip": {"index": "int"}}
    options = (Option("edition", "Rules edition", "int", EDITION, minimum=1, maximum=EDITION, legacy=1,
                      help="4: as 3, and a position that comes up a third time ends the game, those still"
                           " holding cards placed by how many they have left; 3: only a 10 gives another turn,"
                           " and burning 7s and 8s still turn play back or"
                           " skip; 2: a stack burn gave another turn and did nothing else, as Parlour ruled"
                           " until 27 November 2026; 1: also no Social or Cardinal card on a Rules card, a"
                           " joker played as a special card obeying it, and face-ups joining the last hand"
                           " cards only once the pick-up pile is empty, as ruled before 25 November 2026"
                           " (games played then replay by it)", replay_only=True),)

    # -- set-up --------------------------------------------------------------------------------------
    def start(self, players: int, options: Mapping[str, Any] | None, seed: int) -> State:
        self.check_players(players)
        edition = self.resolve_options(options, players)["edition"]
        deck = list(range(PACK_SIZE * packs_for(players)))
        derive(seed, "deck").shuffle(deck)
        deal = iter(deck)
        face_downs = tuple(tuple(next(deal) for _ in range(TABLE_CARDS)) for _ in range(players))
        face_ups = tuple(sort_ids(next(deal) for _ in range(TABLE_CARDS)) for _ in range(players))
        hands = tuple(sort_ids(next(deal) for _ in range(HAND_SIZE)) for _ in range(players))
        first = derive(seed, "first player").randrange(players)
        known = tuple(tuple(() for _ in range(players)) for _ in range(players + 1))
        return State(hands, face_ups, face_downs, tuple(deal), (), (), 1, first, None, 0, False, (), None, (),
                     known, (), first, edition)

    def to_act(self, state: State) -> frozenset[int]:
        return _NOBODY if state.current is None else _ALONE[state.current]

    def is_over(self, state: State) -> bool:
        return state.current is None

    # -- listing -------------------------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return [_action(option) for option in self._options(state, seat)]

    def random_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """``legal_actions(state, seat)[i]`` for ``i`` drawn uniformly, as ``rng.choice`` draws it; a
        play is found from ``i`` without listing the others (tests/games/palace/test_palace_properties.py)."""
        if (state.current == seat and not state.swaps_left and state.revealed is None
                and (state.hands[seat] or state.face_ups[seat])):
            play = self._drawn_play(state, seat, rng)
            if play is not None:
                return play
        return _action(rng.choice(self._options(state, seat)))

    @staticmethod
    def _drawn_play(state: State, seat: int, rng: random.Random) -> Action | None:
        """The play ``_plays`` lists at an index drawn uniformly, or None (and nothing drawn) when
        there is no play or face-ups may join the hand's: then the plays are listed.

        ``_plays`` lists, value by value in hand order, each natural card of a playable value as the
        last of a play (with the cards of its value before it), each followed by the same play with
        1, 2... jokers; then the jokers alone, as each value they may name. Hands are kept sorted, so
        a value's cards are together and the natural cards come in the same order as in ``main``.
        """
        hand = state.hands[seat]
        main = hand or state.face_ups[seat]
        if (hand and state.face_ups[seat] and _face_ups_may_join(state)
                and len({ID_VALUE[i] for i in main} - {JOKER_VALUE}) <= 1):
            return None  # face-ups may join: rare enough to list
        now = situation(state.pile, state.edition)
        allowed = _FOLLOWERS[now]
        playable = [i for i in main if ID_VALUE[i] in allowed]
        jokers = [] if _JOKERS.isdisjoint(main) else [i for i in main if i in _JOKERS]
        per_card = 1 + len(jokers)
        naturals = len(playable) * per_card
        joker_values = _JOKER_VALUES[state.edition][now] if jokers else ()
        total = naturals + len(joker_values) * len(jokers)
        if not total:
            return None
        index = rng.randrange(total)
        if index < naturals:
            last, j = divmod(index, per_card)
            card = playable[last]
            value = ID_VALUE[card]
            end = start = main.index(card)
            while start and ID_VALUE[main[start - 1]] == value:
                start -= 1
            return _action((list(main[start:end + 1]) + jokers[:j], value, j > 0))
        value_index, j = divmod(index - naturals, len(jokers))
        return _action((jokers[:j + 1], joker_values[value_index][0], True))

    def _options(self, state: State, seat: int) -> list[Action | _PlayOption]:
        """The legal actions, plays left as (cards, value, jokers named) until one is wanted."""
        if state.current != seat:
            return []
        if state.swaps_left:
            return self._swaps(state, seat) + [{"type": "no_swap"}]
        if state.revealed is not None:
            return [{"type": "play", "cards": ["joker"], "as": value_name(v)}
                    for v in AS_VALUES if may_follow(state.pile, v, False, state.edition)]
        if not state.hands[seat] and not state.face_ups[seat]:
            return [{"type": "flip", "index": i} for i in range(len(state.face_downs[seat]))]
        return self._plays(state, seat) or [{"type": "take"}]

    def _swaps(self, state: State, seat: int) -> list[Action | _PlayOption]:
        active = [s for s in range(state.players) if s not in state.finished]
        if state.swap_own:
            pairs = [tuple(sorted((seat, s))) for s in active if s != seat]
        else:
            pairs = [(a, b) for i, a in enumerate(active) for b in active[i + 1:]]
        return [{"type": "swap", "seats": list(p)} for p in pairs if p not in state.swapped]

    @staticmethod
    def _can_play(state: State, seat: int) -> bool:
        """Is any play legal? A joker always is (as a plain card), else one card that may follow."""
        allowed = followers(state.pile, state.edition)
        main = state.hands[seat] or state.face_ups[seat]
        return any(ID_VALUE[i] in allowed or ID_VALUE[i] == JOKER_VALUE for i in main)

    def _plays(self, state: State, seat: int) -> list[Action | _PlayOption]:
        hand = state.hands[seat]
        main = hand or state.face_ups[seat]
        naturals: dict[int, list[int]] = {}  # value: ids, in the order of main
        jokers = []
        for i in main:
            value = ID_VALUE[i]
            if value == JOKER_VALUE:
                jokers.append(i)
            elif value in naturals:
                naturals[value].append(i)
            else:
                naturals[value] = [i]
        now = situation(state.pile, state.edition)
        allowed = _FOLLOWERS[now]
        # face-ups may join a play of the whole hand (docs/rules/palace.md: the pick-up pile need not be empty)
        extra = state.face_ups[seat] if hand and len(naturals) <= 1 and _face_ups_may_join(state) else ()
        whole = len(main)
        joker_runs = [jokers[:j] for j in range(1, len(jokers) + 1)]  # the first one, the first two...
        options: list[Action | _PlayOption] = []
        for value, ids in naturals.items():
            if value not in allowed:
                continue
            for k in range(1, len(ids) + 1):
                cards = ids[:k]
                options.append((cards, value, False))
                if extra and k == whole:
                    _join_face_ups(options, extra, cards, value, True, False)
                for run in joker_runs:
                    options.append((cards + run, value, True))
                    if extra and k + len(run) == whole:
                        _join_face_ups(options, extra, cards + run, value, True, True)
        if jokers:
            for value, natural_ok in _JOKER_VALUES[state.edition][now]:
                for run in joker_runs:
                    options.append((run, value, True))
                    if extra and len(run) == whole:
                        _join_face_ups(options, extra, run, value, natural_ok, True)
        return options

    # -- checking ------------------------------------------------------------------------------------
    def check(self, state: State, seat: int, action: Any) -> None:
        self._checked(state, seat, action)

    def _checked(self, state: State, seat: int, action: Any) -> Any:
        kind = require_action(action)
        if state.current is None:
            raise IllegalAction("the game is over")
        if state.current != seat:
            raise IllegalAction(f"it is player {state.current + 1}'s turn, not player {seat + 1}'s")
        if state.swaps_left:
            if kind == "swap":
                return self._checked_swap(state, seat, action)
            if kind == "no_swap":
                return None
            raise IllegalAction(f"you played {counted(state.swaps_left, 'Cardinal swap')} still to make:"
                                " choose a swap of hands ('swap') or make no more ('no_swap')")
        if kind == "play":
            return self._checked_play(state, seat, action)
        if kind == "take":
            if state.revealed is not None:
                raise IllegalAction("you turned over a joker: name what it is played as")
            if not state.hands[seat] and not state.face_ups[seat]:
                raise IllegalAction("you have only face-down cards: turn one over ('flip')")
            if self._can_play(state, seat):
                plays = self._plays(state, seat)
                raise IllegalAction("you can play, so you may not take the pile (e.g. "
                                    f"{' '.join(_action(plays[0])['cards'])}); the pile is taken only when nothing"
                                    " can go on it")
            return None
        if kind == "flip":
            if state.revealed is not None:
                raise IllegalAction("you turned over a joker: name what it is played as")
            if state.hands[seat] or state.face_ups[seat]:
                where = "hand cards" if state.hands[seat] else "face-up cards"
                raise IllegalAction("face-downs are played only once hand and face-ups are gone: you still have"
                                    f" {where}")
            index = require_int(action, "index")
            count = len(state.face_downs[seat])
            if not 0 <= index < count:
                raise IllegalAction(f"you have {counted(count, 'face-down card')}: 'index' must be 0 to {count - 1},"
                                    f" not {index}")
            return index
        if kind in ("swap", "no_swap"):
            raise IllegalAction("there is no Cardinal swap to make: swaps follow a Cardinal card played this turn")
        raise IllegalAction(f"unknown action type {kind!r}: the actions are {_ACTION_TYPES}")

    def _checked_swap(self, state: State, seat: int, action: Mapping[str, Any]) -> tuple[int, int]:
        seats = action.get("seats")
        if (not isinstance(seats, list) or len(seats) != 2
                or any(isinstance(s, bool) or not isinstance(s, int) for s in seats)):
            raise IllegalAction(f"a swap names two seats, as in {{'type': 'swap', 'seats': [0, 2]}}, not {seats!r}")
        a, b = sorted(seats)
        for s in (a, b):
            if not 0 <= s < state.players:
                raise IllegalAction(f"there is no seat {s}: seats are 0 to {state.players - 1}")
            if s in state.finished:
                raise IllegalAction(f"player {s + 1} is out of the game and swaps no hand")
        if a == b:
            raise IllegalAction("a swap needs two different players")
        if state.swap_own and seat not in (a, b):
            raise IllegalAction("your first Cardinal swap is your own hand with another player's")
        if (a, b) in state.swapped:
            raise IllegalAction(f"players {a + 1} and {b + 1} already swapped hands this turn")
        return a, b

    def _checked_play(self, state: State, seat: int, action: Mapping[str, Any]) -> _Play:
        cards = action.get("cards")
        if not isinstance(cards, list) or not cards:
            raise _not_a_list_of_cards(cards)
        try:
            maybe = list(map(FACE_BY_CODE.get, cards))
        except TypeError:  # something unhashable, so no card code
            raise _not_a_list_of_cards(cards) from None
        if None in maybe:
            if not all(isinstance(c, str) for c in cards):
                raise _not_a_list_of_cards(cards)
            unknown = next(c for c in cards if c not in FACE_BY_CODE)
            raise IllegalAction(f"there is no card {unknown!r} (cards are written 2H..10S, JD, QC, KH, AS, joker,"
                                " rules, social, cardinal)")
        faces = cast(list[int], maybe)  # no None among them
        as_name = action.get("as")
        if as_name is not None and as_name not in VALUE_BY_NAME:
            raise IllegalAction("a joker may be played as 2..10, J, Q, K, A, rules, social or cardinal,"
                                f" not {as_name!r}")
        values = {VALUE[f] for f in faces}
        values.discard(JOKER_VALUE)
        if len(values) > 1:
            raise IllegalAction("the cards of one play must all have the same value, not "
                                + " and ".join(value_name(v) for v in sorted(values)))
        if values:
            value = values.pop()
            if as_name is not None and VALUE_BY_NAME[as_name] != value:
                raise IllegalAction(f"'as' names what jokers play as, and in a play of {value_name(value)}s they are"
                                    f" {value_name(value)}s, not {as_name}")
        elif as_name is None:
            raise IllegalAction("say what the joker is played as,"
                                " e.g. {'type': 'play', 'cards': ['joker'], 'as': '10'}")
        else:
            value = VALUE_BY_NAME[as_name]
        naturals = len(faces) - faces.count(JOKER)
        if state.revealed is not None:
            if faces != [JOKER]:
                raise IllegalAction("you turned over a joker: play it, naming what it is played as")
            play = _Play([], [], [], True, value, 0, "face-down")
        else:
            play = self._take_cards(state, seat, faces)
            play.value, play.naturals = value, naturals
        if not may_follow(state.pile, value, naturals > 0, state.edition):
            raise IllegalAction(why_not(state.pile, value, state.edition))
        return play

    @staticmethod
    def _take_cards(state: State, seat: int, faces: list[int]) -> _Play:
        """Which ids a play's faces come from: hand first, then (last hand cards) face-ups."""
        hand, face_ups = state.hands[seat], state.face_ups[seat]
        if not hand and not face_ups:
            raise IllegalAction("you have only face-down cards: turn one over ('flip')")
        main_source = list(hand or face_ups)
        main: list[int] = []
        wanted: list[int] = []
        for f in faces:
            for i in _IDS_OF_FACE[f]:  # the first in hand order, as hands are sorted
                if i in main_source:
                    main_source.remove(i)
                    main.append(i)
                    break
            else:
                wanted.append(f)
        if not wanted:
            return _Play(main, [], main_source, False, 0, 0, "hand" if hand else "face-up")
        if not hand:
            raise IllegalAction(f"you have no {', '.join(code(f) for f in wanted)} among your face-up cards")
        extra_source = list(face_ups)
        extra = []
        for f in wanted:
            found = next((i for i in extra_source if ID_FACE[i] == f), None)
            if found is None:
                where = " or among your face-ups" if face_ups else ""
                raise IllegalAction(f"you have no {code(f)} in your hand{where}")
            extra_source.remove(found)
            extra.append(found)
        if main_source:
            raise IllegalAction("face-ups may join only your last hand cards: you would still hold "
                                + ", ".join(codes(main_source)))
        if not _face_ups_may_join(state):
            raise IllegalAction("face-ups may join your last hand cards only once the pick-up pile is empty"
                                " (rules edition 1)")
        return _Play(main, extra, main_source, False, 0, 0, "hand")

    # -- applying ------------------------------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action, log: list[LogEntry] | None = None) -> State:
        checked = self._checked(state, seat, action)
        kind = action["type"]
        turn = _Turn(state, log)
        turn.last = {"seat": seat, "kind": kind}
        if kind == "play":
            self._play(turn, seat, checked)
        elif kind == "take":
            n = turn.take_pile(seat, [])
            turn.last["picked_up"] = n
            if log is not None:
                turn.say(f"{{p{seat}}} could not play and took the pile ({counted(n, 'card')})")
            turn.end_turn(seat)
        elif kind == "flip":
            self._flip(turn, seat, checked)
        elif kind == "swap":
            self._swap(turn, seat, *checked)
        else:  # no_swap
            if log is not None:
                turn.say(f"{{p{seat}}} makes no more swaps")
            turn.end_turn(seat)
        after = turn.freeze()
        if after.edition < REPETITION_ENDS or after.current is None:
            return after
        after.seen = state.seen.after(state, after)
        if after.seen.repeated():  # docs/rules/palace.md: a position's third time ends the game
            turn.current = None
            turn.last["repeated"] = True
            if log is not None:
                turn.say(f"The same position has come up {number(REPEATS)} times: the game ends, and those still"
                         " holding cards are placed by how many they have left")
            return turn.freeze()
        return after

    def _play(self, turn: _Turn, seat: int, play: _Play) -> None:
        if play.revealed:
            assert turn.revealed is not None
            ids = [turn.revealed]
            turn.revealed = None
        else:
            ids = play.cards
            if play.source == "hand":
                turn.hands[seat] = tuple(play.rest)
                turn.forget(seat, play.main)
            else:
                turn.face_ups[seat] = tuple(play.rest)
            if play.extra:
                turn.face_ups[seat] = _less(turn.face_ups[seat], play.extra)
        self._place(turn, seat, ids, play.value, play.source + (" and face-up" if play.extra else ""))

    def _place(self, turn: _Turn, seat: int, ids: list[int], value: int, source: str, told: bool = False) -> None:
        """Put a play on the pile and carry out what it does (``told``: the log already said what was played)."""
        turn.pile += tuple([(i, value) for i in ids])
        n = len(ids)
        if turn.log is not None and not told:
            if source == "face-down":  # a joker turned over, now named
                turn.say(f"{{p{seat}}} played the face-down Joker as {a_value(value)}")
            else:
                turn.say(f"{{p{seat}}} played {_play_words(ids, value)}{_FROM[source]}")
        last = turn.last
        last["cards"], last["value"], last["source"] = tuple(codes(ids)), value_name(value), source
        burned = ""
        if value == TEN:
            burned = "ten"
        elif stack_burns(turn.pile):
            burned = "stack"
        if burned:
            turn.burn()
            turn.last["burn"] = burned
            if turn.log is not None:
                turn.say("The 10 burns the play pile" if burned == "ten"
                         else f"Four {plural(value)} burn the play pile")
        turn.draw_up(seat)
        turn.check_out(seat)
        if value == CARDINAL and turn.current is not None and turn.active(seat) and not burned:
            turn.swaps_left, turn.swap_own, turn.swapped = n, True, ()
            if turn.log is not None:
                turn.say(f"{{p{seat}}} may swap hands {_TIMES[n] if n < len(_TIMES) else number(n) + ' times'}")
            return
        if burned == "ten" or (burned and turn.edition < BURNS_AS_WRITTEN):
            # a 10 burn gives another turn; before edition 3 a stack burn did too, and did nothing else
            turn.end_turn(seat, burned=True)
            return
        turn.end_turn(seat, False, n if value == SEVEN else 0, n if value == EIGHT else 0,
                      n if value == SOCIAL else 0)

    def _flip(self, turn: _Turn, seat: int, index: int) -> None:
        downs = turn.face_downs[seat]
        card = downs[index]
        turn.face_downs[seat] = downs[:index] + downs[index + 1:]
        value = ID_VALUE[card]
        turn.last["flipped"] = code(ID_FACE[card])
        if value == JOKER_VALUE:
            turn.revealed = card
            if turn.log is not None:
                turn.say(f"{{p{seat}}} turned over a Joker from their face-downs and names what it plays as")
            return
        if may_follow(turn.pile, value, True, turn.edition):
            if turn.log is not None:
                turn.say(f"{{p{seat}}} turned over {label(ID_FACE[card])} from their face-downs and played it")
            self._place(turn, seat, [card], value, "face-down", told=True)
            return
        n = turn.take_pile(seat, [card])
        turn.last["picked_up"] = n
        if turn.log is not None:
            turn.say(f"{{p{seat}}} turned over {label(ID_FACE[card])} from their face-downs, which cannot be played,"
                     f" and took it with the pile ({counted(n, 'card')})")
        turn.end_turn(seat)

    def _swap(self, turn: _Turn, seat: int, a: int, b: int) -> None:
        hand_a, hand_b = turn.hands[a], turn.hands[b]
        turn.hands[a], turn.hands[b] = hand_b, hand_a
        known = [list(row) for row in turn.known]
        for row in known:
            row[a], row[b] = row[b], row[a]
        known[a][a] = known[b][b] = ()
        known[a][b] = tuple(sorted(ID_FACE[i] for i in hand_a))
        known[b][a] = tuple(sorted(ID_FACE[i] for i in hand_b))
        turn.known = [tuple(row) for row in known]
        turn.swapped += ((a, b),)
        turn.swaps_left -= 1
        turn.swap_own = False
        turn.last["swap"] = (a, b)
        if turn.log is not None:
            turn.say(f"{{p{a}}} and {{p{b}}} swapped hands")
            turn.say(f"{{p{a}}} gave {{p{b}}} {_cards(hand_a) if hand_a else 'an empty hand'}"
                     f" for {_cards(hand_b) if hand_b else 'an empty hand'}", (a, b))
        turn.draw_up(seat)
        turn.check_out(seat)
        if turn.current is None:
            return
        if not turn.active(seat):
            turn.end_turn(seat)
            return
        active = [s for s in range(turn.n) if turn.active(s)]
        if turn.swaps_left and any((x, y) not in turn.swapped for i, x in enumerate(active) for y in active[i + 1:]):
            return
        turn.end_turn(seat)

    # -- results and views ---------------------------------------------------------------------------
    def result(self, state: State) -> Result | None:
        if state.current is not None:
            return None
        n = state.players
        if len(state.finished) < n:  # a position came up a third time (edition 4)
            return by_cards_left(state, f"the same position came up {number(REPEATS)} times", repetition=True)
        place = {s: k for k, s in enumerate(state.finished)}
        scores = tuple(float(n - 1 - place[s]) for s in range(n))
        *out, last = (f"{{p{s}}}" for s in state.finished)
        reason = f"went out in this order: {', '.join(out)}; {last} was left holding cards"
        return Result(scores, tuple(place[s] + 1 for s in range(n)), reason, {"finishing_order": list(state.finished)})

    def capped(self, state: State, players: int) -> Result:
        """docs/rules/palace.md: a game that reaches the cap on actions ends as a repetition does."""
        return by_cards_left(state, f"the game reached its cap of {self.max_actions:,} actions",
                             capped=self.max_actions)

    def view(self, state: State, seat: int | None) -> View:
        n = state.players
        row = state.known[n if seat is None else seat]
        players = []
        for s in range(n):
            hand = state.hands[s]
            left = len(hand) + len(state.face_ups[s]) + len(state.face_downs[s])
            players.append({
                "hand": codes(hand) if s == seat else None,
                "hand_count": len(hand),
                "known_hand": codes(hand) if s == seat else [code(f) for f in row[s]],
                "face_ups": codes(state.face_ups[s]),
                "face_downs": len(state.face_downs[s]),
                "cards_left": left,
                "place": state.finished.index(s) + 1 if s in state.finished else None,
            })
        top = counting_value(state.pile)
        result = self.result(state)
        if result is not None:
            for s, player in enumerate(players):
                player["place"] = result.ranks[s]
        return {
            "game": self.id, "seat": seat, "players": players,
            "play_pile": [{"card": code(ID_FACE[i]), "as": value_name(v)} for i, v in state.pile],
            "counts": value_name(top) if top is not None else None,
            "capped": top == NINE, "rules_on_top": rules_on_top(state.pile),
            "pick_up_pile": len(state.pick_up), "burn_pile": codes(state.burned),
            "direction": state.direction, "current": state.current,
            "to_act": [] if state.current is None else [state.current],
            "detour": state.detour, "swaps_left": state.swaps_left, "swap_own": state.swap_own,
            "swapped": [list(p) for p in state.swapped],
            "revealed": None if state.revealed is None else "joker",
            "finished": list(state.finished), "first": state.first, "edition": state.edition,
            "last": {k: list(v) if isinstance(v, tuple) else v for k, v in state.last},
            "scores": [p["cards_left"] for p in players],
            "over": result is not None, "result": result.to_json() if result else None,
        }

    def sample(self, view: View, seat: int, rng: random.Random) -> State:
        """A full state consistent with ``seat``'s view: the cards it cannot see dealt at random.

        What the seat knows of others' hands (``known_hand``) stays where it is; the rest of their
        hands, every face-down and the pick-up pile come from the cards nobody has shown it.
        Other seats' knowledge of hands is rebuilt as what ``seat`` knows everybody knows: nothing
        beyond the view.
        """
        players = view["players"]
        n = len(players)
        packs = packs_for(n)
        ids_of: dict[int, list[int]] = {}
        for i in range(PACK_SIZE * packs):
            ids_of.setdefault(ID_FACE[i], []).append(i)
        for ids in ids_of.values():
            rng.shuffle(ids)
        unseen = pack_faces(packs)

        def faces(cards: Iterable[str]) -> list[int]:
            out = [FACE_BY_CODE[c] for c in cards]
            unseen.subtract(out)
            return out

        pile_faces = [(FACE_BY_CODE[p["card"]], VALUE_BY_NAME.get(p["as"], JOKER_VALUE)) for p in view["play_pile"]]
        unseen.subtract(f for f, _ in pile_faces)
        burned = faces(view["burn_pile"])
        face_ups = [faces(p["face_ups"]) for p in players]
        known = [faces(p["known_hand"]) for p in players]
        revealed = faces(["joker"]) if view["revealed"] else []
        pool = list(unseen.elements())
        assert all(v >= 0 for v in unseen.values()), "the view shows more cards than the packs hold"
        rng.shuffle(pool)
        deal = iter(pool)
        hands = [known[s] + [next(deal) for _ in range(players[s]["hand_count"] - len(known[s]))] for s in range(n)]
        face_downs = [[next(deal) for _ in range(players[s]["face_downs"])] for s in range(n)]
        pick_up = [next(deal) for _ in range(view["pick_up_pile"])]
        assert next(deal, None) is None, "the view accounts for fewer cards than the packs hold"
        def take(fs: Iterable[int]) -> list[int]:
            return [ids_of[f].pop() for f in fs]

        rows: list[list[tuple[int, ...]]] = [[() for _ in range(n)] for _ in range(n + 1)]
        for s in range(n):
            if s != seat:
                rows[seat][s] = tuple(sorted(known[s]))
        pile = tuple((ids_of[f].pop(), v) for f, v in pile_faces)
        last = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in view["last"].items()))
        return State(tuple(sort_ids(take(h)) for h in hands), tuple(sort_ids(take(f)) for f in face_ups),
                     tuple(tuple(take(f)) for f in face_downs), tuple(take(pick_up)), pile, tuple(take(burned)),
                     view["direction"], view["current"], view["detour"], view["swaps_left"], view["swap_own"],
                     tuple(tuple(p) for p in view["swapped"]), take(revealed)[0] if revealed else None,
                     tuple(view["finished"]), tuple(tuple(r) for r in rows), last, view["first"], view["edition"])

    # -- (de)serialisation ---------------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        return {"hands": [list(h) for h in state.hands], "face_ups": [list(f) for f in state.face_ups],
                "face_downs": [list(f) for f in state.face_downs], "pick_up": list(state.pick_up),
                "pile": [list(p) for p in state.pile], "burned": list(state.burned),
                "direction": state.direction, "current": state.current, "detour": state.detour,
                "swaps_left": state.swaps_left, "swap_own": state.swap_own,
                "swapped": [list(p) for p in state.swapped], "revealed": state.revealed,
                "finished": list(state.finished),
                "known": [[list(h) for h in row] for row in state.known],
                "last": [[k, list(v) if isinstance(v, tuple) else v] for k, v in state.last],
                "first": state.first, "edition": state.edition,
                **({"seen": seen_to_json(state.seen)} if state.seen else {})}

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State(tuple(tuple(h) for h in data["hands"]), tuple(tuple(f) for f in data["face_ups"]),
                     tuple(tuple(f) for f in data["face_downs"]), tuple(data["pick_up"]),
                     tuple((i, v) for i, v in data["pile"]), tuple(data["burned"]), data["direction"],
                     data["current"], data["detour"], data["swaps_left"], data["swap_own"],
                     tuple((a, b) for a, b in data["swapped"]), data["revealed"], tuple(data["finished"]),
                     tuple(tuple(tuple(h) for h in row) for row in data["known"]),
                     tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in data["last"]), data["first"],
                     data["edition"], seen_from_json(data.get("seen", ())))


def by_cards_left(state: State, why: str, **details: Any) -> Result:
    """The result of a game that ends with players still holding cards (a repetition, the cap on
    actions): those out in the order they went out, then the rest by cards left, fewest first."""
    places, scores = standing(state)
    held = [s for s in range(state.players) if s not in state.finished]
    left = ", ".join(f"{{p{s}}} {len(state.hands[s]) + len(state.face_ups[s]) + len(state.face_downs[s])}"
                     for s in sorted(held, key=lambda s: places[s]))
    order = ", ".join(f"{{p{s}}}" for s in state.finished)
    gone = f"went out in this order: {order}; " if state.finished else ""
    return Result(scores, places, f"{why}: {gone}cards left: {left}",
                  {"finishing_order": list(state.finished), **details})
