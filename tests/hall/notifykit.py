"""For the notifications' tests: a real SMTP server (aiosmtpd) on a free loopback port, a local
stand-in for a browser's push service that decrypts what it is sent, and a hall app that mails
through the one and pushes to the other."""

from __future__ import annotations

import contextlib
import ctypes
import datetime
import json
import signal
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from email import message_from_bytes
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from hallkit import CHEAP_ARGON2ID, HALL_SEED  # noqa: F401  (the notify tests take them from here)

from parlour.cli.processes import free_port
from parlour.hall.notify.push import b64url


def die_with_parent() -> None:
    """A server started by a test ends when the test process does, however it ends (Linux)."""
    with contextlib.suppress(OSError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def wait_for(done: Callable[[], Any], seconds: float = 8.0) -> Any:
    """Polls ``done()`` until it is truthy (the outbox sends within a second or two)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = done()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("waited in vain")


class Inbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"


class SmtpServer:
    """aiosmtpd on 127.0.0.1 at a free port; ``login``: (user, password) it requires, over STARTTLS
    with a self-signed certificate made in ``folder``."""

    def __init__(self, folder: Path | None = None, login: tuple[str, str] | None = None) -> None:
        self.inbox = Inbox()
        self.port = free_port()
        self.logins: list[str] = []
        kwargs: dict[str, Any] = {}
        if login is not None and folder is not None:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*self_signed(folder))
            kwargs.update(tls_context=context, require_starttls=True, auth_required=True,
                          authenticator=self._authenticator(login))
        self._kwargs = kwargs
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port, **kwargs)

    def back(self) -> None:
        """Up again after ``controller.stop()``, on the same port (a controller does not restart)."""
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port, **self._kwargs)
        self.controller.start()

    def _authenticator(self, login: tuple[str, str]) -> Callable[..., AuthResult]:
        def check(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
            ok = isinstance(data, LoginPassword) and (data.login.decode(), data.password.decode()) == login
            if ok:
                self.logins.append(data.login.decode())
            return AuthResult(success=ok)
        return check

    def __enter__(self) -> SmtpServer:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()

    @property
    def messages(self) -> list[Message]:
        return self.inbox.messages

    def mails_to(self, address: str) -> list[Message]:
        return [m for m in self.messages if m["To"] == address]


def body_of(mail: Message) -> str:
    payload = mail.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()


def self_signed(folder: Path) -> tuple[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1)).sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "smtp.crt", folder / "smtp.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return str(cert_path), str(key_path)


class Browser:
    """A browser's push subscription: its keys, as ``pushManager.subscribe`` makes them."""

    def __init__(self) -> None:
        import secrets

        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = secrets.token_bytes(16)
        self.p256dh = b64url(self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                                serialization.PublicFormat.UncompressedPoint))

    def decrypt(self, body: bytes) -> dict[str, Any]:
        import http_ece

        return dict(json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                                version="aes128gcm")))


class PushService:
    """A local HTTP endpoint standing in for a push service: keeps each POST (path, headers,
    body) and answers ``status`` (201 as a push service does; 410: the subscription is gone)."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def serving(servers: list[Any]) -> Iterator[None]:
    for server in servers:
        server.__enter__()
    try:
        yield
    finally:
        for server in reversed(servers):
            server.__exit__(None, None, None)
