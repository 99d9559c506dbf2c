"""The referee: one match between bots, built-in ones in this process and programs as
subprocesses, under the game's time limits; the record of what happened.

A program speaks its game's own protocol when the game's package has one (Patchwork: the
CodinGame protocol of its rules document, in ``parlour.games.patchwork.protocol``), else the
generic JSON protocol; ``json:`` before its command line forces JSON, and ``cg-live:`` CodinGame's
current Patchwork protocol (``arena/cg_live.py``, with that referee's time limits). A bot that times out,
crashes, exits, prints something unparsable or makes an illegal move loses the match on the spot,
and every program's process group is killed when the match ends, whatever it did.
"""

from __future__ import annotations

import re
import shlex
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import Action, Bot, Game, IllegalAction, ParlourError, Result, TooLong, derive, replays

BUILTIN = "builtin:"
JSON = "json:"
CG_LIVE = "cg-live:"  # CodinGame's current Patchwork protocol (arena/cg_live.py)


class BadEntrant(ParlourError):
    """A --bot that does not say NAME=COMMAND, or names a bot that does not exist."""


@dataclass(frozen=True)
class Entrant:
    """A bot in a tournament: its name in the tables and what runs it.

    ``command`` is ``builtin:NAME`` (a built-in bot, in-process), ``json:COMMAND LINE`` (a program
    speaking the generic JSON protocol), ``cg-live:COMMAND LINE`` (a Patchwork program speaking
    CodinGame's current protocol) or a command line (a program speaking the game's own
    protocol, JSON if the game has none).
    """

    name: str
    command: str

    @staticmethod
    def parse(text: str) -> Entrant:
        name, sep, command = text.partition("=")
        name, command = name.strip(), command.strip()
        if not sep or not name or not command:
            raise BadEntrant(f"--bot takes NAME=COMMAND, e.g. mine='python3 bot.py' or g=builtin:greedy, not {text!r}")
        if command.startswith(BUILTIN) and not command[len(BUILTIN):].strip():
            raise BadEntrant(f"{text!r}: builtin: needs a bot's name, e.g. builtin:greedy")
        for prefix in (JSON, CG_LIVE):
            if command.startswith(prefix) and not command[len(prefix):].strip():
                raise BadEntrant(f"{text!r}: {prefix} needs a command line, e.g. {prefix}'java -cp bots Player'")
        return Entrant(name, command)

    @property
    def builtin(self) -> str | None:
        return self.command[len(BUILTIN):].strip() if self.command.startswith(BUILTIN) else None


@dataclass(frozen=True)
class MatchTask:
    """Everything needed to play one match, picklable for a worker process."""

    number: int
    game: str
    entrants: tuple[Entrant, ...]  # by seat
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    time_scale: float = 1.0
    logs: str | None = None  # a folder for the programs' standard error
    bot_seed: int = 0


@dataclass
class MatchRecord:
    """What happened in a match: the replay, and what the tables need."""

    number: int
    names: tuple[str, ...]  # by seat
    replay: dict[str, Any]
    ended: str  # "normal", or "<kind>: <who> <what happened>"
    forfeit: int | None  # the seat that lost by failing, if one did
    moves: int
    think: list[list[float]]  # by seat: seconds per move
    overhead: float  # seconds the referee spent on everything but waiting for bots
    overhead_cpu: float = 0.0  # the referee's own CPU seconds in that time (steadier on a busy machine)
    late: list[int] = field(default_factory=list)  # by seat: turns over the limit (in-process bots are not cut off)

    @property
    def result(self) -> dict[str, Any]:
        return self.replay["result"]


def time_limits(game: Game[Any], scale: float) -> tuple[float, float]:
    """(first turn, later turns) in seconds: the game's own limits times ``scale``."""
    limits = game.time_limits_ms
    return limits["first_turn"] * scale / 1000, limits["turn"] * scale / 1000


def native_protocol(game: Game[Any]) -> Any | None:
    """The module of the game's own protocol for programs, if it has one (its registry entry says)."""
    from ..games import entries

    found = entries().get(game.id)
    return found.protocol_module() if found is not None else None


