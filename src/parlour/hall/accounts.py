"""Players' accounts: sign up, sign in and out, change a password, and the sessions in between.

Passwords are hashed with Argon2id (argon2-cffi, its RFC 9106 low-memory profile), on a thread of
the lowest priority so that hashing stalls no room, one at a time, within a budget per client address and for the whole
hall (:class:`~parlour.hall.throttles.HashBudget`): a client signing in in a loop cannot take a
core. A session is a random token whose sha256 the store keeps; the browser holds the token in an
HttpOnly, SameSite=Lax cookie.

Failed sign-ins make the next ones wait, longer each time (:class:`~parlour.hall.throttles.Backoff`),
counted by name AND address together: a stranger's wrong passwords never lock the owner out from
their own address. Many failures from one address, whatever the names, slow that address down too.
Nothing counts failures for a name from everywhere: that would be a lock anyone could close.

    accounts = Accounts(store, clock)
    account = await accounts.sign_up("Ana", "correct horse", "203.0.113.7")
    account, token = await accounts.sign_in("ana", "correct horse", "203.0.113.7")
    await accounts.by_session(token)   # -> account, or None once signed out or expired

The rows are the store's (:mod:`parlour.hall.store.accounts`); this decides, hashes and throttles.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from .clock import Clock
from .errors import HallError
from .quotas import Guard
from .ratings import BOT_PREFIX  # the bots' accounts are called bot:<bot name>; no person can take such a name
from .store import BOT_KIND, Store, StoreError
from .store import Account as Account  # the record is the store's; the hall's modules import it from here
from .text import clean_name
from .text import name_key as name_key  # what makes two names one account (look-alikes too)
from .throttles import Backoff, HashBudget
from .tokens import token_hash

T = TypeVar("T")
SESSION_COOKIE = "parlour_session"
SESSION_DAYS = 30
PASSWORD_MIN = 8
PASSWORD_MAX = 256  # characters; a longer one is refused, not cut
# Failed sign-ins: free ones in a row, then a wait of 1 s, 2 s, 4 s... up to 15 minutes, by name and
# address together; by address alone (whatever the names) the same past more free ones.
FAILED_PAIR_FREE = 5
FAILED_ADDRESS_FREE = 20
FIRST_WAIT = 1.0
LONGEST_WAIT = 15 * 60.0
# Password hashing, in seconds spent hashing (one hash at a time, ~0.15-0.2 s each): per address,
# Limits.hashing_ms a minute (2 s: a burst of ~10 sign-ins, then one every ~5 s); for the whole hall,
# Limits.hashing_share of the time at most (a quarter: a burst of 2 s, ~12 sign-ins, then ~1.5 a second);
# and 4 sign-ins waiting for a hash at once. Measured by `parlour bench abuse --attack sign-in-loop`.
HASH_WINDOW = 60.0
HASH_SECONDS_OVERALL = 2.0
HASHES_WAITING = 4
SIGN_UPS_PER_ADDRESS = parse("10/hour")
WRONG = "wrong name or password"
SIGN_IN_KINDS = ("human", BOT_KIND)  # a bot account's owner signs in to manage its tokens (hall/botaccounts.py)
NOT_IN_NAMES = "<>&/\\?#%"
FAILED = "failed sign-ins"


def lowest_priority() -> None:
    """This thread (and the threads it starts) at the lowest scheduling priority, where the system
    has per-thread priorities (Linux); elsewhere nothing changes."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


