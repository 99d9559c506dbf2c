"""Patchwork as played on the CodinGame arena: two quilts, a circle of 33 patches, one time track.

Quilts are bitboards: square (x, y) of the 9x9 quilt is bit ``y * 9 + x`` of a Python int. Every
patch's distinct orientations are precomputed once as masks at the origin, with the set of
top-left corners where they fit on the board, so finding every place a patch fits is a handful of
shifts and ANDs.

>>> game = Patchwork(); state = game.start(2, {}, seed=1)
>>> state = game.apply(state, 0, {"type": "skip"}); state.time
(1, 0)
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ...core import (
    Action,
    FieldsState,
    Game,
    IllegalAction,
    LogEntry,
    Result,
    View,
    derive,
    require_action,
    require_int,
)
from ...core.words import counted

# --- data -------------------------------------------------------------------------------------

# One file for the engine and the browser renderer, which fetches it from the game's static folder.
DATA = json.loads(resources.files(__package__).joinpath("static", "patchwork.json").read_text())
SIZE = DATA["board"]["width"]
assert DATA["board"]["height"] == SIZE
SQUARES = SIZE * SIZE
FULL = (1 << SQUARES) - 1
LAST_SPACE = DATA["timeline"]["last_space"]
INCOME_TIMES = tuple(DATA["timeline"]["button_income_times"])
SPECIAL_TIMES = tuple(DATA["timeline"]["special_patch_times"])
START_BUTTONS = DATA["start_buttons"]
BONUS_SIDE = DATA["board"]["bonus_square"]
BONUS_POINTS = DATA["board"]["bonus_points"]
BASE_SCORE = 200
EMPTY_PENALTY = 2
TIME_LIMITS_MS = DATA["time_limits_ms"]


@dataclass(frozen=True)
class Orientation:
    """One way of laying a patch: flip (mirror each row) first, then ``rotation`` turns clockwise."""

    rotation: int
    flip: bool
    rows: tuple[str, ...]  # the shape as 'O'/'.' rows
    width: int
    height: int
    mask: int  # the squares covered with the top-left corner at (0, 0)
    anchors: int  # the top-left corners (as bits) at which the shape stays on the quilt
    offsets: tuple[int, ...]  # bit index of each covered square relative to the corner


@dataclass(frozen=True)
class Patch:
    id: int
    shape: str  # rows joined by '|', as in the CodinGame protocol
    income: int
    price: int
    time: int
    orientations: tuple[Orientation, ...]  # the distinct ones, first (rotation, flip) that gives each
    by_key: Mapping[tuple[int, bool], Orientation]  # all 8 (rotation, flip) pairs
    # every place of every distinct orientation on an empty quilt: (squares covered, orientation, x, y)
    layouts: tuple[tuple[int, Orientation, int, int], ...]

    @property
    def size(self) -> int:
        return self.orientations[0].mask.bit_count()


def _transform(rows: tuple[str, ...], rotation: int, flip: bool) -> tuple[str, ...]:
    if flip:
        rows = tuple(row[::-1] for row in rows)
    for _ in range(rotation):
        height = len(rows)
        rows = tuple("".join(rows[height - 1 - r][c] for r in range(height)) for c in range(len(rows[0])))
    return rows


def _orientation(rows: tuple[str, ...], rotation: int, flip: bool) -> Orientation:
    shape = _transform(rows, rotation, flip)
    width, height = len(shape[0]), len(shape)
    offsets = tuple(y * SIZE + x for y, row in enumerate(shape) for x, ch in enumerate(row) if ch == "O")
    anchors = 0
    for y in range(SIZE - height + 1):
        for x in range(SIZE - width + 1):
            anchors |= 1 << (y * SIZE + x)
    mask = sum(1 << o for o in offsets)
    return Orientation(rotation, flip, shape, width, height, mask, anchors, offsets)


def _patch(pid: int, shape: str, income: int, price: int, time: int) -> Patch:
    rows = tuple(shape.split("|"))
    by_key: dict[tuple[int, bool], Orientation] = {}
    distinct: dict[tuple[str, ...], Orientation] = {}
    for flip in (False, True):
        for rotation in range(4):
            o = _orientation(rows, rotation, flip)
            by_key[(rotation, flip)] = o
            distinct.setdefault(o.rows, o)
    layouts = tuple((o.mask << (y * SIZE + x), o, x, y) for o in distinct.values()
                    for y in range(SIZE - o.height + 1) for x in range(SIZE - o.width + 1))
    return Patch(pid, shape, income, price, time, tuple(distinct.values()), by_key, layouts)


PATCHES: tuple[Patch, ...] = tuple(
    _patch(pid, shape, income, price, time) for pid, shape, income, price, time in DATA["patches"])
assert [p.id for p in PATCHES] == list(range(len(PATCHES)))
LAST_PATCH = len(PATCHES) - 1  # the 2-square patch that is always last in the circle
SPECIAL = _patch(0, "O", 0, 0, 0)  # the 1x1 special patch; its id in play is minus its event's time

BONUS_MASKS = tuple(
    sum(1 << ((y0 + y) * SIZE + x0 + x) for y in range(BONUS_SIDE) for x in range(BONUS_SIDE))
    for y0 in range(SIZE - BONUS_SIDE + 1) for x0 in range(SIZE - BONUS_SIDE + 1))


def patch(pid: int) -> Patch:
    """The patch with id ``pid`` (negative ids are special patches)."""
    return SPECIAL if pid < 0 else PATCHES[pid]


BONUS_AREA = BONUS_SIDE * BONUS_SIDE
# How many income (special-patch) spaces lie on 1..t: a move from a to b passes or reaches
# INCOME_UPTO[b] - INCOME_UPTO[a] of them.
INCOME_UPTO = tuple(sum(1 for t in INCOME_TIMES if t <= space) for space in range(LAST_SPACE + 1))
SPECIAL_UPTO = tuple(sum(1 for t in SPECIAL_TIMES if t <= space) for space in range(LAST_SPACE + 1))


def has_bonus_square(quilt: int) -> bool:
    if quilt.bit_count() < BONUS_AREA:
        return False
    return any(quilt & m == m for m in BONUS_MASKS)


def fits(quilt: int, orientation: Orientation) -> int:
    """The top-left corners (as bits) where ``orientation`` fits on ``quilt`` without overlap."""
    corners = orientation.anchors
    for offset in orientation.offsets:
        corners &= ~(quilt >> offset)
    return corners


_ROW = (1 << SIZE) - 1


def nth_corner(corners: int, k: int) -> int:
    """The bit index of the ``k``-th lowest set bit of ``corners`` (k counts from 0)."""
    shift = 0
    while True:
        row = (corners >> shift) & _ROW
        n = row.bit_count()
        if k < n:
            break
        k -= n
        shift += SIZE
    for _ in range(k):
        row &= row - 1
    return shift + (row & -row).bit_length() - 1


# Each of the 512 possible rows of 9 squares as the protocol writes it (bit x is column x).
_ROW_TEXT = tuple("".join("O" if bits >> x & 1 else "." for x in range(SIZE)) for bits in range(1 << SIZE))


def quilt_rows(quilt: int) -> list[str]:
    """The quilt as 9 rows of 'O' (patched) and '.' (empty), as the CodinGame protocol prints it."""
    return [_ROW_TEXT[(quilt >> shift) & _ROW] for shift in range(0, SQUARES, SIZE)]


def quilt_from_rows(rows: list[str]) -> int:
    return sum(1 << (y * SIZE + x) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "O")


# (patch, its id, orientation, x, y, the squares it covers there)
Placement = tuple[Patch, int, Orientation, int, int, int]


# --- state ------------------------------------------------------------------------------------

class State(FieldsState):
    """One moment of a game. Immutable by convention: the engine only ever builds new ones.

    ``circle`` holds the patches still to be taken, starting just after the neutral token, so the
    offer is ``circle[:3]``. Per-player pairs are indexed by seat.
    """

    FIELDS = ("circle", "quilts", "buttons", "time", "income", "pending", "specials_left",
              "bonus", "last", "first_home", "placed")
    __slots__ = FIELDS + ("mover",)

    def __init__(self, circle: tuple[int, ...], quilts: tuple[int, int], buttons: tuple[int, int],
                 time: tuple[int, int], income: tuple[int, int], pending: tuple[tuple[int, ...], ...],
                 specials_left: tuple[int, ...], bonus: int | None, last: int, first_home: int | None,
                 placed: tuple[tuple[tuple[int, int, bool, int, int], ...], ...]) -> None:
        self.circle = circle
        self.quilts = quilts
        self.buttons = buttons
        self.time = time
        self.income = income
        self.pending = pending  # special patches (their ids) each player must still place
        self.specials_left = specials_left  # event times whose special patch nobody has taken
        self.bonus = bonus  # the seat holding the 7x7 bonus, if anyone does
        self.last = last  # the seat that moved last (it moves again on a tie)
        self.first_home = first_home  # the seat that reached the last space first
        self.placed = placed  # per seat: (patch id, rotation, flip, x, y) in the order sewn
        self.mover = _to_move(self)  # the seat to act, None once the game is over (derived)

    def __repr__(self) -> str:
        return f"State(time={self.time}, buttons={self.buttons}, offer={self.circle[:3]})"


def _to_move(state: State) -> int | None:
    if state.pending[0]:
        return 0
    if state.pending[1]:
        return 1
    t0, t1 = state.time
    if t0 == t1:
        return None if t0 == LAST_SPACE else state.last
    return 0 if t0 < t1 else 1


def score(state: State, seat: int) -> int:
    """200 + buttons left + 7 for the 7x7 bonus - 2 per empty square (the document's formula)."""
    empty = SQUARES - state.quilts[seat].bit_count()
    return BASE_SCORE + state.buttons[seat] + (BONUS_POINTS if state.bonus == seat else 0) - EMPTY_PENALTY * empty


def income_events_between(start: int, end: int) -> int:
    """How many button-income spaces a token passes or reaches moving from ``start`` to ``end``."""
    return INCOME_UPTO[end] - INCOME_UPTO[start]


def _replaced(pair: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, Any]:
    """``pair`` with the item of ``seat`` replaced by ``value``."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


# How many draws random_action tries before it counts instead, by how many squares are patched:
# a crowded quilt refuses most draws. Speed only: both ways are uniform.
_REJECTION_TRIES = tuple(8 if squares < 25 else 3 if squares < 35 else 0 for squares in range(SQUARES + 1))
_ONLY = (frozenset((0,)), frozenset((1,)))
_NOBODY: frozenset[int] = frozenset()


def _int_field(action: Mapping[str, Any], key: str) -> int:
    value = action.get(key)
    return value if type(value) is int else require_int(action, key)


def _player_word(seat: int) -> str:
    return f"player {seat + 1}"


# --- the rules ---------------------------------------------------------------------------------

class Patchwork(Game[State]):
    id = "patchwork"
    name = "Patchwork"
    pitch = "Two tailors race along one time track, buying polyomino patches to fill a 9x9 quilt."
    min_players = 2
    max_players = 2
    hidden_information = False
    same_view_but_seat = True
    action_fields = {"play": {"patch": "int", "rotation": "int", "flip": "bool?", "x": "int", "y": "int"},
                     "skip": {}}
    time_limits_ms = TIME_LIMITS_MS

    def start(self, players: int, options: Mapping[str, Any] | None, seed: int) -> State:
        self.check_players(players)
        self.resolve_options(options, players)
        order = list(range(LAST_PATCH))
        derive(seed, "circle").shuffle(order)
        return State(tuple(order) + (LAST_PATCH,), (0, 0), (START_BUTTONS, START_BUTTONS), (0, 0), (0, 0),
                     ((), ()), SPECIAL_TIMES, None, 0, None, ((), ()))

    def to_act(self, state: State) -> frozenset[int]:
        seat = state.mover
        return _NOBODY if seat is None else _ONLY[seat]

    def is_over(self, state: State) -> bool:
        return state.mover is None

    # -- listing ----------------------------------------------------------------------------------
    def playable(self, state: State, seat: int) -> list[Patch]:
        """The patches ``seat`` may buy now: the pending special patch, or the affordable offer."""
        if state.pending[seat]:
            return [SPECIAL]
        buttons = state.buttons[seat]
        return [PATCHES[p] for p in state.circle[:3] if PATCHES[p].price <= buttons]

    def placements(self, state: State, seat: int) -> list[tuple[int, Orientation, int]]:
        """Where ``seat`` may sew each patch it may buy now, as :meth:`legal_actions` lists them
        (SKIP aside): (the id it is played as, the orientation, the top-left corners where it fits,
        as bits), orientations that fit nowhere left out. Learning agents read their tokens from
        these in a few big-integer operations instead of one action at a time, then have the actions
        from :meth:`placed_actions`."""
        if state.mover != seat:
            return []
        quilt = state.quilts[seat]
        pending = state.pending[seat]
        out = []
        for p in self.playable(state, seat):
            pid = pending[0] if pending else p.id
            for o in p.orientations:
                corners = fits(quilt, o)
                if corners:
                    out.append((pid, o, corners))
        return out

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return self.placed_actions(state, seat, self.placements(state, seat))

    def placed_actions(self, state: State, seat: int, placements: list[tuple[int, Orientation, int]]) -> list[Action]:
        """:meth:`legal_actions` from ``placements``, which :meth:`placements` gave for ``state`` and
        ``seat``: one action a corner, then SKIP when it is allowed."""
        if state.mover != seat:
            return []
        actions: list[Action] = []
        for pid, o, corners in placements:
            while corners:
                low = corners & -corners
                index = low.bit_length() - 1
                corners ^= low
                actions.append({"type": "play", "patch": pid, "rotation": o.rotation, "flip": o.flip,
                                "x": index % SIZE, "y": index // SIZE})
        if not state.pending[seat]:
            actions.append({"type": "skip"})
        return actions

    def random_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """Uniform over :meth:`legal_actions` without listing them.

        First by rejection: draw SKIP or one place of one orientation of a playable patch as if the
        quilt were empty, and keep it if it fits (every legal action is equally likely to be drawn
        and kept). When a crowded quilt refuses a few draws, count the places that fit instead.
        """
        if state.mover != seat:
            raise IllegalAction(self._not_your_turn(state, seat))
        playable = self.playable(state, seat)
        if not playable:
            return {"type": "skip"}
        quilt = state.quilts[seat]
        pending = state.pending[seat]
        total = 0 if pending else 1  # SKIP
        for p in playable:
            total += len(p.layouts)
        for _ in range(_REJECTION_TRIES[quilt.bit_count()]):
            k = rng.randrange(total)
            for p in playable:
                if k < len(p.layouts):
                    mask, o, x, y = p.layouts[k]
                    if not mask & quilt:
                        return {"type": "play", "patch": pending[0] if pending else p.id,
                                "rotation": o.rotation, "flip": o.flip, "x": x, "y": y}
                    break
                k -= len(p.layouts)
            else:
                return {"type": "skip"}
        return self._counted_random_action(quilt, pending, playable, rng)

    @staticmethod
    def _counted_random_action(quilt: int, pending: tuple[int, ...], playable: list[Patch],
                               rng: random.Random) -> Action:
        """Uniform over the legal actions, counting the places that fit with popcounts."""
        choices = []
        total = 0 if pending else 1  # SKIP
        for p in playable:
            for o in p.orientations:
                corners = o.anchors
                for offset in o.offsets:
                    corners &= ~(quilt >> offset)
                if corners:
                    count = corners.bit_count()
                    choices.append((p, o, corners, count))
                    total += count
        k = rng.randrange(total)
        for p, o, corners, count in choices:
            if k < count:
                index = nth_corner(corners, k)
                return {"type": "play", "patch": pending[0] if pending else p.id, "rotation": o.rotation,
                        "flip": o.flip, "x": index % SIZE, "y": index // SIZE}
            k -= count
        return {"type": "skip"}

    # -- checking -------------------------------------------------------------------------------
    def _not_your_turn(self, state: State, seat: int) -> str:
        mover = state.mover
        if mover is None:
            return "the game is over"
        return f"it is {_player_word(mover)}'s turn, not {_player_word(seat)}'s"

    def _placement(self, state: State, seat: int, action: Mapping[str, Any]) -> Placement:
        """Where and what a PLAY action sews, or IllegalAction saying why it may not."""
        pid = _int_field(action, "patch")
        rotation = _int_field(action, "rotation") if "rotation" in action else 0
        flip = action.get("flip", False)
        if type(flip) is not bool:
            # docs/rules/patchwork.md: 1 and 0 as the CodinGame protocol writes them
            if type(flip) is not int or flip not in (0, 1):
                raise IllegalAction(f"'flip' must be true or false (or 1 or 0), not {flip!r}")
            flip = bool(flip)
        if not 0 <= rotation <= 3:
            raise IllegalAction(f"'rotation' is the number of clockwise quarter turns, 0 to 3, not {rotation}")
        x, y = _int_field(action, "x"), _int_field(action, "y")
        pending = state.pending[seat]
        if pending:
            if pid != pending[0]:
                raise IllegalAction(f"you must first place your special patch {pending[0]}, not patch {pid}")
            p = SPECIAL
        else:
            if pid < 0:
                raise IllegalAction(f"you hold no special patch {pid}; special patches are only"
                                    " placed by whoever reaches their space first")
            if pid > LAST_PATCH:
                raise IllegalAction(f"there is no patch {pid}: patches are numbered 0 to {LAST_PATCH}")
            offer = state.circle[:3]
            if pid not in offer:
                where = "is already on a quilt" if pid not in state.circle else "is not one of the three on offer"
                raise IllegalAction(f"patch {pid} {where} (the offer is {', '.join(map(str, offer)) or 'empty'})")
            p = PATCHES[pid]
            if p.price > state.buttons[seat]:
                raise IllegalAction(f"patch {pid} costs {p.price} buttons and you have {state.buttons[seat]}")
        o = p.by_key[(rotation, flip)]
        if not (0 <= x <= SIZE - o.width and 0 <= y <= SIZE - o.height):
            raise IllegalAction(f"patch {pid} laid that way is {o.width} wide and {o.height} tall, so at"
                                f" x={x}, y={y} it would hang off the {SIZE}x{SIZE} quilt")
        mask = o.mask << (y * SIZE + x)
        overlap = mask & state.quilts[seat]
        if overlap:
            squares = [f"({i % SIZE},{i // SIZE})" for i in range(SQUARES) if overlap >> i & 1]
            raise IllegalAction(f"patch {pid} at x={x}, y={y} would cover squares already patched:"
                                f" {', '.join(squares)}")
        return p, pid, o, x, y, mask

    def check(self, state: State, seat: int, action: Any) -> None:
        self._checked(state, seat, action)

    def _checked(self, state: State, seat: int, action: Any) -> Placement | None:
        kind = action.get("type") if type(action) is dict else None
        if type(kind) is not str:
            kind = require_action(action)
        if state.mover != seat:
            raise IllegalAction(self._not_your_turn(state, seat))
        if kind == "play":
            return self._placement(state, seat, action)
        if kind == "skip":
            if state.pending[seat]:
                raise IllegalAction(f"you cannot SKIP while holding special patch {state.pending[seat][0]}:"
                                    " place it first")
            return None
        raise IllegalAction(f"unknown action type {kind!r}: the actions are 'skip' and 'play'")

    # -- applying --------------------------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action, log: list[LogEntry] | None = None) -> State:
        return self.advance(state, seat, self._checked(state, seat, action), log)

    def advance(self, state: State, seat: int, placement: Placement | None, log: list[LogEntry] | None = None
                ) -> State:
        """The state after ``seat`` sews ``placement`` (None: SKIP), which must be legal: :meth:`apply`
        without the checks, for a search that only ever makes legal placements (the endgame's)."""
        me = f"{{p{seat}}}"
        circle, quilts, income, placed = state.circle, state.quilts, state.income, state.placed
        pending = state.pending[seat]
        buttons = state.buttons[seat]
        start = state.time[seat]
        if placement is None:
            end = min(state.time[1 - seat] + 1, LAST_SPACE)
            buttons += end - start
            if log is not None:
                log.append(LogEntry(f"{me} skipped ahead {counted(end - start, 'space')} and took"
                                    f" {counted(end - start, 'button')}"))
        else:
            p, pid, o, x, y, mask = placement
            quilts = _replaced(quilts, seat, quilts[seat] | mask)
            placed = _replaced(placed, seat, placed[seat] + ((pid, o.rotation, o.flip, x, y),))
            if pid < 0:
                pending = pending[1:]
                end = start
                if log is not None:
                    log.append(LogEntry(f"{me} sewed the special patch onto the square at column {x + 1}, row {y + 1}"))
            else:
                i = circle.index(pid)
                circle = circle[i + 1:] + circle[:i]
                buttons -= p.price
                if p.income:
                    income = _replaced(income, seat, income[seat] + p.income)
                end = min(start + p.time, LAST_SPACE)
                if log is not None:
                    log.append(LogEntry(f"{me} bought patch {pid} for {counted(p.price, 'button')} and moved"
                                        f" {counted(end - start, 'space')}"))
        paid = INCOME_UPTO[end] - INCOME_UPTO[start]
        if paid and income[seat]:
            buttons += paid * income[seat]
            if log is not None:
                log.append(LogEntry(f"{me} collected {counted(paid * income[seat], 'button')} of income"))
        specials_left = state.specials_left
        if SPECIAL_UPTO[end] != SPECIAL_UPTO[start]:
            won = tuple(t for t in specials_left if start < t <= end)
            if won:
                specials_left = tuple(t for t in specials_left if t not in won)
                pending = pending + tuple(-t for t in won)
                if log is not None:
                    log.append(LogEntry(f"{me} reached a special patch first" if len(won) == 1
                                        else f"{me} reached {len(won)} special patches first"))
        if pending and quilts[seat] == FULL:
            # docs/rules/patchwork.md: a special patch with no empty square left is lost.
            pending = ()
        bonus = state.bonus
        if bonus is None and placement is not None and has_bonus_square(quilts[seat]):
            bonus = seat
            if log is not None:
                log.append(LogEntry(f"{me} covered a whole 7x7 square and takes the {BONUS_POINTS}-point bonus"))
        first_home = state.first_home
        if first_home is None and end == LAST_SPACE:
            first_home = seat
        return State(circle, quilts, _replaced(state.buttons, seat, buttons), _replaced(state.time, seat, end),
                     income, _replaced(state.pending, seat, pending), specials_left, bonus, seat, first_home,
                     placed)

    # -- results and views ----------------------------------------------------------------------
    def result(self, state: State) -> Result | None:
        if not self.is_over(state):
            return None
        scores = (score(state, 0), score(state, 1))
        home = tuple(1 if state.first_home == s else 0 for s in (0, 1))
        reason = "higher score" if scores[0] != scores[1] else "equal scores: first to reach the last space wins"
        return Result.from_scores(scores, home, reason, first_home=state.first_home)

    def view(self, state: State, seat: int | None) -> View:
        mover = state.mover
        players = []
        for s in (0, 1):
            quilt = state.quilts[s]
            players.append({
                "buttons": state.buttons[s], "time": state.time[s], "income": state.income[s],
                "quilt": quilt_rows(quilt), "empty": SQUARES - quilt.bit_count(),
                "bonus": state.bonus == s, "special_patches": list(state.pending[s]),
                "placed": [{"patch": pid, "rotation": r, "flip": f, "x": x, "y": y}
                           for pid, r, f, x, y in state.placed[s]],
                "score": score(state, s),
            })
        result = self.result(state)
        return {
            "game": self.id, "seat": seat, "players": players, "circle": list(state.circle),
            "offer": list(state.circle[:3]), "to_act": [] if mover is None else [mover],
            "last_mover": state.last, "first_home": state.first_home,
            "specials_left": list(state.specials_left), "income_times": list(INCOME_TIMES),
            "special_times": list(SPECIAL_TIMES), "last_space": LAST_SPACE,
            "over": result is not None, "result": result.to_json() if result else None,
            "scores": [p["score"] for p in players],
        }

    def sample(self, view: View, seat: int, rng: random.Random) -> State:
        """Patchwork hides nothing, so the view rebuilds the one state there is."""
        players = view["players"]
        pair = lambda key: (players[0][key], players[1][key])  # noqa: E731
        placed = tuple(tuple((d["patch"], d["rotation"], d["flip"], d["x"], d["y"]) for d in p["placed"])
                       for p in players)
        bonus = next((s for s in (0, 1) if players[s]["bonus"]), None)
        quilts = (quilt_from_rows(players[0]["quilt"]), quilt_from_rows(players[1]["quilt"]))
        return State(tuple(view["circle"]), quilts,
                     pair("buttons"), pair("time"), pair("income"),
                     tuple(tuple(p["special_patches"]) for p in players), tuple(view["specials_left"]),
                     bonus, view["last_mover"], view["first_home"], placed)

    def state_to_json(self, state: State) -> dict[str, Any]:
        return {"circle": list(state.circle), "quilts": list(state.quilts), "buttons": list(state.buttons),
                "time": list(state.time), "income": list(state.income),
                "pending": [list(p) for p in state.pending], "specials_left": list(state.specials_left),
                "bonus": state.bonus, "last": state.last, "first_home": state.first_home,
                "placed": [[list(t) for t in p] for p in state.placed]}

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State(tuple(data["circle"]), tuple(data["quilts"]), tuple(data["buttons"]), tuple(data["time"]),
                     tuple(data["income"]), tuple(tuple(p) for p in data["pending"]),
                     tuple(data["specials_left"]), data["bonus"], data["last"], data["first_home"],
                     tuple(tuple((a, b, bool(c), d, e) for a, b, c, d, e in p) for p in data["placed"]))
