"""The hall's secrets and codes: seat, host and session tokens, kept only as their hash, and
room codes that people read aloud.

    token = new_token()          # given to the client once
    digest = token_hash(token)   # what the store keeps
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

CODE_LETTERS = "ACDEFHJKMNPRTUVWXY"  # no I/L/1, O/0, B/8, S/5, Z/2 to mistake
CODE_LENGTH = 6
TOKEN_BYTES = 24  # 192 random bits


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256 (a token is random, so no salt or stretching)."""
    return hashlib.sha256(token.encode()).hexdigest()


def same_token(token: str | None, digest: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``digest``, compared in constant time."""
    return bool(token) and digest is not None and hmac.compare_digest(token_hash(token or ""), digest)


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
