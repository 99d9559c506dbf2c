"""Telling players what happens while they are away: e-mail and Web Push, for turn-based rooms
("your turn", "their time ran out"), a daily summary, and whatever else the hall has to say
(an invitation), through one small API:

    await notifier.notify(account_id, "invite", "Ana invites you to play Patchwork", "/r/KUYWKA")

The service layer below the web and above :mod:`parlour.hall.hall`: :mod:`.notifier` (settings,
confirmation, unsubscribe, rates, what to send), :mod:`.outbox` (sends what was queued, retries),
:mod:`.mailer` (SMTP), :mod:`.push` (Web Push, VAPID), :mod:`.sweeper` (passed deadlines, daily
summaries). Its SQL is :mod:`parlour.hall.store.notifications`.
"""

from __future__ import annotations

from ..hall import Hall
from .mailer import SmtpConfig
from .notifier import Notifier, NotifyConfig, NotifyLimits
from .outbox import Outbox
from .sweeper import Sweeper

__all__ = ["Notifications", "NotifyConfig", "NotifyLimits", "Notifier", "SmtpConfig"]


class Notifications:
    """The notifier, its outbox and its sweeper, started with the hall."""

    def __init__(self, hall: Hall, config: NotifyConfig) -> None:
        self.hall = hall
        self.notifier = Notifier(hall, config)
        self.outbox = Outbox(self.notifier, hall.store, hall.clock)
        self.sweeper = Sweeper(hall, self.notifier)

    def start(self, run_loops: bool = True) -> None:
        """Once the hall has started; ``run_loops`` False: tests drive the outbox and the sweeper."""
        self.notifier.start()
        if run_loops:
            self.hall.spawn(self.outbox.run())
            self.hall.spawn(self.sweeper.run())
