"""A built-in bot as a program speaking the generic JSON protocol, so that the referee can hold it
to the time limits like any other program::

    parlour arena patchwork --bot greedy=builtin:greedy \\
        --bot mcts='json:python -m parlour.arena.serve patchwork mcts --turn-ms 50'

``--first-ms`` and ``--turn-ms`` tell the bot the limits it is given (default: the game's own);
the time spent reading each message is taken off its budget. (Its start-up, before it first reads,
is not counted by the referee: docs/bots.md.)
"""

from __future__ import annotations

import argparse
import json
import sys
import time


SHARE = 0.75  # of what is left of a turn's limit, the share the bot is told it has (margin for the pipes)


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
    for line in sys.stdin:
        began = time.perf_counter()
        message = json.loads(line)
        left = (first if message["first"] else later) - (time.perf_counter() - began)
        bot.time_limit = max(0.001, SHARE * left)
        action = bot.choose(message["view"], message["seat"], message["legal"])
        sys.stdout.write(json.dumps(action) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
