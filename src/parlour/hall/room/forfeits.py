"""What the turn timer does when it runs out: a person who must act gets one move from the built-in
bot (the room waits no longer); a bot account that must act loses its seat to the built-in bot and
forfeits, as the arena's referee takes out a program that times out, crashes or plays illegally
(docs/bot-api.md): the room's clock is the only one the hall keeps for it.

    timer = TurnTimer(seconds, deadlines, lambda: time_out(code, context, "greedy", to_act, seats, driver, asked))
"""

from __future__ import annotations

from .bots import Asked, BotDriver
from .commands import GiveToBot
from .context import RoomContext
from .seats import SeatBook


def bot_accounts_acting(to_act: frozenset[int], seats: SeatBook) -> frozenset[int]:
    """The seats that must act now and are held by a bot account."""
    return frozenset(s for s in to_act if seats[s].kind == "human" and seats[s].bot_account)


def time_out(code: str, context: RoomContext, builtin: str, to_act: frozenset[int], seats: SeatBook,
             driver: BotDriver, asked: Asked) -> None:
    """Room ``code``'s turn timer ran out while ``to_act`` must act; ``builtin``: the bot that takes over."""
    stalled = bot_accounts_acting(to_act, seats)

    async def forfeit(seat: int) -> None:
        await context.execute(code, GiveToBot(seat, builtin, forfeit=True))

    for seat in sorted(stalled):
        context.spawn(forfeit(seat))
    people = to_act - stalled
    if people:
        driver.time_out(people, seats, asked)
