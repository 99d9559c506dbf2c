"""What each seat of a room has been shown, counted in its own turns.

Every seat, and the spectators as one, is an :class:`Audience`. An action counts as a turn for an
audience when the audience made it or when it changes what the audience sees: its view, who must
act, the result, or a log line it may read. So an action hidden from a seat (one step of another
player's secret choice while everyone chooses at once) reaches that seat as nothing at all: no
message, no gap in its numbering of the turns, no line in its log. Each audience remembers which
of the room's turns each of its own turns was, so that the room can judge a stale action.

The JSON of a state message is assembled from parts encoded once: the room's status (the same for
everyone), each audience's game part and its log lines, which are kept encoded and sent to each
connection only from where that connection's copy of the log ends (:class:`Audiences`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ...core import Game, LogEntry, Result
from ..wire import dumps_bytes, embedded, kept

LOG_SENT = 200  # the most log lines one state message carries: a connection lacking more gets the newest
LOG_KEPT = 1000  # the newest log lines an audience keeps (at least LOG_SENT); the older ones are let go


class Audience:
    """One seat (``seat`` None: the spectators) and what it has been shown so far."""

    __slots__ = ("seat", "turn", "room_turns", "game", "texts", "line_turns", "lines", "dropped", "epoch", "revision")

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.turn = 0  # how many of the room's actions this audience has seen
        self.room_turns = [0]  # room_turns[k]: the room's turn when this audience's turn became k
        self.game: bytes | None = None  # {"view", "to_act", "result"} as JSON; None: to be made
        # The log lines it may read: each line's text as the game wrote it ({p0}: a seat) and the
        # audience's turn it came at, then as JSON with the players' names put in. Kept as text and
        # numbers only, which Python's collector never tracks (a move would otherwise leave objects
        # for it to go through as long as the room lives: docs/benchmarks.md, session 19).
        self.texts: list[str] = []
        self.line_turns: list[int] = []
        self.lines: list[bytes] = []
        self.dropped = 0  # the oldest lines let go (LOG_KEPT): line k of the log is lines[k - dropped]
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
                self.texts.append(entry.text)
                self.line_turns.append(self.turn)
                self.lines.append(write(self.turn, entry))
            if len(self.lines) >= 2 * LOG_KEPT:  # let the oldest go, now and then
                cut = len(self.lines) - LOG_KEPT
                del self.texts[:cut], self.line_turns[:cut], self.lines[:cut]
                self.dropped += cut
        return seen

    @property
    def count(self) -> int:
        """How many lines the log has had (the oldest may have been let go)."""
        return self.dropped + len(self.lines)

    def since(self, start: int) -> list[bytes]:
        """The lines kept from line ``start`` of the log on."""
        return self.lines[max(0, start - self.dropped):]

    def room_turn(self, turn: int) -> int | None:
        """The room's turn that was this audience's ``turn``; None if it has not been reached."""
        return self.room_turns[turn] if 0 <= turn <= self.turn else None

    def rename(self, write: LineWriter) -> None:
        """Write every line again with new names (a seat changed hands)."""
        self.lines = [write(turn, LogEntry(text)) for turn, text in zip(self.line_turns, self.texts, strict=True)]
        self.epoch += 1
        self.revision += 1


class LineWriter:
    """Log lines as JSON with the players' names put in; a line several audiences read at the
    same turn of theirs is written once. Each is a right-sized copy: the audiences keep it as long
    as the room (:func:`~parlour.hall.wire.kept`)."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self._written: dict[tuple[int, str], bytes] = {}

    def __call__(self, turn: int, entry: LogEntry) -> bytes:
        key = (turn, entry.text)  # the same words at the same turn make the same line
        line = self._written.get(key)
        if line is None:
            line = self._written[key] = kept(dumps_bytes({"turn": turn, "text": entry.render(self.names)}))
        return line


# A step of the game as the audiences are shown it: (state, log entries, who acted, the room's turn).
Step = tuple[Any, list[LogEntry], int, int]


