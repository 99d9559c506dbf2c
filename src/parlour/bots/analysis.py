"""The analysis of a game: every move judged by the search, from what its seat knew when it chose.

For each move the search (:meth:`parlour.bots.mcts.MctsBot.appraise`, guided by the game's own
hooks, as the hard level is) weighs the mover's best candidates and the move played, each over the
same guesses at what the seat could not see and the same random numbers. The mover's chance of
winning before the move is that of the search's preferred move; after it, that of the move played;
the difference is the move's loss, and the label says how large it was (``LABELS``)::

    judged = analyse(game, replay)          # one Judgement per move, in order
    [j.to_json() for j in judged][0]        # {"turn": 1, "seat": 0, "action": {...}, "best": {...},
                                            #  "win_chance_before": 0.61, "win_chance_after": 0.58,
                                            #  "label": "good", ...}

A move is judged from its seat's view of the game at that moment and a seed made of the replay's
seed and the move's number, nothing else: in a hidden-information game the cards revealed later,
or the others' hands now, change nothing (``tests/bots/test_analysis.py`` resamples them).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..core import Action, Game, ParlourError, View
from ..core.replays import BadReplay, check
from .mcts import MctsBot, winner_values

# The labels by the loss of winning chance (0 to 1) a move gives up against the search's
# preferred move, one set for every game (docs/analysis.md): under GOOD is "good" (or "best" if
# it is the preferred move, or as good as it), then "inaccuracy", "mistake" and "blunder".
BEST_WITHIN: Final = 0.01
INACCURACY: Final = 0.05
MISTAKE: Final = 0.10
BLUNDER: Final = 0.20
LABELS: Final = ("best", "good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Budget:
    """How much search a move gets: ``rounds`` guesses at the hidden state (each played out once per
    candidate), over at most ``width`` candidates besides the move played; and, in a game whose
    hooks can play its end out exactly (Patchwork's ``solve``), at most ``positions`` positions for
    each question asked of it (the position, then each move judged; 0: never asked)."""

    rounds: int = 48
    width: int = 5
    positions: int = 200_000

    def __post_init__(self) -> None:
        if not 1 <= self.rounds <= 1000 or not 1 <= self.width <= 50 or not 0 <= self.positions <= 10**7:
            raise ValueError(f"a budget has 1 to 1000 rounds, 1 to 50 candidates and 0 to 10,000,000"
                             f" positions, not {self}")


DEFAULT_BUDGET: Final = Budget()


@dataclass(frozen=True)
class Judgement:
    """One move judged: the mover's chance of winning with the search's preferred move (``before``)
    and with the move played (``after``), the preferred move, and the label of the difference.
    ``choices`` is how many legal moves the seat had (1: a forced move, "best" by definition);
    ``best_words`` the preferred move in words, as its seat would read it (when the game has them)."""

    turn: int
    seat: int
    action: Action
    best: Action
    win_chance_before: float
    win_chance_after: float
    label: str
    choices: int
    best_words: str | None = None

    @property
    def loss(self) -> float:
        return max(0.0, self.win_chance_before - self.win_chance_after)

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "seat": self.seat, "action": self.action, "best": self.best,
                "win_chance_before": round(self.win_chance_before, 4),
                "win_chance_after": round(self.win_chance_after, 4),
                "loss": round(self.loss, 4), "label": self.label, "choices": self.choices,
                **({"best_words": self.best_words} if self.best_words is not None else {})}


def label(loss: float, preferred: bool) -> str:
    """The label of a move that gives up ``loss`` of its seat's chance of winning; ``preferred``: it
    is the search's own choice.

    >>> label(0.0, True), label(0.005, False), label(0.04, False), label(0.07, False), label(0.5, False)
    ('best', 'best', 'good', 'inaccuracy', 'blunder')
    """
    if preferred or loss <= BEST_WITHIN:
        return "best"
    if loss < INACCURACY:
        return "good"
    if loss < MISTAKE:
        return "inaccuracy"
    if loss < BLUNDER:
        return "mistake"
    return "blunder"


def move_seed(seed: int, turn: int) -> int:
    """The seed of the search that judges move ``turn`` of a game dealt by ``seed``."""
    return random.Random(f"parlour-analysis:{seed}:{turn}").getrandbits(63)


def judging_bot(game: Game[Any], seed: int, budget: Budget = DEFAULT_BUDGET) -> MctsBot:
    """The search that judges moves: the hard level's (the game's search hooks), where only first
    place counts, and an unfinished position is judged by the game's chance of winning
    (``win_chance(state)`` on its hooks, fitted to who won) if it has one, else by its ``evaluate``;
    near the end, where the game's ``solve`` plays it out exactly, by who wins with perfect play."""
    bot = MctsBot(game, seed=seed)
    bot.solve_positions = budget.positions
    if not budget.positions:
        bot._solve = None
    bot._result_values = winner_values
    chance = getattr(game.search, "win_chance", None)
    if chance is not None and bot._evaluate is not None:
        bot._evaluate = chance
    return bot


