"""Tournaments: every table of bots plays its games with seats rotated (swapped, for two), seeded,
in parallel processes; then wins, draws, losses, scores and an OpenSkill rating per bot.

>>> [m.entrants for m in schedule("patchwork", [Entrant("a", "builtin:random"),
...     Entrant("b", "builtin:greedy")], players=2, games=2, seed=1)] == [
...     (Entrant("a", "builtin:random"), Entrant("b", "builtin:greedy")),
...     (Entrant("b", "builtin:greedy"), Entrant("a", "builtin:random"))]
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..core import ParlourError, derive
from .match import Entrant, MatchRecord, MatchTask, play_match


def schedule(game: str, entrants: list[Entrant], players: int, games: int, seed: int,
             options: dict[str, Any] | None = None, time_scale: float = 1.0,
             logs: str | None = None) -> list[MatchTask]:
    """Every ``players``-sized table of entrants plays ``games`` games. Game ``k`` of a table
    deals deal ``k // players`` (the same deals at every table) and rotates the seats by
    ``k % players``, so with a multiple of ``players`` games every bot plays every deal from
    every seat."""
    if len(entrants) < players:
        raise ParlourError(f"{players} players need at least {players} bots, not {len(entrants)}")
    names = [e.name for e in entrants]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise ParlourError(f"each --bot needs its own name; {', '.join(duplicated)} is given twice")
    tasks: list[MatchTask] = []
    for table in itertools.combinations(entrants, players):
        for k in range(games):
            turn = k % players
            seated = table[turn:] + table[:turn]
            deal_seed = derive(seed, "arena deal", k // players).getrandbits(63)
            tasks.append(MatchTask(len(tasks), game, seated, deal_seed, dict(options or {}), time_scale,
                                   logs, bot_seed=seed))
    return tasks


def run(tasks: list[MatchTask], jobs: int = 1, advance: Callable[[MatchRecord], None] | None = None,
        cluster: str | None = None) -> list[MatchRecord]:
    """Play every match, ``jobs`` at a time in worker processes, or on the Dask cluster at
    ``cluster`` (see :func:`on_cluster`); the records in match order."""
    records: list[MatchRecord] = []
    for record in (on_cluster(tasks, cluster) if cluster is not None else _played(tasks, jobs)):
        records.append(record)
        if advance is not None:
            advance(record)
    records.sort(key=lambda r: r.number)
    return records


def _played(tasks: list[MatchTask], jobs: int) -> Iterator[MatchRecord]:
    if jobs <= 1:
        yield from map(play_match, tasks)
        return
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap_unordered(play_match, tasks)


LOCAL = "local"


def on_cluster(tasks: list[MatchTask], address: str, connect_timeout: float = 10.0) -> Iterator[MatchRecord]:
    """Play every match on a Dask distributed cluster, yielding records as they finish.

    ``address`` is a scheduler's address (``tcp://host:8786``), or ``local`` / ``local:N`` for a
    cluster of N worker processes (default 2) on this machine's loopback, started and stopped here.
    A match is a pure function of its task, so a match that a lost worker leaves unfinished is
    played again elsewhere by the scheduler, with the same outcome for deterministic bots.
    """
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ParlourError("--cluster needs Dask distributed: pip install -e '.[cluster]'") from None
    local = address == LOCAL or address.startswith(LOCAL + ":")
    if local:
        workers = address.partition(":")[2] or "2"
        if not workers.isdigit() or not 1 <= int(workers) <= 64:
            raise ParlourError(f"--cluster local:N takes 1 to 64 workers, not {workers!r}")
        cluster: Any = LocalCluster(n_workers=int(workers), threads_per_worker=1, processes=True,
                                    host="127.0.0.1", dashboard_address=None)
        target: Any = cluster
    else:
        cluster, target = None, address
    try:
        try:
            client = Client(target, timeout=connect_timeout)
        except OSError as error:
            raise ParlourError(f"no Dask scheduler answered at {address!r} within {connect_timeout:g} s:"
                               f" {error}") from None
        with client:
            # pure=False: two tasks never share a result, even if they compare equal
            for future in as_completed(client.map(play_match, tasks, pure=False)):
                yield future.result()
    finally:
        if cluster is not None:
            cluster.close()


@dataclass
class Standing:
    """One bot's line of the results table."""

    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score_total: float = 0.0
    scored_games: int = 0  # games that ended normally: the only ones with real scores
    forfeits: int = 0  # matches this bot lost by failing
    moves: int = 0
    think_total: float = 0.0
    think_max: float = 0.0  # the longest turn after the first
    late: int = 0  # turns over the time limit (only in-process bots can be late and go on)
    mu: float = 0.0
    sigma: float = 0.0

    @property
    def average_score(self) -> float | None:
        return self.score_total / self.scored_games if self.scored_games else None

    @property
    def rating(self) -> float:
        """The conservative OpenSkill rating, mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    def win_rate_interval(self) -> tuple[float, float, float]:
        """(rate, low, high): the share of games won, draws as halves, with its 95% Wilson interval."""
        return wilson(self.wins + 0.5 * self.draws, self.games)


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float, float]:
    """The rate ``successes / trials`` and its Wilson score interval.

    >>> [round(x, 3) for x in wilson(150, 200)]
    [0.75, 0.686, 0.805]
    """
    if trials == 0:
        return 0.0, 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def standings(entrants: list[Entrant], records: list[MatchRecord]) -> list[Standing]:
    """Each entrant's results and rating, rated match by match in match order; best rating first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {e.name: model.rating(name=e.name) for e in entrants}
    table = {e.name: Standing(e.name) for e in entrants}
    for record in records:
        result = record.result
        ranks = result["ranks"]
        firsts = ranks.count(1)
        for seat, name in enumerate(record.names):
            s = table[name]
            s.games += 1
            if ranks[seat] == 1:
                if firsts == 1:
                    s.wins += 1
                else:
                    s.draws += 1
            else:
                s.losses += 1
            if record.forfeit is None:
                s.score_total += result["scores"][seat]
                s.scored_games += 1
            elif record.forfeit == seat:
                s.forfeits += 1
            s.moves += len(record.think[seat])
            s.think_total += sum(record.think[seat])
            s.think_max = max([s.think_max, *record.think[seat][1:]])  # the first turn has its own limit
            s.late += record.late[seat] if record.late else 0
        teams = model.rate([[ratings[name]] for name in record.names], ranks=list(ranks))
        for name, (rating,) in zip(record.names, teams):
            ratings[name] = rating
    for name, s in table.items():
        s.mu, s.sigma = ratings[name].mu, ratings[name].sigma
    return sorted(table.values(), key=lambda s: -s.rating)
