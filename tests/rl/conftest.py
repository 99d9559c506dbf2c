"""The learning-agent interfaces are an optional extra (``pip install -e '.[rl]'``; ``make test``
installs it): without it these tests are skipped, not failed."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
