"""What every game's encoding for learning agents is made of: integer actions and fixed-shape
observations, both read from a seat's view only.

An action is one or more integers ("tokens") of a fixed range ``0 .. size - 1``. Most actions are
one token; a choice too large for one (three cards to discard at once) is a short sequence, and
the sequences are prefix-free: no action's tokens begin another's, so an agent picks token after
token and the action is done when its sequence is complete. The legal tokens at each point come
from the game's ``legal_actions``::

    codec = parlour.rl.encodings.encoding("patchwork").actions
    choices = Choices.of(codec, game.view(state, seat), game.legal_actions(state, seat))
    choices.mask(())            # the first tokens of every legal action
    choices.action((12,))       # the action whose tokens are (12,), None while incomplete
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ..core import Action, Game, View

Tokens = tuple[int, ...]


class EncodingError(ValueError):
    """An action or token that the encoding does not know, said in words."""


def action_key(action: Action) -> tuple[Any, ...]:
    """One key per action, whatever the order of its fields (lists are compared as tuples)."""
    return tuple(sorted((k, tuple(v) if type(v) is list else v) for k, v in action.items()))


def action_text(action: Action) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


class ActionCodec(ABC):
    """A game's actions as token sequences over ``range(size)``; ``names[i]`` says what token ``i``
    means, in words."""

    size: int
    names: tuple[str, ...]

    @abstractmethod
    def encode(self, view: View, action: Action) -> Tokens:
        """The tokens of ``action`` for the seat whose ``view`` this is."""

    def encode_all(self, view: View, actions: Sequence[Action]) -> list[Tokens]:
        """The tokens of each of ``actions``."""
        return [self.encode(view, action) for action in actions]

    def heads(self, view: View, actions: Sequence[Action]) -> list[int] | None:
        """The one token of each of ``actions`` when every one of them is a single token, else None
        (then :meth:`encode_all` gives their sequences). Asked at every step: a game whose actions
        are single tokens says it faster than by :meth:`encode`, one by one."""
        encoded = self.encode_all(view, actions)
        return [t[0] for t in encoded] if all(len(t) == 1 for t in encoded) else None

    def choices(self, game: Game[Any], state: Any, seat: int, view: View) -> Choices:
        """The legal actions of ``seat`` in ``state`` (``view`` is its view), by their tokens: the
        engine's listing, then :meth:`heads`. A codec may read them faster from what its engine
        knows besides, if it gets the same listing."""
        return Choices.of(self, view, game.legal_actions(state, seat))


class CatalogueCodec(ActionCodec):
    """One token per action of a fixed list: the list is the encoding."""

    # the fields a game's own :meth:`encode` rewrites before it looks an action up (players counted
    # from the seat, say): an action of one field that is none of these is looked up as it is.
    # None: that encode may rewrite any action, so :meth:`heads` asks it of each.
    rewritten: tuple[str, ...] | None = None

    def __init__(self, actions: Iterable[Action], names: Iterable[str] | None = None) -> None:
        self.actions = tuple(actions)
        self.index = {action_key(a): i for i, a in enumerate(self.actions)}
        if len(self.index) != len(self.actions):
            raise EncodingError("the catalogue lists an action twice")
        # per type whose actions all have the same one field (or none): (fields, that field, its
        # values' tokens), lists as tuples
        shapes: dict[str, set[tuple[str, ...]]] = {}
        for a in self.actions:
            shapes.setdefault(a["type"], set()).add(tuple(sorted(a)))
        self.by_field: dict[str, tuple[int, str, dict[Any, int]]] = {}  # field "": none
        for kind, keys in shapes.items():
            if len(keys) == 1 and len(fields := [k for k in next(iter(keys)) if k != "type"]) <= 1:
                field = fields[0] if fields else ""
                values = {}
                for i, a in enumerate(self.actions):
                    if a["type"] == kind:
                        value = a.get(field) if field else None
                        values[tuple(value) if type(value) is list else value] = i
                self.by_field[kind] = (1 + len(fields), field, values)
        # what heads looks up without encode
        own = type(self).encode is CatalogueCodec.encode
        rewritten = self.rewritten or ()
        self.quick = (None if not own and self.rewritten is None else
                      {kind: e for kind, e in self.by_field.items() if own or e[1] not in rewritten})
        self.size = len(self.actions)
        self.names = tuple(names) if names is not None else tuple(action_text(a) for a in self.actions)

    def token(self, action: Action) -> int:
        entry = self.by_field.get(action.get("type", ""))  # the quick way, for most actions
        if entry is not None and len(action) == entry[0]:
            value = action.get(entry[1])
            i = entry[2].get(tuple(value) if type(value) is list else value)
            if i is not None:
                return i
        try:
            return self.index[action_key(action)]
        except KeyError:
            raise EncodingError(f"the encoding has no token for {action_text(action)}") from None

    def encode(self, view: View, action: Action) -> Tokens:
        return (self.token(action),)

    def heads(self, view: View, actions: Sequence[Action]) -> list[int] | None:
        """As :meth:`encode` for each action, with :meth:`token`'s quick way written in line for those
        the game's own encode leaves as they are (see ``rewritten``)."""
        quick = self.quick
        if quick is None:
            return super().heads(view, actions)
        out = []
        for action in actions:
            entry = quick.get(action["type"])
            if entry is not None and len(action) == entry[0]:
                value = action.get(entry[1])
                i = entry[2].get(tuple(value) if type(value) is list else value)
                if i is not None:
                    out.append(i)
                    continue
            tokens = self.encode(view, action)
            if len(tokens) != 1:
                return None
            out.append(tokens[0])
        return out


