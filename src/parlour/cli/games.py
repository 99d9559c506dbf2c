"""``parlour games``: the catalogue."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("games", help="list the games", description="The games Parlour plays.")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from .. import bots
    from ..games import all_games

    table = Table(title="Parlour's games")
    for column in ("id", "name", "players", "bots", "about"):
        table.add_column(column)
    for game in all_games().values():
        players = (str(game.min_players) if game.min_players == game.max_players
                   else f"{game.min_players}-{game.max_players}")
        table.add_row(game.id, game.name, players, ", ".join(bots.names(game)), game.pitch)
    Console().print(table)
    return 0
