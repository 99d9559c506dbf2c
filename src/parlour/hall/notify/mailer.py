"""Sending e-mail through SMTP with aiosmtplib: the ``--smtp`` URL and one message at a time.

    config = SmtpConfig.parse("smtp+starttls://user:secret@mail.example.org:587", "parlour@example.org")
    await send_mail(config, "ana@example.org", "Your turn", "It is your turn ...")

The URL says how to talk to the server: ``smtp://HOST:PORT`` plain (a local relay),
``smtp+starttls://`` (or ``smtp://...?starttls=true``) upgrades with STARTTLS, ``smtps://`` is TLS
from the first byte; ``user:password@`` logs in (refused over a plain connection unless
``?insecure_login=true``: a password is never sent in the clear by accident). ``?verify=false``
skips checking the server's certificate (a test server's self-signed one).
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate, make_msgid
from urllib.parse import parse_qs, unquote, urlsplit

SMTP_TIMEOUT = 30.0  # seconds for one message, connection included
TRUE = ("1", "true", "yes", "on")
POLICY = SMTP.clone(max_line_length=998)  # a long link stays one word: never folded into encoded words


@dataclass(frozen=True)
class SmtpConfig:
    host: str
    port: int
    mail_from: str
    tls: bool = False  # TLS from the first byte (smtps)
    starttls: bool = False
    username: str | None = None
    password: str | None = None
    verify: bool = True

    @classmethod
    def parse(cls, url: str, mail_from: str) -> SmtpConfig:
        """The settings of an ``--smtp`` URL; :class:`ValueError` in words for one that is not."""
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps", "smtp+starttls"):
            raise ValueError(f"{url!r}: the SMTP URL is smtp://, smtp+starttls:// or smtps://HOST:PORT")
        if not parts.hostname:
            raise ValueError(f"{url!r}: the SMTP URL names no host")
        query = {key: values[-1].lower() for key, values in parse_qs(parts.query).items()}
        tls = parts.scheme == "smtps"
        starttls = parts.scheme == "smtp+starttls" or query.get("starttls", "") in TRUE
        try:
            port = parts.port or (465 if tls else 587 if starttls else 25)
        except ValueError:
            raise ValueError(f"{url!r}: the port is not a number from 1 to 65535") from None
        username = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password else None
        if username and not (tls or starttls) and query.get("insecure_login", "") not in TRUE:
            raise ValueError(f"{url!r}: logging in over a plain connection would send the password in the clear;"
                             " use smtp+starttls:// or smtps:// (or add ?insecure_login=true)")
        if "@" not in mail_from or len(mail_from) > 254:
            raise ValueError(f"{mail_from!r}: --mail-from is the address the hall's mail comes from")
        return cls(parts.hostname, port, mail_from, tls, starttls, username, password,
                   query.get("verify", "true") in TRUE)


def message(config: SmtpConfig, to: str, subject: str, body: str, unsubscribe: str | None = None) -> EmailMessage:
    """A plain-text message; ``unsubscribe``: its List-Unsubscribe link (RFC 8058: one click)."""
    mail = EmailMessage(policy=POLICY)
    mail["From"] = config.mail_from
    mail["To"] = to
    mail["Subject"] = subject
    mail["Date"] = formatdate(localtime=False)
    mail["Message-ID"] = make_msgid(domain=config.mail_from.rpartition("@")[2] or None)
    mail["Auto-Submitted"] = "auto-generated"
    if unsubscribe:
        mail["List-Unsubscribe"] = f"<{unsubscribe}>"
        mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    mail.set_content(body)
    return mail


async def send_mail(config: SmtpConfig, to: str, subject: str, body: str, unsubscribe: str | None = None) -> None:
    """One message, through the server ``config`` names; raises (aiosmtplib's errors, OSError) if it
    is not accepted."""
    import aiosmtplib  # the notify extra: a hall without --smtp never needs it

    raw = message(config, to, subject, body, unsubscribe).as_bytes(policy=POLICY)  # as made: aiosmtplib would refold it
    await aiosmtplib.send(raw, sender=config.mail_from, recipients=[to], hostname=config.host, port=config.port,
                          use_tls=config.tls, start_tls=config.starttls, username=config.username,
                          password=config.password, validate_certs=config.verify, timeout=SMTP_TIMEOUT)
