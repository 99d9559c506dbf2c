"""``parlour bench TARGET ...``: speed measurements (never asserted in tests).

Each target is a module ``bench_<target>`` of this package with ``register(targets)``, listed in
``TARGETS``; adding a target is one module and one line.
"""

from __future__ import annotations

import argparse
import importlib

TARGETS = (
    "abuse",
    "analysis",
    "bots",
    "engine",
    "hall",
    "referee",
    "rl",
)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("bench", help="measure speed", description="Measure how fast a part of Parlour runs.")
    targets = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    for name in TARGETS:
        importlib.import_module(f"{__package__}.bench_{name}").register(targets)


def machine() -> str:
    """One line on the conditions of a measurement: Python, CPU count and load."""
    import os
    import platform

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "unknown"
    return (f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores,"
            f" load average {load}")
