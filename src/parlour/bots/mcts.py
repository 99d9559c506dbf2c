"""Monte Carlo tree search for any game of the contract, within a time limit, from one seat's view.

The search starts from ``game.sample(view, seat, rng)``: for open-information games the one state
there is, for hidden-information games a fresh guess at what the seat cannot see on every
iteration (determinized UCT over one tree of actions), so the bot never reads the true state.

A game guides the search with its hooks, ``game.search``: a :class:`~parlour.core.SearchHooks`
that says which actions are worth searching, how playouts are played and judged, how deep the tree
grows and how much of the time limit to spend (each hook and its default are described there).

>>> from parlour.games import get
>>> game = get("patchwork"); state = game.start(2, {}, seed=3)
>>> bot = MctsBot(game, seed=1, time_limit=0.05)
>>> bot.choose(game.view(state, 0), 0, game.legal_actions(state, 0)) in game.legal_actions(state, 0)
True
"""

from __future__ import annotations

import gc
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..core import Action, Bot, Game, IllegalAction, Result, SearchHooks, View
from .naming import UnknownBot, bot_class

DEFAULT_TIME = 0.2  # seconds per move when no time limit is given
MARGIN = 0.004  # seconds kept back for everything around the search
MIN_CPU_SHARE = 0.3  # the least share of its time the search keeps on a busy machine
MAX_ROLLOUT = 1_000  # playout moves; a longer playout counts as even
TREE_VISITS_PER_ROUND = 16  # an appraisal's tree search: each candidate's visits for each round of a flat one
# A game's ``solve`` hook is let visit this many positions for each second of the search's time
# (after the share of the processor it got, as the search's own time is), on half that time at
# most: Patchwork's exact endgame visits 100,000-140,000 a second of CPU (measured on the loaded
# 2-core machine), so a question that does not settle leaves the tree search most of the move.
# A count, not the clock: with time to spare (the cap, ``solve_positions``, binds from about 1 s a
# move) the same state gives the same choice.
SOLVE_POSITIONS_PER_SECOND = 80_000
SOLVE_SHARE = 0.5


def seat_values(ranks: tuple[int, ...] | list[int]) -> list[float]:
    """Each seat's share of the others it beat (ties count half): 1 for a lone winner, 0 for last.

    >>> seat_values([1, 2]), seat_values([1, 1]), seat_values([2, 1, 3])
    ([1.0, 0.0], [0.5, 0.5], [0.5, 1.0, 0.0])
    """
    n = len(ranks)
    if n == 1:
        return [1.0]
    return [(sum(1 for r in ranks if r > mine) + 0.5 * (sum(1 for r in ranks if r == mine) - 1)) / (n - 1)
            for mine in ranks]


def winner_values(result: Result) -> list[float]:
    """Each seat's value of a finished game where only first place counts (a game's
    ``result_values``): the winners share 1, whatever the others' places.

    >>> from parlour.core import Result
    >>> winner_values(Result((3, 1, 2), (1, 3, 2))), winner_values(Result((3, 3, 1), (1, 1, 3)))
    ([1.0, 0.0, 0.0], [0.5, 0.5, 0.0])
    """
    winners = [rank == 1 for rank in result.ranks]
    return [1.0 / sum(winners) if won else 0.0 for won in winners]


def softmax(standings: Sequence[float | None]) -> list[float]:
    """Shares of 1 in proportion to ``exp(standing)``; None (an eliminated seat) gets 0.

    >>> softmax([0.0, None, math.log(3)])
    [0.25, 0.0, 0.75]
    """
    top = max(x for x in standings if x is not None)
    weights = [0.0 if x is None else math.exp(x - top) for x in standings]
    total = sum(weights)
    return [w / total for w in weights]


def _seat_values(result: Result) -> list[float]:
    return seat_values(result.ranks)


class _Node:
    __slots__ = ("state", "mover", "candidates", "children", "visits", "value")

    def __init__(self, state: Any, mover: int | None) -> None:
        self.state = state  # kept for open-information games only
        self.mover = mover  # the seat choosing here; None once the game is over
        self.candidates: list[Action] | None = None
        self.children: list[tuple[Action, _Node]] = []
        self.visits = 0
        self.value = 0.0  # total value, for the seat that chose the move into this node


