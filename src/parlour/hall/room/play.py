"""The game as a room plays it: its state, the actions committed so far, and who has been asked
to act since when, which is what decides whether an action comes in time.

    play = Play(game, players=2, options={}, seed=7)
    play.begin()
    play.check_turn(0, seq=0, then=0, seen=0, names=lambda: ["Ana", "Bo"])   # HallError unless in time
    play.advance(record, game.apply(play.state, 0, action, entries))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any

from ...core import Game, IllegalAction, LogEntry, normalise_action
from ..errors import HallError
from ..store import ActionRecord
from .history import History


class Play:
    def __init__(self, game: Game[Any], players: int, options: Mapping[str, Any], seed: int) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.seed = seed
        self.state: Any = None
        self.turn = 0  # the room's own count of actions; each audience counts the ones it saw
        self.records = History()  # kept as text, out of the collector's sight (room/history.py)
        # waiting_since[seat]: the turn since which the seat has been asked to act without acting
        self.waiting_since: list[int | None] = [None] * players

    def start_state(self) -> Any:
        return self.game.start(self.players, self.options, self.seed)

    def begin(self) -> None:
        self.state = self.start_state()
        self.turn = 0
        self._update_waiting(None)

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.state is None else self.game.to_act(self.state)

    def advance(self, record: ActionRecord, state: Any, encoded: bytes | None = None) -> None:
        """The game after ``record`` (committed), which made ``state`` (``encoded``: its action as JSON)."""
        self.state = state
        self.records.append(record, encoded)
        self.turn = record.turn + 1
        self._update_waiting(record.seat)

    def _update_waiting(self, mover: int | None) -> None:
        acting = self.game.to_act(self.state)
        for seat in range(self.players):
            if seat not in acting:
                self.waiting_since[seat] = None
            elif seat == mover or self.waiting_since[seat] is None:
                self.waiting_since[seat] = self.turn

    def check_turn(self, seat: int, seq: int, then: int | None, seen: int, names: Callable[[], list[str]]) -> None:
        """Refuses an action ``seat`` chose when it had seen ``seq`` turns, which was the room's
        turn ``then`` (None: a turn the seat has not reached; ``seen``: the turns it has seen now),
        unless it comes in time and it is the seat's turn. The seats' ``names`` are asked for only
        to say whom a refusal waits for (not on every move)."""
        try:
            self.game.check_length(self.turn)  # the game's cap on actions (an endless game costs no more)
        except IllegalAction as error:
            raise HallError("over", str(error)) from None
        since = self.waiting_since[seat]
        # Stale: the game moved on since that state in a way that concerns this seat (it acted
        # already, or it was not yet asked to act then). Of two racing clicks one applies.
        if then is None or (then < self.turn and (since is None or then < since)):
            raise HallError("stale", f"the game has moved on since turn {seq} (it is at turn {seen}):"
                            " look at the new state and choose again")
        if seat not in self.game.to_act(self.state):
            named = names()
            waiting = ", ".join(named[s] for s in sorted(self.game.to_act(self.state)))
            raise HallError("not_your_turn", f"it is not your turn: waiting for {waiting}")

    def cleaned(self, record: ActionRecord) -> ActionRecord:
        """A stored action as the game's fields have it: one stored before actions were checked
        may carry fields the game never read (padding), which are left out so that its replay
        can always be served."""
        try:
            action = normalise_action(self.game.action_fields, record.action, lenient=True)
        except IllegalAction:
            return record  # the game applied it as it is
        return record if action == record.action else replace(record, action=action)

    def steps(self) -> Iterator[tuple[Any, ActionRecord, list[LogEntry]]]:
        """The game again from its start: each state with the action that made it and its log."""
        state = self.start_state()
        for record in self.records:
            entries: list[LogEntry] = []
            state = self.game.apply(state, record.seat, record.action, entries)
            yield state, record, entries
