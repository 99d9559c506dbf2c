"""A built-in bot as a program speaking the generic JSON protocol, so that the referee can hold it
to the time limits like any other program::

    parlour arena patchwork --bot greedy=builtin:greedy \\
        --bot mcts='json:python -m parlour.arena.serve patchwork mcts --turn-ms 50'

``--first-ms`` and ``--turn-ms`` tell the bot the limits it is given (default: the game's own);
the time spent reading each message is taken off its budget, and so is, on Linux, the time the
program waited for a CPU after its input came (the referee's clock ran meanwhile). On a busy
machine, where the program has lately spent a share ``f`` of its turns waiting for a CPU, the bot
is told ``(1 - f)**2`` of that: a program that computes for long is the one the scheduler stalls
for tens of milliseconds, and a turn over the limit loses the game. (Its start-up, before it first
reads, is not counted by the referee: docs/bots.md.)
"""

from __future__ import annotations

import argparse
import json
import sys
import time

SHARE = 0.75  # of what is left of a turn's limit, the share the bot is told it has (margin for the pipes)
SCHEDSTAT = "/proc/self/schedstat"
RECENT = 0.3  # the weight of the last turn in the running share of turns spent waiting for a CPU


def waited_for_cpu() -> float:
    """Seconds this process has spent ready to run but waiting for a CPU (Linux's schedstat: its
    second field, in nanoseconds); 0.0 where the system does not say."""
    try:
        with open(SCHEDSTAT) as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def told(limit: float, late: float, reading: float, stalled: float) -> float:
    """Seconds the bot is told it has for a turn of ``limit`` seconds: ``SHARE`` of what is left once
    the program's wait for a CPU after its input came (``late``) and its reading of the input are
    taken off, times ``(1 - stalled)**2`` where ``stalled`` is the share of its recent turns it spent
    waiting for a CPU; a millisecond at least.

    >>> round(told(0.05, late=0.01, reading=0.0, stalled=0.0), 4), round(told(0.05, 0.0, 0.0, 0.5), 4)
    (0.03, 0.0094)
    """
    return max(0.001, SHARE * (limit - late - reading) * (1 - stalled) ** 2)


def main(argv: list[str] | None = None) -> int:
    from .. import bots
    from ..games import get
    from .match import time_limits

    parser = argparse.ArgumentParser(prog="python -m parlour.arena.serve",
                                     description="Serve a built-in bot over the generic JSON protocol.")
    parser.add_argument("game")
    parser.add_argument("bot")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first-ms", type=float, default=None)
    parser.add_argument("--turn-ms", type=float, default=None)
    args = parser.parse_args(argv)
    game = get(args.game)
    first, later = time_limits(game, 1.0)
    first = first if args.first_ms is None else args.first_ms / 1000
    later = later if args.turn_ms is None else args.turn_ms / 1000
    bot = bots.create(game, args.bot, seed=args.seed, time_limit=later)
    answered = waited_for_cpu()
    stalled = 0.0  # the share of its recent turns the program spent waiting for a CPU
    for line in sys.stdin:
        began = time.perf_counter()
        woken = waited_for_cpu()
        late = woken - answered  # ready to read but not running: the referee's clock ran
        message = json.loads(line)
        limit = first if message["first"] else later
        bot.time_limit = told(limit, late, time.perf_counter() - began, stalled)
        action = bot.choose(message["view"], message["seat"], message["legal"])
        sys.stdout.write(json.dumps(action) + "\n")
        sys.stdout.flush()
        answered = waited_for_cpu()
        worked = time.perf_counter() - began
        if worked > 0:  # the share of this turn spent waiting for a CPU, weighed into the recent share
            stalled += RECENT * (min(1.0, (answered - woken) / worked) - stalled)
    return 0


if __name__ == "__main__":
    sys.exit(main())
