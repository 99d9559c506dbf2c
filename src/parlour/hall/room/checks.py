"""What a command must be before it goes to the process that applies its room: checked where it
was asked, in words, and put in its final form (names cleaned, a chat line's author named)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core import Game
from ..errors import HallError
from ..text import chat_text, clean_name, name_key
from .bots import BotPool
from .commands import Command, GiveToBot, Join, Say
from .seats import SeatBook


def prepared(command: Command, seats: SeatBook, bots: BotPool, game: Game[Any], leading: bool) -> Command:
    """``command`` checked against the room's ``seats`` and ``game``; :class:`HallError` in words.
    ``leading``: this process applies the room."""
    if isinstance(command, Join):
        name = clean_name(command.account.name if command.account is not None else command.name)
        return replace(command, name=name)
    if isinstance(command, GiveToBot):
        seats.check_seat(command.seat)
        bots.check(game, command.bot)
        if not leading:  # the player may be connected here rather than at the owner
            seats.check_abandoned(command.seat)
        return replace(command, name=clean_name(command.name) if command.name is not None else None)
    if isinstance(command, Say) and command.kind != "system":
        text = chat_text(command.text)
        if command.seat is not None:
            return replace(command, kind="player", text=text, name=seats.names()[command.seat])
        return replace(command, kind="spectator", text=text, name=speaker(command.name, seats))
    return command


# Names a spectator may not chat as: the hall's own voices (besides every seat's player)
NOT_SPEAKERS = ("system", "the hall", "hall", "parlour", "host", "the host", "moderator", "admin")


def speaker(name: str | None, seats: SeatBook) -> str:
    """The name a spectator chats as: "a spectator" unless they give one, which must not be (or
    look like, hall/text.py's name_key) a seat's player's or one of the hall's own voices."""
    if not name:
        return "a spectator"
    cleaned = clean_name(name)
    key = name_key(cleaned)
    taken = [n for n in seats.names() if n]
    if any(key == name_key(other) for other in taken):
        raise HallError("bad_request", f"{cleaned!r} is (or looks like) the name of a player at this table:"
                        " spectators chat under a name of their own")
    if any(key == name_key(voice) for voice in NOT_SPEAKERS):
        raise HallError("bad_request", f"{cleaned!r} is one of the hall's own voices: chat under a name of your own")
    return cleaned