def hash_budget(guard: Guard) -> HashBudget:
    """The hashing budget of a hall with ``guard``'s limits (its per-address share, its exempt addresses)."""
    return HashBudget(guard.limits.hashing_ms / 1000, HASH_WINDOW, HASH_SECONDS_OVERALL,
                      min(100, guard.limits.hashing_share) / 100, HASHES_WAITING, guard.exempt)


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

    def __init__(self, store: Store, clock: Clock, hasher: PasswordHasher | None = None,
                 budget: HashBudget | None = None) -> None:
        """``hasher``: Argon2id with argon2-cffi's defaults (RFC 9106's low-memory profile) unless
        given (the tests give a cheaper one: their machine is small and shared); ``budget``: how
        much of a core hashing may take (the numbers above unless given)."""
        self.store = store
        self.clock = clock
        self.hasher = hasher or PasswordHasher()
        self._dummy: str | None = None  # a hash to check an unknown name's password against
        self._hashing = asyncio.Semaphore(1)  # each hash takes 64 MiB and most of a core
        # one thread, at the lowest priority (Argon2's own threads inherit it): rooms come first
        self._hasher_thread = ThreadPoolExecutor(1, thread_name_prefix="argon2", initializer=lowest_priority)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.budget = budget or HashBudget(2.0, HASH_WINDOW, HASH_SECONDS_OVERALL, 0.25, HASHES_WAITING)
        self.failed_pair = Backoff(FAILED_PAIR_FREE, FIRST_WAIT, LONGEST_WAIT)
        self.failed_address = Backoff(FAILED_ADDRESS_FREE, FIRST_WAIT, LONGEST_WAIT)

    # -- hashing off the event loop, within the budget -------------------------------------------
    async def _hashed(self, address: str, work: Callable[[], T]) -> T:
        """``work`` (a hash) on a thread, one at a time, within the budget; its cost counted."""
        self.budget.take(address)
        self.budget.waiting += 1

        def timed() -> tuple[T, float]:  # the wall time: Argon2 works on threads of its own
            start = time.perf_counter()
            return work(), time.perf_counter() - start

        try:
            async with self._hashing:
                result, cost = await asyncio.get_running_loop().run_in_executor(self._hasher_thread, timed)
        finally:
            self.budget.waiting -= 1
        self.budget.spent(address, cost)
        return result

    async def _hash(self, password: str, address: str) -> str:
        return await self._hashed(address, lambda: self.hasher.hash(password))

    async def _verify(self, stored: str | None, password: str, address: str) -> bool:
        """Whether ``password`` is the one ``stored`` hashes; with nothing stored, it is checked
        all the same (against a hash of nothing known), so an unknown name takes as long."""
        if stored is None and self._dummy is None:
            self._dummy = await asyncio.get_running_loop().run_in_executor(
                self._hasher_thread, self.hasher.hash, secrets.token_hex(16))
        against = stored or self._dummy
        assert against is not None  # made just above when nothing is stored

        def verify() -> bool:
            try:
                return self.hasher.verify(against, password) and bool(stored)
            except (VerificationError, InvalidHashError):
                return False

        return await self._hashed(address, verify)

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
        if name_key(name).startswith(name_key(BOT_PREFIX)):
            raise HallError("bad_request", f"names beginning with {BOT_PREFIX!r} are the bots' accounts")
        if any(ch in NOT_IN_NAMES for ch in name):
            raise HallError("bad_request", f"an account's name cannot hold any of {' '.join(NOT_IN_NAMES)}:"
                            " it is part of the address of its profile, and no markup")
        check_password(password)
        if await self.by_name(name) is not None:
            raise HallError("conflict", f"the name {name!r} is taken (names are the same whatever their case,"
                            " accents and letters that look alike)")
        self.take(SIGN_UPS_PER_ADDRESS, "sign-ups", address, "accounts made from your address")
        hashed = await self._hash(password, address)
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
        key = name_key(" ".join(name.split())[:128]) if name.strip() else ""
        now = self.clock.now()
        self._check_failures(key, address, now)
        self.budget.take(address)  # before the store is read: a refused loop costs the hall next to nothing
        found = await self.by_name(key) if key else None
        account, stored = found if found is not None else (None, None)
        if not await self._verify(stored, password, address) or account is None or account.kind not in SIGN_IN_KINDS:
            self._failed(key, address, now)
            raise HallError("bad_credentials", WRONG)
        self.failed_pair.succeeded((key, address))
        return account, await self.new_session(account)

    def _check_failures(self, key: str, address: str, now: float) -> None:
        """:class:`RateLimited` while ``address`` must wait before trying ``key`` again."""
        self.failed_pair.check((key, address), now, f"{FAILED} for this name from your address")
        self.failed_address.check(address, now, f"{FAILED} from your address")

    def _failed(self, key: str, address: str, now: float) -> None:
        self.failed_pair.failed((key, address), now)
        self.failed_address.failed(address, now)

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
        hashed = await self._hash(new, address)
        await self._save(self.store.change_password(account.id, hashed, token_hash(keep)))

    async def check_password_of(self, account: Account, password: Any, address: str) -> None:
        """Refuses (counted as a failed sign-in) unless ``password`` is ``account``'s current one."""
        key, now = name_key(account.name), self.clock.now()
        self.failed_pair.check((key, address), now, f"{FAILED} for this name from your address")
        found = await self.by_name(account.name)
        if found is None or not isinstance(password, str) or not await self._verify(found[1], password, address):
            self._failed(key, address, now)
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
