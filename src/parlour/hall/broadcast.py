"""How rooms tell their watchers that something changed, without knowing about sockets.

A room publishes "room X changed"; each subscriber (one per WebSocket connection) then asks the
room for its own seat's snapshot, so per-seat filtering stays in the room and the transport only
carries. A publish may carry the committed change itself (``payload``, JSON): the processes of a
cluster apply it to their copies of the room without reading the store. The fan-out between
several server processes is another implementation of this interface,
:class:`parlour.hall.cluster.redis_broadcast.RedisBroadcast` (Redis publish/subscribe).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Callable

Listener = Callable[[], None]


class Broadcast(ABC):
    # whether a publish's payload goes anywhere (to other processes); if not, nobody need make it
    carries_payloads = False

    @abstractmethod
    def subscribe(self, code: str, listener: Listener) -> None: ...

    @abstractmethod
    def unsubscribe(self, code: str, listener: Listener) -> None: ...

    @abstractmethod
    def publish(self, code: str, payload: bytes | None = None) -> None:
        """Room ``code`` changed (``payload``: what was committed, for the other processes of a
        cluster): every listener of it is called (they must not block)."""

    def publish_here(self, code: str) -> None:
        """Only this process's listeners of ``code`` are called: a change it learnt from another
        process, or one that only it can see (a connection came or went)."""
        self.publish(code)

    def leading(self, code: str, leads: bool) -> None:
        """This process applies room ``code`` from now on (``leads``), or follows the process that
        does: a cluster's broadcast need not hear the room's changes from the others while it
        leads (only it commits them), and must again once it follows. Alone: nothing to do."""
        return


class LocalBroadcast(Broadcast):
    """Listeners in this process."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[Listener]] = defaultdict(set)

    def subscribe(self, code: str, listener: Listener) -> None:
        self._listeners[code].add(listener)

    def unsubscribe(self, code: str, listener: Listener) -> None:
        listeners = self._listeners.get(code)
        if listeners is not None:
            listeners.discard(listener)
            if not listeners:
                del self._listeners[code]

    def publish(self, code: str, payload: bytes | None = None) -> None:
        for listener in self.listeners(code):
            listener()

    def listeners(self, code: str) -> list[Listener]:
        return list(self._listeners.get(code, ()))

    def codes(self) -> list[str]:
        """The rooms that have listeners."""
        return list(self._listeners)
