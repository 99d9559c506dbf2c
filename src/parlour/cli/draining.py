"""uvicorn's server, with a drain before it stops: SIGTERM (a restart, ``parlour cluster
restart``, an orchestrator) first stops the hall applying rooms (:meth:`Hall.drain`: no new
move is taken, the commits under way finish, and in a cluster every lease is given up at once so
that the other halls take the rooms without waiting), then uvicorn stops as it does: it stops
listening, closes every WebSocket with 1012 "service restart" (the browser client reconnects,
through the proxy to another hall) and lets the requests under way end; the store then commits
what is queued. A second SIGTERM, or Ctrl-C (SIGINT), stops without the drain.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
from collections.abc import Awaitable, Callable
from types import FrameType

import uvicorn

log = logging.getLogger("parlour.drain")

DRAIN_WITHIN = 20.0  # seconds the drain may take before the process stops anyway


class DrainingServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, drain: Callable[[], Awaitable[None]]) -> None:
        super().__init__(config)
        self.drain = drain
        self.loop: asyncio.AbstractEventLoop | None = None
        self.draining: asyncio.Task[None] | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().startup(sockets)
        # SIGTERM through the event loop itself (its wakeup descriptor): a handler set with
        # signal.signal alone, as uvicorn sets it, may wait for the loop's next event to run
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on this platform or thread
            self.loop.add_signal_handler(signal.SIGTERM, self.handle_exit, signal.SIGTERM, None)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if sig != signal.SIGTERM or self.draining is not None or self.loop is None or self.should_exit:
            super().handle_exit(sig, frame)
            return
        self._captured_signals.append(sig)  # uvicorn raises it again once stopped, as without the drain
        self.loop.call_soon_threadsafe(self._start_drain)

    def _start_drain(self) -> None:
        if self.draining is None:
            self.draining = asyncio.ensure_future(self._drain_then_stop())

    async def _drain_then_stop(self) -> None:
        log.warning("SIGTERM: draining (no new moves here; the rooms go to the other halls), then stopping")
        try:
            await asyncio.wait_for(self.drain(), DRAIN_WITHIN)
        except Exception:
            log.exception("the drain did not finish: stopping anyway (what was acknowledged is committed)")
        self.should_exit = True
