"""Why the hall refused a request: :class:`HallError`, a code and a sentence.

    raise HallError("not_your_turn", "it is not your turn: waiting for Ana")

The code says what kind of refusal it is; the web layer maps it to an HTTP status
(:mod:`parlour.hall.web.errors`) and the WebSocket sends it as the ``code`` of an ``error``
message. The sentence says why, in words, and that nothing changed.
"""

from __future__ import annotations

from typing import Literal

from ..core import ParlourError

Refusal = Literal[
    "bad_request", "bad_message", "unknown_room", "unknown_seat", "bad_token", "not_host", "conflict",
    "not_started", "over", "not_a_player", "not_your_turn", "stale", "illegal", "store", "bad_credentials",
    "signed_out", "throttled", "unknown_player", "unknown_game", "retry", "rate_limited",
    "forbidden", "banned", "muted", "blocked",  # trust (issue 30): moderators only; sanctions; a player's block
]


class HallError(ParlourError):
    """A refused request: ``code`` says what kind (:data:`Refusal`), the message says why."""

    def __init__(self, code: Refusal, message: str) -> None:
        super().__init__(message)
        self.code: Refusal = code

