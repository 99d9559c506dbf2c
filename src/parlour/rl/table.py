"""One game in progress as learning agents see it: whose token it is, which tokens are legal, the
seat's observation, and the rewards at the end. PettingZoo, Gymnasium and OpenSpiel all wrap it.

>>> table = Table("empire", seed=1)
>>> seat = table.seat(); action = table.step(int(table.mask(seat).argmax())); table.seat() in (0, 1, None)
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..core import Action, Game, LogEntry, Result, View
from ..games import get
from .encoding import Choices, EncodingError, Tokens
from .encodings import encoding


def default_players(game: Game[Any]) -> int:
    """Two players where the game allows it, else its smallest table."""
    return min(max(2, game.min_players), game.max_players)


def rewards(result: Result) -> list[float]:
    """Each seat's reward from the result: +1 for every seat it ranks above, -1 for every seat
    ranked above it, divided by the other seats' number (win +1, loss -1, tie 0 with two players;
    the rewards of a game add up to 0). Alone at the table, the reward is the score."""
    ranks = result.ranks
    n = len(ranks)
    if n == 1:
        return [float(result.scores[0])]
    return [sum((r < other) - (r > other) for other in ranks) / (n - 1) for r in ranks]


class Table:
    """A game, its state, and the tokens chosen so far of an action not yet complete.

    ``players`` defaults to two (or the game's only number); ``options`` are the game's own.
    """

    def __init__(self, game_id: str, players: int | None = None, options: Mapping[str, Any] | None = None,
                 seed: int | None = None, keep_log: bool = False) -> None:
        self.keep_log = keep_log  # log lines cost time; render() shows them when kept
        self.game: Game[Any] = get(game_id)
        self.players = default_players(self.game) if players is None else players
        self.game.check_players(self.players)
        self.options = self.game.resolve_options(options, self.players)
        enc = encoding(game_id)
        self.codec, self.encoder = enc.actions, enc.observation
        self.seeds = random.Random(seed)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """A new game; with ``seed`` None, the next seed of the table's own sequence."""
        self.seed = self.seeds.randrange(2**63) if seed is None else seed
        self.state = self.game.start(self.players, self.options, self.seed)
        self.prefix: Tokens = ()
        self.prefix_seat: int | None = None
        self.log: list[LogEntry] | None = [] if self.keep_log else None
        self.moves = 0
        self.last_move: tuple[int, Action] | None = None
        self._forget()

    def _forget(self) -> None:
        """A new state: what was asked of the engine about the last one is forgotten."""
        self._views: dict[int, View] = {}
        self._choices: dict[int, Choices] = {}
        self._to_act = to_act = self.game.to_act(self.state)
        # simultaneous choices are taken in seat order: each seat's view hides the others' choices
        self._seat = min(to_act) if to_act else None
        self._over: bool | None = None

    def set_state(self, state: Any) -> None:
        """Put the table in ``state`` (a resampled one, say), with no action under way."""
        self.state, self.prefix, self.prefix_seat = state, (), None
        self._forget()

    # -- what a seat knows and may do ---------------------------------------------------------------
    def seat(self) -> int | None:
        """The seat whose token is next, the lowest seat that must act (the one half-way through an
        action, if any, since the state stays the same until the action is complete). None once the
        game is over."""
        return self._seat

    def to_act(self) -> frozenset[int]:
        return self._to_act

    def view(self, seat: int) -> View:
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.game.view(self.state, seat)
        return view

    def choices(self, seat: int) -> Choices:
        choices = self._choices.get(seat)
        if choices is None:
            choices = self._choices[seat] = self.codec.choices(self.game, self.state, seat, self.view(seat))
        return choices

    def mask(self, seat: int) -> np.ndarray:
        """1 for each token ``seat`` may choose now (all 0 when it need not act)."""
        if seat != self._seat:
            return np.zeros(self.codec.size, dtype=np.int8)
        return self.choices(seat).mask(self.prefix)

    def observe(self, seat: int) -> np.ndarray:
        """``seat``'s observation tensor, from its view alone."""
        chosen = self.prefix if seat == self.prefix_seat else ()
        return self.encoder.layout.bound(self.encoder.encode(self.view(seat), seat, chosen))

    def legal_tokens(self, seat: int) -> list[int]:
        """The tokens ``seat`` may choose now, in order (none when it need not act)."""
        return self.choices(seat).tokens(self.prefix) if seat == self._seat else []

    # -- acting -------------------------------------------------------------------------------------
    def step(self, token: int) -> Action | None:
        """The next token of the seat to act: the action it completes, applied, or None while the
        action is still incomplete. A token the mask refuses raises :class:`EncodingError`."""
        seat = self._seat
        if seat is None:
            raise EncodingError("the game is over")
        choices = self.choices(seat)
        token = int(token)
        prefix = self.prefix
        if not (0 <= token < self.codec.size and choices.allows(prefix, token)):
            raise EncodingError(f"token {token} ({self.name(token)}) is not legal for player {seat + 1} now")
        tokens = prefix + (token,)
        action = choices.action(tokens)
        if action is None:
            self.prefix, self.prefix_seat = tokens, seat
            return None
        self.apply(seat, action)
        return action

    def apply(self, seat: int, action: Action) -> None:
        """Apply a whole action (an engine action, as JSON) for ``seat``."""
        self.state = self.game.apply(self.state, seat, action, self.log)
        self.last_move = (seat, action)
        self.prefix, self.prefix_seat = (), None
        self.moves += 1
        self._forget()

    def name(self, token: int) -> str:
        return self.codec.names[token] if 0 <= token < self.codec.size else f"no token {token}"

    # -- the end ------------------------------------------------------------------------------------
    def is_over(self) -> bool:
        if self._over is None:
            self._over = self.game.is_over(self.state)
        return self._over

    def rewards(self) -> list[float]:
        """Every seat's reward once the game is over, zeros before."""
        result = self.game.result(self.state)
        return [0.0] * self.players if result is None else rewards(result)

    def show(self, render_mode: str | None) -> str | None:
        """What an environment's ``render()`` gives: with ``"ansi"`` the text of :meth:`render`, with
        ``"human"`` that text printed and None, with no render mode None."""
        if render_mode is None:
            return None
        text = self.render()
        if render_mode == "human":
            print(text)
            return None
        return text

    def render(self, lines: int = 8) -> str:
        """The game as text: the last lines of its log that a spectator may read, the scores, who acts."""
        names = [f"player {i + 1}" for i in range(self.players)]
        public = [e.render(names) for e in self.log or () if e.visible_to(None)][-lines:]
        view = self.game.view(self.state, None)
        out = public + [f"scores: {', '.join(str(s) for s in view.get('scores', []))}"]
        result = self.game.result(self.state)
        if result is not None:
            out.append(f"over: {result.render_reason(names)}")
        else:
            out.append(f"to act: {', '.join(names[s] for s in sorted(self._to_act))}")
        return "\n".join(out)
