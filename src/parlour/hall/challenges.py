"""Bot accounts online, and people's challenges to them (docs/bot-api.md).

A bot account's program connects (web/bots_api.py) and says which games, and which values of their
options, it accepts and how many games it plays at once; it is then online. A signed-in person
challenges it to a game with options: the hall checks what it can (the game accepted, the options,
the bot's games under way), asks the bot, and waits a few seconds for its answer. Accepted, the hall
makes a room of two seats, seats the challenger and the bot's account, starts the game, tells the
bot, and answers the challenger with the room, their seat and its token. The bot then plays through
the room's own WebSocket protocol, its seat found by its account; the room's turn timer is its clock,
and a bot whose time runs out loses its seat to a built-in bot and forfeits (room/leaving.py: time_out).

A person may be challenged too, while they watch their challenges (the lobby asks every few
seconds, :meth:`Challenges.incoming_for`): the challenge waits up to a minute for them to accept
(:meth:`Challenges.answer_person`, which makes the room and seats them both) or decline. Whom a
person may challenge (friends, blocks) is decided above, where those are known (web/challenges_api.py).

This process knows the bots connected to it and the people watching their challenges: in a
cluster, they and their challengers must reach the same hall process (docs/scaling.md).

    challenges = Challenges(hall, limits)
    online = challenges.connect(account, offer, send)     # a bot's program said "ready"
    answer = await challenges.challenge(ana, "deepthought", "patchwork", {})
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core import ParlourError
from .accounts import name_key
from .botaccounts import is_bot_account, refuse_bot_account
from .errors import HallError
from .hall import Hall
from .room import commands as do
from .store import Account
from .text import clip

ANSWER_SECONDS = 5.0  # how long a challenge waits for the bot's answer
TURN_TIMER = 60.0  # seconds per turn in a challenge's room unless the challenge says
TURN_TIMER_MIN, TURN_TIMER_MAX = 5.0, 3600.0
GAMES_OFFERED_MAX = 20  # games one bot may say it accepts
VALUES_MAX = 50  # accepted values of one option
PENDING_MAX = 8  # challenges waiting for one bot's (or person's) answer at once
PERSON_ANSWER_SECONDS = 60.0  # how long a challenge waits for a person's answer
WATCHING_SECONDS = 15.0  # a person who looked at their challenges this recently is online for them
WATCHERS_KEPT = 10_000  # people's last looks kept before the old ones are forgotten


@dataclass
class OnlineBot:
    """A bot account's program, connected: what it accepts and how to reach it."""

    account: Account
    games: dict[str, dict[str, list[Any]]]  # game -> option -> accepted values (an option not named: any)
    max_games: int
    send: Callable[[dict[str, Any]], None]
    pending: dict[str, asyncio.Future[tuple[bool, str]]] = field(default_factory=dict)


def read_offer(games: Any, known: Mapping[str, Any]) -> dict[str, dict[str, list[Any]]]:
    """What a bot says it accepts: a list of game ids, or of ``{"game": id, "options": {name: [values]}}``;
    :class:`HallError` in words otherwise."""
    if not isinstance(games, list) or not games or len(games) > GAMES_OFFERED_MAX:
        raise HallError("bad_message", f'"games" is a list of 1 to {GAMES_OFFERED_MAX} games, e.g. ["patchwork"]'
                        ' or [{"game": "patchwork", "options": {}}]')
    offer: dict[str, dict[str, list[Any]]] = {}
    for entry in games:
        game_id, options = (entry, {}) if isinstance(entry, str) else (
            (entry.get("game"), entry.get("options", {})) if isinstance(entry, dict) else (None, None))
        if not isinstance(game_id, str) or game_id not in known:
            raise HallError("unknown_game", f"there is no game {clip(game_id)} (the games: {', '.join(known)})")
        if not isinstance(options, dict):
            raise HallError("bad_message", '"options" of a game is {name: [the values accepted]}')
        names = {o.name for o in known[game_id].options}
        accepted: dict[str, list[Any]] = {}
        for name, values in options.items():
            if name not in names:
                raise HallError("bad_message", f"{game_id} has no option {clip(name)} (its options:"
                                f" {', '.join(sorted(names)) or 'none'})")
            if not isinstance(values, list) or not values or len(values) > VALUES_MAX:
                raise HallError("bad_message", f"option {name}: a list of 1 to {VALUES_MAX} values accepted")
            accepted[name] = values
        offer[game_id] = accepted
    return offer


