"""A representative part of the hall's tests again, each app one of several hall processes on
PostgreSQL and Redis (hall/cluster/node.py): leases taken and fenced, changes published on Redis,
rooms caught up from the store. All of tests/hall runs that way with

    PARLOUR_TEST_HALL=cluster .venv/bin/python -m pytest tests/hall

(docs/scaling.md); tests/hall/test_several_halls.py runs several real processes.
"""

from __future__ import annotations

import pytest


@pytest.fixture
def hall_redis(request: pytest.FixtureRequest) -> str:
    return request.getfixturevalue("session_redis").url


from test_actions import *  # noqa: E402,F401,F403
from test_durability import test_an_ack_comes_only_after_the_action_is_in_the_store  # noqa: E402,F401
from test_leaving import *  # noqa: E402,F401,F403
from test_memory import *  # noqa: E402,F401,F403
from test_players import *  # noqa: E402,F401,F403
from test_rest import *  # noqa: E402,F401,F403
from test_secrets import *  # noqa: E402,F401,F403
from test_table import *  # noqa: E402,F401,F403
from test_ws import *  # noqa: E402,F401,F403
