"""cli/bench_stalls.py: the bench reads where slow acks waited off the hall's histograms."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Histogram

from parlour.cli.bench_stalls import difference, histograms, over, said, worst

BUCKETS = (0.001, 0.005, 0.01, 0.05)


def reading(acks: list[float], lags: list[float], passes: dict[str, list[float]]) -> dict:
    registry = CollectorRegistry()
    ack = Histogram("parlour_ack_seconds", "", buckets=BUCKETS, registry=registry)
    lag = Histogram("parlour_event_loop_lag_seconds", "", buckets=BUCKETS, registry=registry)
    gc = Histogram("parlour_gc_pause_seconds", "", ("generation",), buckets=BUCKETS, registry=registry)
    Histogram("parlour_other_seconds", "", buckets=BUCKETS, registry=registry).observe(1.0)
    for value in acks:
        ack.observe(value)
    for value in lags:
        lag.observe(value)
    for generation, values in passes.items():
        for value in values:
            gc.labels(generation).observe(value)
    return histograms(registry.collect())


def test_what_is_over_the_line_is_counted_in_each_place_and_the_worst_named():
    before = reading([0.002] * 10, [0.0001] * 5, {"0": [0.0005]})
    after = reading([0.002] * 10 + [0.0004] * 96 + [0.007] * 3 + [0.03], [0.0001] * 50 + [0.02],
                    {"0": [0.0005] * 4 + [0.008], "2": [0.04]})
    window = difference(after, before)
    assert "parlour_other_seconds" not in window
    assert over(window, "parlour_ack_seconds") == (4, 100)  # 3 of 7 ms and one of 30 ms
    assert over(window, "parlour_event_loop_lag_seconds") == (1, 46)
    assert over(window, "parlour_gc_pause_seconds") == (2, 5)  # gen0's 8 ms, gen2's 40 ms
    assert worst(window, "parlour_ack_seconds") == "10-50 ms"
    assert worst(reading([], [], {}), "parlour_ack_seconds") == ""
    assert worst(reading([2.0], [], {}), "parlour_ack_seconds") == "over 50 ms"
    text = said(window, reading([], [0.0001] * 3, {"1": [0.002]}))
    assert "in the hall 4 of 100 acks (4.0%)" in text
    assert "the hall's event loop late by over 5 ms in 1 of 46 samples (worst 10-50 ms)" in text
    assert "4 of generation 0, 1 over 5 ms (worst 5-10 ms); 1 of generation 2, 1 over 5 ms (worst 10-50 ms)" in text
    assert "the clients' event loop late by over 5 ms in 0 of 3 samples, collector passes: 1 of generation 1, 0 over" \
        in text