class _DefaultHooks:
    def __init__(self, game: Game[Any], rng: Any) -> None:
        self.game = game
        self.rng = rng

    def candidates(self, state: Any, seat: int, depth: int) -> list[Action]:
        """Every legal action in a random order: without a game's ranking, progressive widening
        must not favour whatever the engine happens to list first."""
        actions = list(self.game.legal_actions(state, seat))
        self.rng.shuffle(actions)
        return actions

    def rollout(self, state: Any, seat: int, rng: Any) -> Action:
        return self.game.random_action(state, seat, rng)


class _Guide:
    """A game's heuristic bot as the playout policy and the first candidate of each node: it
    chooses from its seat's view of the (guessed) state, like any bot."""

    def __init__(self, game: Game[Any], bot: str | type[Bot], rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        cls = bot if isinstance(bot, type) else bot_class(game, bot, {})
        if cls is None:
            raise UnknownBot(f"{game.name}'s search plays its playouts with {bot!r}, which is none of its"
                             f" own bots or levels ({', '.join([*game.bots, *game.levels])})")
        self.bots = [cls(game, seed=rng.getrandbits(32)) for _ in range(game.max_players)]

    def reseed(self, seed: int) -> None:
        """The same random choices again: each candidate is played out with the same dice."""
        for k, bot in enumerate(self.bots):
            bot.rng.seed(seed + k)

    def rollout(self, state: Any, seat: int, rng: Any) -> Action:
        game = self.game
        legal = game.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]  # no choice: the bot's view is not even built (most of a playout's cost)
        return self.bots[seat].choose(game.view(state, seat), seat, legal)

    def candidates(self, state: Any, seat: int, depth: int) -> list[Action]:
        actions = list(self.game.legal_actions(state, seat))
        if len(actions) < 2:
            return actions
        first = self.bots[seat].choose(self.game.view(state, seat), seat, actions)
        rest = [a for a in actions if a != first]
        self.rng.shuffle(rest)
        return [first] + rest