def judge(game: Game[Any], view: Any, seat: int, legal: list[Action], action: Action, seed: int,
          turn: int = 0, budget: Budget = DEFAULT_BUDGET) -> Judgement:
    """``seat``'s move ``action`` judged from its ``view`` with ``legal`` its moves then; ``seed``
    fixes the search's guesses and dice (:func:`move_seed`)."""
    played = game.normalise(action)
    bot = judging_bot(game, seed, budget)
    width = budget.width if len(legal) > 1 else 1  # a forced move is still weighed, for the chart
    judged = [(game.normalise(a), value) for a, value in bot.appraise(view, seat, legal, played, budget.rounds,
                                                                      width)]
    best, before = judged[0]
    after = next(value for a, value in judged if a == played)
    return Judgement(turn, seat, played, best, before, after, label(before - after, best == played), len(legal))


@dataclass(frozen=True)
class Advice:
    """The coach's hint (docs/analysis.md): the move the search prefers for ``seat`` from its view,
    its chance of winning, and the chance of the next best candidate (None: there was none)."""

    best: Action
    win_chance: float
    next_chance: float | None
    choices: int

    def to_json(self) -> dict[str, Any]:
        return {"best": self.best, "win_chance": round(self.win_chance, 4),
                "next_chance": None if self.next_chance is None else round(self.next_chance, 4),
                "choices": self.choices}


def advise(game: Game[Any], view: Any, seat: int, legal: list[Action], seed: int,
           budget: Budget = DEFAULT_BUDGET) -> Advice:
    """The move the analysis would call best for ``seat`` from its ``view`` (``legal``: its moves),
    weighed as :func:`judge` weighs a move: the same view and seed give the same advice, whatever
    the seat cannot see.

    >>> advise(game, game.view(state, 0), 0, game.legal_actions(state, 0), seed=7).win_chance  # doctest: +SKIP
    0.62
    """
    if not legal:
        raise ValueError(f"seat {seat} has no move to advise on")
    if len(legal) == 1:  # a forced move: still weighed, so the line can say how it stands
        budget = Budget(budget.rounds, 1, budget.positions)
    bot = judging_bot(game, seed, budget)
    judged = bot.appraise(view, seat, legal, None, budget.rounds, budget.width)
    best, chance = judged[0]
    return Advice(game.normalise(best), chance, judged[1][1] if len(judged) > 1 else None, len(legal))


def analyse(game: Game[Any], replay: Mapping[str, Any], seat: int | None = None, budget: Budget = DEFAULT_BUDGET,
            progress: Callable[[int, int], None] | None = None, first: int = 1,
            last: int | None = None, pace: Callable[[], None] | None = None,
            words: Callable[[Action, View, int], str] | None = None) -> list[Judgement]:
    """Every move of ``replay`` (a replay of ``game``, :mod:`parlour.core.replays`) judged, or only
    ``seat``'s, or only those from move ``first`` to ``last`` (counting from 1; a part, for a
    worker); ``progress(done, total)`` is told after each move; ``pace()`` is called before each
    move judged (the hall's worker waits there while the hall is busy: hall/pacing.py); ``words(action,
    view, seat)`` names each preferred move from its seat's view (``GameEntry.describer``)."""
    check(replay)
    players: int = replay["players"]
    if seat is not None and not 0 <= seat < players:
        raise BadReplay(f"this game has seats 0 to {players - 1}, not {seat}")
    state = game.start(players, game.stored_options(replay.get("options")), replay["seed"])
    moves = replay["actions"]
    judged: list[Judgement] = []
    for turn, (mover, action) in enumerate(moves, 1):
        if last is not None and turn > last:
            break
        try:
            action = game.normalise(action)
            game.check(state, mover, action)
        except ParlourError as error:
            raise BadReplay(f"move {turn} of the replay does not apply: {error}") from None
        if (seat is None or mover == seat) and turn >= first:
            if pace is not None:
                pace()
            legal = game.legal_actions(state, mover)
            view = game.view(state, mover)
            made = judge(game, view, mover, legal, action, move_seed(replay["seed"], turn), turn, budget)
            if words is not None:
                made = dataclasses.replace(made, best_words=words(made.best, view, mover))
            judged.append(made)
        state = game.apply(state, mover, action)
        if progress is not None:
            progress(turn, len(moves))
    return judged


def summary(judged: list[Judgement], players: int) -> list[dict[str, int]]:
    """How many moves of each label each seat made."""
    counts = [dict.fromkeys(LABELS, 0) for _ in range(players)]
    for j in judged:
        counts[j.seat][j.label] += 1
    return counts
