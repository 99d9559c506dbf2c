"""JSON as the hall writes and reads it.

Out: compact UTF-8, made by orjson (several times faster than the standard library's encoder,
which was a fifth of the server's time per move). In: :func:`read_json`, which refuses in words
what the hall does not take (not JSON, bad text, nesting deeper than ``MAX_DEPTH``)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import orjson

from .text import clip

MAX_DEPTH = 32  # nesting of JSON objects and arrays, REST and WebSocket alike


def dumps_bytes(value: Any) -> bytes:
    """Compact JSON as UTF-8 bytes, as the hall sends it (keys that are not text become text)."""
    try:
        return orjson.dumps(value)  # more than twice as fast as with OPT_NON_STR_KEYS, which few values need
    except TypeError:
        pass
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # what orjson refuses and json takes: integers beyond 64 bits
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def embedded(data: bytes) -> Any:
    """JSON already made by :func:`dumps_bytes`, put into a value that :func:`dumps_bytes` encodes
    next as it is, not encoded again (an action: its record, the store's row and the change told
    to the other processes of a cluster all hold the one encoding)."""
    return orjson.Fragment(data)


def loads(data: bytes | str) -> Any:
    """JSON the hall wrote itself (another process of a cluster, say), read back."""
    return orjson.loads(data)


def dumps(value: Any) -> str:
    """Compact JSON text, as the hall sends it."""
    return dumps_bytes(value).decode()


class BadJson(ValueError):
    """JSON the hall does not take, with the reason in words."""


def read_json(data: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``data`` parsed, or :class:`BadJson`: not JSON, text that is not valid Unicode (a lone
    surrogate), numbers beyond a double, or objects and arrays nested deeper than ``max_depth``."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as problem:
        words = str(problem)
        if "depth" in words:
            raise BadJson(f"JSON nested deeper than {max_depth} levels is refused") from None
        raise BadJson(f"this is not JSON the hall reads ({clip(words, 120)})") from None
    if brackets(data) > max_depth and depth(value) > max_depth:  # fewer brackets cannot nest deeper
        raise BadJson(f"JSON nested deeper than {max_depth} levels is refused")
    return value


def brackets(data: str | bytes) -> int:
    """How many ``[`` and ``{`` ``data`` holds (in strings too): the deepest it can nest."""
    if isinstance(data, str):
        return data.count("[") + data.count("{")
    return data.count(b"[") + data.count(b"{")


def depth(value: Any) -> int:
    """How deeply objects and arrays nest in ``value`` (a scalar is 0, ``[]`` is 1)."""
    deepest, level = 0, [(value, 1)]
    while level:
        item, at = level.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, at)
        level.extend((child, at + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


def kept(data: bytes) -> bytes:
    """``data`` (JSON from :func:`dumps_bytes`) copied to a buffer of its own size, for what is kept
    (a room's log lines, the parts of its state messages): orjson returns bytes in a buffer of at
    least 4 KiB (a 1.4 KiB view: 8 KiB), which they would otherwise hold for as long as they live."""
    return bytes(memoryview(data))