class Choices:
    """The legal actions of one decision, by their tokens.

    Built at every step, so it does the least it can: when every action is one token and no two
    share it (the usual case), it keeps each token's action (``by_head``) and makes the table of
    token sequences to actions only if it is asked for. Each :meth:`mask` is a new array (an agent
    may write in it), made from the tokens: the table never reads one back.
    """

    def __init__(self, legal: Sequence[Action], size: int, heads: list[int] | None = None,
                 encoded: list[Tokens] | None = None) -> None:
        """Either ``heads`` (each action's one token) or ``encoded`` (each action's tokens)."""
        self.legal, self.size = legal, size
        if heads is None:
            assert encoded is not None
            heads = [t[0] for t in encoded]
        self.heads = heads
        self.by_head = dict(zip(heads, legal))  # each first token's action (the last one that has it)
        self.single = encoded is None and len(self.by_head) == len(heads)
        self._encoded = encoded
        self._by_tokens: dict[Tokens, Action] | None = None
        if not self.single:
            self.by_tokens  # noqa: B018  (checks that no two actions share their tokens)

    @staticmethod
    def of(codec: ActionCodec, view: View, legal: Sequence[Action]) -> Choices:
        heads = codec.heads(view, legal)
        if heads is None:
            return Choices(legal, codec.size, encoded=codec.encode_all(view, legal))
        return Choices(legal, codec.size, heads=heads)

    @property
    def by_tokens(self) -> dict[Tokens, Action]:
        if self._by_tokens is None:
            by_tokens: dict[Tokens, Action] = {}
            encoded = self._encoded if self._encoded is not None else [(h,) for h in self.heads]
            for tokens, action in zip(encoded, self.legal):
                if tokens in by_tokens:
                    raise EncodingError(f"{action_text(action)} and {action_text(by_tokens[tokens])} have the"
                                        f" same tokens {tokens}")
                by_tokens[tokens] = action
            self._by_tokens = by_tokens
        return self._by_tokens

    def mask(self, prefix: Tokens) -> np.ndarray:
        """1 for each token that continues ``prefix`` towards a legal action, else 0 (a new array)."""
        mask = np.zeros(self.size, dtype=np.int8)
        if not prefix:  # the first tokens, at every step: a few set one by one, more in one pass
            heads = self.heads
            if len(heads) <= 16:
                for h in heads:
                    mask[h] = 1
            else:
                mask[np.fromiter(heads, np.intp, len(heads))] = 1
            return mask
        k = len(prefix)
        for tokens in self.by_tokens:
            if len(tokens) > k and tokens[:k] == prefix:
                mask[tokens[k]] = 1
        return mask

    def tokens(self, prefix: Tokens) -> list[int]:
        """The tokens of :meth:`mask`, in order (NumPy finds the ones of an int8 mask slowly: as booleans)."""
        if not prefix:
            return sorted(self.by_head)
        return self.mask(prefix).view(bool).nonzero()[0].tolist()

    def allows(self, prefix: Tokens, token: int) -> bool:
        """Does ``token`` continue ``prefix`` towards a legal action?"""
        return token in self.by_head if not prefix else bool(self.mask(prefix)[token])

    def action(self, tokens: Tokens) -> Action | None:
        """The legal action these tokens complete, or None if they only begin one."""
        if self.single:
            return self.by_head.get(tokens[0]) if len(tokens) == 1 else None
        return self.by_tokens.get(tokens)


Bounds = tuple[float, float] | tuple[float, float, str]
Block = tuple[str, int, str] | tuple[str, int, str, Bounds]


