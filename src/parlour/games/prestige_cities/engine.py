"""Prestige Cities: everybody builds their own 8x9 city at once from the same era card and dice.

The rules: eras, options, the state of a game and what each action does. A city is six bitboards
(board.py); a placement of several blocks is a short sequence of ``build`` actions, one square each:
the first names the die (the block type), the rest grow one connected group (docs/rules). What a seat
must still do is a queue of tasks (tasks.py); scores are in scoring.py, the bonus cards in cards.py.

>>> game = PrestigeCities(); state = game.start(2, {}, seed=1)
>>> sorted(game.to_act(state)), state.era
([0, 1], 'pregame')
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from ...core import (
    Action,
    BadOptions,
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
from .board import (
    BLIGHT,
    BLOCK_INDEX,
    BLOCK_NAMES,
    BLOCKS,
    COLS,
    COMMERCE,
    CULTURE,
    DATA,
    DIE_BLOCKS,
    DIE_COLORS,
    EDGE,
    FULL,
    INDUSTRY,
    INNER,
    LETTERS,
    MOUNTAINS,
    PARKS,
    RESIDENTIAL,
    ROWS,
    SHORE,
    SQUARES,
    START_CITY,
    City,
    _c0,
    _c1,
    _nth_square,
    _r0,
    _r1,
    available,
    bit,
    built,
    city_from_rows,
    city_rows,
    components,
    empty_squares,
    groups_of_at_least,
    largest,
    mask_of,
    neighbours,
    squares_of,
    where,
)
from .cards import (
    CARD_DECK,
    CARDS,
    FULL_REWARD,
    GOAL,
    SHARED_REWARD,
    best_seats,
    deal_cards,
    deck2_measure,
    deck4_measure,
    least_numerous,
)
from .scoring import (
    category_scores,
    culture_score,
    happiness_score,
    number,
    overall_score,
    rank_key,
    wealth_score,
)
from .tasks import (
    BLIGHT_TASK,
    BUILD,
    CONVERT,
    GOLDEN,
    MASK_FIELDS,
    PICK,
    REMOVE,
    TASK_TYPES,
    AddBlight,
    Build,
    Convert,
    Golden,
    Pick,
    Queue,
    Remove,
    Task,
    describe_task,
    describe_task_json,
    offer_words,
    step_words,
    task_from_json,
    task_to_json,
)

__all__ = [  # the game's names, as importable from here as before the split into modules
    "AddBlight", "AFTER", "AS_SOON_AS", "available", "BASE_ERAS", "bit", "BLIGHT", "BLIGHT_ERAS", "BLIGHT_TASK",
    "block_choices", "BLOCK_INDEX", "BLOCK_NAMES", "BLOCKS", "bonus_build", "BUILD", "Build", "built", "CARD_DECK",
    "CARDS", "catastrophe_targets", "CATASTROPHES", "category_scores", "CHOOSE", "City", "city_from_rows",
    "city_rows", "COLS", "COMMERCE", "components", "Config", "CONVERT", "Convert", "CULTURE", "culture_score",
    "DATA", "deal_cards", "deck2_measure", "deck4_measure", "DECK_SIZE", "describe_task", "describe_task_json",
    "DIE_BLOCKS", "DIE_COLORS", "DIE_MOST", "EDGE", "EDITION", "empty_squares", "ERA_DICE", "era_queue", "ERAS",
    "FINAL", "FULL", "FULL_REWARD", "GOAL", "GOLDEN", "Golden", "groups_of_at_least", "happiness_score",
    "INDUSTRY", "INNER", "largest", "least_numerous", "LETTERS", "MASK_FIELDS", "mask_of", "may_stop", "ME_OFFERS",
    "MOUNTAINS", "neighbours", "number", "OPTIONS", "OVER", "overall_score", "PARKS", "PICK", "Pick", "PREGAME",
    "PREGAME_DICE", "PrestigeCities", "Queue", "Removal", "REMOVE", "Remove", "RESIDENTIAL", "ROWS", "score_order",
    "SHARED_REWARD", "SHORE", "SQUARES", "squares_of", "START_CITY", "State", "Task", "task_from_json",
    "task_squares", "task_to_json", "TASK_TYPES", "usable_dice", "wealth_score",
]

# --- data -------------------------------------------------------------------------------------

ERAS = {e["id"]: e for e in DATA["eras"]}
PREGAME = DATA["pregame"]
ERAS[PREGAME["id"]] = PREGAME
BASE_ERAS = tuple(e["id"] for e in DATA["eras"] if not e.get("blight"))
BLIGHT_ERAS = tuple(e["id"] for e in DATA["eras"])
PREGAME_DICE = tuple(PREGAME["dice"][BLOCKS[b]] for b in DIE_BLOCKS)
ERA_DICE = {e: tuple(BLOCK_INDEX[b] for b in ERAS[e]["dice"]) for e in ERAS if e != "pregame"}
ERA_DICE["pregame"] = DIE_BLOCKS
CATASTROPHES = {"industrial_disaster": INDUSTRY, "great_fire": RESIDENTIAL}
ME_OFFERS = tuple((b, 2) for b in DIE_BLOCKS)  # The "Me" Generation: five dice showing 2 (docs/rules)
DIE_MOST = 5  # the most blocks a usable die asks for: a 6 is never usable

CHOOSE, AFTER, FINAL, OVER = "choose", "after", "final", "over"  # the phases of a round
Removal = tuple[int, int, int]  # (target seat, block, squares): a catastrophe's choice, carried out at the end
DECK_SIZE: int = DATA["deck_size"]  # eras in a deck


# The rules edition (option ``edition``, docs/rules/prestige_cities.md). Each keeps the games played
# under it replaying as they were played:
# 1: how Parlour ruled before November 2026 (the die's blocks alone count toward Blight);
# 2: every Residential and Industrial block a city gains in a round counts toward Blight;
# 3: Deck 1's extra blocks may be declined, a Deck 1 objective is fulfilled as soon as it is reached,
#    and a Blight owed next to blocks with only Blight around them turns one of those blocks.
EDITION = 3
AS_SOON_AS = 3  # the edition from which the three rulings above hold


class Config:
    """The options a game was started with, read once."""

    __slots__ = ("blight", "ocean", "mountains", "pregame", "cards", "terrain", "edition", "goal")

    def __init__(self, blight: bool, ocean: bool, mountains: bool, pregame: bool, cards: tuple[str, ...],
                 edition: int = EDITION):
        self.blight, self.ocean, self.mountains, self.pregame, self.cards = blight, ocean, mountains, pregame, cards
        self.edition = edition
        self.terrain = MOUNTAINS if mountains else 0  # the mountain squares, if any
        self.goal = BLOCK_INDEX[CARDS[1][cards[0]]["goal"]]  # the block the Deck 1 card counts


# --- state ------------------------------------------------------------------------------------

class State(FieldsState):
    """One moment of a game. Immutable by convention: the engine only ever builds new ones.

    Per-seat fields are tuples indexed by seat. ``start`` holds the cities as they were when the
    era was revealed: during the simultaneous choice that is what the other seats see.
    """

    FIELDS = ("seed", "players", "config", "round", "deck_rounds", "era", "dice", "deck", "drawn", "set_aside",
              "decks", "winners", "cities", "start", "bonus", "phase", "queues", "targets", "removals",
              "groups", "emptied", "reached")
    # Derived data kept to save work, never part of the state's value: see copy().
    __slots__ = FIELDS + ("memo", "acting", "rooms")

    seed: int
    players: int
    config: Config
    round: int  # eras revealed so far, the Pregame included
    deck_rounds: int  # eras drawn from the deck
    era: str  # the current era's id ("" before the first)
    dice: tuple[int, ...]  # by die block, () for eras without dice
    deck: tuple[str, ...]
    drawn: int  # eras of ``deck`` drawn
    set_aside: tuple[str, ...]
    decks: int  # era decks made so far
    winners: tuple[tuple[int, ...] | None, ...]  # per bonus deck: None while it is open
    cities: tuple[City, ...]
    start: tuple[City, ...]  # the cities when the era was revealed
    bonus: tuple[int, ...]
    phase: str  # CHOOSE, AFTER, FINAL or OVER
    queues: tuple[Queue, ...]  # each seat's tasks, first things first
    targets: tuple[int, ...]  # each seat's catastrophe target, () outside catastrophes
    removals: tuple[Removal | None, ...]  # each seat's catastrophe choice
    groups: tuple[int, ...]  # each seat's squares built this round
    emptied: tuple[int, ...]  # each city's squares emptied by this era's catastrophe
    reached: tuple[bool, ...]  # each seat reached the open Deck 1 objective during this era (edition 3)
    memo: dict[int, tuple[Task, int]] | None  # {seat * 8 + block (7: none): (task, squares)}: task_squares
    acting: tuple[tuple[Queue, ...], frozenset[int]] | None  # (queues, seats): what to_act found for them
    rooms: tuple[int, ...] | None  # each city's free squares when the era was revealed: a hint for components()

    def __init__(self, *, seed: int, players: int, config: Config, round: int, deck_rounds: int, era: str,
                 dice: tuple[int, ...], deck: tuple[str, ...], drawn: int, set_aside: tuple[str, ...], decks: int,
                 winners: tuple[tuple[int, ...] | None, ...], cities: tuple[City, ...], start: tuple[City, ...],
                 bonus: tuple[int, ...], phase: str, queues: tuple[Queue, ...], targets: tuple[int, ...],
                 removals: tuple[Removal | None, ...], groups: tuple[int, ...], emptied: tuple[int, ...],
                 reached: tuple[bool, ...]) -> None:
        self.seed, self.players, self.config, self.round, self.deck_rounds = seed, players, config, round, deck_rounds
        self.era, self.dice, self.deck, self.drawn = era, dice, deck, drawn
        self.set_aside, self.decks = set_aside, decks
        self.winners, self.cities, self.start, self.bonus, self.phase = winners, cities, start, bonus, phase
        self.queues, self.targets, self.removals, self.groups, self.emptied = queues, targets, removals, groups, emptied
        self.reached = reached
        self.memo = None
        self.acting = None
        self.rooms = None

    def copy(self) -> State:
        """A shallow copy that the engine may change before handing it out (faster than a loop)."""
        new = State.__new__(State)
        new.memo = None
        new.acting = None
        new.rooms = self.rooms
        new.seed = self.seed
        new.players = self.players
        new.config = self.config
        new.round = self.round
        new.deck_rounds = self.deck_rounds
        new.era = self.era
        new.dice = self.dice
        new.deck = self.deck
        new.drawn = self.drawn
        new.set_aside = self.set_aside
        new.decks = self.decks
        new.winners = self.winners
        new.cities = self.cities
        new.start = self.start
        new.bonus = self.bonus
        new.phase = self.phase
        new.queues = self.queues
        new.targets = self.targets
        new.removals = self.removals
        new.groups = self.groups
        new.emptied = self.emptied
        new.reached = self.reached
        return new

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, n) for n in self.FIELDS if n != "config") + (
            self.config.blight, self.config.ocean, self.config.mountains, self.config.pregame, self.config.cards,
            self.config.edition)

    def __repr__(self) -> str:
        return f"State(round={self.round}, era={self.era!r}, phase={self.phase!r}, dice={self.dice})"

    @property
    def cards(self) -> tuple[str, ...]:
        return self.config.cards


def _set(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return values[:seat] + (value,) + values[seat + 1:]


def _city_with(city: City, block: int, mask: int) -> City:
    return city[:block] + (mask,) + city[block + 1:]


def score_order(state: State, cities: tuple[City, ...] | None = None) -> list[int]:
    """Seats from the top of the score table down: overall score, then the ranking tie-breaks."""
    cities = state.cities if cities is None else cities
    keys = [rank_key(cities[s], state.bonus[s], state.config.ocean) for s in range(state.players)]
    return sorted(range(state.players), key=lambda s: (tuple(-k for k in keys[s]), s))


def catastrophe_targets(state: State, cities: tuple[City, ...]) -> tuple[int, ...]:
    """Each seat's target: the city just above it in the score table; the leader's is the last."""
    order = score_order(state, cities)
    targets = [0] * state.players
    for i, seat in enumerate(order):
        targets[seat] = order[i - 1]  # i == 0: order[-1], the last
    return tuple(targets)


# --- the tasks of an era ------------------------------------------------------------------------

def usable_dice(era: str, dice: tuple[int, ...]) -> list[tuple[int, int]]:
    """(block, value) of the dice that may be used this era: the era's colours, never a 6."""
    return list(_usable(era, dice))


