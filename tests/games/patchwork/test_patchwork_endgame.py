"""Patchwork's last turns played exactly (games/patchwork/endgame.py, docs/bots.md "Patchwork: the
endgame blind spot"): the hard level's search and the analysis no longer misjudge them."""

from __future__ import annotations

import json
import random
from typing import Any

from patchwork_states import make_state

from parlour.bots import create
from parlour.bots.analysis import Budget, judge, judging_bot
from parlour.bots.mcts import MctsBot
from parlour.games import get
from parlour.games.patchwork.endgame import MAX_SPACES_LEFT, Endgame, solve, spaces_left
from parlour.games.patchwork.engine import State, quilt_from_rows

GAME = get("patchwork")
SKIP = {"type": "skip"}
SEAT_1_QUILT = quilt_from_rows([".OO..O.O.", ".OO....O.", ".OOOO.OOO", ".OOOOOOO.", "...OOO.OO", "O.OOOOOOO",
                                "OO.OOO..O", "OO.OOO...", ".O.OOOO.."])
# Move 30 of the game of seed 22 between medium (seat 0, to move on space 42) and random (on 44),
# as `python -m parlour.cli.check_analysis patchwork --levels medium,random --seed 22 --turn 30` deals
# it: the analysis prefers patch 17 to patch 1 (played), and by perfect play rightly so.
MOVE_30 = make_state(
    circle=(1, 32, 17, 0, 31, 3, 2, 28, 7, 23, 30, 13, 24, 14, 8),
    quilts=(quilt_from_rows(["OOOOOO...", "OOOOOOOO.", "OOOOOOOOO", ".OOOOOOOO", ".OOO.OOOO", ".....O...",
                             "...OOO...", "....O..OO", "...OOOOOO"]), SEAT_1_QUILT),
    buttons=(20, 25), time=(42, 44), income=(11, 11), specials_left=(50,), last=0)
PATCH_17 = {"type": "play", "patch": 17, "rotation": 3, "flip": False, "x": 0, "y": 6}  # the analysis' choice
PATCH_31 = {"type": "play", "patch": 31, "rotation": 3, "flip": False, "x": 3, "y": 4}  # a winning answer
PATCH_0 = {"type": "play", "patch": 0, "rotation": 0, "flip": True, "x": 1, "y": 7}  # a losing one
# Seat 0 to move on space 45 (15 buttons), seat 1 on 46 (27): the game of seed 22 between medium
# (seat 0) and random, move 30 answered by the analysis' preferred patch 17, then patch 31 and a
# SKIP, as the hard level's bots played it on (docs/bots.md). Only SKIP wins; the hard level bought
# patch 3 in all 30 play-outs and lost each by one point.
BLIND_SPOT = make_state(
    circle=(3, 2, 28, 7, 23, 30, 13, 24, 14, 8, 1, 32, 0),
    quilts=(quilt_from_rows(["OOOOOO...", "OOOOOOOO.", "OOOOOOOOO", ".OOOOOOOO", ".OOOOOOOO", "...OOO...",
                             "O..OOO...", "OO..O..OO", "O..OOOOOO"]), SEAT_1_QUILT),
    buttons=(15, 27), time=(45, 46), income=(11, 11), specials_left=(50,), last=1)
PATCH_3 = {"type": "play", "patch": 3, "rotation": 1, "flip": True, "x": 1, "y": 5}  # what the hard level bought


def perfect_winner(state: State) -> int:
    """Who wins with perfect play, by the rules' own moves and result (every legal action)."""
    if GAME.is_over(state):
        result = GAME.result(state)
        assert result is not None and len(result.winners) == 1
        return result.winners[0]
    mover = state.mover
    assert mover is not None
    wins = any(perfect_winner(GAME.apply(state, mover, a)) == mover for a in GAME.legal_actions(state, mover))
    return mover if wins else 1 - mover


def test_the_hard_level_skips_where_buying_patch_3_lost_the_game() -> None:
    legal = GAME.legal_actions(BLIND_SPOT, 0)
    assert solve(BLIND_SPOT, 20_000) == ([1.0, 0.0], SKIP)
    # after patch 3, seat 1 wins by sewing patch 2 in the corner the report named (p2@6,6)
    assert solve(GAME.apply(BLIND_SPOT, 0, PATCH_3), 20_000) == (
        [0.0, 1.0], {"type": "play", "patch": 2, "rotation": 0, "flip": False, "x": 6, "y": 6})
    for seed in (0, 1):
        bot = create(GAME, "hard", seed=seed, time_limit=60.0)
        assert isinstance(bot, MctsBot)
        bot.max_iterations = 1000  # it bought patch 3 at 300, 1,000 and 3,000 iterations, every seed
        assert bot.choose(GAME.view(BLIND_SPOT, 0), 0, legal) == SKIP
    # and the analysis calls patch 3 the blunder it is, SKIP the move to play
    judged = judge(GAME, GAME.view(BLIND_SPOT, 0), 0, legal, PATCH_3, seed=5, turn=33)
    assert (judged.best, judged.win_chance_before, judged.win_chance_after, judged.label) == (
        SKIP, 1.0, 0.0, "blunder")


