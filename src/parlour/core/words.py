"""A log line told to one of its players: the games write their logs in the third person
("{p0} pays 2 coins and ends their turn"); the terminal, which plays one seat, speaks to that seat
("You pay 2 coins and end your turn")::

    addressed("{p0} pays 2 coins to {p1}", 0, ["Ana", "Ben"])  # "You pay 2 coins to Ben"
    addressed("{p1} pays 2 coins to {p0}", 0, ["Ana", "Ben"])  # "Ben pays 2 coins to you"
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_SEAT = re.compile(r"\{p(\d+)\}")
_IRREGULAR = {"is": "are", "has": "have", "was": "were", "does": "do", "goes": "go"}


def plain_verb(word: str) -> str:
    """The form of a third-person present verb that goes with "you": pays -> pay, is -> are,
    guesses -> guess, carries -> carry. Any other word (took, may, played) is left as it is."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if not re.fullmatch(r"[a-z]+s", word) or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    return word[:-1]


def addressed(text: str, seat: int, names: Sequence[str]) -> str:
    """``text`` with the other seats' names put in and ``seat`` spoken to as "you"."""
    me = f"{{p{seat}}}"

    def mine(at: int) -> bool:
        """Whether a word at ``at`` still belongs to my clause: the line opens with my name and
        nobody else is named before it ("{p0} is eliminated and discards their hand")."""
        return text.startswith(me) and not _SEAT.search(text[:at].replace(me, ""))

    # my verb: the lower-case word straight after my name ("{p0} pays" -> "you pay")
    out = re.sub(re.escape(me) + r" ([a-z]+)\b", lambda m: f"{me} {plain_verb(m.group(1))}", text)
    text = out
    out = re.sub(r"\btheir\b", lambda m: "your" if mine(m.start()) else m.group(0), text)
    text = out
    out = re.sub(r"\b(and|then) ([a-z]+)(?= )",
                 lambda m: f"{m.group(1)} {plain_verb(m.group(2))}" if mine(m.start()) else m.group(0), text)
    out = re.sub(re.escape(me) + "'s", "your", out)
    out = out.replace(me, "you")
    out = re.sub(r"(^|[.!?] )(you)", lambda m: m.group(1) + m.group(2).capitalize(), out)

    def name(match: re.Match[str]) -> str:
        other = int(match.group(1))
        return names[other] if other < len(names) else match.group(0)

    return _SEAT.sub(name, out)


def number(value: float) -> str:
    """A score as people write it: 1.0 -> "1", 2.5 -> "2.5"."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def counted(n: int, noun: str) -> str:
    """A number of things in words: counted(1, "space") -> "1 space", counted(3, "button") -> "3 buttons"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
