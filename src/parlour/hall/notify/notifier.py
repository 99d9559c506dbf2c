"""The notifier: a player's e-mail address and alerts, and the one way the hall tells a player
something while they are away (mail and push), rate-limited so that it can never send spam.

    notifier = Notifier(hall, NotifyConfig(public_url="https://parlour.example.org", smtp=config))
    await notifier.notify(account_id, "invite", "Ana invites you to play Patchwork", "/r/KUYWKA")

Nothing is sent from here: what is to go is written to the store's outbox (:mod:`.outbox` sends
it, retries it, and survives restarts), so a move never waits for a mail server. A player's
address gets nothing but its confirmation link until that link is followed; every mail holds a
link that unsubscribes the address without signing in (an HMAC of the account and the address
under the hall's own secret, so a link works for that address only).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
from dataclasses import dataclass, field, replace
from importlib.util import find_spec
from typing import Any
from urllib.parse import urlencode

from ..errors import HallError
from ..hall import Hall
from ..quotas import RateLimited
from ..room import Room
from ..store import NotifySettings, Outgoing
from ..text import typed_text
from ..tokens import new_token, token_hash
from .mailer import SmtpConfig

log = logging.getLogger(__name__)

EMAIL_MAX = 254
CONFIRM_DAYS = 2  # a confirmation link works this long
HOUR, DAY = 3600.0, 86400.0
TURN_KINDS = ("turn", "late")  # what the player's "turns" setting governs
INVITE = "invite"  # a friend's invitation to their table: the player's "invites" setting governs it
SUBJECT_MAX = 200
TEXT_MAX = 2000
LINK_MAX = 512
KIND = re.compile(r"[a-z_]{1,16}")


@dataclass(frozen=True)
class NotifyLimits:
    """How much mail and push may go, counted in the store's outbox (so a restart does not reset it)."""

    mail_per_player_hour: int = 12
    mail_per_player_day: int = 60
    mail_per_address_hour: int = 12  # every account together: nobody can aim the hall at an address
    mail_per_address_day: int = 60
    confirm_per_address_day: int = 3  # confirmation links sent to one address
    confirm_per_player_day: int = 5
    push_per_player_hour: int = 30
    push_subscriptions: int = 5  # browsers per player


@dataclass(frozen=True)
class NotifyConfig:
    public_url: str  # where the hall's links point, e.g. https://parlour.example.org
    smtp: SmtpConfig | None = None  # None: the hall sends no mail
    push: bool = field(default_factory=lambda: find_spec("pywebpush") is not None)  # Web Push offered
    push_allow_local: bool = False  # tests: a push service on this machine
    limits: NotifyLimits = NotifyLimits()


def check_email(address: Any) -> str:
    """``address`` normalised, or :class:`HallError` saying why it is not an address."""
    if not isinstance(address, str) or not address.strip():
        raise HallError("bad_request", "an e-mail address is text such as ana@example.org")
    if len(address) > EMAIL_MAX:
        raise HallError("bad_request", f"an e-mail address has at most {EMAIL_MAX} characters")
    from email_validator import EmailNotValidError, validate_email

    try:
        return str(validate_email(address.strip(), check_deliverability=False).normalized)
    except EmailNotValidError as error:
        raise HallError("bad_request", f"{address.strip()[:60]!r} is not an e-mail address: {error}") from None


