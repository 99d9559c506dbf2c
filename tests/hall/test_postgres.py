"""The same store code on PostgreSQL: a few of the hall's tests again, when a database is given.

    PARLOUR_TEST_POSTGRES_URL=postgresql+psycopg://user@127.0.0.1:5432/hall pytest tests/hall/test_postgres.py

(needs the ``postgres`` extra; the database's Parlour tables are dropped first).
"""

from __future__ import annotations

import os

import pytest
import sqlalchemy as sa

from parlour.hall.store import metadata

URL = os.environ.get("PARLOUR_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not URL, reason="PARLOUR_TEST_POSTGRES_URL names no PostgreSQL database")


@pytest.fixture
def db_url() -> str:
    assert URL is not None
    engine = sa.create_engine(URL)
    metadata.drop_all(engine)
    engine.dispose()
    return URL


from test_durability import (test_a_restarted_hall_rebuilds_every_room_from_its_actions,  # noqa: E402,F401
                             test_an_ack_comes_only_after_the_action_is_in_the_store)
from test_memory import test_a_restarted_hall_loads_finished_games_only_when_asked_for  # noqa: E402,F401
from test_secrets import (test_a_move_hidden_from_a_seat_reaches_it_as_nothing,  # noqa: E402,F401
                          test_each_seat_gets_only_its_own_secrets_and_spectators_none)
from test_ws import (test_a_game_against_two_bots_runs_to_its_scores_and_its_replay,  # noqa: E402,F401
                     test_every_bad_input_is_refused_in_words_and_changes_nothing,
                     test_of_two_racing_acts_exactly_one_applies)
