"""``GET /metrics``: the hall's metrics in Prometheus' text format (:mod:`..observe`).

Answered on the hall's own port to a request from loopback that did not come through a proxy
(one with ``X-Forwarded-For``, ``Forwarded`` or ``X-Real-IP`` is refused: ``parlour cluster``'s
nginx does not even pass ``/metrics`` on), and to the networks ``parlour serve --metrics-from``
names (a Prometheus on another machine, or in another container). Anyone else is refused (403):
the numbers say how busy the hall is and which refusals it sends, which is nobody else's business.

What is counted as it happens (moves, acks, commits, refusals, quota hits, bots' thinking,
forwards) is the process's (:data:`..observe.REGISTRY`); what is read off the hall when asked
(rooms by game, status and pace; connections; leases held; the outbox's and the analyses' queues;
draining) is built here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from ipaddress import IPv4Network, IPv6Network, ip_address, ip_network
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response
from prometheus_client import CollectorRegistry

from .. import observe
from ..analyses import Analyses
from ..hall import Hall
from ..notify.outbox import Outbox
from ..quotas import Guard
from ..room import Room

Network = IPv4Network | IPv6Network
FORWARDED = (b"x-forwarded-for", b"forwarded", b"x-real-ip")  # set by a proxy in front of the hall

router = APIRouter(include_in_schema=False)


def networks(texts: list[str]) -> list[Network]:
    """``--metrics-from`` values (``10.0.0.0/8``, ``192.0.2.7``, ``::1``) as networks; ValueError
    in words for one that is not."""
    found = []
    for text in texts:
        try:
            found.append(ip_network(text.strip(), strict=False))
        except ValueError:
            raise ValueError(f"--metrics-from takes an address or a network such as 10.0.0.0/8, not {text!r}"
                             ) from None
    return found


def may_see(scope: Mapping[str, Any], allowed: list[Network]) -> bool:
    """Whether the request of ``scope`` may read the metrics: from loopback or an ``allowed``
    network, and not through a proxy."""
    if any(name in FORWARDED for name, _ in scope.get("headers") or ()):
        return False
    client = scope.get("client")
    try:
        address = ip_address(client[0]) if client else None
    except ValueError:  # a Unix socket's peer, say
        return False
    return address is not None and (address.is_loopback or any(address in network for network in allowed))


def pace(room: Room) -> str:
    """How a room is played, for the rooms' gauge: live, or turn-based (a move a day)."""
    return "turn-based" if room.pace.turn_based else "live"


def hall_registry(hall: Hall, guard: Guard, outbox: Outbox, analyses: Analyses) -> CollectorRegistry:
    """The gauges of ``hall`` (and of its outbox and analyses) read at each scrape."""
    reading = observe.Reading()

    def rooms() -> dict[tuple[str, ...], float]:
        counted = Counter((room.game.id, room.status, pace(room)) for room in list(hall.rooms.values())
                          if room.leading)
        return {key: float(count) for key, count in counted.items()}

    reading.gauge("parlour_rooms", "Rooms in memory that this process applies, by game, status and pace",
                  ("game", "status", "pace"), rooms)
    reading.gauge("parlour_websocket_connections", "Open WebSocket connections to the rooms", (),
                  lambda: {(): float(sum(guard.sockets.values()))})
    reading.gauge("parlour_room_watchers", "Connections that said hello to a room, spectators' included", (),
                  lambda: {(): float(sum(room.watchers for room in list(hall.rooms.values())))})
    reading.gauge("parlour_outbox_waiting", "Mail and push waiting to be sent (retries included), by channel",
                  ("channel",), lambda: {(channel,): float(n) for channel, n in outbox.waiting.items()})
    reading.gauge("parlour_analyses_queued", "Analyses of finished games asked for and not yet made", (),
                  lambda: {(): float(analyses.queued)})
    reading.gauge("parlour_analysis_worker_seconds", "Seconds the analysis worker spent judging moves (its CPU)"
                  " and waiting between them for a busy hall (hall/pacing.py), since it started", ("spent",),
                  lambda: {("judging",): analyses.shared.worked, ("waiting",): analyses.shared.waited})
    reading.gauge("parlour_draining", "1 while this process drains to stop or restart (SIGTERM)", (),
                  lambda: {(): float(hall.draining)})
    if hall.clustered:
        from ..cluster.node import Node

        node = hall.ownership
        assert isinstance(node, Node)
        reading.gauge("parlour_cluster_leases_held", "Room leases this hall process holds (the rooms it applies)",
                      (), lambda: {(): float(len(node.held))})
    return observe.hall_registry(reading)


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    if not may_see(request.scope, request.app.state.metrics_from):
        observe.refused("forbidden")
        return PlainTextResponse("the metrics are answered to requests from this machine that do not come through"
                                 " a proxy, and to the networks of `parlour serve --metrics-from`\n", status_code=403)
    return Response(observe.exposition(request.app.state.metrics), media_type=observe.CONTENT_TYPE)
