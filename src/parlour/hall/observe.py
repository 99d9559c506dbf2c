"""What the hall counts for whoever runs it: Prometheus metrics through prometheus-client.

    observe.moved("patchwork", "player")             # a move committed
    observe.ACK_SECONDS.observe(0.004)                # from a move's arrival to its ack
    text = observe.exposition(hall_registry)         # GET /metrics (hall/web/metrics.py)

The counters and histograms here count for the whole process, in :data:`REGISTRY`; what is read
off the hall when Prometheus asks (rooms live, connections, leases held) is a collector each app
registers in a registry of its own (:func:`hall_registry`), so that nothing on a move's path walks
the rooms. Each event costs one lock and one addition (a histogram: a bucket found by bisection).

The bottom of the hall's layers: every layer may count, and this module imports nothing of the hall.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

# no *_created series: half the lines, and Prometheus does without them
disable_created_metrics()  # type: ignore[no-untyped-call]
REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)  # the process's CPU time, memory and open files (Linux's /proc)

# seconds: a move's ack over a local network is milliseconds; a loaded hall's, up to seconds
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
PAUSE_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0)  # a stall of the whole process
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)

MOVES = Counter("parlour_moves", "Moves committed by the rooms this process applies, by game and by whom"
                " (player, bot, timer)", ("game", "by"), registry=REGISTRY)
ACK_SECONDS = Histogram("parlour_ack_seconds", "From a move's arrival on a WebSocket to its acknowledgement"
                        " (committed), in seconds", buckets=LATENCY_BUCKETS, registry=REGISTRY)
COMMIT_SECONDS = Histogram("parlour_store_commit_seconds", "One transaction of the store's group-commit writer"
                           " (many rooms' writes), in seconds", buckets=LATENCY_BUCKETS, registry=REGISTRY)
COMMITTED_WRITES = Counter("parlour_store_writes", "Writes committed by the store (a move, a chat line, a seat...)",
                           registry=REGISTRY)
FAILED_COMMITS = Counter("parlour_store_failed_writes", "Writes the store refused (a lost lease, the database"
                         " away...)", registry=REGISTRY)
REFUSALS = Counter("parlour_refusals", "Requests and messages refused, by the refusal's code (errors.py)",
                   ("code",), registry=REGISTRY)
QUOTA_HITS = Counter("parlour_quota_hits", "Rates and quotas that ran out, by name (quotas.py)", ("quota",),
                     registry=REGISTRY)
BOT_THINK_SECONDS = Histogram("parlour_bot_think_seconds", "How long a bot of the hall took to choose a move,"
                              " by game", ("game",), buckets=THINK_BUCKETS, registry=REGISTRY)
FORWARDS = Counter("parlour_cluster_forwards", "Commands sent to the hall process that applies their room, by"
                   " outcome (answered, refused, unreachable)", ("outcome",), registry=REGISTRY)
NOTIFICATIONS = Counter("parlour_notifications", "Mail and push the outbox handled, by channel (mail, push) and"
                        " outcome (sent; failed: retried later or given up; gone: the push subscription"
                        " ended)", ("channel", "outcome"), registry=REGISTRY)
DRAINS = Counter("parlour_drains", "Times this process stopped applying rooms to stop or restart",
                 registry=REGISTRY)

GC_PAUSE_SECONDS = Histogram("parlour_gc_pause_seconds", "Passes of Python's garbage collector, by generation:"
                             " every connection of the process waits for each", ("generation",),
                             buckets=PAUSE_BUCKETS, registry=REGISTRY)
LOOP_LAG_SECONDS = Histogram("parlour_event_loop_lag_seconds", "How late the event loop woke a task that was due,"
                             " sampled every 20 ms: what every connection of the process waited at that moment",
                             buckets=PAUSE_BUCKETS, registry=REGISTRY)
LOOP_SAMPLE_EVERY = 0.02  # seconds: 50 wake-ups a second, a few microseconds each

MOVE_LOG = logging.getLogger("parlour.moves")  # a line a move, for log shippers (parlour serve --log-format json)

_moves: dict[tuple[str, str], Any] = {}  # (game, by) -> its counter: labels() looked up once
_committed = [0]  # every move committed, read cheaply (hall/pacing.py: is the hall busy?)


def moved(game: str, by: str) -> None:
    """One move committed in a room of ``game``, by ``by`` (player, bot, timer)."""
    counter = _moves.get((game, by))
    if counter is None:
        counter = _moves[game, by] = MOVES.labels(game, by)
    counter.inc()
    _committed[0] += 1


def committed() -> int:
    """Moves committed by this process so far, all games together."""
    return _committed[0]


def acknowledged(room: str, seat: int, turn: int, latency: float) -> None:
    """A player's move on a WebSocket was acknowledged ``latency`` seconds after it arrived."""
    ACK_SECONDS.observe(latency)
    if MOVE_LOG.isEnabledFor(logging.INFO):
        MOVE_LOG.info("move acknowledged", extra={"room": room, "seat": seat, "turn": turn,
                                                  "latency": round(latency, 6)})