def check_entrant(game: Game[Any], entrant: Entrant) -> None:
    """Refuse, in words, a built-in bot that does not exist for ``game`` (before anything runs)."""
    from .. import bots

    if entrant.builtin is not None:
        bots.create(game, entrant.builtin)
    if entrant.command.startswith(CG_LIVE) and game.id != "patchwork":
        raise BadEntrant(f"{entrant.name}: cg-live: is CodinGame's Patchwork protocol, and this game is {game.name}")


def program_argv(command: str) -> list[str]:
    """The command line of a program, a leading bare ``python`` or ``python3`` being the interpreter
    that runs the referee: ``python -m parlour.arena.serve ...`` then finds Parlour, venv or not."""
    argv = shlex.split(command)
    if argv and argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    return argv


def line_protocol(game: Game[Any], command: str, opening: dict[str, Any], seat: int) -> tuple[str, Any]:
    """A program's command line without its protocol's prefix, and a fresh protocol for it: ``json:``
    the generic JSON one, ``cg-live:`` CodinGame's live Patchwork one, else the game's own (JSON if it
    has none)."""
    from ..bots.json_protocol import JsonProtocol

    if command.startswith(JSON):
        return command[len(JSON):].strip(), JsonProtocol(game.id)
    if command.startswith(CG_LIVE):
        from .cg_live import make_protocol

        return command[len(CG_LIVE):].strip(), make_protocol(opening, seat)
    module = native_protocol(game)
    return command, module.make_protocol(opening, seat) if module else JsonProtocol(game.id)


def _log_path(logs: str, number: int, seat: int, name: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:40] or "bot"
    return Path(logs) / f"match-{number:04d}-seat{seat + 1}-{safe}.log"


class _Seat:
    """A seated bot: a built-in one, or a program behind its protocol."""

    def __init__(self, game: Game[Any], task: MatchTask, seat: int, opening: dict[str, Any]) -> None:
        from .. import bots
        from ..bots.program import START_UP, Program, ProgramBot

        entrant = task.entrants[seat]
        self.name = entrant.name
        self.bot: Bot
        self.program: Program | None = None
        self.log: Path | None = None
        self.protocol: Any = None
        self.first_limit, self.limit = time_limits(game, task.time_scale)
        self.turns = 0
        self.thought: list[float] = []  # seconds per turn
        self.thought_cpu = 0.0  # CPU seconds of this process spent in an in-process bot
        self.cut_off = False  # the program's last turn ran out of time
        if entrant.builtin is not None:
            self.bot = bots.create(game, entrant.builtin, seed=derive(task.bot_seed, "arena bot", task.number, seat)
                                   .getrandbits(32), time_limit=self.limit)
            self.needs_legal = True
            return
        command, protocol = line_protocol(game, entrant.command, opening, seat)
        limits = getattr(protocol, "time_limits_ms", None)  # a protocol of another arena brings its own
        if limits is not None:
            self.first_limit, self.limit = (limits["first_turn"] * task.time_scale / 1000,
                                            limits["turn"] * task.time_scale / 1000)
        log = _log_path(task.logs, task.number, seat, entrant.name) if task.logs else None
        self.log, self.protocol = log, protocol
        self.program = Program(program_argv(command), log=log)
        self.bot = ProgramBot(game, self.program, protocol, self.limit, self.first_limit,
                              start_up=START_UP * task.time_scale)
        self.needs_legal = protocol.needs_legal

    def choose(self, view: dict[str, Any], seat: int, legal: list[Action] | None) -> Action:
        """The bot's action; the seconds it thought (or failed) are added to ``thought``."""
        from ..bots.program import BotFailure, ProgramBot

        if self.program is not None:
            assert isinstance(self.bot, ProgramBot)  # a program's seat: its protocol may need no legal actions
            waited = self.program.waited
            try:
                return self.bot.choose(view, seat, legal)
            except BotFailure as failure:
                # A turn cut off at its deadline was late, whatever the clocks measured around the wait.
                self.cut_off = failure.kind == "timeout"
                raise
            finally:
                self.thought.append(self.program.waited - waited)

        self.bot.time_limit = self.first_limit if self.turns == 0 else self.limit
        self.turns += 1
        began, began_cpu = time.perf_counter(), time.process_time()
        try:
            assert legal is not None  # an in-process bot is always told them (needs_legal)
            return self.bot.choose(view, seat, legal)
        except Exception as error:  # a built-in bot's bug loses its match, not the tournament
            raise BotFailure("crash", f"raised {type(error).__name__}: {error}") from None
        finally:
            self.thought.append(time.perf_counter() - began)
            self.thought_cpu += time.process_time() - began_cpu

    def late_turns(self) -> int:
        """How many turns went over their limit (a turn cut off at its deadline always counts)."""
        late = [seconds > (self.first_limit if turn == 0 else self.limit) for turn, seconds in enumerate(self.thought)]
        if self.cut_off and late:
            late[-1] = True
        return sum(late)

    def close(self) -> None:
        if self.program is not None:
            self.program.close()
            # what the live CodinGame referee would have corrected (cg-live:), after the program's own lines
            corrections = getattr(self.protocol, "corrections", None)
            if corrections and self.log is not None:
                with open(self.log, "a", encoding="utf-8") as log:
                    log.writelines(f"parlour referee: {line}\n" for line in corrections)


