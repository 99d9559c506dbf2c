"""The one sweeper of turn-based rooms and daily summaries: no task waits on any room.

Every ``SWEEP_EVERY`` seconds it asks the store for the turn-based rooms whose deadline passed and
nobody was told of (an indexed column: the rooms need not be in memory), tells their other
signed-in players that they may hand the late seat to a bot or end the game, and notes it; then
it sends each player who asked for one their daily summary of the games waiting for them.

    sweeper = Sweeper(hall, notifier)
    await sweeper.sweep()          # what the loop does each time (tests call it directly)
"""

from __future__ import annotations

import asyncio
import logging

from ..errors import HallError
from ..hall import Hall
from .notifier import DAY, Notifier

log = logging.getLogger(__name__)

SWEEP_EVERY = 30.0  # seconds
ROOMS_A_SWEEP = 100
SUMMARIES_A_SWEEP = 50
SUMMARY_LINES = 15  # games named in one summary (the link to "My games" shows them all)


class Sweeper:
    def __init__(self, hall: Hall, notifier: Notifier) -> None:
        self.hall = hall
        self.notifier = notifier
        self.store = hall.store

    async def run(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the sweep of deadlines and summaries failed; next time")

    async def sweep(self) -> tuple[list[str], int]:
        """Returns the rooms found late and the summaries queued."""
        return await self.overdue(), await self.summaries()

    async def overdue(self) -> list[str]:
        now = self.hall.clock.now()
        codes = await self.store.overdue_rooms(now, ROOMS_A_SWEEP)
        told = []
        for code in codes:
            if not await self.store.mark_overdue(code):
                continue  # another process of the hall tells them
            told.append(code)
            try:
                room = await self.hall.room(code)
            except HallError:
                continue
            late = room.pace.late(room.seats.humans(room.to_act()), now)
            names = room.names()
            for seat in late:
                for other, player in enumerate(room.seats):
                    if other in late or player.account is None or player.kind != "human":
                        continue
                    await self.notifier.notify(
                        player.account, "late", f"{names[seat]}'s time to move ran out in {room.game.name}"
                        f" (room {room.code}). You may hand the seat to a bot or end the game with"
                        f" {names[seat]} last.", f"/r/{room.code}")
            room.touched = now
            self.hall.broadcast.publish_here(room.code)  # the watchers here see the deadline passed
        return told

    async def summaries(self) -> int:
        if not self.notifier.mail:
            return 0
        now = self.hall.clock.now()
        queued = 0
        for settings in await self.store.daily_due(now - DAY, SUMMARIES_A_SWEEP):
            waiting = []
            games = await self.store.games_of(settings.account, finished=False)
            rooms = await self.hall.rooms_of(game.code for game in games)  # another process's too
            for game in games:
                room = rooms.get(game.code)
                if room is not None and room.status == "playing" and game.seat in room.to_act():
                    others = ", ".join(n for i, n in enumerate(room.names()) if i != game.seat)
                    waiting.append(f"- {room.game.name} with {others}: {self.notifier.link('/r/' + room.code)}")
            await self.store.mark_daily(settings.account, now)
            if waiting:
                text = f"{len(waiting)} game(s) wait for your move:\n" + "\n".join(waiting[:SUMMARY_LINES])
                channels = await self.notifier.notify(settings.account, "daily", text, "/me",
                                                      subject="Your games waiting on Parlour")
                queued += bool(channels)
        return queued
