"""An external program as a bot: started in its own process group, spoken to one line at a time.

The program reads its input on standard input and answers one line on standard output; its
standard error goes to a log file. Every exchange has a deadline, and whatever the program does
(never answer, answer megabytes without a newline, stop reading its input, fork children, die)
the caller gets either a line or a :class:`BotFailure` saying which of these happened, and
:meth:`Program.close` kills the program's whole process group.

>>> with Program(["cat"]) as cat:
...     cat.exchange(b"hello\\n", timeout=5.0)
'hello'
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import selectors
import shlex
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from typing import Protocol as TypingProtocol

from ..core import Action, Bot, Game, View

MAX_LINE = 1 << 16  # a longer answer is not an action but a flood
STDERR_LIMIT = 8 << 20  # bytes of standard error a program may write to its log (RLIMIT_FSIZE)
_CHUNK = 1 << 16
START_UP = 5.0  # seconds a program may take to start before its first turn's clock runs anyway
_POLL = 0.002  # seconds between looks at whether a starting program has begun to read


class BotFailure(Exception):
    """A program failed a turn. ``kind`` is one of ``timeout``, ``crash``, ``exit``, ``unparsable``
    or ``illegal``; the message says what happened in words."""

    KINDS = ("timeout", "crash", "exit", "unparsable", "illegal")

    def __init__(self, kind: str, message: str) -> None:
        assert kind in self.KINDS, kind
        super().__init__(message)
        self.kind = kind
        self.message = message

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


def _limit_log_size() -> None:  # runs in the child between fork and exec
    import resource

    resource.setrlimit(resource.RLIMIT_FSIZE, (STDERR_LIMIT, STDERR_LIMIT))


class Program:
    """A running program. ``argv`` is its command line (a string is split as a shell would);
    its standard error is appended to ``log`` (a path), or thrown away when ``log`` is None."""

    def __init__(self, argv: str | Sequence[str], log: str | Path | None = None, cwd: str | None = None) -> None:
        self.argv = shlex.split(argv) if isinstance(argv, str) else list(argv)
        if not self.argv:
            raise ValueError("an empty command line")
        if log is not None:
            Path(log).parent.mkdir(parents=True, exist_ok=True)
        # the program keeps its own copy of the log's descriptor: this one is closed once it runs
        with open(log, "ab") if log is not None else contextlib.nullcontext(subprocess.DEVNULL) as stderr:
            try:
                self.process = subprocess.Popen(
                    self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, cwd=cwd,
                    start_new_session=True, bufsize=0,
                    preexec_fn=_limit_log_size if log is not None else None)
            except OSError as error:
                raise BotFailure("crash", f"could not start {shlex.join(self.argv)}: {error.strerror or error}"
                                 ) from None
        assert self.process.stdin is not None and self.process.stdout is not None
        self._in = self.process.stdin.fileno()
        self._out = self.process.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ)
        self._buffer = bytearray()
        self._input_open = True
        self.waited = 0.0  # seconds spent waiting for the program, over all exchanges
        self.closed = False

    def __enter__(self) -> Program:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def exchange(self, text: bytes, timeout: float, start_up: float = 0.0) -> str:
        """Write ``text`` to the program and return its next line of output (without the line
        ending), all within ``timeout`` seconds; :class:`BotFailure` otherwise.

        With ``start_up`` (a program's first turn), the ``timeout`` starts only once the program
        has begun to read ``text``, has answered or has ended, or else ``start_up`` seconds after
        ``text`` was written: the program's start-up (an interpreter's, a JIT's) is not counted.
        """
        pending = memoryview(text)
        if pending:
            if not self._input_open:
                raise self._ended("before reading its input")
            written = self._write(pending)  # a turn's input mostly fits in the pipe at once
            pending = pending[written:]
            if start_up and written:
                self._await_start(written, start_up)
        deadline = time.perf_counter() + timeout
        writing = bool(pending)
        if writing:
            self._selector.register(self._in, selectors.EVENT_WRITE)
        try:
            while True:
                if not writing:
                    end = self._buffer.find(b"\n")
                    if end >= 0:
                        line = bytes(self._buffer[:end])
                        del self._buffer[:end + 1]
                        return self._decode(line.rstrip(b"\r"))
                if len(self._buffer) > MAX_LINE and self._buffer.find(b"\n", 0, MAX_LINE + 1) < 0:
                    raise BotFailure("unparsable", f"wrote more than {MAX_LINE} bytes without a line ending")
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    raise BotFailure("timeout", f"gave no answer within {timeout * 1000:.0f} ms"
                                     + (" (it had not even read all of its input)" if writing else ""))
                began = time.perf_counter()
                events = self._selector.select(remaining)
                self.waited += time.perf_counter() - began
                for key, _ in events:
                    if key.fd == self._out:
                        chunk = os.read(self._out, _CHUNK)
                        if not chunk:
                            raise self._ended("before answering")
                        self._buffer += chunk
                    else:
                        pending = pending[self._write(pending):]
                        if not pending:
                            writing = False
                            self._selector.unregister(self._in)
        finally:
            if writing:
                self._selector.unregister(self._in)

    def _await_start(self, written: int, limit: float) -> None:
        """Wait, ``limit`` seconds at most, until the program has read some of the ``written`` bytes
        in its input pipe, or its output (or the end of it) has come."""
        end = time.perf_counter() + limit
        while time.perf_counter() < end:
            try:
                unread = struct.unpack("i", fcntl.ioctl(self._in, termios.FIONREAD, b"\0\0\0\0"))[0]
            except OSError:  # this system cannot tell what is left in a pipe: the clock runs now
                return
            if unread < written or self._selector.select(_POLL):
                return

    def _write(self, data: memoryview) -> int:
        """Write what the pipe takes now of ``data``; how many bytes that was."""
        try:
            return os.write(self._in, data[:_CHUNK])
        except BlockingIOError:
            return 0
        except BrokenPipeError:
            self._input_open = False
            raise self._ended("before reading its input") from None

    def _decode(self, line: bytes) -> str:
        try:
            return line.decode("utf-8")
        except UnicodeDecodeError:
            raise BotFailure("unparsable", f"wrote a line that is not UTF-8 text: {line[:60]!r}") from None

    def _ended(self, when: str) -> BotFailure:
        """Why the program stopped talking: it crashed (signal, non-zero exit) or exited."""
        try:
            code = self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return BotFailure("exit", f"closed its output {when} (the program is still running)")
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return BotFailure("crash", f"was killed by {name} {when}")
        if code != 0:
            return BotFailure("crash", f"exited with status {code} {when}")
        return BotFailure("exit", f"exited (status 0) {when}")

    def close(self) -> int | None:
        """Kill the program's whole process group and reap it; its exit status (None if killed)."""
        if self.closed:
            return self.process.returncode
        self.closed = True
        status = self.process.poll()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self._selector.close()
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]
        self.process.wait()
        return status


