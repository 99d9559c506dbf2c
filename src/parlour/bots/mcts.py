"""Monte Carlo tree search for any game of the contract, within a time limit, from one seat's view.

The search starts from ``game.sample(view, seat, rng)``: for open-information games the one state
there is, for hidden-information games a fresh guess at what the seat cannot see on every
iteration (determinized UCT over one tree of actions), so the bot never reads the true state.

A game may offer hooks that make the search much stronger, as ``game.search`` (duck-typed, every
method optional):

- ``candidates(state, seat, depth) -> list[Action]``: the actions worth searching at a node,
  best first (default: every legal action, in a random order). Children are added in this
  order as the node is visited more (progressive widening), so a good order matters.
- ``rollout(state, seat, rng) -> Action``: the playout policy (default: ``game.random_action``).
- ``evaluate(state) -> list[float]``: each seat's chance of winning from a non-final state, in
  [0, 1]; with it, playouts stop after ``rollout_depth`` moves and the leaf is evaluated.
- ``rollout_depth`` (int, default unbounded) and ``exploration`` (the UCT constant, default 0.7).

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
import time
from typing import Any

from ..core import Action, Bot, Game, IllegalAction, View

DEFAULT_TIME = 0.2  # seconds per move when no time limit is given
SAFETY = 0.6  # the share of the time limit spent searching; the rest is margin for a busy machine
MARGIN = 0.004  # seconds kept back for everything around the search
MAX_ROLLOUT = 1_000  # playout moves; a longer playout counts as even


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


class MctsBot(Bot):
    """UCT with progressive widening; the game's search hooks (``game.search``) guide it."""

    name = "mcts"
    widening = 1.5  # a node with n visits may have about widening * sqrt(n) + 1 children
    max_iterations: int | None = None  # stop early after this many (reproducible tests); None: the clock only

    def __init__(self, game: Game[Any], seed: int = 0, time_limit: float | None = None) -> None:
        super().__init__(game, seed=seed, time_limit=time_limit)
        hooks = getattr(game, "search", None)
        default = _DefaultHooks(game, self.rng)
        self._default_candidates = default.candidates
        self._candidates = getattr(hooks, "candidates", default.candidates)
        self._rollout = getattr(hooks, "rollout", default.rollout)
        self._evaluate = getattr(hooks, "evaluate", None)
        self.rollout_depth = getattr(hooks, "rollout_depth", MAX_ROLLOUT) if self._evaluate else MAX_ROLLOUT
        self.exploration = getattr(hooks, "exploration", 0.7)
        self.iterations = 0  # of the last search, for benchmarks and tests

    def choose(self, view: View, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        budget = (self.time_limit if self.time_limit is not None else DEFAULT_TIME) * SAFETY - MARGIN
        deadline = time.perf_counter() + max(budget, 0.001)
        game = self.game
        hidden = game.hidden_information
        state = game.sample(view, seat, self.rng)
        root = _Node(None if hidden else state, seat)
        root.candidates = self._root_candidates(state, seat, legal)
        iterations = 0
        collecting = gc.isenabled()
        gc.disable()  # the tree has no cycles, and a full collection of it could blow the time limit
        try:
            while True:
                if hidden and iterations:
                    state = game.sample(view, seat, self.rng)
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

    def _root_candidates(self, state: Any, seat: int, legal: list[Action]) -> list[Action]:
        """The game's candidates, but only real legal actions: a guessed state may allow others."""
        if self._candidates == self._default_candidates:
            return self.rng.sample(legal, len(legal))
        candidates = self._candidates(state, seat, 0)
        if self.game.hidden_information:
            allowed = {json.dumps(a, sort_keys=True) for a in legal}
            candidates = [a for a in candidates if json.dumps(a, sort_keys=True) in allowed]
        return candidates or legal

    def _iterate(self, root: _Node, state: Any, hidden: bool, deadline: float) -> None:
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
                        return  # the root's actions are really legal: the guess was wrong, not they
                    node.candidates.pop(len(node.children))
                    continue
                child = _Node(None if hidden else state, _mover(game, state))
                node.children.append((action, child))
                path.append(child)
                mover = child.mover
                break
            node, state = self._select(node, state, hidden)
            if node is None:
                return
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
        values = self._playout(state, mover, deadline)
        if values is None:
            return
        chooser = None
        for n in path:
            n.visits += 1
            if chooser is not None:
                n.value += values[chooser]
            chooser = n.mover

    def _select(self, node: _Node, state: Any, hidden: bool) -> tuple[_Node | None, Any]:
        log_n = math.log(node.visits + 1)
        c = self.exploration
        best, best_score, best_action = None, -1.0, None
        for action, child in node.children:
            score = child.value / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score, best_action = child, score, action
        if best is None:
            return None, state
        if not hidden:
            return best, best.state
        try:
            return best, self.game.apply(state, node.mover, best_action)
        except IllegalAction:
            return None, state

    def _playout(self, state: Any, mover: int | None, deadline: float) -> Any:
        """Each seat's value after a playout from ``state``; None when the time ran out."""
        game, rng = self.game, self.rng
        for step in range(self.rollout_depth):
            if mover is None:
                break
            if step & 31 == 31 and time.perf_counter() >= deadline:
                return None
            state = game.apply(state, mover, self._rollout(state, mover, rng))
            mover = _mover(game, state)
        if mover is None:
            result = game.result(state)
            return seat_values(result.ranks) if result is not None else EVEN
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