def test_the_analysis_calls_the_losing_purchase_after_patch_17_a_blunder() -> None:
    """After patch 17 (18 spaces left, 160,000 positions to settle: past the hard level's budget,
    within the analysis'), the hard level with the fitted chance at its leaves bought patch 0 and
    lost all 30 play-outs; the analysis called that purchase the best move (0.90)."""
    after_17 = GAME.apply(MOVE_30, 0, PATCH_17)
    state = GAME.apply(GAME.apply(after_17, 0, PATCH_31), 1, SKIP)
    assert (state.quilts, state.buttons, state.time, state.circle) == (
        BLIND_SPOT.quilts, BLIND_SPOT.buttons, BLIND_SPOT.time, BLIND_SPOT.circle)  # the same game
    legal = GAME.legal_actions(after_17, 0)
    analysis = judging_bot(GAME, 5)  # the analysis' budget (Budget.positions)
    analysis._set_depth(after_17)
    (played, lost), (best, won) = analysis._exact_values(after_17, 0, [PATCH_0], 16)
    assert (played, lost, won) == (PATCH_0, 0.0, 1.0) and best in legal and best["patch"] != 0
    hard = judging_bot(GAME, 5, Budget(positions=20_000))  # the hard level's: not settled, and misjudged
    hard._set_depth(after_17)
    [(_, estimate)] = hard._exact_values(after_17, 0, [PATCH_0], 16 * 48)  # as judge() searches it
    assert estimate > 0.5


def test_a_winning_move_outside_the_searchs_candidates_is_the_analysis_best() -> None:
    """When none of the search's few candidates wins but another move does, that move is the best."""
    bot = create(GAME, "hard", seed=3)
    assert isinstance(bot, MctsBot)
    losing = [PATCH_3]  # the only candidate judged: a sure loss; SKIP, which wins, is added
    judged = bot._exact_values(BLIND_SPOT, 0, losing, 16)
    assert judged == [(PATCH_3, 0.0), (SKIP, 1.0)]


def endgames(count: int, spaces: int) -> list[State]:
    """Positions with at most ``spaces`` spaces left for the two tokens, of games where each move is
    the greedy bot's, or one in four a random one."""
    found, seed = [], 0
    greedy = create(GAME, "medium")
    while len(found) < count:
        state, rng = GAME.start(2, {}, seed=seed), random.Random(seed)
        while not GAME.is_over(state) and spaces_left(state) > spaces:
            seat = min(GAME.to_act(state))
            move = (GAME.random_action(state, seat, rng) if rng.random() < 0.25
                    else greedy.choose(GAME.view(state, seat), seat, GAME.legal_actions(state, seat)))
            state = GAME.apply(state, seat, move)
        if not GAME.is_over(state):
            found.append(state)
        seed += 1
    return found


def test_the_endgame_search_agrees_with_every_legal_move_played_out() -> None:
    """Its own moves and its scoring against the engine's: the same winner in random endgames,
    and its winning move really wins."""
    for state in endgames(12, 12):
        solved = solve(state, 10**6)
        assert solved is not None
        values, move = solved
        winner = perfect_winner(state)
        assert values == [1.0 if seat == winner else 0.0 for seat in (0, 1)]
        assert move in GAME.legal_actions(state, state.mover)
        if winner == state.mover:
            assert perfect_winner(GAME.apply(state, state.mover, move)) == winner


def test_its_moves_are_the_legal_actions() -> None:
    search = Endgame(1)
    for state in endgames(6, 12) + [BLIND_SPOT]:
        seat = state.mover
        assert seat is not None
        ours = [SKIP if p is None else {"type": "play", "patch": p[1], "rotation": p[2].rotation,
                                        "flip": p[2].flip, "x": p[3], "y": p[4]}
                for p in search.moves(state, seat)]
        key = lambda a: json.dumps(a, sort_keys=True)  # noqa: E731
        assert sorted(map(key, ours)) == sorted(map(key, GAME.legal_actions(state, seat)))
        for p, action in zip(search.moves(state, seat), ours):
            assert GAME.advance(state, seat, p) == GAME.apply(state, seat, action)


def test_it_answers_within_its_budget_or_not_at_all_and_the_same_each_time() -> None:
    tight = Endgame(50)
    assert tight.winner(BLIND_SPOT) is None and tight.visited == 50
    answers: list[Any] = [solve(BLIND_SPOT, 20_000) for _ in range(2)]
    assert answers[0] == answers[1] is not None
    after_17 = GAME.apply(MOVE_30, 0, PATCH_17)  # not settled within the hard level's 20,000
    chosen = []
    for _ in range(2):
        bot = create(GAME, "hard", seed=7, time_limit=60.0)
        assert isinstance(bot, MctsBot)
        bot.max_iterations = 300
        chosen.append(bot.choose(GAME.view(after_17, 0), 0, GAME.legal_actions(after_17, 0)))
        assert bot.iterations == 300  # it searched after the question went unanswered
    assert chosen[0] == chosen[1]  # the same seed, the same choice
    far = endgames(1, 40)[0]
    assert spaces_left(far) > MAX_SPACES_LEFT and solve(far, 10**9) is None  # not even tried
