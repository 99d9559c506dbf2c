"""JSON as the hall writes it: compact UTF-8, made by orjson (several times faster than the
standard library's encoder, which was a fifth of the server's time per move)."""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps_bytes(value: Any) -> bytes:
    """Compact JSON as UTF-8 bytes, as the hall sends it."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # what orjson refuses and json takes: integers beyond 64 bits
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def dumps(value: Any) -> str:
    """Compact JSON text, as the hall sends it."""
    return dumps_bytes(value).decode()
