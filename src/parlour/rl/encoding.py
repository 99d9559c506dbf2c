"""What every game's encoding for learning agents is made of: integer actions and fixed-shape
observations, both read from a seat's view only.

An action is one or more integers ("tokens") of a fixed range ``0 .. size - 1``. Most actions are
one token; a choice too large for one (three cards to discard at once) is a short sequence, and
the sequences are prefix-free: no action's tokens begin another's, so an agent picks token after
token and the action is done when its sequence is complete. The legal tokens at each point come
from the game's ``legal_actions``::

    codec = ActionCodec(...)
    choices = Choices.of(codec, view, game.legal_actions(state, seat))
    choices.mask(())            # the first tokens of every legal action
    choices.action((12,))       # the action whose tokens are (12,), None while incomplete
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..core import Action, View

Tokens = tuple[int, ...]


class EncodingError(ValueError):
    """An action or token that the encoding does not know, said in words."""


def action_key(action: Action) -> str:
    """One string per action, whatever the order of its fields."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


class ActionCodec(ABC):
    """A game's actions as token sequences over ``range(size)``; ``names[i]`` says what token ``i``
    means, in words."""

    size: int
    names: tuple[str, ...]

    @abstractmethod
    def encode(self, view: View, action: Action) -> Tokens:
        """The tokens of ``action`` for the seat whose ``view`` this is."""


class CatalogueCodec(ActionCodec):
    """One token per action of a fixed list: the list is the encoding."""

    def __init__(self, actions: Iterable[Action], names: Iterable[str] | None = None) -> None:
        self.actions = tuple(actions)
        self.index = {action_key(a): i for i, a in enumerate(self.actions)}
        if len(self.index) != len(self.actions):
            raise EncodingError("the catalogue lists an action twice")
        self.size = len(self.actions)
        self.names = tuple(names) if names is not None else tuple(action_key(a) for a in self.actions)

    def token(self, action: Action) -> int:
        try:
            return self.index[action_key(action)]
        except KeyError:
            raise EncodingError(f"the encoding has no token for {action_key(action)}") from None

    def encode(self, view: View, action: Action) -> Tokens:
        return (self.token(action),)


@dataclass
class Choices:
    """The legal actions of one decision, by their tokens."""

    by_tokens: dict[Tokens, Action]
    firsts: np.ndarray  # the mask of first tokens, cached: it is asked for at every step
    size: int

    @staticmethod
    def of(codec: ActionCodec, view: View, legal: Sequence[Action]) -> "Choices":
        by_tokens: dict[Tokens, Action] = {}
        for action in legal:
            tokens = codec.encode(view, action)
            if tokens in by_tokens:
                raise EncodingError(f"{action_key(action)} and {action_key(by_tokens[tokens])} have the"
                                    f" same tokens {tokens}")
            by_tokens[tokens] = action
        firsts = np.zeros(codec.size, dtype=np.int8)
        firsts[[t[0] for t in by_tokens]] = 1
        return Choices(by_tokens, firsts, codec.size)

    def mask(self, prefix: Tokens) -> np.ndarray:
        """1 for each token that continues ``prefix`` towards a legal action, else 0."""
        if not prefix:
            return self.firsts
        mask = np.zeros(self.size, dtype=np.int8)
        k = len(prefix)
        for tokens in self.by_tokens:
            if len(tokens) > k and tokens[:k] == prefix:
                mask[tokens[k]] = 1
        return mask

    def action(self, tokens: Tokens) -> Action | None:
        """The legal action these tokens complete, or None if they only begin one."""
        return self.by_tokens.get(tokens)


class Layout:
    """A fixed-shape observation: a flat float32 vector made of named blocks ("channels").

    ``blocks`` are (name, length, what it holds); ``layout[name]`` is the block's slice.
    """

    def __init__(self, blocks: Sequence[tuple[str, int, str]]) -> None:
        self.blocks = tuple(blocks)
        self.slices: dict[str, slice] = {}
        start = 0
        for name, length, _ in self.blocks:
            if name in self.slices:
                raise ValueError(f"the layout has two blocks called {name!r}")
            self.slices[name] = slice(start, start + length)
            start += length
        self.size = start

    def __getitem__(self, name: str) -> slice:
        return self.slices[name]

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.float32)

    def table(self) -> str:
        """The layout as a Markdown table, for docs/rl.md."""
        rows = ["| offset | length | block | what it holds |", "|---|---|---|---|"]
        for name, length, what in self.blocks:
            rows.append(f"| {self.slices[name].start} | {length} | `{name}` | {what} |")
        return "\n".join(rows)


class ObservationEncoder(ABC):
    """A game's observation tensor for a seat, from that seat's view alone. One ``layout`` for
    every player count and option of the game: seats missing in smaller games are zeros."""

    layout: Layout

    @abstractmethod
    def encode(self, view: View, seat: int, chosen: Tokens = ()) -> np.ndarray:
        """The tensor; ``chosen`` are the tokens the seat has chosen so far of an action under way."""


def relative(seat: int, other: int, players: int) -> int:
    """Where ``other`` sits counting from ``seat``: 0 is the seat itself, 1 the next one..."""
    return (other - seat) % players


def one_hot(out: np.ndarray, block: slice, index: int | None) -> None:
    """Set the ``index``-th value of ``block`` of ``out`` to 1 (nothing when ``index`` is None)."""
    if index is not None:
        out[block.start + index] = 1.0


def counts(out: np.ndarray, block: slice, indices: Iterable[int]) -> None:
    """Add 1 to ``block``'s value at each of ``indices`` (a multiset becomes counts)."""
    for i in indices:
        out[block.start + i] += 1.0