class Layout:
    """A fixed-shape observation: a flat float32 vector made of named blocks ("channels").

    ``blocks`` are (name, length, what it holds), or (name, length, what it holds, bounds) for a
    block whose values go beyond [0, 1]; ``layout[name]`` is the block's slice. ``low`` and ``high``
    bound every value (what the Gymnasium and PettingZoo spaces say): a block's values are in [0, 1]
    unless it names its bounds. ``bounds`` is (low, high) for numbers the game does not bound
    (scores): :meth:`bound` clips them, the bounds wide enough that no game reaches them; or (low,
    high, "exact") where the game's own limits keep every value within them (a pack of 57 cards),
    which are not clipped. A test plays random games to check that nothing is ever clipped.
    """

    def __init__(self, blocks: Sequence[Block]) -> None:
        self.blocks = tuple((b[0], b[1], b[2]) for b in blocks)
        self.slices: dict[str, slice] = {}
        start = 0
        for name, length, _ in self.blocks:
            if name in self.slices:
                raise ValueError(f"the layout has two blocks called {name!r}")
            self.slices[name] = slice(start, start + length)
            start += length
        self.size = start
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = np.ones(self.size, dtype=np.float32)
        self.clipped: list[tuple[slice, float, float]] = []  # runs of blocks whose numbers are clipped
        for block in blocks:
            if len(block) == 4:
                bounds = block[3]
                low, high, exact = bounds[0], bounds[1], bounds[2:] == ("exact",)
                if not low < high or bounds[2:] not in ((), ("exact",)):
                    raise ValueError(f"block {block[0]!r}: bounds {bounds} are not (low, high[, 'exact']), low < high")
                where = self.slices[block[0]]
                self.low[where], self.high[where] = low, high
                if exact:
                    continue
                last = self.clipped[-1] if self.clipped else None
                if last is not None and last[0].stop == where.start and last[1:] == (low, high):
                    self.clipped[-1] = (slice(last[0].start, where.stop), low, high)  # one clip for both
                else:
                    self.clipped.append((where, low, high))
        # the places of the values bound() clips, and their bounds
        self._clip_where = np.concatenate([np.arange(w.start, w.stop) for w, _, _ in self.clipped]) if self.clipped \
            else None
        if self._clip_where is not None:
            self._clip_low, self._clip_high = self.low[self._clip_where], self.high[self._clip_where]

    def bound(self, tensor: np.ndarray) -> np.ndarray:
        """``tensor`` (changed in place) with the blocks of numbers the game does not bound clipped
        to their bounds: those values gathered at once, clipped and put back (fewer NumPy calls than
        one clip per block, whose calls cost more than their few values; and, in a step, cheaper
        than two passes over the whole tensor, whose memory the engine's work has just taken from
        the cache); nothing where nothing needs it."""
        where = self._clip_where
        if where is not None:
            values = tensor[where]
            np.minimum(values, self._clip_high, out=values)
            np.maximum(values, self._clip_low, out=values)
            tensor[where] = values
        return tensor

    def __getitem__(self, name: str) -> slice:
        return self.slices[name]

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.float32)

    def ones(self, places: Sequence[int]) -> np.ndarray:
        """A tensor with 1 at each of ``places`` and 0 elsewhere, in one pass in NumPy: an encoder
        lists the places of its ones, then sets its other values."""
        out = np.zeros(self.size, dtype=np.float32)
        out[np.fromiter(places, np.intp, len(places))] = 1.0
        return out

    def counted(self, places: Sequence[int]) -> np.ndarray:
        """As :meth:`ones`, but a place named several times holds how many times (a multiset's counts)."""
        return np.bincount(np.fromiter(places, np.intp, len(places)), minlength=self.size).astype(np.float32)

    def places(self, name: str, index: Mapping[Any, int], offset: int = 0) -> dict[Any, int]:
        """Where each key of ``index`` goes in block ``name``: ``{key: place}``, the block's start plus
        ``offset`` (a player's part of the block, say) plus the key's index. Made once, so that an
        encoder looks a place up instead of working it out."""
        start = self.slices[name].start + offset
        return {key: start + i for key, i in index.items()}

    def table(self) -> str:
        """The layout as a Markdown table, for docs/rl.md."""
        rows = ["| offset | length | block | bounds | what it holds |", "|---|---|---|---|---|"]
        for name, length, what in self.blocks:
            where = self.slices[name]
            bounds = f"{self.low[where.start]:g} to {self.high[where.start]:g}"
            rows.append(f"| {where.start} | {length} | `{name}` | {bounds} | {what} |")
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
