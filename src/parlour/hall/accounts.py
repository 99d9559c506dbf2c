"""Players' accounts: sign up, sign in and out, change a password, and the sessions in between.

Passwords are hashed with Argon2id (argon2-cffi, its RFC 9106 low-memory profile), in a thread so
that hashing stalls no room, at most two at a time. A session is a random token whose sha256 the
store keeps; the browser holds the token in an HttpOnly, SameSite=Lax cookie. Failed sign-ins are
counted per name and per client address (the ``limits`` library's moving windows), and past the
limit refused before the password is even looked at.

    accounts = Accounts(store, clock)
    account = await accounts.sign_up("Ana", "correct horse", "203.0.113.7")
    account, token = await accounts.sign_in("ana", "correct horse", "203.0.113.7")
    await accounts.by_session(token)   # -> account, or None once signed out or expired

The rows are the store's (:mod:`parlour.hall.store.accounts`); this decides, hashes and throttles.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from .clock import Clock
from .errors import HallError
from .ratings import BOT_PREFIX  # the bots' accounts are called bot:<bot name>; no person can take such a name
from .store import Account as Account  # the record is the store's; the hall's modules import it from here
from .store import Store, StoreError
from .text import clean_name
from .tokens import token_hash

SESSION_COOKIE = "parlour_session"
SESSION_DAYS = 30
PASSWORD_MIN = 8
PASSWORD_MAX = 256  # characters; a longer one is refused, not cut
# Failed sign-ins allowed before more are refused without looking, per name and per address;
# and accounts made per address.
FAILED_PER_NAME = parse("5/15 minutes")
FAILED_PER_ADDRESS = parse("20/15 minutes")
SIGN_UPS_PER_ADDRESS = parse("10/hour")
WRONG = "wrong name or password"
NOT_IN_NAMES = "<>&/\\?#%"


def name_key(name: str) -> str:
    """What makes two names the same account: case (and Unicode's compatibility forms) ignored."""
    return name.casefold()


def check_password(password: Any) -> str:
    if not isinstance(password, str) or not password:
        raise HallError("bad_request", "a password cannot be empty")
    if len(password) < PASSWORD_MIN:
        raise HallError("bad_request", f"a password needs at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise HallError("bad_request", f"a password can have at most {PASSWORD_MAX} characters")
    return password


class Accounts:
    """The accounts and sessions in the store, and the throttle on failed sign-ins."""

    def __init__(self, store: Store, clock: Clock, hasher: PasswordHasher | None = None) -> None:
        """``hasher``: Argon2id with argon2-cffi's defaults (RFC 9106's low-memory profile) unless
        given (the tests give a cheaper one: their machine is small and shared)."""
        self.store = store
        self.clock = clock
        self.hasher = hasher or PasswordHasher()
        self._dummy: str | None = None  # a hash to check an unknown name's password against
        self._hashing = asyncio.Semaphore(2)  # each hash takes 64 MiB and most of a core
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    # -- hashing off the event loop ------------------------------------------------------------
    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``stored`` hashes; with nothing stored, it is checked
        all the same (against a hash of nothing known), so an unknown name takes as long."""
        if stored is None and self._dummy is None:
            self._dummy = await self._hash(secrets.token_hex(16))
        against = stored or self._dummy
        assert against is not None  # made just above when nothing is stored
        async with self._hashing:
            try:
                return await asyncio.to_thread(self.hasher.verify, against, password) and bool(stored)
            except (VerificationError, InvalidHashError):
                return False

    # -- reading --------------------------------------------------------------------------------
    async def by_name(self, name: str) -> tuple[Account, str | None] | None:
        """The account called ``name`` (any case) with its password hash, or None."""
        return await self.store.account_by_name(name_key(name))

    async def by_session(self, token: str | None) -> Account | None:
        """The account a session token signs in, or None (no such session, or expired)."""
        if not token or len(token) > 128:
            return None
        return await self.store.account_by_session(token_hash(token), self.clock.now())

    # -- changing -------------------------------------------------------------------------------
    async def sign_up(self, name: Any, password: Any, address: str) -> Account:
        name = clean_name(name)
        if name_key(name).startswith(BOT_PREFIX):
            raise HallError("bad_request", f"names beginning with {BOT_PREFIX!r} are the bots' accounts")
        if any(ch in NOT_IN_NAMES for ch in name):
            raise HallError("bad_request", f"an account's name cannot hold any of {' '.join(NOT_IN_NAMES)}:"
                            " it is part of the address of its profile, and no markup")
        check_password(password)
        if await self.by_name(name) is not None:
            raise HallError("conflict", f"the name {name!r} is taken (names are the same whatever their case)")
        self.take(SIGN_UPS_PER_ADDRESS, "sign-ups", address, "accounts made from your address")
        hashed = await self._hash(password)
        try:
            await self.store.add_account(name, name_key(name), "human", hashed, self.clock.now())
        except StoreError:
            if await self.by_name(name) is not None:  # taken meanwhile
                raise HallError("conflict", f"the name {name!r} is taken") from None
            raise HallError("store", "the account could not be saved: try again") from None
        found = await self.by_name(name)
        assert found is not None
        return found[0]

    async def sign_in(self, name: Any, password: Any, address: str) -> tuple[Account, str]:
        """The account and a new session token; the same refusal for a wrong name or password."""
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > PASSWORD_MAX:
            raise HallError("bad_credentials", WRONG)
        key = name_key(" ".join(name.split()))[:128]
        self._allowed(FAILED_PER_NAME, "name", key, "failed sign-ins for this name")
        self._allowed(FAILED_PER_ADDRESS, "address", address, "failed sign-ins from your address")
        found = await self.by_name(key) if key else None
        account, stored = found if found is not None else (None, None)
        if not await self._verify(stored, password) or account is None or account.kind != "human":
            self.limiter.hit(FAILED_PER_NAME, "name", key)
            self.limiter.hit(FAILED_PER_ADDRESS, "address", address)
            raise HallError("bad_credentials", WRONG)
        return account, await self.new_session(account)

    async def new_session(self, account: Account) -> str:
        token = secrets.token_urlsafe(32)
        now = self.clock.now()
        await self._save(self.store.open_session(account.id, token_hash(token), now, now + SESSION_DAYS * 86400))
        return token

    async def sign_out(self, token: str) -> None:
        await self._save(self.store.close_session(token_hash(token)))

    async def change_password(self, account: Account, old: Any, new: Any, address: str, keep: str) -> None:
        """A new password once the old one is given; every other session of the account ends."""
        check_password(new)
        await self.check_password_of(account, old, address)
        hashed = await self._hash(new)
        await self._save(self.store.change_password(account.id, hashed, token_hash(keep)))

    async def check_password_of(self, account: Account, password: Any, address: str) -> None:
        """Refuses (counted as a failed sign-in) unless ``password`` is ``account``'s current one."""
        self._allowed(FAILED_PER_NAME, "name", name_key(account.name), "failed sign-ins for this name")
        found = await self.by_name(account.name)
        if found is None or not isinstance(password, str) or not await self._verify(found[1], password):
            self.limiter.hit(FAILED_PER_NAME, "name", name_key(account.name))
            self.limiter.hit(FAILED_PER_ADDRESS, "address", address)
            raise HallError("bad_credentials", "the current password is wrong")

    @staticmethod
    async def _save(write: Awaitable[None]) -> None:
        try:
            await write
        except StoreError as error:
            raise HallError("store", str(error)) from None

    # -- throttling -------------------------------------------------------------------------------
    def _allowed(self, rate: Any, kind: str, key: str, what: str) -> None:
        if not self.limiter.test(rate, kind, key):
            reset = self.limiter.get_window_stats(rate, kind, key).reset_time
            wait = max(1, round((reset - time.time()) / 60))  # the limiter counts in the system's time
            raise HallError("throttled", f"too many {what}: try again in {wait} minute{'s' if wait != 1 else ''}")

    def take(self, rate: Any, kind: str, key: str, what: str) -> None:
        """Counts one ``kind`` for ``key`` against ``rate``; past it, refused with the wait in words."""
        self._allowed(rate, kind, key, what)
        self.limiter.hit(rate, kind, key)
