"""Where ``parlour bench hall``'s slowest acknowledgements waited, told by the processes themselves.

A client sees only that an ack came late. The hall times each ack from the moment it read the
move (``parlour_ack_seconds``) and each commit of its store; it samples how late its event loop
wakes a task that is due and times each pass of Python's garbage collector (hall/observe.py). The
bench reads those histograms off the hall's ``/metrics`` before and after the window, and the
client processes keep the same two samplers on themselves:

    before = hall_histograms(port)
    ...                                                   # the window
    counts = difference(hall_histograms(port), before)
    print(said(counts, client_counts))                    # "over 5 ms: ..."

An ack late at the client but quick in the hall waited before the hall read it (its loop was
busy: see its lag) or in the client (see the client's lag); what is over the line in each place
says which.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

LINE = 0.005  # seconds: what counts as slow (the --think goal is a p99 under 5 ms)

# histogram -> {label value (the generation, or ""): {upper bound: cumulative count}}
Counts = dict[str, dict[str, dict[float, float]]]
WATCHED = ("parlour_ack_seconds", "parlour_store_commit_seconds", "parlour_event_loop_lag_seconds",
           "parlour_gc_pause_seconds")


def histograms(families: Iterable[Any]) -> Counts:
    """The buckets of the watched histograms among ``families`` (prometheus-client's metric
    families: parsed from a scrape, or a registry's ``collect()``)."""
    counts: Counts = {}
    for family in families:
        if family.name not in WATCHED:
            continue
        for sample in family.samples:
            if sample.name.endswith("_bucket"):
                key = sample.labels.get("generation", "")
                bound = float(sample.labels["le"])
                counts.setdefault(family.name, {}).setdefault(key, {})[bound] = sample.value
    return counts


def hall_histograms(port: int) -> Counts:
    """The watched histograms of the hall on 127.0.0.1:``port`` (its ``/metrics``)."""
    import httpx
    from prometheus_client.parser import text_string_to_metric_families

    return histograms(text_string_to_metric_families(httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text))


def difference(after: Counts, before: Counts) -> Counts:
    """What was counted between two readings."""
    return {name: {key: {bound: value - before.get(name, {}).get(key, {}).get(bound, 0.0)
                         for bound, value in buckets.items()} for key, buckets in by_key.items()}
            for name, by_key in after.items()}


def over(counts: Counts, name: str, line: float = LINE) -> tuple[int, int]:
    """(how many over ``line`` seconds, how many in all) of histogram ``name``, every label together."""
    slow = total = 0.0
    for buckets in counts.get(name, {}).values():
        everything = buckets.get(float("inf"), 0.0)
        slow += everything - buckets.get(line, everything)
        total += everything
    return int(slow), int(total)


def worst(counts: Counts, name: str) -> str:
    """The bucket the longest observation fell in, in words ("10-20 ms"), or "" if none."""
    low, high = 0.0, 0.0  # the highest bucket with an observation in it
    for buckets in counts.get(name, {}).values():
        bounds = sorted(buckets)
        for below, bound in zip([0.0, *bounds[:-1]], bounds, strict=True):
            if buckets[bound] > buckets.get(below, 0.0) and bound > high:
                low, high = below, bound
    if not high:
        return ""
    return f"over {low * 1000:g} ms" if high == float("inf") else f"{low * 1000:g}-{high * 1000:g} ms"


def said(hall: Counts, clients: Counts) -> str:
    """One paragraph: in each place, what was over :data:`LINE`."""
    line = f"{LINE * 1000:g} ms"

    def stalls(counts: Counts) -> str:
        lag, samples = over(counts, "parlour_event_loop_lag_seconds")
        generations = []
        for generation, buckets in sorted(counts.get("parlour_gc_pause_seconds", {}).items()):
            alone = {"parlour_gc_pause_seconds": {generation: buckets}}
            collected, passes = over(alone, "parlour_gc_pause_seconds")
            if passes:
                generations.append(f"{passes:,} of generation {generation}, {collected:,} over {line}"
                                   + (f" (worst {worst(alone, 'parlour_gc_pause_seconds')})" if collected else ""))
        return (f"event loop late by over {line} in {lag:,} of {samples:,} samples"
                + (f" (worst {worst(counts, 'parlour_event_loop_lag_seconds')})" if lag else "")
                + ", collector passes: " + ("; ".join(generations) or "none"))

    acks, moves = over(hall, "parlour_ack_seconds")
    commits, transactions = over(hall, "parlour_store_commit_seconds")
    share = f" ({acks / moves:.1%})" if moves else ""
    return (f"over {line}: in the hall {acks:,} of {moves:,} acks{share} from reading the move to its ack,"
            f" {commits:,} of {transactions:,} store commits; the hall's {stalls(hall)};"
            f" the clients' {stalls(clients)}")
