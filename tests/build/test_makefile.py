"""The Makefile: `make run` installs only what playing needs (the base package, no extras);
`make test` installs the extras too (issue 28.13). Read from `make -n -B`, which prints the
commands without running them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def planned(target: str) -> list[str]:
    """The pip installs `make TARGET` would run on a fresh checkout."""
    out = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if "pip install" in line and "--upgrade pip" not in line]


def test_make_run_installs_the_base_package_alone():
    installs = planned("run")
    assert installs, "make run installs nothing"
    assert all("-e ." in line and "[" not in line for line in installs), installs


def test_make_test_installs_every_extra():
    installs = " ".join(planned("test"))
    for extra in ("test", "cluster", "postgres", "rl"):
        assert extra in installs.split("[", 1)[1], (extra, installs)
