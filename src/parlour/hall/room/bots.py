"""Bots in the hall: the pool every room shares, and each room's driver.

    pool = BotPool(time_limit=1.0, threads=4, workers=1)   # the hall's
    driver = BotDriver(room_code, game, pool, ...)          # one per room
    driver.ask(seat, "hard", by="bot", since=turn, turn=seen, state=state)

A bot chooses from its seat's view only. A bot that thinks (a search bot) chooses in a worker
process (:mod:`.thinkers`), so it holds no other room's acknowledgements up; the others choose in
a thread. A bot that fails, or whose move is refused as illegal, is replaced by a random legal
move, so that a bot's bug never stalls a game.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ... import bots as bot_registry
from ...core import Action, Bot, Game
from ...games import all_games
from .. import observe
from ..errors import HallError
from .commands import By
from .seats import SeatBook
from .thinkers import Thinkers

log = logging.getLogger(__name__)

# asked(seat): since when the seat was asked to act, the turns it has seen, and the state then.
Asked = Callable[[int], tuple[int | None, int, Any]]
# The room's answer to a bot's move: (seat, the seat's turn it chose at, the action, by).
Submit = Callable[[int, int, Action, By], Awaitable[Any]]


class BotPool:
    """What every room's bots share: threads, worker processes and the time a move may take."""

    def __init__(self, time_limit: float = 1.0, threads: int = 4, workers: int = 1) -> None:
        self.time_limit = time_limit
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="parlour-bot")
        # bots that think choose in worker processes; a thread waits for each worker's answer
        self.thinkers = Thinkers(workers, time_limit)
        self.thinking = ThreadPoolExecutor(max_workers=self.thinkers.workers, thread_name_prefix="parlour-think")
        self.registry = set(all_games())  # the games a worker process can build by id

    def check(self, game: Game[Any], bot: str) -> None:
        """Refuses, in words, a bot ``game`` does not have."""
        if bot not in bot_registry.names(game):
            raise HallError("bad_request", f"{game.name} has no bot {bot!r}"
                            f" (its bots: {', '.join(bot_registry.names(game))})")

    @staticmethod
    def builtin(game: Game[Any]) -> str:
        """The bot that moves when a turn timer runs out: the game's first own bot, else random."""
        return next(iter(game.bots), "random")

    def create(self, game: Game[Any], name: str, seed: int) -> Bot:
        return bot_registry.create(game, name, seed=seed, time_limit=self.time_limit)

    async def choose(self, game: Game[Any], bot: Bot, name: str, state: Any, seat: int, seed: int) -> Action:
        """``bot``'s move for ``seat`` in ``state``, made from the seat's view, off the event loop."""
        loop = asyncio.get_running_loop()
        began = time.perf_counter()
        if bot.thinks and game.id in self.registry:
            action = await loop.run_in_executor(self.thinking, self._choose_apart, game, name, state, seat, seed)
        else:
            action = await loop.run_in_executor(self.executor, _choose, game, bot, state, seat)
        observe.BOT_THINK_SECONDS.labels(game.id).observe(time.perf_counter() - began)
        return action

    def _choose_apart(self, game: Game[Any], name: str, state: Any, seat: int, seed: int) -> Action:
        return self.thinkers.choose(game.id, name, seed, game.view(state, seat), seat, game.legal_actions(state, seat))

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.thinking.shutdown(wait=False, cancel_futures=True)
        self.thinkers.close()


def _choose(game: Game[Any], bot: Bot, state: Any, seat: int) -> Action:
    return bot.choose(game.view(state, seat), seat, game.legal_actions(state, seat))


class BotDriver:
    """One room's bots: one move per time a seat is asked to act, submitted to the room."""

    def __init__(self, code: str, game: Game[Any], pool: BotPool, seed: Callable[..., int],
                 spawn: Callable[[Coroutine[Any, Any, Any]], None], submit: Submit) -> None:
        self.code = code
        self.game = game
        self.pool = pool
        self._seed = seed  # seed(*labels): a seed for a bot or a move, fixed by the room's seed in tests
        self._spawn = spawn
        self._submit = submit
        self._asked: dict[int, int | None] = {}  # seat -> the turn since which it was asked, when a bot began
        self._bots: dict[tuple[int, str], Bot] = {}

    def ask(self, seat: int, bot: str, by: By, since: int | None, turn: int, state: Any) -> None:
        """``bot`` moves for ``seat``, asked to act since the room's turn ``since`` (``turn``: the
        seat's own count). In a phase where several seats choose at once, another seat's move
        does not start this seat's choice over."""
        if self._asked.get(seat) == since:
            return
        self._asked[seat] = since
        self._spawn(self._move(seat, bot, by, turn, state))

    def play_bots(self, to_act: frozenset[int], seats: SeatBook, asked: Asked) -> None:
        """Every bot seat that must act moves (once per time it is asked)."""
        for seat in to_act:
            if seats[seat].kind == "bot":
                self.ask(seat, seats[seat].bot or self.pool.builtin(self.game), "bot", *asked(seat))

    def time_out(self, to_act: frozenset[int], seats: SeatBook, asked: Asked) -> None:
        """The turn timer ran out: the built-in bot moves for every person who must act."""
        for seat in seats.humans(to_act):
            self.ask(seat, self.pool.builtin(self.game), "timer", *asked(seat))

    def forget(self) -> None:
        """Whatever the bots began choosing here is moot (the room changed hands)."""
        self._asked.clear()

    async def _move(self, seat: int, name: str, by: By, turn: int, state: Any) -> None:
        bot = self._bots.get((seat, name))
        if bot is None:
            bot = self._bots[seat, name] = self.pool.create(self.game, name, self._seed("bot", seat, name))
        try:
            action = await self.pool.choose(self.game, bot, name, state, seat, self._seed("thinker", seat, name, turn))
        except Exception:
            log.exception("bot %s failed in room %s; playing a random legal action", name, self.code)
            action = self.game.random_action(state, seat, random.Random())
        try:
            await self._submit(seat, turn, action, by)
        except HallError as error:
            if error.code != "stale":  # stale: someone acted first (a seat changed hands)
                log.warning("bot %s in room %s could not act: %s", name, self.code, error)
            if error.code == "illegal":  # a bot's bug must not stall the game
                await self._fallback(seat, by, turn, state)

    async def _fallback(self, seat: int, by: By, turn: int, state: Any) -> None:
        try:
            await self._submit(seat, turn, self.game.random_action(state, seat, random.Random()), by)
        except HallError as error:
            log.warning("the random fallback in room %s could not act either: %s", self.code, error)
