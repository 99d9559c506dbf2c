"""The live sockets of signed-in players, by session: when a session ends (signed out, or ended by a
password change), the sockets it opened are closed, and the seats they held for their player let go.

    sockets = SignedInSockets()
    sockets.add(token_hash(token), account.id, connection.signed_out)
    sockets.end_session(token_hash(token))      # DELETE /api/session: each of its sockets' signed_out()

A socket of another hall process of a cluster finds out by itself: a signed-in connection checks its
session again before it acts or chats, at most every ``RECHECK`` seconds (web/socket.py).
"""

from __future__ import annotations

from collections.abc import Callable

RECHECK = 10.0  # seconds a signed-in socket trusts its session before it asks the store again

Ending = Callable[[], None]


class SignedInSockets:
    def __init__(self) -> None:
        self._by_session: dict[str, dict[Ending, int]] = {}  # token hash -> each socket's ending -> account

    def add(self, session: str, account: int, ending: Ending) -> None:
        self._by_session.setdefault(session, {})[ending] = account

    def remove(self, session: str, ending: Ending) -> None:
        endings = self._by_session.get(session, {})
        endings.pop(ending, None)
        if not endings:
            self._by_session.pop(session, None)

    def end_session(self, session: str) -> None:
        """Every socket opened with ``session`` is told it ended."""
        for ending in list(self._by_session.pop(session, {})):
            ending()

    def end_account(self, account: int, kept: str) -> None:
        """Every socket of ``account`` opened with another session than ``kept`` is told it ended."""
        for session, endings in list(self._by_session.items()):
            if session != kept and account in endings.values():
                self.end_session(session)
