"""Web Push: the hall's VAPID keys (made once, kept in the store), a browser's subscription checked
at the door, and one message sent through pywebpush (encrypted to the subscription's keys, RFC 8291).

    private = vapid_private(store)                 # made by the first process to ask
    key = application_server_key(private)          # what the page's pushManager.subscribe takes
    await send_push(subscription, {"title": ..., "body": ..., "url": ...}, private, "mailto:parlour@example.org")

The hall posts to the address a browser gave it, so the address is checked first: https only, no
address of this machine or of a private network written as an IP (``allow_local`` lets tests use a
local stand-in for the push service).
"""

from __future__ import annotations

import base64
import ipaddress
import json
from typing import Any
from urllib.parse import urlsplit

from ..errors import HallError
from ..store import PushSubscription

ENDPOINT_MAX = 2048
KEY_MAX = 128  # base64url of a P-256 public key: 87 characters
AUTH_MAX = 64  # of a 16-byte auth secret: 22
PUSH_TIMEOUT = 15.0  # seconds
PUSH_TTL = 24 * 3600  # seconds the push service keeps a message for a browser that is off


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_vapid_private() -> str:
    """A new VAPID private key: a P-256 scalar, base64url (43 characters)."""
    from cryptography.hazmat.primitives.asymmetric import ec  # the notify extra's (pywebpush needs it)

    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def application_server_key(private: str) -> str:
    """The public key browsers subscribe with (the uncompressed point, base64url)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.derive_private_key(int.from_bytes(unb64url(private), "big"), ec.SECP256R1())
    return b64url(key.public_key().public_bytes(serialization.Encoding.X962,
                                                serialization.PublicFormat.UncompressedPoint))


def check_subscription(endpoint: Any, p256dh: Any, auth: Any, allow_local: bool = False) -> tuple[str, str, str]:
    """A browser's subscription as the hall keeps it, or :class:`HallError` saying what is wrong."""
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= ENDPOINT_MAX:
        raise HallError("bad_request", f"a push endpoint is a URL of at most {ENDPOINT_MAX} characters")
    parts = urlsplit(endpoint)
    if parts.scheme != "https" and not (allow_local and parts.scheme == "http"):
        raise HallError("bad_request", "a push endpoint is an https:// URL (the browser's push service)")
    host = parts.hostname or ""
    if not host:
        raise HallError("bad_request", "a push endpoint names its push service's host")
    if not allow_local:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            address = None
        if host == "localhost" or host.endswith(".localhost") or (address is not None and not address.is_global):
            raise HallError("bad_request", "a push endpoint is a public push service, not an address of this"
                            " machine or of a private network")
    for name, value, most, size in (("p256dh", p256dh, KEY_MAX, 65), ("auth", auth, AUTH_MAX, 16)):
        if not isinstance(value, str) or not 0 < len(value) <= most:
            raise HallError("bad_request", f"the subscription's {name} key is base64url text of at most {most}"
                            " characters")
        try:
            raw = unb64url(value)
        except ValueError:
            raise HallError("bad_request", f"the subscription's {name} key is not base64url") from None
        if len(raw) != size:
            raise HallError("bad_request", f"the subscription's {name} key is {size} bytes, not {len(raw)}")
    return endpoint, p256dh, auth


async def send_push(subscription: PushSubscription, data: dict[str, Any], private: str, subject: str) -> int:
    """Sends ``data`` (JSON) to ``subscription``; returns the push service's status. Raises
    pywebpush's ``WebPushException`` (its response's status: 404 and 410 mean the subscription is
    gone) or aiohttp's errors."""
    from py_vapid import Vapid  # the notify extra: a hall that sends no push never needs it
    from pywebpush import webpush_async

    response = await webpush_async(
        {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}},
        json.dumps(data), vapid_private_key=Vapid.from_raw(private.encode()), vapid_claims={"sub": subject},
        timeout=PUSH_TIMEOUT, ttl=PUSH_TTL)
    return int(getattr(response, "status", 201))
