"""What each seat of a room has been shown, counted in its own turns.

Every seat, and the spectators as one, is an :class:`Audience`. An action counts as a turn for an
audience when the audience made it or when it changes what the audience sees: its view, who must
act, the result, or a log line it may read. So an action hidden from a seat (one step of another
player's secret choice while everyone chooses at once) reaches that seat as nothing at all: no
message, no gap in its numbering of the turns, no line in its log. Each audience remembers which
of the room's turns each of its own turns was, so that the room can judge a stale action.

The JSON of a state message is assembled from parts encoded once: the room's status (the same for
everyone), each audience's game part and its log lines, which are kept encoded and sent to each
connection only from where that connection's copy of the log ends.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core import LogEntry
from .wire import dumps_bytes


class Audience:
    """One seat (``seat`` None: the spectators) and what it has been shown so far."""

    __slots__ = ("seat", "turn", "room_turns", "game", "entries", "lines", "epoch", "revision")

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.turn = 0  # how many of the room's actions this audience has seen
        self.room_turns = [0]  # room_turns[k]: the room's turn when this audience's turn became k
        self.game: bytes | None = None  # {"view", "to_act", "result"} as JSON; None: to be made
        self.entries: list[tuple[int, LogEntry]] = []  # the log lines it may read, at its own turns
        self.lines: list[bytes] = []  # the same lines as JSON objects, the players' names put in
        self.epoch = 0  # goes up when the lines are written again (a seat changed its name)
        self.revision = 0  # goes up whenever its game part or its log changes

    def show(self, game: bytes | None, entries: Iterable[LogEntry], write: LineWriter, room_turn: int | None,
             actor: bool = False) -> bool:
        """Take what the audience sees after a change; ``room_turn`` is the room's new turn when
        the change was an action (``actor``: made by this seat). ``game`` None: the game part is
        to be made when asked for, and the change counts as seen. Returns whether it saw it."""
        readable = [entry for entry in entries if entry.visible_to(self.seat)]
        changed = game is None or game != self.game or bool(readable)
        seen = room_turn is not None and (actor or changed)
        if seen:
            self.turn += 1
            self.room_turns.append(room_turn)  # type: ignore[arg-type]
        if changed or seen:
            self.revision += 1
            self.game = game
            for entry in readable:
                self.entries.append((self.turn, entry))
                self.lines.append(write(self.turn, entry))
        return seen

    def room_turn(self, turn: int) -> int | None:
        """The room's turn that was this audience's ``turn``; None if it has not been reached."""
        return self.room_turns[turn] if 0 <= turn <= self.turn else None

    def rename(self, write: LineWriter) -> None:
        """Write every line again with new names (a seat changed hands)."""
        self.lines = [write(turn, entry) for turn, entry in self.entries]
        self.epoch += 1
        self.revision += 1


class LineWriter:
    """Log lines as JSON with the players' names put in; a line several audiences read at the
    same turn of theirs is written once."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self._written: dict[tuple[int, int], bytes] = {}

    def __call__(self, turn: int, entry: LogEntry) -> bytes:
        key = (turn, id(entry))  # the entries outlive the writer, so their ids stay theirs
        line = self._written.get(key)
        if line is None:
            line = self._written[key] = dumps_bytes({"turn": turn, "text": entry.render(self.names)})
        return line