class Audiences:
    """Every audience of a room (its seats and the spectators) and the state messages made for
    them, each made once per change for all alike connections.

    ``names()`` gives the seats' names, ``status()`` the room's status as shown (without
    ``turn``, which each audience counts), ``deadline()`` the turn timer's deadline."""

    def __init__(self, game: Game[Any], players: int, names: Callable[[], list[str]],
                 status: Callable[[], dict[str, Any]], deadline: Callable[[], float | None],
                 ended: Callable[[], Result | None] = lambda: None) -> None:
        """``ended()``: the result of a game ended before its rules ended it (room/leaving.py)."""
        self.game = game
        self._ended = ended
        self.players = players
        self._names_of = names
        self._status = status
        self._deadline = deadline
        self._audiences: dict[int | None, Audience] | None = None  # built when first needed
        self._forgotten: dict[int | None, tuple[int, int]] = {}  # epochs and revisions of audiences let go
        self._names: list[str] = []
        self._shared: tuple[bytes, float | None] | None = None  # the status and deadline as shown
        self.shared_revision = 0  # goes up when the status or the deadline changes
        self._texts: dict[tuple[int | None, bool, int, int], str] = {}  # state messages, until the next change

    @property
    def built(self) -> bool:
        return self._audiences is not None

    def __getitem__(self, seat: int | None) -> Audience:
        assert self._audiences is not None, "the audiences are built first (track)"
        return self._audiences[seat]

    def track(self, start: Any, steps: Iterable[Step]) -> None:
        """Builds every audience from the game's ``start`` state (None: not started) and its steps."""
        self._audiences = {seat: Audience(seat) for seat in (*range(self.players), None)}
        self.show(start)
        for state, entries, actor, room_turn in steps:
            self.show(state, entries, actor, room_turn)
        for seat, (epoch, revision) in self._forgotten.items():  # a connection must take each log anew
            self._audiences[seat].epoch = epoch + 1
            self._audiences[seat].revision = max(revision, self._audiences[seat].revision) + 1
        self._forgotten = {}

    def forget(self) -> None:
        """Every audience is built again when next needed (a move was taken back: room/takeback.py),
        and each connection is then sent its seat's whole state and log anew."""
        if self._audiences is not None:
            self._forgotten = {seat: (a.epoch, a.revision) for seat, a in self._audiences.items()}
        self._audiences = None

    def show(self, state: Any, entries: list[LogEntry] | None = None, actor: int | None = None,
             room_turn: int | None = None) -> bool:
        """Shows every audience ``state`` and the new log ``entries``; ``room_turn`` when an action
        by ``actor`` made it. Returns whether every audience saw that action.

        In a game without hidden information every audience sees every action, so what each one
        sees is worked out only when a connection asks for it (:meth:`game_part`); otherwise it is
        worked out now, to find who saw the action."""
        assert self._audiences is not None
        names = self._names_of()
        write = LineWriter(names)
        if names != self._names:  # a seat changed hands: every line is written again
            self._names = names
            for audience in self._audiences.values():
                audience.rename(write)
        hidden = self.game.hidden_information
        common = self._common(state) if hidden else None
        seen_by_all = True
        for audience in self._audiences.values():
            game = self.game_part(state, audience.seat, common) if hidden else None
            mine = actor is not None and actor == audience.seat
            seen_by_all = audience.show(game, entries or (), write, room_turn, mine) and seen_by_all
        return seen_by_all

    def _common(self, state: Any) -> tuple[list[int], dict[str, Any] | None]:
        """Who must act and the result: the same for every audience."""
        if state is None:
            return [], None
        outcome = self.game.result(state)
        early = self._ended() if outcome is None else None  # ended before its rules ended it: nobody acts
        to_act = [] if early is not None else sorted(self.game.to_act(state))
        outcome = outcome or early
        return to_act, (outcome.to_json(self._names_of()) if outcome is not None else None)

    def game_part(self, state: Any, seat: int | None,
                  common: tuple[list[int], dict[str, Any] | None] | None = None) -> bytes:
        """What ``seat`` sees of the game in ``state``: its view, who must act, the result."""
        to_act, result = common or self._common(state)
        if state is None:
            view = None
        elif self.game.same_view_but_seat:  # made and encoded once for all seats
            view = embedded(_LAST_VIEW.encoded(self.game, state, seat))
        else:
            view = self.game.view(state, seat)
        return kept(dumps_bytes({"view": view, "to_act": to_act, "result": result}))  # kept until the next change

    def state_text(self, seat: int | None, state: Any, moves: Callable[[], bytes], legal: bool = True,
                   log_start: int = 0, skipped: int = 0) -> str:
        """The ``state`` message for ``seat`` (None: a spectator), holding only what it may see,
        with its log lines from ``log_start`` on; ``moves()`` gives the seat's legal actions.
        ``skipped``: the lines the connection never got (its log starts there), so its
        ``log_start`` is counted from there."""
        key = (seat, legal, log_start, skipped)
        text = self._texts.get(key)
        if text is None:
            audience = self[seat]
            if audience.game is None:
                audience.game = self.game_part(state, seat)
            status, deadline = self.shared_parts()
            text = self._texts[key] = (
                b'{"type":"state","turn":%d,"room":%s,"deadline":%s,"legal":%s,"log_start":%d,"log":[%s],%s'
                % (audience.turn, status, dumps_bytes(deadline), moves() if legal else b"null", log_start - skipped,
                   b",".join(audience.since(log_start)), audience.game[1:])).decode()
        return text

    def shared_parts(self) -> tuple[bytes, float | None]:
        """The status (without turn, which each audience counts) and the deadline, as shown."""
        if self._shared is None:
            self.refresh_shared()
        assert self._shared is not None
        return self._shared

    def refresh_shared(self, status: bool = True) -> None:
        """Takes the status (``status`` False: it cannot have changed) and the deadline anew; the
        state messages made so far are dropped."""
        if not status and self._shared is not None:
            shared = (self._shared[0], self._deadline())
        else:
            shared = (kept(dumps_bytes(self._status())), self._deadline())
        if shared != self._shared:
            self._shared = shared
            self.shared_revision += 1
        self._texts.clear()