_collection: list[float] = []  # when the collector's pass under way started
_pauses = [GC_PAUSE_SECONDS.labels(str(generation)) for generation in range(3)]


def _collecting(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _collection[:] = [time.perf_counter()]
    elif _collection:
        _pauses[info["generation"]].observe(time.perf_counter() - _collection.pop())


def watch_collector() -> None:
    """Time every pass of the garbage collector from now on in this process (once is enough)."""
    if _collecting not in gc.callbacks:
        gc.callbacks.append(_collecting)


async def watch_loop() -> None:
    """Until cancelled, sample how late the event loop runs a task that is due
    (``parlour_event_loop_lag_seconds``): a callback that holds the loop, a pass of the collector
    or a process starved of its core shows here, whatever it was."""
    while True:
        due = time.perf_counter() + LOOP_SAMPLE_EVERY
        await asyncio.sleep(LOOP_SAMPLE_EVERY)
        LOOP_LAG_SECONDS.observe(max(0.0, time.perf_counter() - due))


def notified(channel: str, outcome: str) -> None:
    """The outbox handled an item of ``channel`` (mail, push): ``outcome`` sent, failed or gone."""
    NOTIFICATIONS.labels(channel, outcome).inc()


def refused(code: str) -> None:
    REFUSALS.labels(code).inc()


def quota_hit(quota: str) -> None:
    QUOTA_HITS.labels(quota).inc()


class Reading:
    """Gauges read off a running hall when Prometheus asks: each a name, a help text, its labels
    and a function returning ``{label values: value}``."""

    def __init__(self) -> None:
        self.gauges: list[tuple[str, str, tuple[str, ...], Callable[[], dict[tuple[str, ...], float]]]] = []

    def gauge(self, name: str, help_text: str, labels: Iterable[str],
              read: Callable[[], dict[tuple[str, ...], float]]) -> None:
        self.gauges.append((name, help_text, tuple(labels), read))


class _ReadingCollector(Collector):
    def __init__(self, reading: Reading) -> None:
        self.reading = reading

    def collect(self) -> Iterator[Metric]:
        for name, help_text, labels, read in self.reading.gauges:
            family = GaugeMetricFamily(name, help_text, labels=list(labels))
            for values, value in read().items():
                family.add_metric(list(values), value)
            yield family


def hall_registry(reading: Reading) -> CollectorRegistry:
    """A registry of one hall's gauges, read at each scrape."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_ReadingCollector(reading))
    return registry


def exposition(*registries: CollectorRegistry) -> bytes:
    """The process's metrics and those of ``registries``, in Prometheus' text format."""
    return b"".join(generate_latest(registry) for registry in (REGISTRY, *registries))


CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
