"""The analysis of a finished game (parlour.bots.analysis, ``parlour analyse``): every move judged
from what its seat knew, the same judgement for the same view whatever the seat could not see, and
labels that tell a random player's moves from a strong one's."""

from __future__ import annotations

import copy
import json
import math
import multiprocessing
import os
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from parlour.bots import create
from parlour.bots.analysis import LABELS, Budget, analyse, judge, judging_bot, label, move_seed, summary
from parlour.bots.mcts import MctsBot
from parlour.cli import main
from parlour.cli.bench_analysis import bots_game
from parlour.core import Game
from parlour.core.replays import BadReplay, dumps, record
from parlour.games import get
from parlour.games.patchwork.search import CHANCE_WEIGHTS, seat_features

SMALL = Budget(rounds=6, width=3)


def played(game: Game[Any], levels: list[str], seed: int, limit: int = 400) -> dict[str, Any]:
    """A replay of ``game`` between bots of ``levels`` (a quick one: at most ``limit`` moves)."""
    players = len(levels)
    state = game.start(players, {}, seed=seed)
    bots = [create(game, level, seed=seed * 10 + i, time_limit=0.02) for i, level in enumerate(levels)]
    actions = []
    while not game.is_over(state) and len(actions) < limit:
        seat = min(game.to_act(state))
        action = bots[seat].choose(game.view(state, seat), seat, game.legal_actions(state, seat))
        actions.append((seat, action))
        state = game.apply(state, seat, action)
    return record(game, players, game.resolve_options({}, players), seed, [f"p{i}" for i in range(players)],
                  actions, game.result(state))