class LastView:
    """The spectators' view last made of a game whose seats' views are it with their own "seat"
    (:attr:`~parlour.core.Game.same_view_but_seat`), encoded, with its state. A room's seats ask
    for theirs one after the other (their connections send in turn, in one pass of the event
    loop), so the view is made and encoded once for all of them: each seat's JSON is the same
    bytes with its own ``"seat"`` put in (for Patchwork in a room of two, half the views and
    their JSON). One for the whole hall, let go at the next one, and only bytes: nothing of it
    lives on per room, nor for the collector to go through."""

    __slots__ = ("state", "opening", "closing")

    def __init__(self) -> None:
        self.state: Any = None
        self.opening = self.closing = b""  # the view's JSON before the seat's value, and after it

    def encoded(self, game: Game[Any], state: Any, seat: int | None) -> bytes:
        """The JSON of ``game.view(state, seat)``, byte for byte."""
        if self.state is not state:
            view = game.view(state, None)
            keys = list(view)
            at = keys.index("seat") if "seat" in view else len(keys)  # {**view, "seat": seat}: its place
            before = dumps_bytes({key: view[key] for key in keys[:at]})
            after = dumps_bytes({key: view[key] for key in keys[at + 1:]})
            self.opening = before[:-1] + (b',"seat":' if at else b'"seat":')
            self.closing = b"," + after[1:] if at + 1 < len(keys) else b"}"
            self.state = state
        return self.opening + (b"null" if seat is None else b"%d" % seat) + self.closing


_LAST_VIEW = LastView()
