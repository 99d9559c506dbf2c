"""``parlour bot connect --hall URL --token TOKEN [--games G,...] -- BOT``: any arena bot plays in a
hall as a bot account (docs/bot-api.md).

BOT is one argument, as ``parlour arena --bot NAME=BOT`` takes it: ``builtin:NAME``, ``json:COMMAND``,
``cg-live:COMMAND`` or a command line speaking the game's own protocol. The command connects to the
hall's ``/ws/bot`` with the bot account's API token, says which games it accepts, accepts every
challenge to them while it plays fewer than ``--max-games`` games, and plays each game through the
room's own WebSocket protocol (``/ws/bot/rooms/CODE``) with a bot of its own: one program started per
game. A dropped connection is made again (with a growing pause), and the games in progress are
resumed where they stand; a bot that fails (a program that crashes, times out or says something
illegal) stops playing that game, and the room's clock gives its seat to a built-in bot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from ..core import ParlourError

CLOSE_SIGNED_OUT = 4401  # the hall's code for a token that signs in nobody (hall/web/bots_api.py)
RECONNECT_FIRST, RECONNECT_MOST = 1.0, 30.0  # seconds between attempts: doubling up to the most
MARGIN = 1.0  # seconds of the room's turn timer the bot leaves for the network
TOKEN_VARIABLE = "PARLOUR_BOT_TOKEN"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("bot", help="play in a hall as a bot account (docs/bot-api.md)")
    commands = parser.add_subparsers(dest="bot_command", metavar="COMMAND", required=True)
    connect = commands.add_parser(
        "connect", help="run an arena bot as a bot account: accept challenges and play them",
        description="Connect an arena bot (builtin:NAME, json:COMMAND, cg-live:COMMAND or a command line) to a"
                    " hall as the bot account of TOKEN: it accepts challenges to --games and plays each game"
                    " through the room's WebSocket, one program per game; it reconnects after a drop and"
                    " resumes the games in progress. See docs/bot-api.md.")
    connect.add_argument("--hall", required=True, metavar="URL",
                         help="the hall's address, e.g. https://parlour.example")
    connect.add_argument("--token", default=None,
                         help="the bot account's API token (POST /api/me/bot, /api/me/tokens); default: the"
                              f" environment's {TOKEN_VARIABLE} (which, unlike an argument, other users' ps"
                              " does not show)")
    connect.add_argument("--games", default=None, metavar="G,...",
                         help="the games to accept challenges to, comma-separated (default: every game the bot"
                              " can play here)")
    connect.add_argument("--max-games", type=int, default=None, metavar="N",
                         help="games played at once, at most the hall's own most (default: the hall's)")
    connect.add_argument("--logs", default="bot-logs", metavar="DIR",
                         help="the programs' standard error, one file per game (default bot-logs)")
    connect.add_argument("bot", metavar="BOT", help="the bot, as parlour arena's --bot NAME=BOT takes it")
    connect.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import os

    from ..arena.match import Entrant, check_entrant
    from ..games import get

    token = args.token or os.environ.get(TOKEN_VARIABLE)
    if not token:
        raise ParlourError(f"give the bot account's API token: --token TOKEN, or {TOKEN_VARIABLE} in the environment")
    entrant = Entrant.parse(f"bot={args.bot}")
    games = [g.strip() for g in args.games.split(",") if g.strip()] if args.games else None
    for game_id in games or []:
        check_entrant(get(game_id), entrant)
    client = BotClient(args.hall, token, entrant.command, games, args.max_games, args.logs)
    try:
        asyncio.run(client.run())
    except SignedOut as refused:
        raise ParlourError(str(refused)) from None
    return 0


class SignedOut(Exception):
    """The hall does not know the token (wrong, or revoked): no use trying again."""


def say(text: str) -> None:
    print(f"parlour bot: {text}", file=sys.stderr, flush=True)


class GamePlayer:
    """The bot of one game: made on the first state it must act on, closed when the game ends."""

    def __init__(self, command: str, game_id: str, code: str, seat: int, logs: str) -> None:
        self.command = command
        self.game_id = game_id
        self.code = code
        self.seat = seat
        self.logs = logs
        self.bot: Any = None
        self.failed: str | None = None
        self.opening: dict[str, Any] | None = None  # the first view shown: the game's start, if seen in time

    def saw(self, view: dict[str, Any] | None) -> None:
        if self.opening is None and view is not None:
            self.opening = view

    def choose(self, view: dict[str, Any], legal: list[Any] | None, turn_timer: float | None) -> Any:
        from .. import bots
        from ..arena.match import BUILTIN, line_protocol, program_argv
        from ..bots.program import BotFailure, Program, ProgramBot
        from ..games import get

        game = get(self.game_id)
        limit = max(1.0, (turn_timer or 60.0) - MARGIN)
        try:
            if self.bot is None:
                if self.command.startswith(BUILTIN):
                    self.bot = bots.create(game, self.command[len(BUILTIN):].strip(), time_limit=min(limit, 5.0))
                else:
                    command, protocol = line_protocol(game, self.command, self.opening or view, self.seat)
                    log = Path(self.logs) / f"{self.code}-seat{self.seat + 1}.log"
                    self.bot = ProgramBot(game, Program(program_argv(command), log=log), protocol, limit, limit)
            if isinstance(self.bot, ProgramBot):
                return self.bot.choose(view, self.seat, legal)
            return self.bot.choose(view, self.seat, legal or [])
        except BotFailure as failure:
            self.failed = str(failure)
            raise

    def close(self) -> None:
        if self.bot is not None and hasattr(self.bot, "close"):
            self.bot.close()


class BotClient:
    def __init__(self, hall: str, token: str, command: str, games: list[str] | None, max_games: int | None,
                 logs: str) -> None:
        base = hall.rstrip("/")
        self.ws_base = "ws" + base[4:] if base.startswith("http") else base
        self.headers = {"Authorization": f"Bearer {token}"}
        self.command = command
        self.games = games
        self.max_games = max_games
        self.logs = logs
        self.playing: dict[str, asyncio.Task[None]] = {}

    async def run(self) -> None:
        pause = RECONNECT_FIRST
        while True:
            try:
                await self.stream()
                pause = RECONNECT_FIRST
            except SignedOut:
                for task in self.playing.values():
                    task.cancel()
                raise
            except (TimeoutError, OSError, ConnectionError) as error:
                say(f"the hall's connection dropped ({error}); again in {pause:g} s")
            except Exception as error:  # websockets' ConnectionClosed and the like
                say(f"the hall's connection ended ({type(error).__name__}: {error}); again in {pause:g} s")
            await asyncio.sleep(pause)
            pause = min(RECONNECT_MOST, pause * 2)

    def accepted_games(self) -> list[str]:
        from ..arena.match import BadEntrant, Entrant, check_entrant
        from ..games import all_games

        if self.games:
            return self.games
        entrant = Entrant("bot", self.command)
        accepted = []
        for game_id, game in all_games().items():
            with contextlib.suppress(BadEntrant, ParlourError):
                check_entrant(game, entrant)
                accepted.append(game_id)
        return accepted

    async def stream(self) -> None:
        import websockets

        try:
            connection = await websockets.connect(f"{self.ws_base}/ws/bot", additional_headers=self.headers,
                                                  max_size=1 << 20)
        except websockets.InvalidStatus as refused:
            raise ConnectionError(f"the hall answered {refused.response.status_code}") from None
        async with connection as ws:
            welcome = json.loads(await ws.recv())
            if welcome.get("type") != "welcome":
                raise SignedOut(welcome.get("message", "the hall refused the token"))
            say(f"signed in as {welcome['account']}; {len(welcome['playing'])} game(s) to resume")
            for game in welcome["playing"]:
                self.play(game["code"], game["seat"], game["game"])
            await ws.send(json.dumps({"type": "ready", "games": self.accepted_games(), "max_games": self.max_games}))
            try:
                async for text in ws:
                    await self.handle(ws, json.loads(text))
            except websockets.ConnectionClosed as closed:
                if closed.rcvd is not None and closed.rcvd.code == CLOSE_SIGNED_OUT:
                    raise SignedOut(f"the hall ended the connection: {closed.rcvd.reason}") from None
                raise
            if ws.close_code == CLOSE_SIGNED_OUT:
                raise SignedOut(f"the hall ended the connection: {ws.close_reason}")

    async def handle(self, ws: Any, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "online":
            say(f"online for {', '.join(message['games'])} (at most {message['max_games']} games at once)")
        elif kind == "challenge":
            busy = sum(not task.done() for task in self.playing.values())
            if self.max_games is not None and busy >= self.max_games:
                await ws.send(json.dumps({"type": "decline", "id": message["id"], "reason": "busy"}))
            else:
                await ws.send(json.dumps({"type": "accept", "id": message["id"]}))
                say(f"accepted {message['from']}'s challenge to {message['game']}")
        elif kind == "game":
            self.play(message["code"], message["seat"], message["game"])
        elif kind == "error":
            say(f"the hall refused: {message.get('message')}")

    def play(self, code: str, seat: int, game_id: str) -> None:
        running = self.playing.get(code)
        if running is None or running.done():
            self.playing[code] = asyncio.ensure_future(self.game(code, seat, game_id))

    async def game(self, code: str, seat: int, game_id: str) -> None:
        """Plays room ``code`` to its end, reconnecting as needed."""
        player = GamePlayer(self.command, game_id, code, seat, self.logs)
        pause = RECONNECT_FIRST
        try:
            while player.failed is None:
                try:
                    if await self.room(code, player):
                        return
                    pause = RECONNECT_FIRST
                except SignedOut as refused:
                    say(f"room {code}: {refused}")
                    return
                except Exception as error:  # a dropped connection: resume where the game stands
                    say(f"room {code}: connection lost ({type(error).__name__}); again in {pause:g} s")
                await asyncio.sleep(pause)
                pause = min(RECONNECT_MOST, pause * 2)
            say(f"room {code}: the bot failed ({player.failed}); it plays no more there, and the room's clock"
                " gives its seat to a built-in bot")
        finally:
            await asyncio.to_thread(player.close)

    async def room(self, code: str, player: GamePlayer) -> bool:
        """One connection to the room; True once the game is over."""
        import websockets

        from ..bots.program import BotFailure

        async with websockets.connect(f"{self.ws_base}/ws/bot/rooms/{code}", additional_headers=self.headers,
                                      max_size=1 << 22) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            acted_on = -1
            async for text in ws:
                message = json.loads(text)
                kind = message.get("type")
                if kind == "error" and message.get("code") in ("bad_credentials", "unknown_room"):
                    raise SignedOut(message.get("message", "refused"))
                if kind == "error" and message.get("code") == "illegal":
                    # as the arena's referee: an illegal move ends the bot's game (the room's clock then
                    # gives its seat to a built-in bot)
                    player.failed = f"illegal: {message.get('message')}"
                    return False
                if kind == "welcome" and message.get("seat") is None:
                    # the seat is no longer this account's: its time ran out and it forfeited (a
                    # built-in bot plays it on), or the game is over: nothing more to play here
                    say(f"room {code}: the seat is no longer this bot's (it forfeited, or the game is over)")
                    return True
                if kind == "error":
                    say(f"room {code}: refused: {message.get('message')}")
                    acted_on = -1  # a move refused as stale is chosen again on the newest state
                if kind != "state":
                    continue
                if message.get("result") is not None:
                    say(f"room {code}: the game is over")
                    return True
                player.saw(message.get("view"))
                if not message.get("legal") or message["turn"] == acted_on:
                    continue
                acted_on = message["turn"]
                timer = (message.get("room") or {}).get("turn_timer")
                try:
                    action = await asyncio.to_thread(player.choose, message["view"], message["legal"], timer)
                except BotFailure:
                    return False
                await ws.send(json.dumps({"type": "act", "id": f"t{acted_on}", "turn": acted_on, "action": action}))
        return False
