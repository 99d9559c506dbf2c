"""``parlour``: one command with a subcommand for each job.

Each subcommand lives in its own module of this package, which exposes ``register(subparsers)``;
heavy imports happen inside the command, so ``parlour games`` stays quick.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ..core import ParlourError

COMMANDS = (
    "games",
    "play",
    "selfplay",
    "bench",
    "serve",
    "cluster",
    "db",
    "admin",
    "arena",
    "replay",
    "analyse",
    "bot_connect",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="parlour", description="Parlour: a game hall for people and bots.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args) or 0
    except ParlourError as error:
        print(f"parlour: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