class LineProtocol(TypingProtocol):
    """How a game speaks to a program: text in per turn, one line out. A fresh one per match and
    seat; it may remember what it has told the program (the CodinGame protocol sends its
    initialisation input on the first turn only).

    ``needs_legal`` says whether :meth:`turn_input` uses the legal actions (listing them costs).
    """

    name: str
    needs_legal: bool

    def turn_input(self, view: View, seat: int, legal: list[Action] | None, first: bool) -> str:
        """Everything the program reads this turn, lines ending with a newline."""

    def parse(self, line: str, view: View, seat: int) -> Action:
        """The action a line of output names; ValueError in words if it names none."""


class ProgramBot(Bot):
    """A :class:`Program` as a :class:`Bot`: each ``choose`` is one exchange under ``time_limit``
    (``first_time_limit`` on the first turn, whose clock starts once the program has started:
    ``start_up`` seconds at most). Failures raise :class:`BotFailure`."""

    name = "program"

    def __init__(self, game: Game[Any], program: Program, protocol: LineProtocol, time_limit: float,
                 first_time_limit: float | None = None, seed: int = 0, start_up: float = START_UP) -> None:
        super().__init__(game, seed=seed, time_limit=time_limit)
        self.program = program
        self.protocol = protocol
        self.first_time_limit = time_limit if first_time_limit is None else first_time_limit
        self.start_up = start_up
        self.turns = 0

    def choose(self, view: View, seat: int, legal: list[Action] | None) -> Action:
        first = self.turns == 0
        self.turns += 1
        text = self.protocol.turn_input(view, seat, legal, first).encode()
        if first:
            line = self.program.exchange(text, self.first_time_limit, self.start_up)
        else:
            line = self.program.exchange(text, self.time_limit or 0.0)
        try:
            return self.protocol.parse(line, view, seat)
        except ValueError as error:
            shown = line if len(line) <= 80 else line[:77] + "..."
            raise BotFailure("unparsable", f"answered {shown!r}: {error}") from None

    def close(self) -> None:
        self.program.close()