class MctsBot(Bot):
    """UCT with progressive widening; the game's search hooks (``game.search``) guide it."""

    name = "mcts"
    thinks = True  # the hall runs it in worker processes
    widening = 1.5  # a node with n visits may have about widening * sqrt(n) + 1 children
    max_iterations: int | None = None  # stop early after this many (reproducible tests); None: the clock only

    def __init__(self, game: Game[Any], seed: int = 0, time_limit: float | None = None) -> None:
        super().__init__(game, seed=seed, time_limit=time_limit)
        hooks: SearchHooks[Any] = game.search or SearchHooks()
        default = _DefaultHooks(game, self.rng)
        self._default_candidates = default.candidates
        self._candidates = hooks.candidates or default.candidates
        self._rollout = hooks.rollout or default.rollout
        self._sample = hooks.sample or game.sample
        self._guide: _Guide | None = None
        if hooks.playout_bot is not None:
            guide = self._guide = _Guide(game, hooks.playout_bot, self.rng)
            if hooks.rollout is None:
                self._rollout = guide.rollout
            if hooks.candidates is None:
                self._candidates = guide.candidates
        self._evaluate = hooks.evaluate
        self._solve = hooks.solve if not game.hidden_information else None
        self.solve_positions = hooks.solve_positions
        depth = hooks.rollout_depth
        self.rollout_depth: int | Callable[[Any], int] = (
            depth if self._evaluate is not None and depth is not None else MAX_ROLLOUT)
        self._playout_end = hooks.playout_end if self._evaluate is not None else None
        self._result_values = hooks.result_values or _seat_values
        self.exploration = hooks.exploration
        self.tree_depth = hooks.tree_depth if hooks.tree_depth is not None else MAX_ROLLOUT
        self.width = hooks.width
        self.first_bonus = hooks.first_bonus
        self.min_rounds = hooks.min_rounds
        self.time_share = hooks.time_share
        self.iterations = 0  # of the last search, for benchmarks and tests
        self.cpu_share = 1.0  # of the wall time of the last searches, the share this process ran (averaged)

    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        began, began_cpu = time.perf_counter(), time.process_time()
        try:
            return self._search(view, seat, legal, began)
        finally:
            wall = time.perf_counter() - began
            if wall > 0.001:
                got = min(1.0, (time.process_time() - began_cpu) / wall)
                self.cpu_share = max(MIN_CPU_SHARE, 0.5 * self.cpu_share + 0.5 * got)

    def _search(self, view: View, seat: int, legal: list[Action], began: float) -> Action:
        # On a busy machine the process waits to be scheduled, and a long search is more likely
        # to be caught by such a wait past the turn's limit: the search shrinks with the share of
        # the processor the last searches got (docs/bots.md).
        limit = self.time_limit if self.time_limit is not None else DEFAULT_TIME
        budget = limit * self.time_share * self.cpu_share - MARGIN
        deadline = began + max(budget, 0.001)
        if self.tree_depth == 1:
            return self._flat(view, seat, legal, deadline)
        game = self.game
        hidden = game.hidden_information
        state = self._sample(view, seat, self.rng)
        self._set_depth(state)
        root = _Node(None if hidden else state, seat)
        root.candidates = self._root_candidates(state, seat, legal)
        if self._solve is not None:
            # Near the end the game may be played out exactly: a sure win is played as found.
            solved = self._solve(state, min(self.solve_positions,
                                            int(budget * SOLVE_SHARE * SOLVE_POSITIONS_PER_SECOND)))
            if solved is not None and solved[0][seat] >= 1.0:
                self.iterations = 0
                return solved[1]
        iterations = 0
        collecting = gc.isenabled()
        gc.disable()  # the tree has no cycles, and a full collection of it could blow the time limit
        try:
            while True:
                if hidden and iterations:
                    state = self._sample(view, seat, self.rng)
                self._iterate(root, state, hidden, deadline)
                iterations += 1
                if time.perf_counter() >= deadline or iterations == self.max_iterations:
                    break
        finally:
            if collecting:
                gc.enable()
        self.iterations = iterations
        if not root.children:
            return root.candidates[0]
        action, _ = max(root.children, key=lambda c: (c[1].visits, c[1].value))
        return action

    def _flat(self, view: View, seat: int, legal: list[Action], deadline: float) -> Action:
        """Flat Monte Carlo with common random numbers (see ``tree_depth`` above)."""
        state = self._sample(view, seat, self.rng)
        self._set_depth(state)
        candidates = self._root_candidates(state, seat, legal)[:self.width]
        if len(candidates) == 1:
            return candidates[0]
        totals, rounds = self._flat_totals(view, seat, state, candidates, deadline, self.max_iterations)
        self.iterations = rounds
        if rounds < self.min_rounds:
            return candidates[0]  # too few guesses to overrule the first candidate
        totals[0] += self.first_bonus * rounds
        return candidates[max(range(len(candidates)), key=lambda i: (totals[i], -i))]

    def _flat_totals(self, view: View, seat: int, state: Any, candidates: list[Action], deadline: float,
                     max_rounds: int | None) -> tuple[list[float], int]:
        """Each candidate's total value for ``seat`` over the same guesses at the hidden state and the
        same random numbers (the first guess is ``state``), and how many guesses were played out."""
        game = self.game
        totals = [0.0] * len(candidates)
        rounds = 0
        collecting = gc.isenabled()
        gc.disable()
        try:
            while rounds != max_rounds:
                if rounds:
                    state = self._sample(view, seat, self.rng)
                seed = self.rng.getrandbits(64)
                values = []
                for action in candidates:
                    after = game.apply(state, seat, action)
                    if self._guide is not None:
                        self._guide.reseed(seed)
                    outcome = self._playout(after, _mover(game, after), deadline, random.Random(seed))
                    if outcome is None:
                        break
                    values.append(outcome[seat])
                if len(values) < len(candidates):
                    break  # out of time in the middle of a guess: it does not count
                totals = [t + v for t, v in zip(totals, values)]
                rounds += 1
                if time.perf_counter() >= deadline:
                    break
        finally:
            if collecting:
                gc.enable()
        return totals, rounds

    def appraise(self, view: View, seat: int, legal: list[Action], also: Action | None = None,
                 rounds: int = 16, width: int | None = None) -> list[tuple[Action, float]]:
        """The search's judgement of ``seat``'s moves from its ``view``: its best candidates (at most
        ``width``, the hooks' ``width`` by default) and ``also`` (a move to judge beside them), each
        with its mean value for ``seat`` over ``rounds`` guesses at what the view hides, played out
        with the same random numbers; best first. It reads nothing but the view, its legal moves and
        the bot's seed, and stops after ``rounds`` guesses, not on the clock: the same seed and view
        give the same judgement.

        A move of a finished playout is worth what the game's ``result_values`` give it; an
        unfinished one what its ``evaluate`` says (docs/analysis.md).
        """
        state = self._sample(view, seat, self.rng)
        self._set_depth(state)
        candidates = self._root_candidates(state, seat, legal)[:width or self.width]
        if also is not None and also not in candidates:
            candidates.append(also)
        if self.tree_depth > 1 and not self.game.hidden_information:
            judged = self._exact_values(state, seat, candidates, rounds * TREE_VISITS_PER_ROUND)
        else:
            totals, played = self._flat_totals(view, seat, state, candidates, math.inf, rounds)
            judged = [(action, total / max(played, 1)) for action, total in zip(candidates, totals)]
        return sorted(judged, key=lambda pair: -pair[1])

    def _exact_values(self, state: Any, seat: int, candidates: list[Action], iterations: int
                      ) -> list[tuple[Action, float]]:
        """:meth:`_tree_values`, but where the game's ``solve`` hook plays the rest of the game out
        exactly (near its end), each candidate's value with perfect play (1 a sure win, 0 a sure
        loss), and the move that wins added when none of the candidates does. Each answer comes from
        a question of its own about one position with the same budget: a move's value does not
        depend on what is judged beside it."""
        solve = self._solve
        root = solve(state, self.solve_positions) if solve is not None else None
        if solve is None or root is None:
            return self._tree_values(state, seat, candidates, iterations)
        game, exact, unsolved = self.game, {}, []
        for k, action in enumerate(candidates):
            after = game.apply(state, seat, action)
            if game.is_over(after):
                result = game.result(after)
                assert result is not None
                exact[k] = self._result_values(result)[seat]
                continue
            solved = solve(after, self.solve_positions)
            if solved is None:
                unsolved.append(k)
            else:
                exact[k] = solved[0][seat]
        searched = dict(zip(unsolved, (v for _, v in self._tree_values(
            state, seat, [candidates[k] for k in unsolved], iterations))))
        judged = [(action, exact[k] if k in exact else searched[k]) for k, action in enumerate(candidates)]
        values, winning = root
        if values[seat] >= 1.0 and not any(exact.get(k) == 1.0 for k in range(len(candidates))):
            judged = [(a, v) for a, v in judged if a != winning] + [(winning, 1.0)]
        return judged

    def _tree_values(self, state: Any, seat: int, candidates: list[Action], iterations: int
                     ) -> list[tuple[Action, float]]:
        """Each root candidate's mean value for ``seat`` over a tree search of ``iterations`` of its
        own from the position it leads to (an open-information game whose search grows a tree: the
        hard level's own search below the root). Every candidate gets the same search: one searched
        more deeply than another would be judged on other leaves, and a leaf's evaluation is not a
        finished game's result (docs/analysis.md)."""
        game, judged = self.game, []
        for action in candidates:
            after = game.apply(state, seat, action)
            root, total, counted = _Node(after, _mover(game, after)), 0.0, 0
            for _ in range(iterations):
                values = self._iterate(root, after, False, math.inf)
                if values is not None:
                    total += values[seat]
                    counted += 1
            judged.append((action, total / counted if counted else 0.5))
        return judged

    def _set_depth(self, state: Any) -> None:
        depth = self.rollout_depth
        self._depth = depth(state) if callable(depth) else depth

    def _root_candidates(self, state: Any, seat: int, legal: list[Action]) -> list[Action]:
        """The game's candidates, but only real legal actions: a guessed state may allow others."""
        if self._candidates == self._default_candidates:
            return self.rng.sample(legal, len(legal))
        candidates = self._candidates(state, seat, 0)
        if self.game.hidden_information:
            allowed = {json.dumps(a, sort_keys=True) for a in legal}
            candidates = [a for a in candidates if json.dumps(a, sort_keys=True) in allowed]
        return candidates or legal

    def _iterate(self, root: _Node, state: Any, hidden: bool, deadline: float) -> Any:
        """One iteration of the search from ``root``: each seat's value of the playout it ended
        with, None if it played none (the time ran out, or an impossible guess)."""
        game = self.game
        node, path, depth, mover = root, [root], 0, root.mover
        while mover is not None:
            if node.candidates is None:
                node.candidates = self._candidates(state, mover, depth)
            allowed = min(len(node.candidates), int(self.widening * math.sqrt(node.visits)) + 1)
            if len(node.children) < allowed:
                action = node.candidates[len(node.children)]
                try:
                    state = game.apply(state, mover, action)
                except IllegalAction:  # a guessed hidden state where this action is impossible
                    if node is root:
                        return None  # the root's actions are really legal: the guess was wrong, not they
                    node.candidates.pop(len(node.children))
                    continue
                child = _Node(None if hidden else state, _mover(game, state))
                node.children.append((action, child))
                path.append(child)
                mover = child.mover
                break
            chosen, state = self._select(node, mover, state, hidden)
            if chosen is None:
                return None
            node = chosen
            path.append(node)
            depth += 1
            if hidden:
                # Who acts next may depend on what this guess hid: if it is not who acted here
                # before, the tree below does not apply, and the guess is played out from here.
                mover = _mover(game, state)
                if mover != node.mover:
                    break
            else:
                mover = node.mover
            if depth >= self.tree_depth:
                break  # below the tree's last level, every visit is played out
        values = self._playout(state, mover, deadline)
        if values is None:
            return None
        chooser = None
        for n in path:
            n.visits += 1
            if chooser is not None:
                n.value += values[chooser]
            chooser = n.mover
        return values

    def _select(self, node: _Node, mover: int, state: Any, hidden: bool) -> tuple[_Node | None, Any]:
        """The child of ``node`` (where ``mover`` chooses) that UCT picks, and the state there."""
        log_n = math.log(node.visits + 1)
        c = self.exploration
        best, best_score, best_action = None, -1.0, None
        for action, child in node.children:
            score = child.value / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score, best_action = child, score, action
        if best is None or best_action is None:
            return None, state
        if not hidden:
            return best, best.state
        try:
            return best, self.game.apply(state, mover, best_action)
        except IllegalAction:
            return None, state

    def _playout(self, state: Any, mover: int | None, deadline: float, rng: Any = None) -> Any:
        """Each seat's value after a playout from ``state``; None when the time ran out."""
        game, rng, start, end = self.game, rng or self.rng, state, self._playout_end
        for _ in range(self._depth):
            if mover is None:
                break
            if time.perf_counter() >= deadline:  # a guided step can be slow on a busy machine
                return None
            state = game.apply(state, mover, self._rollout(state, mover, rng))
            mover = _mover(game, state)
            if end is not None and mover is not None and end(start, state):
                break
        if mover is None:
            result = game.result(state)
            return self._result_values(result) if result is not None else EVEN
        if self._evaluate is not None:
            return self._evaluate(state)
        return EVEN  # a playout too long to finish says nothing either way


class _Even:
    """Every seat's value is one half."""

    def __getitem__(self, seat: int) -> float:
        return 0.5


EVEN = _Even()


def _mover(game: Game[Any], state: Any) -> int | None:
    seats = game.to_act(state)
    return min(seats) if seats else None
