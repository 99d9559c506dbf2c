"""What people type, as the hall takes it: names and free text, bounded and free of control
characters, and what an error message may quote back.

    clean_name("  Ana   Lee ")        # 'Ana Lee'
    name_key("Аna") == name_key("ana") # True: a Cyrillic А looks like a Latin A
    distinct_name("shark", ["shark"])  # 'shark 2'
    clip(huge_input)                   # at most ECHO_MAX characters of it, saying so

Names and texts stay plain text: clients show them as text, never as HTML.

A name is taken in Unicode's compatibility form (NFKC: ``Ａna`` and ``𝐀na`` are ``Ana``), with no
invisible character (default-ignorable code points such as U+034F or U+3164, the blank braille
pattern U+2800, format and control characters) and at least one visible letter, digit or sign.
Two names are the same when their keys are (:func:`name_key`): case ignored, accents ignored, and
compared by Unicode's confusable skeleton (UTS #39, from ICU's SpoofChecker through PyICU), so
``Аna`` (Cyrillic), ``Ána`` and ``ana`` are one name, wherever names meet: accounts, seats, the
chat's spectators.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import icu  # type: ignore[import-untyped]  # PyICU ships no types

from .errors import HallError, Refusal

NAME_MAX = 32  # characters of a player's name, wherever names enter (seats, replay files)
TEXT_MAX = 500  # characters of a free text a person writes (a chat line)
ECHO_MAX = 60  # characters of the client's input an error message may quote
REASON_MAX = 400  # characters of an error message
KEY_MAX = 128  # characters of a name's key (the accounts' unique column)
MARKS_MAX = 2  # combining marks on one letter of a name (more pile up over the names around it)
BLANK_GLYPHS = frozenset("\u2800")  # drawn as nothing, yet neither a space nor default-ignorable


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
    """Makes a player's name: NFKC, trimmed, inner runs of spaces made one, 1 to ``NAME_MAX``
    characters, nothing invisible, something visible, no pile of combining marks (see the module's doc)."""
    if not isinstance(name, str):
        raise HallError("bad_request", "a name must be text")
    cleaned = typed_text(" ".join(unicodedata.normalize("NFKC", name).split()), "a name", NAME_MAX)
    hidden = next((ch for ch in cleaned if invisible(ch)), None)
    if hidden is not None:
        raise HallError("bad_request", f"a name cannot hold invisible characters (U+{ord(hidden):04X})")
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in cleaned):
        raise HallError("bad_request", "a name needs a visible letter, digit or sign")
    marks, spelled = 0, unicodedata.normalize("NFD", cleaned)  # each accent apart from its letter
    for at, ch in enumerate(spelled):
        marks = marks + 1 if unicodedata.category(ch).startswith("M") else 0
        if marks > MARKS_MAX or (marks and at == 0):
            raise HallError("bad_request", f"a name can have at most {MARKS_MAX} accents on a letter,"
                            " and none on its own")
    if len(name_key(cleaned)) > KEY_MAX:
        raise HallError("bad_request", "this name is too long once its letters are spelled out: shorten it")
    return cleaned


def invisible(ch: str) -> bool:
    """Whether ``ch`` shows nothing (or is not a character to show): control, format, unassigned
    or private, default-ignorable (U+034F, U+3164...), a line or paragraph separator, U+2800."""
    return (unicodedata.category(ch)[0] in "CZ" and ch != " " or ch in BLANK_GLYPHS
            or bool(icu.Char.hasBinaryProperty(ch, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT)))


_SPOOF = icu.SpoofChecker()


@lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """What makes two names one (an account, a seat, a speaker): compatibility forms, case and
    accents ignored, letters that look alike (UTS #39's confusable skeleton) made one. The
    skeleton is taken twice, around case folding, so that ``0`` and ``o`` meet as ``O`` and ``o`` do.

    >>> name_key("Аna") == name_key("ANA") == name_key("Ána")
    True
    """
    folded = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(ch for ch in unicodedata.normalize("NFD", str(_SPOOF.getSkeleton(0, folded)))
                   if not unicodedata.category(ch).startswith("M"))
    return str(_SPOOF.getSkeleton(0, bare.casefold()))


def chat_text(text: Any) -> str:
    """Takes a chat line as written: trimmed, 1 to ``TEXT_MAX`` characters, no control characters."""
    if not isinstance(text, str):
        raise HallError("bad_message", "a chat line must be text")
    return typed_text(text.strip(), "a chat line", TEXT_MAX, "bad_message")


def distinct_name(name: str, taken: Iterable[str | None]) -> str:
    """Gives ``name``, or ``name 2``, ``name 3``... when another seat of the room goes by it
    already or by one that looks the same (:func:`name_key`), so that the seats and the log never
    mix two players up (three bots called ``shark``, an ``Аna`` beside an ``Ana``)."""
    names = {name_key(t) for t in taken if t}
    candidate, number = name, 1
    while name_key(candidate) in names:
        number += 1
        suffix = f" {number}"
        candidate = name[:NAME_MAX - len(suffix)] + suffix
    return candidate