@dataclass
class PersonChallenge:
    """A challenge waiting for a person's answer; ``seated``: the challenger's seat once accepted
    (None: declined, ``why``); ``taken``: being accepted (the room is being made)."""

    id: str
    challenger: Account
    game: str
    options: dict[str, Any]
    turn_timer: float
    until: float
    seated: asyncio.Future[dict[str, Any] | None]
    why: str = "no reason given"
    taken: bool = False


class Challenges:
    """The bots online in this process, the people watching their challenges, and the challenges
    put to them."""

    def __init__(self, hall: Hall, bot_games: int, answer_seconds: float = ANSWER_SECONDS,
                 turn_timer: float = TURN_TIMER,
                 may_challenge: Callable[[Account, Account], Awaitable[None]] | None = None) -> None:
        self.hall = hall
        # may_challenge(challenger, opponent): HallError in words when the opponent does not take
        # challenges from the challenger (a block, not a friend: decided where those are known)
        self.may_challenge = may_challenge
        self.bot_games = bot_games  # the most games a bot plays at once (Limits.bot_games)
        self.answer_seconds = answer_seconds
        self.turn_timer = turn_timer
        self.online: dict[int, OnlineBot] = {}  # by account id
        self.person_seconds = PERSON_ANSWER_SECONDS
        self.watching: dict[int, float] = {}  # a person's account -> when it last looked at its challenges
        self.incoming: dict[int, dict[str, PersonChallenge]] = {}  # a person's account -> challenges waiting

    # -- bots coming and going ---------------------------------------------------------------------
    def connect(self, account: Account, games: Any, max_games: Any, send: Callable[[dict[str, Any]], None]
                ) -> OnlineBot:
        """``account``'s program is ready for challenges (a second connection replaces the first)."""
        offer = read_offer(games, self.hall.games)
        if max_games is None:
            max_games = self.bot_games
        if isinstance(max_games, bool) or not isinstance(max_games, int) or not 1 <= max_games <= self.bot_games:
            raise HallError("bad_message", f'"max_games" is a whole number from 1 to {self.bot_games}, this'
                            " hall's most")
        old = self.online.get(account.id)
        if old is not None:
            self.disconnect(old)
        bot = OnlineBot(account, offer, max_games, send)
        self.online[account.id] = bot
        return bot

    def disconnect(self, bot: OnlineBot) -> None:
        if self.online.get(bot.account.id) is bot:
            del self.online[bot.account.id]
        for future in bot.pending.values():
            if not future.done():
                future.set_result((False, "it went offline"))

    def answer(self, bot: OnlineBot, challenge: Any, accepted: bool, why: Any = None) -> None:
        """The bot's answer to challenge ``challenge``."""
        future = bot.pending.get(challenge) if isinstance(challenge, str) else None
        if future is None or future.done():
            raise HallError("bad_message", f"there is no challenge {clip(challenge)} waiting for your answer"
                            " (it may have waited too long)")
        reason = clip(why, 100) if isinstance(why, str) and why.strip() else "no reason given"
        future.set_result((accepted, reason))

    async def playing(self, account: Account) -> list[dict[str, Any]]:
        """The games ``account`` plays now, to resume: each room's code, seat and game (not a game
        whose seat it lost when its time ran out: a built-in bot plays that one on)."""
        rows = await self.hall.store.games_of(account.id, finished=False)
        return [{"code": row.code, "seat": row.seat, "game": row.game} for row in rows
                if row.status == "playing" and row.seats[row.seat].get("kind") == "human"]

    def listing(self) -> list[OnlineBot]:
        return sorted(self.online.values(), key=lambda bot: bot.account.name.casefold())

    # -- a challenge -------------------------------------------------------------------------------
    async def challenge(self, challenger: Account, opponent: Any, game_id: Any, options: Any,
                        turn_timer: Any = None) -> dict[str, Any]:
        """Puts a challenge to the online bot called ``opponent``; the challenger's room, seat and
        seat token once it accepts. :class:`HallError` in words when it cannot or will not play."""
        refuse_bot_account(challenger, "challenge anyone")
        if not isinstance(opponent, str) or not isinstance(game_id, str):
            raise HallError("bad_request", "a challenge names its opponent and its game")
        found = await self.hall.store.account_by_name(name_key(opponent))
        if found is None:
            raise HallError("unknown_player", f"there is no player {clip(opponent)}")
        account = found[0]
        if self.may_challenge is not None:
            await self.may_challenge(challenger, account)
        if account.kind == "human":
            return await self._challenge_person(challenger, account, game_id, options, turn_timer)
        if not is_bot_account(account):
            raise HallError("conflict", f"{account.name} is a built-in bot: challenge the bot accounts the lobby"
                            " lists online (GET /api/bots), or play the built-in bots in a room of your own")
        bot = self.online.get(account.id)
        if bot is None:
            raise HallError("conflict", f"{account.name} is offline: its program is not connected to the hall"
                            " now, so it cannot accept a challenge; try another bot, or later")
        game = self.hall.game(game_id)
        if game_id not in bot.games:
            raise HallError("conflict", f"{account.name} does not play {game.name} (it plays"
                            f" {', '.join(sorted(bot.games))})")
        if not game.min_players <= 2 <= game.max_players:
            raise HallError("conflict", f"{game.name} is not played by two: a challenge is one against one")
        resolved = self._options(game, options, bot.games[game_id], account.name)
        timer = self._timer(turn_timer)
        under_way = len(await self.playing(account))
        if under_way >= bot.max_games:
            raise HallError("conflict", f"{account.name} is playing {under_way} games, its most at once: try"
                            " again when one is over")
        if len(bot.pending) >= PENDING_MAX:
            raise HallError("conflict", f"{account.name} has {PENDING_MAX} challenges waiting for its answer:"
                            " try again in a few seconds")
        accepted, why = await self._ask(bot, challenger, game_id, resolved)
        if not accepted:
            raise HallError("conflict", f"{account.name} declined the challenge: {why}")
        return await self._seat(challenger, bot, game_id, resolved, timer)

    @staticmethod
    def _options(game: Any, options: Any, accepted: Mapping[str, list[Any]], bot: str) -> dict[str, Any]:
        try:
            resolved: dict[str, Any] = game.resolve_options(options if options is not None else {})
        except ParlourError as error:
            raise HallError("bad_request", str(error)) from None
        for name, values in accepted.items():
            if resolved[name] not in values:
                raise HallError("conflict", f"{bot} plays {game.name} with {name} one of"
                                f" {', '.join(map(str, values))}, not {resolved[name]!r}")
        return resolved

    def _timer(self, turn_timer: Any) -> float:
        if turn_timer is None:
            return self.turn_timer
        if isinstance(turn_timer, bool) or not isinstance(turn_timer, (int, float)) or not (
                TURN_TIMER_MIN <= turn_timer <= TURN_TIMER_MAX):
            raise HallError("bad_request", f"turn_timer is seconds per turn, {TURN_TIMER_MIN:g} to"
                            f" {TURN_TIMER_MAX:g}")
        return float(turn_timer)

    async def _ask(self, bot: OnlineBot, challenger: Account, game_id: str, options: dict[str, Any]
                   ) -> tuple[bool, str]:
        challenge = secrets.token_urlsafe(9)
        future: asyncio.Future[tuple[bool, str]] = asyncio.get_running_loop().create_future()
        bot.pending[challenge] = future
        try:
            bot.send({"type": "challenge", "id": challenge, "from": challenger.name, "game": game_id,
                      "options": options})
            return await asyncio.wait_for(future, self.answer_seconds)
        except TimeoutError:
            return False, f"it did not answer within {self.answer_seconds:g} seconds"
        finally:
            bot.pending.pop(challenge, None)

    async def _seat(self, challenger: Account, bot: OnlineBot, game_id: str, options: dict[str, Any],
                    timer: float) -> dict[str, Any]:
        """The room of an accepted challenge: the challenger at a seat drawn by lot, the bot at the
        other, the game started; the bot is told."""
        mine = secrets.randbelow(2)
        room, _, seat, seat_token = await self.hall.create_room(
            game_id, options, [{"kind": "open"}, {"kind": "open"}], timer, take_seat=mine, account=challenger)
        theirs = 1 - mine
        await self.hall.execute(room.code, do.Join(bot.account.name, theirs, None, bot.account))
        await self.hall.execute(room.code, do.Start())
        bot.send({"type": "game", "code": room.code, "seat": theirs, "game": game_id, "options": options,
                  "turn_timer": timer, "opponent": challenger.name})
        return {"code": room.code, "seat": seat, "seat_token": seat_token, "url": f"/r/{room.code}"}

    # -- a person's challenges ----------------------------------------------------------------------
    def incoming_for(self, person: Account) -> list[dict[str, Any]]:
        """The challenges waiting for ``person``'s answer; asking makes them online for challenges
        ``WATCHING_SECONDS``."""
        refuse_bot_account(person, "take challenges here: they come over /ws/bot")
        now = self.hall.clock.now()
        if len(self.watching) >= WATCHERS_KEPT:  # only the recent looks matter: forget the others
            self.watching = {who: when for who, when in self.watching.items() if now - when < WATCHING_SECONDS}
        self.watching[person.id] = now
        return [{"id": c.id, "from": c.challenger.name, "game": c.game, "options": c.options,
                 "turn_timer": c.turn_timer, "until": c.until}
                for c in self.incoming.get(person.id, {}).values() if not c.taken]

    async def _challenge_person(self, challenger: Account, person: Account, game_id: str, options: Any,
                                turn_timer: Any) -> dict[str, Any]:
        if person.id == challenger.id:
            raise HallError("conflict", "that is you: challenge someone else")
        game = self.hall.game(game_id)
        if not game.min_players <= 2 <= game.max_players:
            raise HallError("conflict", f"{game.name} is not played by two: a challenge is one against one")
        resolved = self._options(game, options, {}, person.name)
        timer = self._timer(turn_timer)
        now = self.hall.clock.now()
        if now - self.watching.get(person.id, -WATCHING_SECONDS) >= WATCHING_SECONDS:
            raise HallError("conflict", f"{person.name} is not in the lobby now, so they cannot see a challenge:"
                            " try again when they are, or invite them to a room of yours")
        waiting = self.incoming.setdefault(person.id, {})
        if len(waiting) >= PENDING_MAX:
            raise HallError("conflict", f"{person.name} has {PENDING_MAX} challenges waiting for an answer already:"
                            " try again in a minute")
        pending = PersonChallenge(secrets.token_urlsafe(9), challenger, game_id, resolved, timer,
                                  now + self.person_seconds, asyncio.get_running_loop().create_future())
        waiting[pending.id] = pending
        try:
            seated = await asyncio.wait_for(asyncio.shield(pending.seated), self.person_seconds)
        except TimeoutError:
            if not pending.taken:
                raise HallError("conflict", f"{person.name} did not answer within {self.person_seconds:g}"
                                " seconds") from None
            seated = await pending.seated  # accepted at the last moment: the room is being made
        finally:
            if not pending.taken:
                self._drop(person.id, pending.id)
        if seated is None:
            raise HallError("conflict", f"{person.name} declined the challenge: {pending.why}")
        return seated

    async def answer_person(self, person: Account, challenge: Any, accept: bool, why: Any = None
                            ) -> dict[str, Any] | None:
        """``person``'s answer to challenge ``challenge``: accepted, the room (the game started, the
        seats drawn by lot) with ``person``'s seat and seat token; declined, None."""
        pending = self.incoming.get(person.id, {}).get(challenge) if isinstance(challenge, str) else None
        if pending is None or pending.taken or pending.seated.done():
            raise HallError("conflict", f"there is no challenge {clip(challenge)} waiting for your answer"
                            " (it may have waited too long, or its challenger gave up)")
        if not accept:
            pending.why = clip(why, 100) if isinstance(why, str) and why.strip() else "no reason given"
            pending.seated.set_result(None)
            return None
        pending.taken = True
        self._drop(person.id, pending.id)
        try:
            mine = secrets.randbelow(2)
            room, _, seat, seat_token = await self.hall.create_room(
                pending.game, pending.options, [{"kind": "open"}, {"kind": "open"}], pending.turn_timer,
                take_seat=mine, account=pending.challenger)
            joined = await self.hall.execute(room.code, do.Join(person.name, 1 - mine, None, person))
            assert isinstance(joined, do.Joined)
            await self.hall.execute(room.code, do.Start())
        except BaseException as error:
            pending.seated.set_exception(error if isinstance(error, HallError) else HallError(
                "conflict", "the room could not be made: challenge again"))
            raise
        url = f"/r/{room.code}"
        pending.seated.set_result({"code": room.code, "seat": seat, "seat_token": seat_token, "url": url})
        return {"code": room.code, "seat": joined.seat, "seat_token": joined.token, "url": url}

    def _drop(self, person: int, challenge: str) -> None:
        waiting = self.incoming.get(person)
        if waiting is not None:
            waiting.pop(challenge, None)
            if not waiting:
                del self.incoming[person]
