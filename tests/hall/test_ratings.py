"""Ratings settled at the same moment by two hall processes of a cluster (PostgreSQL): neither
game's result is lost, and a new player's first two games both count."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from test_leases import WITHIN, room, wait_until_blocked_on_a_lock
from test_limits import run_apart
from test_postgres import empty_database

from parlour.hall.ratings import model, settlement
from parlour.hall.store import SqlStore, accounts_table, ratings_table
from parlour.hall.store.ratings import settle

BOTS = [{"kind": "bot", "name": "Greedy", "bot": "greedy"}, {"kind": "bot", "name": "Random", "bot": "random"}]


@pytest.fixture
def store(postgres_url: str) -> Iterator[SqlStore]:
    store = SqlStore(empty_database(postgres_url))
    yield store
    store.close()


def settle_at_once(store: SqlStore, first: str, second: str) -> None:
    """Settle two finished games of the same two bots, the second while the first's transaction is
    still open (as two processes would), and let the first commit only once the second waits."""
    for code in (first, second):
        run_apart(store.create_room(room(code)))
    failures: list[BaseException] = []

    def other_process() -> None:
        try:
            with store.engine.begin() as connection:
                settle(connection, settlement(second, "patchwork", BOTS, [2, 1], 2.0))
        except BaseException as error:  # noqa: BLE001 - reported by the test's thread below
            failures.append(error)

    with store.engine.connect() as connection:
        transaction = connection.begin()
        settle(connection, settlement(first, "patchwork", BOTS, [1, 2], 1.0))
        racer = threading.Thread(target=other_process)
        racer.start()
        wait_until_blocked_on_a_lock(store.engine)  # the second game waits for the first's rows
        transaction.commit()
    racer.join(timeout=WITHIN)
    assert not racer.is_alive() and failures == []


def games_rated(store: SqlStore) -> dict[str, int]:
    query = sa.select(accounts_table.c.name, ratings_table.c.games).join(
        ratings_table, ratings_table.c.account == accounts_table.c.id)
    return store.read(lambda connection: dict(connection.execute(query).all()))


def test_two_games_of_new_players_settled_at_once_both_count(store):
    settle_at_once(store, "ROOM1", "ROOM2")  # the bots' accounts and ratings are made by both
    assert games_rated(store) == {"bot:greedy": 2, "bot:random": 2}


def test_two_games_of_rated_players_settled_at_once_both_count(store):
    settle_at_once(store, "ROOM1", "ROOM2")
    settle_at_once(store, "ROOM3", "ROOM4")  # now every row exists: the second reads the first's
    assert games_rated(store) == {"bot:greedy": 4, "bot:random": 4}
    greedy, random = model().rating(), model().rating()  # the four games rated one after another
    for winner_first in (True, False, True, False):
        ranks = [1, 2] if winner_first else [2, 1]
        [greedy], [random] = model().rate([[greedy], [random]], ranks=ranks)
    query = sa.select(accounts_table.c.name, ratings_table.c.mu).join(
        ratings_table, ratings_table.c.account == accounts_table.c.id)
    stored = store.read(lambda connection: dict(connection.execute(query).all()))
    assert stored == {"bot:greedy": pytest.approx(greedy.mu), "bot:random": pytest.approx(random.mu)}