def test_labels_follow_the_loss_of_winning_chance() -> None:
    assert [label(loss, False) for loss in (0.0, 0.01, 0.03, 0.05, 0.09, 0.10, 0.19, 0.2, 0.9)] == [
        "best", "best", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    assert label(0.3, True) == "best"  # the search's own choice is never worse than itself


@pytest.mark.parametrize("game_id", ["patchwork", "dinosaurs", "palace", "empire", "prestige_cities"])
def test_every_move_is_judged_the_same_way_twice(game_id: str) -> None:
    game = get(game_id)
    replay = played(game, ["random", "medium"], seed=3, limit=60)
    judged = analyse(game, replay, budget=SMALL)
    assert [j.turn for j in judged] == list(range(1, len(replay["actions"]) + 1))
    for j, (seat, action) in zip(judged, replay["actions"]):
        assert j.seat == seat and j.action == game.normalise(action)
        assert 0.0 <= j.win_chance_after <= j.win_chance_before <= 1.0
        assert j.label in LABELS
        if j.best == j.action:
            assert j.label == "best"
    assert [j.to_json() for j in analyse(game, replay, budget=SMALL)] == [j.to_json() for j in judged]
    only = analyse(game, replay, seat=1, budget=SMALL)
    assert [j.to_json() for j in only] == [j.to_json() for j in judged if j.seat == 1]


@pytest.mark.parametrize("game_id", ["palace", "dinosaurs", "empire"])
def test_a_judgement_does_not_change_when_what_the_seat_could_not_see_is_resampled(game_id: str) -> None:
    """The same view and seed give the same judgement whether the hidden cards are the true ones
    or any others consistent with the view."""
    game = get(game_id)
    replay = played(game, ["medium", "medium"], seed=11, limit=40)
    state = game.start(2, replay["options"], replay["seed"])
    rng = random.Random(5)
    differed = checked = 0
    for turn, (seat, action) in enumerate(replay["actions"], 1):
        legal = game.legal_actions(state, seat)
        if len(legal) > 1 and turn % 3 == 1:
            view = game.view(state, seat)
            other = game.sample(view, seat, rng)  # another deal that this seat could not tell apart
            assert game.view(other, seat) == view
            differed += game.state_to_json(other) != game.state_to_json(state)
            seed = move_seed(replay["seed"], turn)
            truth = judge(game, view, seat, legal, action, seed, turn, SMALL)
            guess = judge(game, game.view(other, seat), seat, game.legal_actions(other, seat), action, seed,
                          turn, SMALL)
            assert guess == truth
            checked += 1
        state = game.apply(state, seat, game.normalise(action))
    assert checked >= 3 and differed >= 1  # the hidden part did change, and it changed nothing


@pytest.mark.parametrize("game_id", ["dinosaurs", "patchwork"])
def test_random_moves_are_judged_worse_than_strong_ones(game_id: str) -> None:
    game = get(game_id)
    bad = {"random": 0, "hard": 0}
    moves = {"random": 0, "hard": 0}
    for seed in (1, 2, 3):
        levels = ["random", "hard"] if seed % 2 else ["hard", "random"]
        replay = played(game, levels, seed=seed)
        for j in analyse(game, replay, budget=Budget(rounds=8, width=4)):
            if j.choices > 1:
                moves[levels[j.seat]] += 1
                bad[levels[j.seat]] += j.label in ("mistake", "blunder")
    assert bad["random"] / moves["random"] > 2 * bad["hard"] / moves["hard"]


def test_in_patchwork_a_move_is_judged_the_same_whatever_is_judged_beside_it() -> None:
    """Each candidate gets a search of its own, of the same size: a move's chance does not depend
    on how many others are weighed beside it (in one shared tree, the search's favourites were
    searched deeper and the rest judged on shallower leaves)."""
    game = get("patchwork")
    replay = played(game, ["medium", "medium"], seed=8, limit=12)
    state = game.start(2, {}, replay["seed"])
    for seat, action in replay["actions"]:
        state = game.apply(state, seat, game.normalise(action))
    seat = min(game.to_act(state))
    legal = game.legal_actions(state, seat)
    move = legal[len(legal) // 2]  # most likely none of the search's own candidates
    alone = dict((json.dumps(a, sort_keys=True), v) for a, v in
                 judging_bot(game, 1).appraise(game.view(state, seat), seat, legal, move, rounds=3, width=1))
    among = dict((json.dumps(a, sort_keys=True), v) for a, v in
                 judging_bot(game, 1).appraise(game.view(state, seat), seat, legal, move, rounds=3, width=5))
    key = json.dumps(move, sort_keys=True)
    assert len(among) > len(alone) == 2 and alone[key] == among[key]


def test_patchwork_positions_are_judged_by_a_fitted_chance_of_winning() -> None:
    """The analysis judges an unfinished Patchwork position by the chance fitted to who won
    (search.CHANCE_WEIGHTS), not by the hard level's projected-score evaluation."""
    game = get("patchwork")
    hooks = game.search
    state = game.start(2, {}, seed=1)
    assert judging_bot(game, 0)._evaluate == hooks.win_chance
    after = game.apply(state, 0, {"type": "skip"})  # 0 moves one space and takes a button for it
    richer = copy.copy(after)
    richer.buttons = (after.buttons[0] + 10, after.buttons[1])
    chance = hooks.win_chance(after)
    assert abs(sum(chance) - 1.0) < 1e-9 and 0.0 < chance[0] < hooks.win_chance(richer)[0] < 1.0
    for s in (state, after, richer):  # the fitted logit, the same for either seat
        features = [seat_features(s, 0), seat_features(s, 1)]
        lead = sum(w * (a - b) for w, a, b in zip(CHANCE_WEIGHTS, *features))
        assert abs(hooks.win_chance(s)[0] - 1.0 / (1.0 + math.exp(-lead))) < 1e-12


def steady_game(game: Game[Any], levels: list[str], seed: int) -> dict[str, Any]:
    """A replay between bots of ``levels`` that does not depend on the clock: the hard level stops
    its search after a fixed number of iterations, so the same seed gives the same game."""
    bots = [create(game, level, seed=seed * 10 + i, time_limit=60.0) for i, level in enumerate(levels)]
    for bot in bots:
        if isinstance(bot, MctsBot):
            bot.max_iterations = 300
    return bots_game(game, bots, seed, levels)[0]


def judged_moves(task: tuple[list[str], int]) -> list[tuple[int, str, int]]:
    """Every move of the steady Patchwork game of ``task`` (levels, seed) judged at the default
    budget: (seat, label, choices) each. A worker process's part of the next test."""
    levels, seed = task
    game = get("patchwork")
    return [(j.seat, j.label, j.choices) for j in analyse(game, steady_game(game, levels, seed))]


@pytest.mark.slow
def test_patchwork_judges_random_worse_than_medium_and_medium_worse_than_hard() -> None:
    """Item 5 of issue 33 on a small sample: every pair of levels plays from both seats of three
    deals, and the share of each level's moves (those with a choice) called a mistake or a blunder
    falls from random to medium to hard (over 100 games: docs/bots.md). It failed before each
    candidate got a search of its own (the greedy medium bot was judged as often wrong as random).
    The 18 games are analysed on every core at once (each game is the same wherever it is played:
    the hard level stops at a number of iterations, and each move's judgement follows from its seed)."""
    tasks = [(levels, seed) for seed in (1, 2, 3)
             for pair in (["random", "medium"], ["medium", "hard"], ["random", "hard"])
             for levels in (pair, pair[::-1])]
    workers = min(len(tasks), os.cpu_count() or 1)
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        games = list(pool.map(judged_moves, tasks))
    bad = dict.fromkeys(("random", "medium", "hard"), 0)
    moves = dict.fromkeys(bad, 0)
    for (levels, _), judged in zip(tasks, games):
        for seat, called, choices in judged:
            if choices > 1:
                moves[levels[seat]] += 1
                bad[levels[seat]] += called in ("mistake", "blunder")
    share = {level: bad[level] / moves[level] for level in bad}
    assert share["random"] > share["medium"] > share["hard"], share


def test_parlour_analyse_prints_a_table_or_json(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    game = get("dinosaurs")
    replay = played(game, ["random", "medium"], seed=4)
    path = tmp_path / "game.json"
    path.write_text(dumps(replay))
    assert main(["analyse", str(path), "--format", "json", "--rounds", "4"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["moves"]) == len(replay["actions"])
    assert set(out["moves"][0]) >= {"turn", "seat", "action", "best", "win_chance_before", "win_chance_after",
                                    "label", "best_words"}
    assert all(isinstance(m["best_words"], str) and "·" not in m["best_words"] for m in out["moves"])  # in words
    judged = analyse(game, replay, budget=Budget(rounds=4))
    assert [s["blunder"] for s in out["summary"]] == [c["blunder"] for c in summary(judged, 2)]
    assert main(["analyse", str(path), "--seat", "0", "--rounds", "4"]) == 0
    table = capsys.readouterr().out
    assert "every move judged" in table and "p0:" in table and "p1:" not in table


def test_bad_input_is_refused_in_words(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    game = get("patchwork")
    replay = played(game, ["random", "random"], seed=2, limit=10)
    path = tmp_path / "game.json"
    path.write_text(dumps(replay))
    assert main(["analyse", str(path), "--seat", "2"]) == 2
    assert "seats 0 to 1, not 2" in capsys.readouterr().err
    assert main(["analyse", str(path), "--rounds", "0"]) == 2
    assert "--rounds" in capsys.readouterr().err
    broken = dict(replay, actions=[[0, {"type": "nonsense"}], *replay["actions"]])
    path.write_text(dumps(broken))
    assert main(["analyse", str(path)]) == 2
    assert "move 1 of the replay does not apply" in capsys.readouterr().err
    with pytest.raises(BadReplay):
        analyse(game, {"format": "nope"})
