"""Tournaments on a Dask distributed cluster (a LocalCluster on loopback): the same records and
replays as worker processes for the same seed, and a clear refusal when no scheduler answers."""

from __future__ import annotations

import json
import socket

import pytest

from parlour.arena import tournament
from parlour.arena.match import Entrant
from parlour.cli import main
from parlour.core import ParlourError

pytest.importorskip("distributed", reason="the 'cluster' extra (Dask distributed) is not installed")

ENTRANTS = [Entrant("greedy", "builtin:greedy"), Entrant("random", "builtin:random")]


def essentials(records):
    return [(r.number, r.names, json.dumps(r.replay, sort_keys=True), r.ended, r.forfeit, r.moves) for r in records]


def test_a_cluster_plays_the_same_matches_as_worker_processes():
    tasks = tournament.schedule("patchwork", ENTRANTS, players=2, games=4, seed=5)
    seen = []
    on_cluster = tournament.run(tasks, advance=seen.append, cluster="local:2")
    in_processes = tournament.run(tasks, jobs=2)
    assert essentials(on_cluster) == essentials(in_processes)
    assert sorted(r.number for r in seen) == [0, 1, 2, 3]  # progress heard of every match
    assert [r.number for r in on_cluster] == [0, 1, 2, 3]


def test_the_arena_command_takes_a_cluster(tmp_path, capsys):
    code = main(["arena", "patchwork", "--bot", "g=builtin:greedy", "--bot", "r=builtin:random", "--games", "2",
                 "--seed", "3", "--cluster", "local:1", "--replays", str(tmp_path)])
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["patchwork-0000.json", "patchwork-0001.json"]
    assert "2 games" in capsys.readouterr().out


def test_no_scheduler_at_the_address_is_refused_in_words():
    with socket.socket() as s:  # a port that nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    tasks = tournament.schedule("patchwork", ENTRANTS, players=2, games=2, seed=1)
    with pytest.raises(ParlourError, match="no Dask scheduler answered"):
        list(tournament.on_cluster(tasks, f"tcp://127.0.0.1:{port}", connect_timeout=1))
    for bad in ("local:0", "local:x", "local:999"):
        with pytest.raises(ParlourError, match="1 to 64 workers"):
            list(tournament.on_cluster(tasks, bad))
