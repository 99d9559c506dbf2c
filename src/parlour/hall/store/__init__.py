"""Where the hall keeps what must outlive a process: rooms and their actions, chat, accounts,
ratings and the cluster's leases. The only part of the hall that speaks SQL (SQLAlchemy) or
touches the schema's versions (Alembic).

The hall asks for what it needs in its own words, through :class:`Store`; :class:`SqlStore`
(:mod:`.sql`) is the store on SQLAlchemy Core. Every write returns once committed; every read the
event loop makes is awaited (it runs on a reader thread); the ``*_blocking`` methods are for
callers off the loop.

    store = SqlStore("sqlite:///var/parlour.sqlite3")
    await store.append_action(code, record, status="over", lease=lease, settle=settlement)
    account = await store.account_by_session(token_hash, now)

The package: :mod:`.schema` (the tables), :mod:`.records` (what goes in and out),
:mod:`.sql` (the store, its group-commit writer and its readers), one module of SQL per feature
(:mod:`.rooms`, :mod:`.accounts`, :mod:`.history`, :mod:`.ratings`, :mod:`.leases`,
:mod:`.cluster`, :mod:`.analyses`), and :mod:`.migrations` (Alembic's, which read :mod:`.schema` only).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .bots import BOT_KIND, ApiToken, BotRows, Refused
from .engine import make_engine
from .leases import LENGTH, Leases
from .moderation import LogEntry, ModerationRows, Report, Sanction
from .notifications import Deadline, NotifySettings, NotifyStore, Outgoing, PushSubscription, Queued
from .records import (
    Account,
    ActionRecord,
    AnalysisRecord,
    ChatLine,
    FlaggedPair,
    GamesPlayed,
    Leader,
    Lease,
    LeaseLost,
    PlayedGame,
    Rater,
    Rating,
    RoomRecord,
    SeatHolder,
    SeatLeft,
    SeatRecord,
    Settlement,
    Skill,
    StoreError,
    leaving,
)
from .schema import (
    accounts_table,
    actions_table,
    analyses_table,
    api_tokens_table,
    chat_table,
    cluster_settings_table,
    metadata,
    ratings_table,
    room_leases_table,
    room_players_table,
    rooms_table,
    sessions_table,
)
from .social import Invitation, Named, Reputation, SocialRows
from .sql import SqlStore

__all__ = [
    "BOT_KIND", "ApiToken", "BotRows", "Refused", "api_tokens_table",
    "LENGTH", "Account", "ActionRecord", "AnalysisRecord", "ChatLine", "Deadline", "FlaggedPair", "GamesPlayed",
    "Leader", "Lease", "LeaseLost", "Leases", "NotifySettings", "NotifyStore", "Outgoing", "PlayedGame",
    "PushSubscription", "Queued", "Rater", "Rating", "RoomRecord", "SeatHolder", "SeatLeft", "SeatRecord",
    "Settlement", "Skill", "SqlStore", "Store", "StoreError", "accounts_table", "actions_table", "analyses_table",
    "chat_table", "cluster_settings_table", "leaving", "make_engine", "metadata", "ratings_table",
    "room_leases_table", "room_players_table",
    "rooms_table", "sessions_table",
    "Invitation", "LogEntry", "ModerationRows", "Named", "Report", "Reputation", "Sanction", "SocialRows",
]


class Store(NotifyStore, Protocol):
    """What the hall asks of storage. A write returns once committed, or raises
    :class:`StoreError` and changed nothing; ``lease``: the write commits only while this process
    still holds the room's lease (:class:`LeaseLost` is the error's ``__cause__`` otherwise)."""

    # -- rooms ------------------------------------------------------------------------------------
    def load_blocking(self, *, finished: bool = True) -> list[RoomRecord]:
        """Every room with its actions in order, oldest first; ``finished`` False: only those whose
        game is not over. Blocking: for the start-up restore, before the hall serves."""
        ...

    async def room(self, code: str, from_turn: int = 0) -> RoomRecord | None:
        """Room ``code`` with its actions in order (those from turn ``from_turn`` on), or None."""
        ...

    async def room_exists(self, code: str) -> bool: ...

    async def create_room(self, room: RoomRecord, *, holder: SeatHolder | None = None,
                          first_line: ChatLine | None = None) -> None:
        """A new room; with ``holder``, the signed-in player who took a seat at once, and its chat's
        ``first_line`` saying so, in the same transaction."""
        ...

    async def update_room(self, code: str, *, seats: list[SeatRecord] | None = None, status: str | None = None,
                          rematch: str | None = None, taken: SeatHolder | None = None,
                          left: SeatLeft | Sequence[SeatLeft] | None = None, lease: Lease | None = None,
                          settle: Settlement | None = None, deadline: Deadline | None = None,
                          vote: dict[str, Any] | None = None) -> None:
        """Change a room's seats, status or rematch; ``taken``, ``left``: a signed-in player took a
        seat, or signed-in players left theirs (:func:`leaving`); ``settle``: the places and ratings
        of a game ended before its rules ended it (hall/room/leaving.py); ``deadline``: a turn-based
        room's new one; ``vote``: the players' vote under way (hall/room/votes.py; ``{}``: none any
        more); all in the same transaction."""
        ...

    def append_action(self, code: str, action: ActionRecord, *, status: str | None = None,
                      lease: Lease | None = None, settle: Settlement | None = None,
                      deadline: Deadline | None = None, encoded: bytes | None = None) -> asyncio.Future[None]:
        """One accepted action, with the room's new ``status``, a turn-based room's new
        ``deadline`` and, for the last one of a game, its places and ratings (``settle``), all in
        one transaction; ``encoded``: its action as the hall's JSON, if the caller made it already.
        Its commit is under way once this returns: the future (not a coroutine) ends once it
        committed or failed and cannot be cancelled, so a task cancelled while it waits for it
        hears so only once it ended (a room takes the move all the same: hall/room/acting.py)."""
        ...

    async def take_back(self, code: str, turn: int, *, lease: Lease | None = None) -> None:
        """Takes back action ``turn``, the room's last (a player's, in a coached game against bots:
        hall/room/takeback.py), as if it had never been made."""
        ...

    async def lobby_page(self, status: str, game: str | None, offset: int, limit: int) -> list[str]:
        """The codes of the rooms with ``status`` (of ``game``), newest first, ``limit`` from ``offset``."""
        ...

    # -- chat -------------------------------------------------------------------------------------
    async def chat(self, code: str, last: int) -> list[ChatLine]:
        """Room ``code``'s ``last`` newest chat lines, oldest first."""
        ...

    async def append_chat(self, code: str, line: ChatLine, *, lease: Lease | None = None) -> None: ...

    # -- accounts ---------------------------------------------------------------------------------
    async def account_by_name(self, key: str) -> tuple[Account, str | None] | None:
        """The account whose name's key (:func:`parlour.hall.accounts.name_key`) is ``key``, with its
        password hash (None for a bot's), or None."""
        ...

    async def account_by_session(self, token_hash: str, now: float) -> Account | None:
        """The account of the session whose token hashes to ``token_hash``, unless expired by ``now``."""
        ...

    async def add_account(self, name: str, key: str, kind: str, password: str | None, created: float) -> None:
        """A new account (a taken ``key`` fails with :class:`StoreError`)."""
        ...

    async def open_session(self, account: int, token_hash: str, created: float, expires: float) -> None:
        """A new session of ``account``; its expired ones end with it."""
        ...

    async def close_session(self, token_hash: str) -> None: ...

    async def change_password(self, account: int, hashed: str, kept_session: str) -> None:
        """The account's new password hash; every session but ``kept_session`` (a token hash) ends."""
        ...

    # -- players' history -------------------------------------------------------------------------
    async def games_of(self, account: int, *, finished: bool, limit: int | None = None) -> list[PlayedGame]:
        """The rooms ``account`` plays or played in, finished or not yet, newest first."""
        ...

    async def played_by(self, account: int) -> list[GamesPlayed]:
        """Per game, the finished games ``account`` played and won."""
        ...

    async def ratings_of(self, account: int) -> list[Rating]: ...

    async def leaderboard(self, game: str, limit: int) -> list[Leader]:
        """The ``limit`` best rated players of ``game``, best first."""
        ...

    async def flagged_pairs(self, limit: int) -> list[FlaggedPair]:
        """For the moderators: the pairs of players who met more often than is rated (store/ratings.py),
        latest first."""
        ...

    # -- bot accounts and their API tokens (store/bots.py) ---------------------------------------
    bots: BotRows

    # -- analyses ---------------------------------------------------------------------------------
    async def analysis(self, code: str) -> AnalysisRecord | None:
        """The stored analysis of room ``code``'s finished game, or None."""
        ...

    async def save_analysis(self, analysis: AnalysisRecord) -> None:
        """Keep a finished game's analysis (one per room: a second is dropped)."""
        ...

    # -- trust (issue 30): friends, blocks, invitations, your data; reports, sanctions, moderators --
    social: SocialRows
    moderation: ModerationRows

    # -- the cluster ------------------------------------------------------------------------------
    def leases(self, now: Callable[[], float], length: float = LENGTH) -> Leases:
        """The rooms' leases on this store, by the clock ``now`` (blocking calls: on a thread)."""
        ...

    async def renew_leases(self, owner: str, tokens: dict[str, int], now: Callable[[], float],
                           length: float = LENGTH) -> dict[str, float]:
        """Renew the leases ``owner`` holds of the rooms ``tokens`` names (code -> token), through the
        writer (no deadlock with the fenced commits under way); returns the new expiry of each renewed."""
        ...

    def close(self) -> None:
        """Finish pending writes and let go of resources."""
        ...

    async def ping(self) -> None:
        """Returns once the database answered a query (GET /readyz); raises if it cannot."""
        ...
