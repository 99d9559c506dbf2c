"""The outbox's sender: what the notifier queued in the store goes out from here, by mail
(:mod:`.mailer`) and Web Push (:mod:`.push`), in a task of its own, so that no move ever waits
for a mail server or a push service.

An item is claimed for a while before it is sent (one process of several sends it), marked sent
once the server took it, and retried later when it failed: after 1, 5, 30 minutes, 2 and 12
hours, then given up with the reason kept. Items queued before a restart go after it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from .. import observe
from ..clock import Clock
from ..store import Queued, Store

if TYPE_CHECKING:
    from .notifier import Notifier

log = logging.getLogger(__name__)

POLL = 1.0  # seconds between two looks at the outbox
BATCH = 20  # items claimed at a time
HOLD = 300.0  # seconds an item is claimed while it is being sent
RETRIES = (60.0, 300.0, 1800.0, 7200.0, 43200.0)  # seconds to wait after each failure; then given up
ERROR_MAX = 300


class Outbox:
    def __init__(self, notifier: Notifier, store: Store, clock: Clock) -> None:
        self.notifier = notifier
        self.store = store
        self.clock = clock
        self.sent = 0
        self.failed = 0
        self.waiting: dict[str, int] = {}  # items not yet sent nor given up, by channel (the metrics' gauge)

    async def run(self) -> None:
        while True:
            try:
                await self.send_due()
            except asyncio.CancelledError:
                raise
            except Exception:  # the store away for a moment: look again later
                log.exception("the outbox could not be read")
            await asyncio.sleep(POLL)

    async def send_due(self) -> int:
        """Sends what is due now, then counts what still waits; returns how many items it tried."""
        now = self.clock.now()
        items = await self.store.outbox_due(now, BATCH, HOLD)
        for item in items:
            await self.send(item)
        self.waiting = await self.store.outbox_waiting()
        return len(items)

    async def send(self, item: Queued) -> None:
        try:
            if item.channel == "mail":
                await self._mail(item)
            else:
                if not await self._push(item):
                    observe.notified(item.channel, "gone")
                    await self.store.outbox_done(item.id, self.clock.now(), "the subscription is gone", None)
                    return
        except Exception as error:  # the server refused or was away: retry later, or give up
            self.failed += 1
            observe.notified(item.channel, "failed")
            retry = RETRIES[item.attempts] if item.attempts < len(RETRIES) else None
            words = f"{type(error).__name__}: {error}"[:ERROR_MAX]
            log.warning("outbox item %s (%s to %s) failed (%s); %s", item.id, item.kind, item.channel, words,
                        f"retried in {retry:.0f} s" if retry is not None else "given up")
            now = self.clock.now()
            await self.store.outbox_done(item.id, now, words, now + retry if retry is not None else None)
            return
        self.sent += 1
        observe.notified(item.channel, "sent")
        await self.store.outbox_done(item.id, self.clock.now(), None, None)

    async def _mail(self, item: Queued) -> None:
        from .mailer import send_mail

        config = self.notifier.config.smtp
        if config is None:
            raise RuntimeError("this hall has no --smtp now")
        unsubscribe = (self.notifier.unsubscribe_link(item.account, item.recipient)
                       if item.account is not None and item.kind != "confirm" else None)
        await send_mail(config, item.recipient, item.subject, item.body, unsubscribe)

    async def _push(self, item: Queued) -> bool:
        """False when the subscription is gone (forgotten now)."""
        from pywebpush import WebPushException

        from .push import send_push

        subscription = await self.store.push_by_id(int(item.recipient))
        if subscription is None:
            return False
        try:
            await send_push(subscription, {"title": item.subject, "body": item.body, "url": item.link},
                            self.notifier.vapid, self.notifier.push_subject)
        except WebPushException as error:
            status = getattr(error.response, "status", None)
            if status in (404, 410):  # the browser unsubscribed: the push service says so
                await self.store.remove_push(subscription.account, subscription.endpoint)
                return False
            raise
        return True
