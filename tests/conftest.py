import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

BROWSER = Path(__file__).parent / "browser"


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """The browser tests run last. Playwright's sync API keeps an event loop running in the main
    thread from the first browser test to the end of the run, and after that any test whose code
    calls ``asyncio.run`` (a CLI command run in-process, say) fails ("cannot be called from a running
    event loop") for a reason that has nothing to do with it. The order is otherwise unchanged."""
    items.sort(key=lambda item: BROWSER in item.path.parents)
