"""The same store code on PostgreSQL: a few of the hall's tests again.

They run on PARLOUR_TEST_POSTGRES_URL's database when it is set (its Parlour tables are dropped
first), else on a throwaway server started for the session (tests/hall/postgres_server.py):

    PARLOUR_TEST_POSTGRES_URL=postgresql+psycopg://user@127.0.0.1:5432/hall pytest tests/hall/test_postgres.py
"""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from parlour.hall.store import metadata


def empty_database(url: str) -> str:
    """``url`` once the store's tables (and their schema version) are gone from it."""
    engine = sa.create_engine(url)
    metadata.drop_all(engine)
    with engine.begin() as connection:
        connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
    engine.dispose()
    return url


@pytest.fixture
def db_url(postgres_url: str) -> str:
    return empty_database(postgres_url)


from test_durability import (  # noqa: E402,F401
    test_a_restarted_hall_rebuilds_every_room_from_its_actions,
    test_an_ack_comes_only_after_the_action_is_in_the_store,
)
from test_memory import test_a_restarted_hall_loads_finished_games_only_when_asked_for  # noqa: E402,F401
from test_players import (  # noqa: E402,F401
    test_a_game_between_signed_in_players_and_a_bot_is_rated_in_the_store,
    test_a_seat_given_to_a_bot_mid_game_forfeits_for_its_player_and_rewards_nobody,
    test_bad_names_and_passwords_get_a_reason_and_make_no_account,
    test_change_password_needs_the_current_one_and_ends_the_other_sessions,
    test_the_password_is_nowhere_in_the_store_the_logs_or_any_answer,
)
from test_secrets import (  # noqa: E402,F401
    test_a_move_hidden_from_a_seat_reaches_it_as_nothing,
    test_each_seat_gets_only_its_own_secrets_and_spectators_none,
)
from test_ws import (  # noqa: E402,F401
    test_a_game_against_two_bots_runs_to_its_scores_and_its_replay,
    test_every_bad_input_is_refused_in_words_and_changes_nothing,
    test_of_two_racing_acts_exactly_one_applies,
)