@lru_cache(maxsize=1 << 12)
def _usable(era: str, dice: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    below = ERAS[era].get("below", 6)
    return tuple((b, dice[b]) for b in ERA_DICE[era] if dice[b] < below)


def _pick(city: City, offers: tuple[tuple[int, int], ...], terrain: int, before: int = 0) -> Pick | None:
    """The PICK task for these (block, blocks) offers: the dice placeable in full if there are any,
    otherwise every die, each as fully as the city allows. ``before``: the city's free squares an
    era ago, if known (it saves work)."""
    free = FULL & ~built(city)
    open_room = largest(free & ~terrain, before & ~terrain)
    home_room = largest(free, before) if terrain else open_room
    if open_room >= DIE_MOST and home_room >= DIE_MOST:  # the usual case: room for any die
        return Pick(PICK, tuple(offers))
    whole = tuple(offer for offer in offers if offer[1] <= (home_room if offer[0] == RESIDENTIAL else open_room))
    if whole:
        return Pick(PICK, whole)
    partial = tuple((b, home_room if b == RESIDENTIAL else open_room) for b, _ in offers)
    partial = tuple(offer for offer in partial if offer[1] > 0)
    return Pick(PICK, partial) if partial else None


def era_queue(state: State, seat: int) -> Queue:
    """What ``seat`` must do when the era is revealed (from the cities as they are then)."""
    era = state.era
    kind = ERAS[era]["kind"]
    city = state.cities[seat]
    terrain = state.config.terrain
    if kind == "catastrophe":
        block = CATASTROPHES[era]
        value = state.dice[block]
        if value == 6:
            return ()
        target = state.targets[seat]
        count = min(value, largest(state.cities[target][block]))
        return (Remove(REMOVE, target, block, count, 0, count < value),) if count else ()
    if kind == "golden":
        return (Golden(GOLDEN, DIE_BLOCKS),)
    offers = ME_OFFERS if kind == "me" else _usable(era, state.dice)
    pick = _pick(city, offers, terrain, state.rooms[seat] if state.rooms else 0) if offers else None
    queue: Queue = (pick,) if pick else ()
    if ERAS[era].get("blight") and not pick:
        queue = (AddBlight(BLIGHT_TASK, True, 0),)  # two 6s: the Blight still comes (the document)
    return queue


def bonus_build(city: City, card: dict[str, Any], terrain: int) -> Build | None:
    """The BUILD task of a Deck 1 card's extra blocks, or None if the city has no room."""
    block = BLOCK_INDEX[card["reward"]]
    room = available(city, block, terrain)
    start = FULL
    if card.get("touch"):
        near = room & neighbours(city[BLOCK_INDEX[card["touch"]]])
        if near:  # docs/rules: the first block touches; when none can, they go anywhere
            start = near
    sizes = [g.bit_count() for g in components(room) if g & start]
    count = min(2, max(sizes, default=0))
    return Build(BUILD, block, count, start, 0, False) if count else None


def task_squares(state: State, seat: int, task: Task, block: int | None = None) -> int:
    """The squares where ``task``'s next step may go (for a PICK or GOLDEN, of ``block``)."""
    memo = state.memo
    if memo is None:
        memo = state.memo = {}
    key = seat * 8 + (7 if block is None else block)
    known = memo.get(key)
    if known is not None and known[0] is task:
        return known[1]
    squares = _task_squares(state, seat, task, block)
    memo[key] = (task, squares)
    return squares


def block_choices(state: State, seat: int, task: Pick | Golden) -> list[tuple[int, int]]:
    """(block, squares) for each block a PICK or GOLDEN task may build next, in the task's order;
    ``task_squares`` learns them all at once."""
    city = state.cities[seat]
    free = FULL & ~(city[0] | city[1] | city[2] | city[3] | city[4] | city[5])
    open_squares = free & ~state.config.terrain  # only Residential may go over a mountain
    if isinstance(task, Pick):  # the first block must lie where the whole die fits (docs/rules)
        choices = [(b, groups_of_at_least(free if b == RESIDENTIAL else open_squares, count))
                   for b, count in task.offers]
    else:
        choices = [(b, free if b == RESIDENTIAL else open_squares) for b in task.blocks]
    memo = state.memo
    if memo is None:
        memo = state.memo = {}
    key = seat * 8
    for b, squares in choices:
        memo[key + b] = (task, squares)
    return choices


def _task_squares(state: State, seat: int, task: Task, block: int | None) -> int:
    city = state.cities[seat]
    terrain = state.config.terrain
    if isinstance(task, Build):
        _, b, left, start, group, _ = task
        room = available(city, b, terrain)
        if group:
            return neighbours(group) & room
        return start & groups_of_at_least(room, left)
    if isinstance(task, (Pick, Golden)):
        for b, squares in block_choices(state, seat, task):
            if b == block:
                return squares
        return 0
    if isinstance(task, Remove):
        _, target, b, left, group, whole = task
        there = state.cities[target][b] & ~group
        if group:
            return neighbours(group) & there
        return there if whole else groups_of_at_least(there, left)
    if isinstance(task, AddBlight):
        return _blight_squares(city, terrain, task, state.config.edition)
    if isinstance(task, Convert):
        _, frm, to, left, connected, group = task
        there = city[frm] if to == RESIDENTIAL else city[frm] & ~terrain  # docs/rules: only homes on mountains
        return there & neighbours(group) if connected and group else there
    raise AssertionError(task)


def _blight_squares(city: City, terrain: int, task: AddBlight, edition: int) -> int:
    """Where the Blight of ``task`` may go in ``city``: a free square next to the blocks just placed;
    when there is none, "an occupied block adjacent to the blocks you just placed"; from edition 3,
    when every square next to them is Blight already, one of those blocks themselves (docs/rules)."""
    _, near, squares = task
    if not near:
        return squares & ~city[BLIGHT]
    empty = empty_squares(city, terrain)
    if not squares:
        return empty
    free = neighbours(squares) & empty & ~squares
    if free:
        return free
    occupied = neighbours(squares) & (built(city) | terrain) & ~squares & ~city[BLIGHT]
    if occupied or edition < AS_SOON_AS:
        return occupied
    return squares & ~city[BLIGHT]


def may_stop(task: Task, config: Config) -> bool:
    """Whether ``task`` may end with a ``stop``: a Deck 3 conversion ("up to"), and from edition 3 a
    Deck 1 card's extra blocks (the card gives "the opportunity to add" them)."""
    return isinstance(task, Convert) or (isinstance(task, Build) and not task.by_die and config.edition >= AS_SOON_AS)


def _reach(s: State, seat: int, city: City) -> None:
    """Edition 3: note that ``seat`` has reached the open Deck 1 objective ("as soon as"), should a
    Blight of the same era take one of those blocks back before the era resolves."""
    if (s.config.edition >= AS_SOON_AS and s.winners[0] is None and not s.reached[seat]
            and city[s.config.goal].bit_count() >= GOAL):
        s.reached = _set(s.reached, seat, True)


def _has_step(state: State, seat: int, task: Task) -> bool:
    if isinstance(task, Pick):
        return bool(task.offers)
    if isinstance(task, Golden):
        return any(task_squares(state, seat, task, b) for b in task.blocks)
    if isinstance(task, Convert):
        return task.left > 0 and bool(task_squares(state, seat, task))
    return bool(task_squares(state, seat, task))


# --- options ----------------------------------------------------------------------------------

def _card_option(deck: int, when: str) -> Option:
    return Option(f"deck{deck}", f"Bonus card, deck {deck}", "choice", "random",
                  f"The Deck {deck} card ({when}); dealt at random unless one is chosen here.",
                  choices=("random",) + tuple(CARDS[deck]),
                  choice_labels=("Dealt at random",) + tuple(card["name"] for card in CARDS[deck].values()))


OPTIONS = (
    Option("blight", "Blight expansion", "bool", False,
           "Blight blocks after big growth, catastrophes and the Industrial Revolution era."),
    Option("ocean", "Ocean expansion", "bool", False,
           "An ocean along the bottom edge: homes and industry on the shore score more."),
    Option("mountains", "Mountains expansion", "bool", False,
           "Six mountain squares in the middle: filled already, though homes may be built over them."),
    Option("pregame", "Pregame round", "bool", True,
           "Start, as the original app did, with a fixed round: Industry 5, Commerce 2, Residential 3,"
           " Culture 4, Parks 1."),
    _card_option(1, "first to 10 blocks of a type"), _card_option(2, "after round 12"),
    _card_option(3, "first to complete the city"), _card_option(4, "at the end"),
    Option("edition", "Rules edition", "int", EDITION, "3: a Deck 1 card's extra blocks may be declined and its"
           " objective counts as soon as it is reached; 2: before that (the extra blocks compulsory, the objective"
           " checked at the end of the era); 1: as 2, but only the die's blocks count toward Blight, as Parlour"
           " ruled before November 2026 (games played then replay by it)", minimum=1, maximum=EDITION, legacy=1,
           replay_only=True),
)


# --- the rules ---------------------------------------------------------------------------------

def _square(action: Mapping[str, Any]) -> tuple[int, int, int]:
    row, col = action.get("row"), action.get("col")
    if type(row) is not int or type(col) is not int:
        row, col = require_int(action, "row"), require_int(action, "col")
    if not (0 <= row < ROWS and 0 <= col < COLS):
        raise IllegalAction(f"there is no square row {row}, column {col}: rows are 0 to {ROWS - 1},"
                            f" columns 0 to {COLS - 1}")
    return row, col, bit(row, col)


def _block_field(action: Mapping[str, Any]) -> int:
    name = action.get("block")
    if name not in BLOCK_INDEX or name == "blight":
        raise IllegalAction(f"'block' must be one of {', '.join(BLOCKS[:5])}, not {name!r}")
    return BLOCK_INDEX[name]


class PrestigeCities(Game[State]):
    id = "prestige_cities"
    name = "Prestige Cities"
    pitch = "Everyone builds a city at once from the same era card and dice; the best-balanced city wins."
    min_players = 1
    max_players = 6
    action_fields = {"build": {"block": "str", "row": "int", "col": "int"}, "remove": {"row": "int", "col": "int"},
                     "blight": {"row": "int", "col": "int"}, "convert": {"row": "int", "col": "int"}, "stop": {}}
    hidden_information = True  # each seat's choice of the era is secret until all have chosen
    options = OPTIONS

    # -- set-up -----------------------------------------------------------------------------------
    def config(self, options: Mapping[str, Any] | None, seed: int) -> Config:
        opts = self.resolve_options(options)
        chosen = [CARDS[d][opts[f"deck{d}"]] for d in CARDS if opts[f"deck{d}"] != "random"]
        for card in chosen:
            if card.get("blight") and not opts["blight"]:
                raise BadOptions(f"{card['name']} is played only with the Blight expansion")
        groups = [card["group"] for card in chosen if card["group"]]
        if len(groups) != len(set(groups)):
            raise BadOptions("two of the chosen bonus cards share a group letter, which the deal never allows")
        cards = deal_cards(seed, opts["blight"], opts)
        return Config(opts["blight"], opts["ocean"], opts["mountains"], opts["pregame"], cards, opts["edition"])

    def start(self, players: int, options: Mapping[str, Any] | None, seed: int) -> State:
        self.check_players(players)
        config = self.config(options, seed)
        eras = list(BLIGHT_ERAS if config.blight else BASE_ERAS)
        derive(seed, "deck", 0).shuffle(eras)
        cities = (START_CITY,) * players
        state = State(seed=seed, players=players, config=config, round=0, deck_rounds=0, era="", dice=(),
                      deck=tuple(eras[:DECK_SIZE]), drawn=0, set_aside=tuple(sorted(eras[DECK_SIZE:])), decks=1,
                      winners=(None, None, None, None), cities=cities, start=cities, bonus=(0,) * players,
                      phase=AFTER, queues=((),) * players, targets=(), removals=(None,) * players,
                      groups=(0,) * players, emptied=(0,) * players, reached=(False,) * players)
        return self._advance(state, None)

    # -- era flow ----------------------------------------------------------------------------------
    def _reveal(self, s: State, log: list[LogEntry] | None) -> None:
        """Draw the next era, roll the dice, fix the catastrophe targets and everyone's tasks."""
        if s.round == 0 and s.config.pregame:
            s.era, s.dice = "pregame", PREGAME_DICE
        else:
            if s.drawn == DECK_SIZE:
                self._new_deck(s, log)
            s.era = s.deck[s.drawn]
            s.drawn += 1
            s.deck_rounds += 1
            roll = derive(s.seed, "dice", s.round).random
            s.dice = tuple(1 + int(6 * roll()) for _ in DIE_BLOCKS)
        s.round += 1
        s.phase = CHOOSE
        s.start = s.cities
        s.groups = (0,) * s.players
        s.removals = (None,) * s.players
        s.emptied = (0,) * s.players
        s.reached = (False,) * s.players
        s.targets = catastrophe_targets(s, s.cities) if s.era in CATASTROPHES else ()
        s.queues = tuple(era_queue(s, seat) for seat in range(s.players))
        if ERAS[s.era]["kind"] not in ("catastrophe", "golden"):  # eras whose queues measured the free squares
            s.rooms = tuple(FULL & ~built(city) for city in s.cities)
        if log is not None:
            era = ERAS[s.era]
            # only the dice this era rolls (ERA_DICE); a name ending in "!" takes no full stop
            dice = ", ".join(f"{DIE_COLORS[b]} {s.dice[b]}" for b in ERA_DICE[s.era]) if s.dice else ""
            name = era["name"] if era["name"][-1] in ".!?" else f"{era['name']}."
            log.append(LogEntry(f"Round {s.round}: {name} {era['rule']}" + (f" Dice: {dice}." if dice else "")))
            for seat, target in enumerate(s.targets):
                log.append(LogEntry(f"{{p{seat}}} strikes {{p{target}}}'s city."))

    def _new_deck(self, s: State, log: list[LogEntry] | None) -> None:
        """The set-aside eras plus random ones of the deck just played; the rest set aside."""
        rng = derive(s.seed, "deck", s.decks)
        played = sorted(s.deck)
        keep = rng.sample(played, DECK_SIZE - len(s.set_aside))
        deck = list(s.set_aside) + keep
        rng.shuffle(deck)
        s.set_aside = tuple(sorted(set(played) - set(keep)))
        s.deck, s.drawn, s.decks = tuple(deck), 0, s.decks + 1
        if log is not None:
            names = ", ".join(ERAS[e]["name"] for e in s.set_aside)
            log.append(LogEntry(f"The era deck is reshuffled; set aside for the next deck: {names}."))

    def _advance(self, s: State, log: list[LogEntry] | None) -> State:
        """Move the game on while nobody has anything left to do in the current phase."""
        while s.phase != OVER and not any(s.queues):
            if s.phase == CHOOSE:
                self._resolve(s, log)
            elif s.phase == AFTER:
                if s.round and s.deck_rounds == DECK_SIZE and s.winners[1] is None:
                    self._deck2(s, log)
                full = tuple(seat for seat in range(s.players)
                             if s.round and not empty_squares(s.cities[seat], s.config.terrain))
                if full:
                    self._deck3(s, full, log)
                else:
                    self._reveal(s, log)
            elif s.phase == FINAL:
                self._deck1(s, log, with_blocks=False)
                self._deck4(s, log)
                s.phase = OVER
                s.queues = ((),) * s.players
                if log is not None:
                    log.append(LogEntry("The game is over."))
        return s

    def _resolve(self, s: State, log: list[LogEntry] | None) -> None:
        """Everyone has chosen: show the cities, carry out the catastrophes, award Deck 1."""
        cities = list(s.cities)
        emptied = [0] * s.players
        if log is not None:
            for seat in range(s.players):
                placed = s.cities[seat]
                before = s.start[seat]
                made = [f"{(placed[b] & ~before[b]).bit_count()} {BLOCK_NAMES[b]}" for b in range(6)
                        if placed[b] & ~before[b]]
                if made:
                    log.append(LogEntry(f"{{p{seat}}} built {', '.join(made)}."))
        for seat, removal in enumerate(s.removals):
            if removal is None:
                continue
            target, block, group = removal
            city = cities[target]
            cities[target] = _city_with(city, block, city[block] & ~group)
            emptied[target] |= group
            if log is not None:
                log.append(LogEntry(f"{{p{seat}}} removed {group.bit_count()} {BLOCK_NAMES[block]} from"
                                    f" {{p{target}}}'s city."))
        s.cities = tuple(cities)
        s.start = s.cities
        s.emptied = tuple(emptied)
        s.phase = AFTER
        if s.config.blight:
            s.queues = tuple((AddBlight(BLIGHT_TASK, False, e),) if e else () for e in emptied)
        self._deck1(s, log, with_blocks=True)

    def _award(self, s: State, deck: int, winners: Iterable[int], log: list[LogEntry] | None,
               points: bool = True) -> None:
        winners = tuple(winners)
        s.winners = _set(s.winners, deck - 1, winners)
        card = CARDS[deck][s.cards[deck - 1]]
        if not winners:
            if log is not None:
                log.append(LogEntry(f"Nobody earns {card['name']}."))
            return
        gain = FULL_REWARD if len(winners) == 1 else SHARED_REWARD
        if points:
            s.bonus = tuple(b + gain if seat in winners else b for seat, b in enumerate(s.bonus))
        if log is not None:
            who = " and ".join(f"{{p{w}}}" for w in winners)
            log.append(LogEntry(f"{who} {'earns' if len(winners) == 1 else 'share'} {card['name']}"
                                + (f": {gain} points each." if points and len(winners) > 1 else
                                   f": {gain} points." if points else ".")))

    def _deck1(self, s: State, log: list[LogEntry] | None, with_blocks: bool) -> None:
        if s.winners[0] is not None:
            return
        card = CARDS[1][s.cards[0]]
        goal = s.config.goal
        # edition 3: "as soon as" a city reaches the objective, even if a Blight took one back since
        winners = [seat for seat in range(s.players) if s.reached[seat] or s.cities[seat][goal].bit_count() >= GOAL]
        if not winners:
            return
        self._award(s, 1, winners, log)
        if with_blocks:
            queues = list(s.queues)
            for seat in winners:
                task = bonus_build(s.cities[seat], card, s.config.terrain)
                if task:
                    queues[seat] = queues[seat] + (task,)
            s.queues = tuple(queues)

    def _deck2(self, s: State, log: list[LogEntry] | None) -> None:
        card = s.cards[1]
        measures = [deck2_measure(card, city) for city in s.cities]
        self._award(s, 2, best_seats(measures, lowest=card == "measured_growth"), log)

    def _deck3(self, s: State, full: tuple[int, ...], log: list[LogEntry] | None) -> None:
        card = CARDS[3][s.cards[2]]
        if log is not None:
            who = " and ".join(f"{{p{w}}}" for w in full)
            log.append(LogEntry(f"{who} completed {'a city' if len(full) == 1 else 'their cities'}."))
        self._award(s, 3, full, log, points=bool(card.get("points")))
        s.phase = FINAL
        if card.get("convert"):
            frm, to, most, connected = card["convert"]
            task = Convert(CONVERT, BLOCK_INDEX[frm], BLOCK_INDEX[to], most, connected, 0)
            s.queues = tuple((task,) if seat in full and _has_step(s, seat, task) else ()
                             for seat in range(s.players))

    def _deck4(self, s: State, log: list[LogEntry] | None) -> None:
        card = s.cards[3]
        measures = [deck4_measure(card, city, s.config.blight) for city in s.cities]
        self._award(s, 4, best_seats(measures), log)

    # -- whose turn, what may be done --------------------------------------------------------------
    def to_act(self, state: State) -> frozenset[int]:
        acting = state.acting
        if acting is None or acting[0] is not state.queues:
            acting = state.acting = (state.queues, frozenset(seat for seat, queue in enumerate(state.queues) if queue))
        return acting[1]

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if not (0 <= seat < state.players) or not state.queues[seat]:
            return []
        task = state.queues[seat][0]
        actions: list[Action] = []
        if isinstance(task, (Pick, Golden, Build)):
            choices = [(task.block, task_squares(state, seat, task, task.block))] if isinstance(task, Build) \
                else block_choices(state, seat, task)
            for b, squares in choices:
                name = BLOCKS[b]
                for row, col in squares_of(squares):
                    actions.append({"type": "build", "block": name, "row": row, "col": col})
        else:
            kind = task.kind
            for row, col in squares_of(task_squares(state, seat, task)):
                actions.append({"type": kind, "row": row, "col": col})
        if may_stop(task, state.config):
            actions.append({"type": "stop"})
        return actions

    def random_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """Uniform over :meth:`legal_actions`, drawn from the squares' bitboards without listing them.

        :meth:`legal_actions` lists the squares of each block's bitboard in reading order, block after
        block in the task's order (and ``stop`` last for a conversion). One draw ``k``, uniform over
        0 .. total - 1, is turned into the ``k``-th action of that list: a one-to-one map, so each
        legal action has the same chance. (When only one block type can be built, ``k`` is
        ``int(random() * total)``, uniform up to total / 2**53, as it always was, so random games stay
        the same.) test_prestige_speed.py checks the map against ``legal_actions`` for every kind of task.
        """
        if not (0 <= seat < state.players) or not state.queues[seat]:
            raise IllegalAction(self._idle(state, seat))
        task = state.queues[seat][0]
        if isinstance(task, Build):  # the usual case: one more block of one type
            known = state.memo.get(seat * 8 + task.block) if state.memo is not None else None
            mask = known[1] if known is not None and known[0] is task else task_squares(state, seat, task, task.block)
            if not task.by_die and may_stop(task, state.config):  # a Deck 1 card's blocks: the stop comes last
                k = rng.randrange(mask.bit_count() + 1)
                if k == mask.bit_count():
                    return {"type": "stop"}
                i = _nth_square(mask, k)
            elif task.group:
                i = _nth_square(mask, int(rng.random() * mask.bit_count()))
            else:
                i = _nth_square(mask, rng.randrange(mask.bit_count()))
            return {"type": "build", "block": BLOCKS[task.block], "row": i // COLS, "col": i % COLS}
        if isinstance(task, (Pick, Golden)):
            choices = block_choices(state, seat, task)
            k = rng.randrange(sum(mask.bit_count() for _, mask in choices))
            for b, mask in choices:
                n = mask.bit_count()
                if k < n:
                    i = _nth_square(mask, k)
                    return {"type": "build", "block": BLOCKS[b], "row": i // COLS, "col": i % COLS}
                k -= n
            raise AssertionError(k)  # k was drawn below the sum of the counts
        mask = task_squares(state, seat, task)
        k = rng.randrange(mask.bit_count() + may_stop(task, state.config))
        if k == mask.bit_count():
            return {"type": "stop"}
        i = _nth_square(mask, k)
        return {"type": task.kind, "row": i // COLS, "col": i % COLS}

    # -- checking -----------------------------------------------------------------------------------
    def _idle(self, state: State, seat: int) -> str:
        if isinstance(seat, bool) or not isinstance(seat, int) or not (0 <= seat < state.players):
            return f"there is no seat {seat!r} in this {state.players}-player game"
        if state.phase == OVER:
            return "the game is over"
        return f"player {seat + 1} has nothing to do now; waiting for {self._waiting(state)}"

    def _waiting(self, state: State) -> str:
        return ", ".join(f"player {s + 1}" for s in sorted(self.to_act(state))) or "nobody"

    def check(self, state: State, seat: int, action: Any) -> None:
        self._checked(state, seat, action)

    def _checked(self, state: State, seat: int, action: Any) -> tuple[Task, int | None, int]:
        """(task, block, square bit) that ``action`` carries out, or IllegalAction saying why not; a
        ``stop`` is (task, None, 0)."""
        kind = action.get("type") if type(action) is dict else None
        if type(kind) is not str:
            kind = require_action(action)
        queues = state.queues
        if type(seat) is not int or not (0 <= seat < state.players) or not queues[seat]:
            raise IllegalAction(self._idle(state, seat))
        task = queues[seat][0]
        step = task.kind
        expected = BUILD if step in (PICK, GOLDEN) else step
        if kind != expected:
            if kind == "stop":
                if not may_stop(task, state.config):
                    raise IllegalAction(f"you cannot stop now: {describe_task(task, may_stop(task, state.config))}")
                return task, None, 0
            if kind not in ("build", "remove", "blight", "convert"):
                raise IllegalAction(f"unknown action type {kind!r}: the actions are 'build', 'remove',"
                                    " 'blight', 'convert' and 'stop'")
            raise IllegalAction(f"you cannot {kind} now: {describe_task(task, may_stop(task, state.config))}")
        row, col = action.get("row"), action.get("col")
        if type(row) is int and type(col) is int and 0 <= row < ROWS and 0 <= col < COLS:
            square = 1 << (row * COLS + col)
        else:
            row, col, square = _square(action)
        block = None
        if kind == BUILD:
            block = BLOCK_INDEX.get(action.get("block"))
            if block is None or block == BLIGHT:
                block = _block_field(action)  # refused, saying why
            if isinstance(task, Build) and block != task.block:
                raise IllegalAction(f"you are building {BLOCK_NAMES[task.block]} now, not {BLOCK_NAMES[block]}")
        known = state.memo.get(seat * 8 + (7 if block is None else block)) if state.memo is not None else None
        squares = known[1] if known is not None and known[0] is task else task_squares(state, seat, task, block)
        if not squares & square:  # none for a block the task does not offer
            raise IllegalAction(self._why_not(state, seat, task, block, row, col, square))
        return task, block, square

    def _why_not(self, state: State, seat: int, task: Task, block: int | None, row: int, col: int,
                 square: int) -> str:
        city = state.cities[seat]
        terrain = state.config.terrain
        at = where(row, col)
        if isinstance(task, (Pick, Build, Golden)):
            assert block is not None  # a build names its block
            if isinstance(task, Pick) and not any(b == block for b, _ in task.offers):
                return (f"you cannot build {BLOCK_NAMES[block]} this round: the dice you may use are"
                        f" {offer_words(task.offers)}")
            if isinstance(task, Golden) and block not in task.blocks:
                return (f"you have already built your {BLOCK_NAMES[block]} block this Golden Age; still to build:"
                        f" {', '.join(BLOCK_NAMES[b] for b in task.blocks)}")
            if not available(city, block, terrain) & square:
                if terrain & square and not built(city) & square:
                    return f"{at} is a mountain: only Residential may be built over it"
                return f"{at} is already built on"
            if isinstance(task, Build) and task.group:
                return f"{at} does not touch the blocks you are placing this round: they must all be connected"
            if isinstance(task, Build) and task.start != FULL:
                return f"{at} does not touch a Residential block, as the first of these blocks must"
            need = task.left if isinstance(task, Build) else dict(task.offers)[block] if isinstance(task, Pick) else 1
            return (f"{at} lies in an open area too small for {need} connected {BLOCK_NAMES[block]} blocks;"
                    f" you must place the die in full where you can")
        if isinstance(task, Remove):
            _, target, b, left, group, _whole = task
            if group & square:
                return f"you already chose to remove {at}"
            if not state.cities[target][b] & square:
                return f"{at} of player {target + 1}'s city holds no {BLOCK_NAMES[b]} block"
            if group:
                return f"{at} does not touch the blocks you are removing: they must be one connected group"
            return f"{at} is in a group of {BLOCK_NAMES[b]} smaller than the {left} you must remove"
        if isinstance(task, AddBlight):
            if not task.near:
                return f"the Blight goes on one of the squares just emptied, and {at} is not one of them"
            return f"{at} is not a free square next to the blocks you just placed"
        frm = task.frm
        if not city[frm] & square:
            return f"{at} holds no {BLOCK_NAMES[frm]} block"
        return f"{at} does not touch the blocks you are converting: they must be connected"

    # -- applying ----------------------------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action, log: list[LogEntry] | None = None) -> State:
        task, block, square = self._checked(state, seat, action)
        s = state.copy()
        self._step(s, seat, task, block, square, log)
        acting = state.acting
        if s.queues[seat] and acting is not None and acting[0] is state.queues:
            s.acting = (s.queues, acting[1])  # the seat still has something to do: the same seats act
            return s
        return self._advance(s, log)

    def _step(self, s: State, seat: int, task: Task, block: int | None, square: int,
              log: list[LogEntry] | None) -> None:
        """Carry out one checked step of ``seat``'s first task on the draft state ``s``."""
        rest = s.queues[seat][1:]
        city = s.cities[seat]
        if isinstance(task, Pick):
            assert block is not None  # a build names its block
            task = Build(BUILD, block, dict(task.offers)[block], FULL, 0, True)
        if isinstance(task, Build):
            city, rest = self._build(s, seat, city, task, square, rest)
        elif isinstance(task, Golden):
            assert block is not None  # a build names its block
            city, rest = self._golden(s, seat, city, task, block, square, rest)
        elif isinstance(task, Remove):
            rest = self._remove(s, seat, task, square, rest)
        elif isinstance(task, AddBlight):
            city = tuple(m & ~square for m in city[:5]) + (city[BLIGHT] | square,)
        else:
            city, rest = self._convert(city, task, square, rest)
        if log is not None:
            private = None if s.phase != CHOOSE else frozenset((seat,))
            log.append(LogEntry(step_words(seat, task, block, square), private))
        cities = s.cities
        s.cities = cities[:seat] + (city,) + cities[seat + 1:]
        head = rest[0] if rest else None
        if not ((isinstance(task, Build) and isinstance(head, Build) and head.group)
                or (isinstance(task, Remove) and isinstance(head, Remove) and head.group)):
            rest = self._settled(s, seat, rest)  # a group under way always has room to grow (docs/rules)
        queues = s.queues
        s.queues = queues[:seat] + (rest,) + queues[seat + 1:]

    def _build(self, s: State, seat: int, city: City, task: Build, square: int, rest: Queue) -> tuple[City, Queue]:
        """One block of a connected group, the die's or a Deck 1 card's; no square: the card's stop."""
        _, b, left, start, group, by_die = task
        if square:
            city = city[:b] + (city[b] | square,) + city[b + 1:]
            group |= square
            groups = s.groups  # every block the seat built this round (the die's group first)
            s.groups = groups[:seat] + (groups[seat] | square,) + groups[seat + 1:]
            if b == s.config.goal:
                _reach(s, seat, city)
        else:
            left = 1  # the group ends here, as it stands
        if left > 1:
            grow = Build(BUILD, b, left - 1, start, group, by_die)
            # where the group may grow next, as task_squares would find it, known here cheaply
            s.memo = {seat * 8 + b: (grow, neighbours(group) & available(city, b, s.config.terrain))}
            return city, (grow,) + rest
        if s.config.blight:
            blights = self._growth_blight(s, seat, city, group if b in (RESIDENTIAL, INDUSTRY) else 0, by_die)
            if by_die and ERAS[s.era].get("blight"):
                blights.append(AddBlight(BLIGHT_TASK, True, group))
            rest = tuple(blights) + rest
        return city, rest

    def _golden(self, s: State, seat: int, city: City, task: Golden, block: int, square: int,
                rest: Queue) -> tuple[City, Queue]:
        """One block of the Golden Age."""
        city = _city_with(city, block, city[block] | square)
        s.groups = _set(s.groups, seat, s.groups[seat] | square)
        if block == s.config.goal:
            _reach(s, seat, city)
        left = tuple(b for b in task.blocks if b != block)
        if left:
            rest = (Golden(GOLDEN, left),) + rest
        if s.config.blight and block in (RESIDENTIAL, INDUSTRY):
            rest = tuple(self._growth_blight(s, seat, city, square, False)) + rest
        return city, rest

    @staticmethod
    def _remove(s: State, seat: int, task: Remove, square: int, rest: Queue) -> Queue:
        """One block of a catastrophe's group: chosen now, removed when the era resolves."""
        _, target, b, left, group, whole = task
        if whole:  # docs/rules/prestige_cities.md: the first block picks the smaller group, removed whole
            left = next(g for g in components(s.cities[target][b]) if g & square).bit_count()
        group |= square
        if left > 1:
            return (Remove(REMOVE, target, b, left - 1, group, False),) + rest
        s.removals = _set(s.removals, seat, (target, b, group))
        return rest

    @staticmethod
    def _convert(city: City, task: Convert, square: int, rest: Queue) -> tuple[City, Queue]:
        """One block of a Deck 3 conversion, or (no square) the stop."""
        _, frm, to, left, connected, group = task
        if not square:
            return city, rest
        city = _city_with(_city_with(city, frm, city[frm] & ~square), to, city[to] | square)
        if left > 1:
            rest = (Convert(CONVERT, frm, to, left - 1, connected, group | square),) + rest
        return city, rest

    @staticmethod
    def _growth_blight(s: State, seat: int, city: City, added: int, by_die: bool) -> list[Task]:
        """The Blight task owed once ``added`` (Residential or Industrial squares just placed, all of
        one placement) joins the seat's blocks of this round: "any time you add 4 or more Residential or
        Industrial blocks to your city in one round" (edition 2: every block of the round counts,
        Residential and Industrial together, and the Blight comes once, next to them; edition 1: the
        die's placement alone, 4 or more of its type)."""
        if not added:
            return []
        if s.config.edition < 2:
            return [AddBlight(BLIGHT_TASK, True, added)] if by_die and added.bit_count() >= 4 else []
        homes_and_industry = s.groups[seat] & (city[RESIDENTIAL] | city[INDUSTRY])
        now = homes_and_industry.bit_count()
        if now >= 4 > now - added.bit_count():  # this placement reached 4
            return [AddBlight(BLIGHT_TASK, True, homes_and_industry)]
        return []

    def _settled(self, s: State, seat: int, queue: Queue) -> Queue:
        """``queue`` without the tasks at its head that have no step left (a full city, say)."""
        while queue and not _has_step(s, seat, queue[0]):
            queue = queue[1:]
        return queue

    # -- results -----------------------------------------------------------------------------------
    def result(self, state: State) -> Result | None:
        if state.phase != OVER:
            return None
        keys = [rank_key(state.cities[s], state.bonus[s], state.config.ocean) for s in range(state.players)]
        ranks = tuple(1 + sum(1 for other in keys if other > key) for key in keys)
        scores = tuple(float(k[0]) for k in keys)
        tied = len({k[0] for k in keys}) < len(keys)
        reason = ("highest overall score; equal totals ranked by population, then bonus, happiness,"
                  " culture and wealth" if tied else "highest overall score")
        return Result(scores, ranks, reason, {"completed": list(state.winners[2] or ())})

    # -- views -------------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> View:
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < state.players):
            raise IllegalAction(f"there is no seat {seat!r} in this {state.players}-player game")
        config = state.config
        secret = state.phase == CHOOSE
        cities = []
        for s in range(state.players):
            own = seat == s
            city = state.cities[s] if own or not secret else state.start[s]
            c, w, h = category_scores(city, config.ocean)
            cities.append({
                "rows": city_rows(city, config.terrain),
                "culture": c, "wealth": number(w), "happiness": h, "bonus": state.bonus[s],
                "overall": number(c + w + h - max(c, w, h) + state.bonus[s]),
                "counts": {BLOCKS[b]: city[b].bit_count() for b in range(6)},
                "empty": empty_squares(city, config.terrain).bit_count(),
                "choosing": bool(state.queues[s]) and secret,
            })
        queue = state.queues[seat] if seat is not None else ()
        public_queues = not secret
        result = self.result(state)
        era = ERAS[state.era]
        return {
            "game": self.id, "seat": seat, "players": state.players,
            "options": {"blight": config.blight, "ocean": config.ocean, "mountains": config.mountains,
                        "pregame": config.pregame, "edition": config.edition},
            "round": state.round, "deck_rounds": state.deck_rounds, "phase": state.phase,
            "era": {"id": state.era, "name": era["name"], "rule": era["rule"], "kind": era["kind"]},
            "dice": [{"block": BLOCKS[b], "color": DIE_COLORS[b], "value": state.dice[b],
                      "usable": (b, state.dice[b]) in usable_dice(state.era, state.dice)}
                     for b in DIE_BLOCKS] if era["kind"] not in ("me", "golden") else [],
            "deck": {"left": DECK_SIZE - state.drawn if state.era != "pregame" else DECK_SIZE,
                     "played": list(state.deck[:state.drawn]), "set_aside": list(state.set_aside),
                     "decks": state.decks},
            "targets": list(state.targets) or None,
            "cities": cities,
            "scores": [c["overall"] for c in cities],
            "to_act": sorted(self.to_act(state)),
            "task": describe_task_json(queue[0], may_stop(queue[0], config)) if queue else None,
            "queue": [task_to_json(t) for t in queue],
            "queues": [[task_to_json(t) for t in q] for q in state.queues] if public_queues else None,
            "group": [list(sq) for sq in squares_of(state.groups[seat])] if seat is not None else [],
            "removal": _removal_json(state, seat) if seat is not None else None,
            "deck1_reached": state.reached[seat] if seat is not None else False,
            "emptied": [[list(sq) for sq in squares_of(e)] for e in state.emptied] if not secret else None,
            "bonus_cards": [{"deck": d + 1, "id": cid, "name": CARDS[d + 1][cid]["name"],
                             "text": _card_text(d + 1, cid, config),
                             "winners": None if winners is None else list(winners)}
                            for d, (cid, winners) in enumerate(zip(state.cards, state.winners, strict=True))],
            "board": {"rows": ROWS, "cols": COLS, "inner_rows": [_r0, _r1], "inner_cols": [_c0, _c1],
                      "mountains": [list(sq) for sq in squares_of(config.terrain)], "ocean": config.ocean},
            "over": result is not None, "result": result.to_json() if result else None,
        }

    def sample(self, view: View, seat: int, rng: random.Random) -> State:
        """A state consistent with ``seat``'s view: unseen deck order and dice drawn anew, and the
        other seats' secret choices of this era made at random."""
        opts = view["options"]
        cards = tuple(c["id"] for c in view["bonus_cards"])
        config = Config(opts["blight"], opts["ocean"], opts["mountains"], opts["pregame"], cards, opts["edition"])
        players = view["players"]
        cities = tuple(city_from_rows(c["rows"]) for c in view["cities"])
        deck_view = view["deck"]
        played = list(deck_view["played"])
        unseen = sorted(set(BLIGHT_ERAS if config.blight else BASE_ERAS) - set(played) - set(deck_view["set_aside"]))
        rng.shuffle(unseen)
        secret = view["phase"] == CHOOSE
        queues = [tuple(task_from_json(t) for t in q) for q in view["queues"]] if view["queues"] is not None \
            else [()] * players
        removal = view["removal"]
        removals: list[Removal | None] = [None] * players
        if removal:
            removals[seat] = (removal["target"], BLOCK_INDEX[removal["block"]], mask_of(removal["squares"]))
        emptied = view["emptied"]
        state = State(seed=rng.getrandbits(63), players=players, config=config, round=view["round"],
                      deck_rounds=view["deck_rounds"], era=view["era"]["id"],
                      dice=tuple(d["value"] for d in view["dice"]) if view["dice"] else (),
                      deck=tuple(played + unseen), drawn=len(played), set_aside=tuple(deck_view["set_aside"]),
                      decks=deck_view["decks"],
                      winners=tuple(None if c["winners"] is None else tuple(c["winners"])
                                    for c in view["bonus_cards"]),
                      cities=cities, start=cities, bonus=tuple(c["bonus"] for c in view["cities"]),
                      phase=view["phase"], queues=tuple(queues), targets=tuple(view["targets"] or ()),
                      removals=tuple(removals), groups=tuple(mask_of(view["group"]) if s == seat else 0
                                                             for s in range(players)),
                      emptied=tuple(mask_of(e) for e in emptied) if emptied is not None else (0,) * players,
                      reached=tuple(view.get("deck1_reached", False) if s == seat else False for s in range(players)))
        if not secret:
            return state
        # the era began from the cities the others show; my own city and tasks are as my view says
        start = list(cities)
        mine_start = city_from_rows(view["cities"][seat]["rows"])
        own_group = mask_of(view["group"])
        start[seat] = tuple(m & ~own_group for m in mine_start)
        state.start = tuple(start)
        queues = list(state.queues)
        queues[seat] = tuple(task_from_json(t) for t in view["queue"])
        state.queues = tuple(queues)
        for other in range(players):
            if other == seat:
                continue
            state.queues = _set(state.queues, other, era_queue(state, other))
            if other in view["to_act"]:
                continue
            while state.queues[other]:  # a finished choice nobody else has seen: any legal one
                action = self.random_action(state, other, rng)
                task, block, square = self._checked(state, other, action)
                self._step(state, other, task, block, square, None)
        return state

    # -- (de)serialisation -------------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        c = state.config
        return {"seed": state.seed, "players": state.players,
                "config": {"blight": c.blight, "ocean": c.ocean, "mountains": c.mountains, "pregame": c.pregame,
                           "cards": list(c.cards), "edition": c.edition},
                "round": state.round, "deck_rounds": state.deck_rounds, "era": state.era, "dice": list(state.dice),
                "deck": list(state.deck), "drawn": state.drawn, "set_aside": list(state.set_aside),
                "decks": state.decks, "winners": [None if w is None else list(w) for w in state.winners],
                "cities": [list(city) for city in state.cities], "start": [list(city) for city in state.start],
                "bonus": list(state.bonus), "phase": state.phase,
                "queues": [[task_to_json(t) for t in q] for q in state.queues], "targets": list(state.targets),
                "removals": [None if r is None else list(r) for r in state.removals],
                "groups": list(state.groups), "emptied": list(state.emptied), "reached": list(state.reached)}

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        c = data["config"]
        return State(seed=data["seed"], players=data["players"],
                     config=Config(c["blight"], c["ocean"], c["mountains"], c["pregame"], tuple(c["cards"]),
                                   c["edition"]),
                     round=data["round"], deck_rounds=data["deck_rounds"], era=data["era"], dice=tuple(data["dice"]),
                     deck=tuple(data["deck"]), drawn=data["drawn"], set_aside=tuple(data["set_aside"]),
                     decks=data["decks"], winners=tuple(None if w is None else tuple(w) for w in data["winners"]),
                     cities=tuple(tuple(city) for city in data["cities"]),
                     start=tuple(tuple(city) for city in data["start"]), bonus=tuple(data["bonus"]),
                     phase=data["phase"], queues=tuple(tuple(task_from_json(t) for t in q) for q in data["queues"]),
                     targets=tuple(data["targets"]),
                     removals=tuple(None if r is None else (r[0], r[1], r[2]) for r in data["removals"]),
                     groups=tuple(data["groups"]), emptied=tuple(data["emptied"]),
                     reached=tuple(data.get("reached", (False,) * data["players"])))  # none in a state from before


# --- JSON ---------------------------------------------------------------------------------------

def _card_text(deck: int, card: str, config: Config) -> str:
    """The card's text as this game's rules edition reads it: before edition 3 a Deck 1 card's extra
    blocks had to be placed, so its text says "add 2" where the facts say "up to 2"."""
    text: str = CARDS[deck][card]["text"]
    return text.replace("and up to 2", "and add 2") if deck == 1 and config.edition < AS_SOON_AS else text


def _removal_json(state: State, seat: int) -> dict[str, Any] | None:
    removal = state.removals[seat]
    if removal is None:
        return None
    target, block, group = removal
    return {"target": target, "block": BLOCKS[block], "squares": [list(sq) for sq in squares_of(group)]}