def forfeit_result(players: int, seat: int, reason: str) -> Result:
    """The failing seat ranks last, everyone else first; scores are 1 (did not fail) or 0."""
    return Result(tuple(0.0 if s == seat else 1.0 for s in range(players)),
                  tuple(players if s == seat else 1 for s in range(players)), reason, {"forfeit": seat})


def play_match(task: MatchTask) -> MatchRecord:
    """Play one match to its end or to a bot's failure; never raises for a bot's misdeeds."""
    from ..bots.program import BotFailure
    from ..games import get

    game = get(task.game)
    players = len(task.entrants)
    names = tuple(e.name for e in task.entrants)
    state = game.start(players, task.options, task.seed)
    actions: list[list[Any]] = []
    think: list[list[float]] = [[] for _ in range(players)]
    seats: list[_Seat] = []
    ended, forfeit = "normal", None
    overhead = overhead_cpu = 0.0
    try:
        for seat in range(players):
            try:
                seats.append(_Seat(game, task, seat, game.view(state, seat)))
            except BotFailure as failure:
                ended, forfeit = f"{failure.kind}: {names[seat]} (seat {seat + 1}) {failure.message}", seat
                break
        began, began_cpu = time.perf_counter(), time.process_time()
        while forfeit is None and not game.is_over(state):
            try:
                game.check_length(len(actions))  # its cap on actions: a longer match is a bug in the game
            except TooLong as error:
                raise RuntimeError(f"{game.id} match {task.number} did not end: {error}") from None
            seat = min(game.to_act(state))
            view = game.view(state, seat)
            legal = game.legal_actions(state, seat) if seats[seat].needs_legal else None
            try:
                action = seats[seat].choose(view, seat, legal)
                try:
                    state = game.apply(state, seat, action)
                except IllegalAction as error:
                    raise BotFailure("illegal", f"{_show(action)} is not allowed: {error}") from None
            except BotFailure as failure:
                ended = f"{failure.kind}: {names[seat]} (seat {seat + 1}) {failure.message} on move {len(actions) + 1}"
                forfeit = seat
                break
            actions.append([seat, action])
        think = [s.thought for s in seats] + [[] for _ in range(players - len(seats))]
        overhead = time.perf_counter() - began - sum(map(sum, think))
        overhead_cpu = time.process_time() - began_cpu - sum(s.thought_cpu for s in seats)
    finally:
        for s in seats:
            s.close()
    result = forfeit_result(players, forfeit, ended) if forfeit is not None else game.result(state)
    replay = replays.record(game, players, game.resolve_options(task.options), task.seed, names, actions, result,
                            ended)
    late = [s.late_turns() for s in seats] + [0] * (players - len(seats))
    return MatchRecord(task.number, names, replay, ended, forfeit, len(actions), think, overhead, overhead_cpu,
                       late)


def _show(action: Any) -> str:
    import json

    try:
        text = json.dumps(action)
    except (TypeError, ValueError):
        text = repr(action)
    return text if len(text) <= 100 else text[:97] + "..."
