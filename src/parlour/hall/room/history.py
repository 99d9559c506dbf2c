"""The actions a room committed, in order, as a sequence of :class:`~parlour.hall.store.ActionRecord`.

Each is kept as one piece of JSON text, ``[turn, seat, action, by, at]``, and read back when asked
for (a replay, the audiences rebuilt, a replica's check). Text is no concern of Python's cyclic
collector, whereas a record object is tracked for as long as the room lives, and its action's dict,
even untracked, counts towards the next young pass while it lives: a move that leaves such objects
behind brings the collector's passes, which stop the whole hall, sooner and makes the older
generations' passes longer (docs/benchmarks.md, session 19).

    history = History()
    history.append(ActionRecord(0, 1, {"type": "pass"}, "player", 1800000000.0))
    history[-1].action             # {"type": "pass"}: made anew at each reading
    history[:1], len(history)      # a History, 1
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import overload

from ..store import ActionRecord
from ..wire import dumps_bytes, embedded, kept


class History(Sequence[ActionRecord]):
    __slots__ = ("_kept",)

    def __init__(self, records: Iterable[ActionRecord] = ()) -> None:
        self._kept: list[bytes] = [_packed(record) for record in records]

    def append(self, record: ActionRecord, encoded: bytes | None = None) -> None:
        """``encoded``: its action as JSON, if made already (room/acting.py: once a move)."""
        self._kept.append(_packed(record, encoded))

    def __len__(self) -> int:
        return len(self._kept)

    @overload
    def __getitem__(self, index: int) -> ActionRecord: ...

    @overload
    def __getitem__(self, index: slice) -> History: ...

    def __getitem__(self, index: int | slice) -> ActionRecord | History:
        if isinstance(index, slice):
            part = History()
            part._kept = self._kept[index]
            return part
        return _unpacked(self._kept[index])

    def __iter__(self) -> Iterator[ActionRecord]:
        return map(_unpacked, self._kept)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"History({list(self)!r})"


def _packed(record: ActionRecord, encoded: bytes | None = None) -> bytes:
    action = record.action if encoded is None else embedded(encoded)
    return kept(dumps_bytes((record.turn, record.seat, action, record.by, record.at)))


def _unpacked(data: bytes) -> ActionRecord:
    # the standard library's reader: orjson's reads a whole number past 64 bits as a float
    turn, seat, action, by, at = json.loads(data)
    return ActionRecord(turn, seat, action, by, at)