class Notifier:
    """Players' notification settings, and alerts to them through the outbox."""

    def __init__(self, hall: Hall, config: NotifyConfig) -> None:
        self.hall = hall
        self.store = hall.store
        self.config = config
        self.limits = config.limits
        self.secret = ""  # the hall's, for unsubscribe links (made once, kept in the store)
        self.vapid = ""  # the VAPID private key (made once, kept in the store)

    def start(self) -> None:
        """Reads (or makes) the hall's secrets; listens to the rooms. Blocking: at start-up."""
        from .push import new_vapid_private

        self.secret = self.store.setting_blocking("notify_secret", new_token())
        if self.config.push:
            self.vapid = self.store.setting_blocking("vapid_private", new_vapid_private())
        self.hall.on_asked.append(self.asked)
        self.hall.on_looked.append(self.looked)

    @property
    def mail(self) -> bool:
        return self.config.smtp is not None

    @property
    def push_subject(self) -> str:
        """Who the push services may write to about the hall's pushes (VAPID's ``sub``)."""
        if self.config.smtp is not None:
            return f"mailto:{self.config.smtp.mail_from}"
        return self.config.public_url if self.config.public_url.startswith("https://") else "mailto:parlour@localhost"

    def link(self, path: str) -> str:
        return self.config.public_url.rstrip("/") + path

    def unsubscribe_token(self, account: int, email: str) -> str:
        return hmac.new(self.secret.encode(), f"unsubscribe {account} {email}".encode(), hashlib.sha256).hexdigest()

    def unsubscribe_link(self, account: int, email: str) -> str:
        return self.link("/unsubscribe?" + urlencode({"a": account, "t": self.unsubscribe_token(account, email)}))

    # -- settings --------------------------------------------------------------------------------
    async def settings(self, account: int) -> NotifySettings:
        found = await self.store.notify_settings(account)
        return found or NotifySettings(account, None, False, None, None, False, False)

    async def describe(self, account: int) -> dict[str, Any]:
        """A player's settings as they see them (their address is shown to nobody else)."""
        settings = await self.settings(account)
        from .push import application_server_key

        return {"email": settings.email, "confirmed": settings.confirmed, "turns": settings.turns,
                "daily": settings.daily, "invites": settings.invites, "push": len(await self.store.pushes_of(account)),
                "mail_available": self.mail, "push_key": application_server_key(self.vapid) if self.vapid else None}

    async def update(self, account: int, changes: dict[str, Any]) -> dict[str, Any]:
        """``changes`` of ``email`` (None: no address), ``turns``, ``daily``. A new address is
        sent its confirmation link and gets nothing else until it is followed. Refused in words,
        changing nothing: not an address, a hall that sends no mail, alerts without an address,
        too many confirmation links."""
        now = self.hall.clock.now()
        old = await self.settings(account)
        switches = {name: changes[name] for name in ("turns", "daily", "invites") if changes.get(name) is not None}
        new = replace(old, **switches)  # a switch given as None stays as it was
        send_link: str | None = None
        if "email" in changes:
            if changes["email"] is not None and not self.mail:
                raise HallError("bad_request", "this hall sends no e-mail (it was started without --smtp)")
            email = None if changes["email"] is None else check_email(changes["email"])
            expired = (old.confirm_expires or 0) < now  # an unconfirmed address given again: a new link
            if email != old.email or (email is not None and not old.confirmed and expired):
                send_link = new_token() if email is not None else None
                new = replace(new, email=email, confirmed=False, last_daily=None,
                              confirm_token=token_hash(send_link) if send_link else None,
                              confirm_expires=now + CONFIRM_DAYS * DAY if send_link else None)
        if (new.turns or new.daily) and new.email is None:
            raise HallError("bad_request", "give an e-mail address for alerts by mail to go to (push needs no"
                            " setting: turn it on in a browser)")
        if send_link is not None and new.email is not None:
            await self._check_confirm_rate(account, new.email, now)
        await self.store.save_notify_settings(new, now)
        if send_link is not None and new.email is not None:
            await self.store.enqueue([Outgoing(
                account, "mail", new.email, "confirm", "Confirm your address for Parlour",
                "Someone (we hope you) asked Parlour to send game alerts to this address.\n\n"
                f"To confirm it, open this link within {CONFIRM_DAYS} days:\n"
                f"{self.link('/confirm?' + urlencode({'t': send_link}))}\n\n"
                "If it was not you, do nothing: nothing more will be sent here.\n")], now)
        return await self.describe(account)

    async def _check_confirm_rate(self, account: int, email: str, now: float) -> None:
        limits = self.limits
        if await self.store.sent_since(now - DAY, recipient=email, channel="mail") >= limits.mail_per_address_day or (
                await self._confirms(now, recipient=email) >= limits.confirm_per_address_day):
            raise RateLimited(f"too many mails to {email} today: at most {limits.confirm_per_address_day}"
                              " confirmation links a day; try again tomorrow", DAY)
        if await self._confirms(now, account=account) >= limits.confirm_per_player_day:
            raise RateLimited(f"at most {limits.confirm_per_player_day} confirmation links a day per player;"
                              " try again tomorrow", DAY)

    async def _confirms(self, now: float, **who: Any) -> int:
        return await self.store.sent_since(now - DAY, channel="mail", kind="confirm", **who)

    async def confirm(self, token: str) -> NotifySettings:
        """Follows a confirmation link; refused in words (changing nothing) when it is not one,
        was used already, has expired or is for an address since changed."""
        if not isinstance(token, str) or not 0 < len(token) <= 100:
            raise HallError("bad_token", "this is not a confirmation link of this hall")
        found = await self.store.settings_by_confirm(token_hash(token))
        if found is None:
            raise HallError("bad_token", "this confirmation link was used already or is not one of this hall:"
                            " if your address is not confirmed yet, ask for a new link from your settings")
        if found.confirm_expires is None or self.hall.clock.now() > found.confirm_expires:
            raise HallError("bad_token", "this confirmation link has expired: give your address again in your"
                            " settings for a new one")
        confirmed = replace(found, confirmed=True, confirm_token=None, confirm_expires=None)
        await self.store.save_notify_settings(confirmed, self.hall.clock.now())
        return confirmed

    async def unsubscribe(self, account: Any, token: Any) -> str:
        """An unsubscribe link, followed without signing in: the address gets nothing more. Refused
        in words, changing nothing, when the link is not that address's."""
        if not isinstance(account, int) or not isinstance(token, str) or len(token) > 100:
            raise HallError("bad_token", "this is not an unsubscribe link of this hall")
        settings = await self.store.notify_settings(account)
        if settings is None or settings.email is None or not hmac.compare_digest(
                token, self.unsubscribe_token(account, settings.email)):
            raise HallError("bad_token", "this unsubscribe link is not for an address this hall sends to now"
                            " (it may be someone else's, or the address has changed or was unsubscribed)")
        await self.store.save_notify_settings(NotifySettings(account, None, False, None, None, False, False,
                                                             invites=settings.invites), self.hall.clock.now())
        return settings.email

    # -- push subscriptions ----------------------------------------------------------------------
    async def subscribe(self, account: int, endpoint: Any, p256dh: Any, auth: Any) -> dict[str, Any]:
        from .push import check_subscription

        if not self.vapid:
            raise HallError("bad_request", "this hall sends no push notifications")
        endpoint, p256dh, auth = check_subscription(endpoint, p256dh, auth, self.config.push_allow_local)
        known = await self.store.pushes_of(account)
        if endpoint not in {p.endpoint for p in known} and len(known) >= self.limits.push_subscriptions:
            raise HallError("conflict", f"at most {self.limits.push_subscriptions} browsers get push alerts per player:"
                            " turn it off in one first")
        await self.store.add_push(account, endpoint, p256dh, auth, self.hall.clock.now())
        return await self.describe(account)

    async def unsubscribe_push(self, account: int, endpoint: str | None) -> dict[str, Any]:
        await self.store.remove_push(account, endpoint)
        return await self.describe(account)

    # -- telling a player ------------------------------------------------------------------------
    async def notify(self, account: int, kind: str, text: str, link: str, subject: str | None = None,
                     alert: str | None = None) -> list[str]:
        """Tells ``account`` ``text`` (with ``link``, a path of the hall such as ``/r/KUYWKA``) by
        mail and push, as their settings allow and within the rates; returns the channels it was
        queued for (none is an answer too: nothing is owed). ``kind``: turn and late follow the
        player's "turns" setting, daily their "daily" one, any other (an invitation) goes to a
        confirmed address; every kind but daily goes to the browsers the player subscribed; an
        invitation (``invite``) goes nowhere when the player turned their "invites" setting off.
        ``alert``: a room whose "your turn" this is (noted with it)."""
        if not KIND.fullmatch(kind):
            raise HallError("bad_request", "a notification's kind is a short word such as invite")
        if not link.startswith("/") or link.startswith("//") or len(link) > LINK_MAX:
            raise HallError("bad_request", f"a notification's link is a path of this hall such as /r/KUYWKA"
                            f" (at most {LINK_MAX} characters)")
        now = self.hall.clock.now()
        text = typed_text(text, "a notification's text", TEXT_MAX)
        subject = " ".join((subject or text).split())[:SUBJECT_MAX]  # one line: no header can be slipped in
        url = self.link(link)
        settings = await self.settings(account)
        wanted = settings.turns if kind in TURN_KINDS else settings.daily if kind == "daily" else (
            settings.invites if kind == INVITE else True)
        items: list[Outgoing] = []
        if self.mail and wanted and settings.confirmed and settings.email is not None and (
                await self._mail_allowed(account, settings.email, now)):
            body = (f"{text}\n\n{url}\n\n--\nParlour. To get no more mail from it:"
                    f" {self.unsubscribe_link(account, settings.email)}\n")
            items.append(Outgoing(account, "mail", settings.email, kind, subject, body, url))
        # a browser that subscribed wants every alert but the summary (and invitations, if turned off)
        if self.vapid and kind != "daily" and (kind != INVITE or settings.invites):
            pushes = await self.store.pushes_of(account)
            if pushes and await self.store.sent_since(now - HOUR, account=account, channel="push") + len(pushes) <= (
                    self.limits.push_per_player_hour):
                items += [Outgoing(account, "push", str(push.id), kind, subject, text, url) for push in pushes]
        if items:
            await self.store.enqueue(items, now, (account, alert) if alert is not None else None)
        return sorted({item.channel for item in items})

    async def _mail_allowed(self, account: int, email: str, now: float) -> bool:
        limits, store = self.limits, self.store
        counts = [(await store.sent_since(now - HOUR, account=account, channel="mail"), limits.mail_per_player_hour),
                  (await store.sent_since(now - DAY, account=account, channel="mail"), limits.mail_per_player_day),
                  (await store.sent_since(now - HOUR, recipient=email), limits.mail_per_address_hour),
                  (await store.sent_since(now - DAY, recipient=email), limits.mail_per_address_day)]
        if any(count >= most for count, most in counts):
            log.warning("mail to player %s not sent: past the rate (%s)", account, counts)
            return False
        return True

    def asked(self, room: Room, seats: list[int]) -> None:
        """People of a turn-based room were asked to move (where the room is applied): each
        signed-in one not at the table now is told, once per game until they look."""
        if not room.pace.turn_based:
            return
        for seat in seats:
            player = room.seats[seat]
            if player.account is not None and player.connections == 0:
                self.hall.spawn(self._your_turn(room, seat, player.account))

    async def _your_turn(self, room: Room, seat: int, account: int) -> None:
        try:
            if await self.store.alerted(account, room.code):
                return
            others = [name for i, name in enumerate(room.names()) if i != seat]
            until = deadline_words(room.pace.deadline)
            await self.notify(account, "turn", f"Your turn in {room.game.name} with {', '.join(others)}."
                              f"{f' You have until {until}.' if until else ''}", f"/r/{room.code}",
                              subject=f"Your turn in {room.game.name} (room {room.code})", alert=room.code)
        except Exception:  # an alert that cannot be queued must not trouble the room
            log.exception("the turn alert of room %s could not be queued", room.code)

    def looked(self, room: Room, seat: int) -> None:
        account = room.seats[seat].account
        if account is not None and room.pace.turn_based:
            self.hall.spawn(self.store.clear_alert(account, room.code))


def deadline_words(deadline: float | None) -> str:
    """``Friday 28 November, 18:00 UTC``."""
    if deadline is None:
        return ""
    import datetime

    moment = datetime.datetime.fromtimestamp(deadline, datetime.UTC)
    return moment.strftime("%A %d %B, %H:%M UTC")
