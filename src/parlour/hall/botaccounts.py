"""Bot accounts: a person's account turned, for good, into the account a program plays as, and the
API tokens the program signs in with (docs/bot-api.md).

A signed-in player who has played no rated game may make their account a bot account; the answer is
its first API token. Tokens are random, shown once and kept as their SHA-256 (like sessions); the
owner lists them and revokes any, and a revoked token ends at once every connection it opened. A
bot account may sign in on the web to manage its tokens, and may do nothing a bot should not: it
takes no seat it was not challenged to, never chats, challenges nobody.

    bots = BotAccounts(store, clock)
    token = await bots.become_bot(account)     # irreversible
    account = await bots.by_token(token)       # None once revoked
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from .clock import Clock
from .errors import HallError
from .store import BOT_KIND, Account, ApiToken, Refused, Store, StoreError
from .text import clip
from .tokens import new_token, token_hash

TOKENS_MAX = 20  # API tokens one bot account may hold at once
LABEL_MAX = 40  # characters of a token's label
TOKEN_MAX = 128  # characters of a token as presented (ours are 32); a longer one is no token


def is_bot_account(account: Account | None) -> bool:
    return account is not None and account.kind == BOT_KIND


def refuse_bot_account(account: Account | None, what: str) -> None:
    """:class:`HallError` when ``account`` is a bot account, which may not do ``what``."""
    if is_bot_account(account):
        raise HallError("not_a_player", f"a bot account cannot {what}: it plays the games it accepts"
                        " challenges to (docs/bot-api.md)")


def clean_label(label: Any) -> str:
    if label is None:
        return "token"
    if not isinstance(label, str) or not label.strip():
        raise HallError("bad_request", "a token's label is text, e.g. \"my laptop\"")
    label = " ".join(label.split())
    if len(label) > LABEL_MAX:
        raise HallError("bad_request", f"a token's label has at most {LABEL_MAX} characters")
    return label


class BotAccounts:
    """Bot accounts and their tokens in the store, and what each token has open now."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.rows = store.bots
        self.clock = clock
        self._open: dict[str, set[Callable[[], None]]] = {}  # a token's hash -> how to end each connection

    async def become_bot(self, account: Account) -> str:
        """``account`` is a bot account from now on; returns its first API token (shown once)."""
        if is_bot_account(account):
            raise HallError("conflict", "this account is a bot account already: make more tokens at"
                            " POST /api/me/tokens")
        if account.kind != "human":
            raise HallError("conflict", "only a person's account can become a bot account")
        token = new_token()
        await self._save(self.rows.become_bot(account.id, token_hash(token), "first token", self.clock.now()))
        return token

    async def new_token(self, account: Account, label: Any = None) -> str:
        """One more API token of bot account ``account`` (shown once)."""
        self._check_bot(account)
        label = clean_label(label)
        token = new_token()
        await self._save(self.rows.add_token(account.id, token_hash(token), label, self.clock.now(), TOKENS_MAX))
        return token

    async def tokens(self, account: Account) -> list[ApiToken]:
        self._check_bot(account)
        return await self.rows.tokens(account.id)

    async def revoke(self, account: Account, token_id: int) -> None:
        """Token ``token_id`` of ``account`` stops working, and whatever it has open ends now."""
        self._check_bot(account)
        try:
            digest = await self.rows.revoke(account.id, token_id)
        except StoreError as error:
            raise HallError("store", str(error)) from None
        if digest is None:
            raise HallError("unknown_player", f"this account has no token {token_id}")
        for end in list(self._open.pop(digest, ())):
            end()

    async def by_token(self, token: str | None) -> Account | None:
        """The bot account an API token signs in, or None (no such token, or revoked)."""
        if not token or len(token) > TOKEN_MAX:
            return None
        return await self.rows.account_by_token(token_hash(token))

    async def signed_in(self, token: str | None) -> Account:
        account = await self.by_token(token)
        if account is None:
            raise HallError("bad_credentials", "this API token signs in no bot account (it may have been"
                            " revoked): send Authorization: Bearer <token>")
        return account

    # -- what each token has open ------------------------------------------------------------------
    def opened(self, token: str, end: Callable[[], None]) -> None:
        """A connection opened with ``token``: ``end`` ends it if the token is revoked."""
        self._open.setdefault(token_hash(token), set()).add(end)

    def closed(self, token: str, end: Callable[[], None]) -> None:
        digest = token_hash(token)
        ends = self._open.get(digest)
        if ends is not None:
            ends.discard(end)
            if not ends:
                del self._open[digest]

    async def used(self, token: str) -> None:
        with contextlib.suppress(StoreError):  # when it was last used is a courtesy: the connection goes on
            await self.rows.used(token_hash(token), self.clock.now())

    @staticmethod
    def _check_bot(account: Account) -> None:
        if not is_bot_account(account):
            raise HallError("conflict", "API tokens belong to bot accounts: make this account one first"
                            " (POST /api/me/bot, irreversible)")

    @staticmethod
    async def _save(write: Any) -> None:
        try:
            await write
        except Refused as refused:
            raise HallError("conflict", clip(str(refused), 200)) from None
        except StoreError as error:
            raise HallError("store", str(error)) from None
