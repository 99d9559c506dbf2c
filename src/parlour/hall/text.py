"""What people type, as the hall takes it: names and free text, bounded and free of control
characters, and what an error message may quote back.

    clean_name("  Ana   Lee ")        # 'Ana Lee'
    distinct_name("shark", ["shark"])  # 'shark 2'
    clip(huge_input)                   # at most ECHO_MAX characters of it, saying so

Names and texts stay plain text: clients show them as text, never as HTML.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

from .errors import HallError, Refusal

NAME_MAX = 32  # characters of a player's name, wherever names enter (seats, replay files)
TEXT_MAX = 500  # characters of a free text a person writes (a chat line)
ECHO_MAX = 60  # characters of the client's input an error message may quote
REASON_MAX = 400  # characters of an error message


def clip(text: Any, limit: int = ECHO_MAX) -> str:
    """Cuts ``text`` (or its repr, if not text) to ``limit`` characters, saying so: what an error
    message may quote of the client's input."""
    shown = text if isinstance(text, str) else repr(text)
    if len(shown) <= limit:
        return shown
    return f"{shown[:limit]}... ({len(shown)} characters)"


def reason(message: str) -> str:
    """An error message as it may be sent: at most ``REASON_MAX`` characters."""
    return message if len(message) <= REASON_MAX else message[:REASON_MAX - 3] + "..."


def text_field(value: Any, what: str, limit: int = TEXT_MAX) -> str:
    """Checks a free text a person wrote (a chat line): text, no longer than ``limit`` characters,
    no control characters but line breaks. :class:`ValueError` in words, naming ``what``."""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be text")
    if len(value) > limit:
        raise ValueError(f"{what} can have at most {limit} characters, not {len(value)}")
    if any(unicodedata.category(ch).startswith("C") and ch != "\n" for ch in value):
        raise ValueError(f"{what} cannot hold control characters")
    return value


def typed_text(text: str, what: str, limit: int, code: Refusal = "bad_request") -> str:
    """Takes ``text`` as typed if it has 1 to ``limit`` characters and no control characters;
    else raises :class:`HallError` (``code``) saying which, about ``what``."""
    if not text:
        raise HallError(code, f"{what} cannot be empty")
    try:
        return text_field(text, what, limit)
    except ValueError as problem:
        raise HallError(code, str(problem)) from None


def clean_name(name: Any) -> str:
    """Makes a player's name: trimmed, inner runs of spaces made one, 1 to ``NAME_MAX``
    characters, no control characters."""
    if not isinstance(name, str):
        raise HallError("bad_request", "a name must be text")
    return typed_text(" ".join(name.split()), "a name", NAME_MAX)


def chat_text(text: Any) -> str:
    """Takes a chat line as written: trimmed, 1 to ``TEXT_MAX`` characters, no control characters."""
    if not isinstance(text, str):
        raise HallError("bad_message", "a chat line must be text")
    return typed_text(text.strip(), "a chat line", TEXT_MAX, "bad_message")


def distinct_name(name: str, taken: Iterable[str | None]) -> str:
    """Gives ``name``, or ``name 2``, ``name 3``... when another seat of the room goes by it
    already, so that the seats and the log never mix two players up (three bots called ``shark``)."""
    names = {t.casefold() for t in taken if t}
    candidate, number = name, 1
    while candidate.casefold() in names:
        number += 1
        suffix = f" {number}"
        candidate = name[:NAME_MAX - len(suffix)] + suffix
    return candidate
