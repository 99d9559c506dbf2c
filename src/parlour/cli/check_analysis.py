"""Checking the analysis of a move against play-outs (docs/bots.md, issue 33): is the move the analysis
prefers really better than the one played, when both players play on as a search bot does?

The game is one of ``parlour bench analysis``'s (the levels, the seed, each bot's seconds a move); the
position is the one before move ``--turn``. The analysis judges the move (its default budget), then
the analysis' preferred move and the move played are each played out ``--playouts`` times by two
search bots (the hard level's search, each move ``--iterations LOW,HIGH`` drawn at random; the same
draws after both moves), with the hard level's evaluation at their leaves or (``--leaves fitted``)
the game's fitted chance of winning, the one the analysis judges by. ``--duel N`` instead plays N
deals, seats swapped, between a bot of each kind of leaves::

    python -m parlour.cli.check_analysis patchwork --levels random,medium --seed 6 --turn 16 --leaves fitted
    python -m parlour.cli.check_analysis patchwork --duel 100 --seed 40000 --iterations 300,600
    python -m parlour.cli.check_analysis patchwork --duel 50 --seconds 0.05   # under the clock
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any


def hard_bot(game: Any, seed: int, fitted: bool, seconds: float = 1e6) -> Any:
    """The hard level's search, stopped by iterations (:func:`play_on` sets them) or after ``seconds``;
    ``fitted``: the game's fitted chance of winning (``win_chance`` on its search hooks) at its
    leaves instead of its evaluation."""
    from ..bots.mcts import MctsBot

    bot = MctsBot(game, seed=seed, time_limit=seconds)
    if fitted:
        bot._evaluate = game.search.win_chance
    return bot


def play_on(game: Any, state: Any, seed: int, fitted: tuple[bool, bool], iterations: tuple[int, int],
            seconds: float | None = None) -> list[float]:
    """Each seat's share of the win once two hard bots (``fitted``: the leaves of each) finish the
    game, each move searched for ``iterations`` (drawn between the two), or for ``seconds``."""
    draws = random.Random(seed)
    bots = [hard_bot(game, seed * 2 + seat, fitted[seat], seconds or 1e6) for seat in range(2)]
    while not game.is_over(state):
        seat = min(game.to_act(state))
        count = draws.randint(*iterations)
        bots[seat].max_iterations = None if seconds else count
        move = bots[seat].choose(game.view(state, seat), seat, game.legal_actions(state, seat))
        state = game.apply(state, seat, move)
    winners = game.result(state).winners
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(2)]


def check(game: Any, levels: list[str], seed: int, turn: int, think: float, playouts: int, fitted: bool,
          iterations: tuple[int, int]) -> dict[str, Any]:
    """Move ``turn`` of the levels' game judged by the analysis, and its two moves played out."""
    from ..bots import create
    from ..bots.analysis import judge, move_seed
    from .bench_analysis import bots_game

    bots = [create(game, level, seed=seed * 7 + i, time_limit=think) for i, level in enumerate(levels)]
    replay, _ = bots_game(game, bots, seed, levels)
    if not 1 <= turn <= len(replay["actions"]):
        raise SystemExit(f"that game has moves 1 to {len(replay['actions'])}, not {turn}")
    state = game.start(2, {}, seed=seed)
    for mover, action in replay["actions"][:turn - 1]:
        state = game.apply(state, mover, action)
    mover, action = replay["actions"][turn - 1]
    judged = judge(game, game.view(state, mover), mover, game.legal_actions(state, mover), action,
                   move_seed(seed, turn), turn)
    shares = {}
    for name, move in (("best", judged.best), ("played", judged.action)):
        after = game.apply(state, mover, move)
        shares[name] = sum(play_on(game, after, k, (fitted, fitted), iterations)[mover]
                           for k in range(playouts)) / playouts
    return {"judged": judged.to_json(), "mover": levels[mover], "playouts": shares}


def duel(game: Any, deals: int, seed: int, iterations: tuple[int, int], seconds: float | None = None
         ) -> tuple[float, int]:
    """The fitted-leaves bot's wins (ties shared) in ``2 x deals`` games against the hard level's."""
    won = 0.0
    for deal in range(deals):
        for fitted_seat in (0, 1):
            start = game.start(2, {}, seed=seed + deal)
            won += play_on(game, start, seed + deal, (fitted_seat == 0, fitted_seat == 1), iterations,
                           seconds)[fitted_seat]
    return won, 2 * deals


def main(argv: list[str] | None = None) -> int:
    from ..games import get

    parser = argparse.ArgumentParser(prog="python -m parlour.cli.check_analysis",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("game", help="a two-player game whose hooks have a fitted win_chance (patchwork)")
    parser.add_argument("--levels", default="random,medium", help="the two levels of the game checked")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turn", type=int, default=1, help="the move checked (counting from 1)")
    parser.add_argument("--think", type=float, default=0.05, help="seconds a move for a thinking level (default 0.05)")
    parser.add_argument("--playouts", type=int, default=30, help="play-outs after each of the two moves (default 30)")
    parser.add_argument("--leaves", choices=("evaluation", "fitted"), default="evaluation",
                        help="what the playing bots judge their leaves by (default the hard level's evaluation)")
    parser.add_argument("--iterations", default="400,1200",
                        help="LOW,HIGH: each bot's iterations a move (default 400,1200)")
    parser.add_argument("--duel", type=int, default=0, metavar="DEALS", help="play DEALS deals, seats swapped, instead")
    parser.add_argument("--seconds", type=float, default=None,
                        help="with --duel: each move searched for this long, as the hall's bots are, not by iterations")
    args = parser.parse_args(argv)
    game = get(args.game)
    low, high = (int(x) for x in args.iterations.split(","))
    if getattr(game.search, "win_chance", None) is None or game.max_players != 2 or not 1 <= low <= high:
        parser.error("a two-player game with a fitted win_chance, and 1 <= LOW <= HIGH iterations")
    if args.seconds is not None and not 0 < args.seconds <= 60:
        parser.error(f"--seconds is above 0 and at most 60, not {args.seconds}")
    began = time.process_time()
    if args.duel:
        won, games = duel(game, args.duel, args.seed, (low, high), args.seconds)
        searched = f"{args.seconds:g} s a move" if args.seconds else f"{low}-{high} iterations a move"
        print(f"the fitted chance at the leaves won {won:g} of {games} games against the hard level's evaluation"
              f" ({won / games:.1%}; {searched}); {time.process_time() - began:.0f} s of CPU")
        return 0
    found = check(game, args.levels.split(","), args.seed, args.turn, args.think, args.playouts,
                  args.leaves == "fitted", (low, high))
    judged = found["judged"]
    print(f"move {args.turn} ({found['mover']}): the analysis prefers {judged['best']}"
          f" ({judged['win_chance_before']:.3f})"
          f" to {judged['action']} ({judged['win_chance_after']:.3f}), {judged['label']}")
    leaves = "the fitted chance of winning" if args.leaves == "fitted" else "the hard level's evaluation"
    print(f"played out {args.playouts} times each by bots with {leaves} at their leaves: the preferred move"
          f" {found['playouts']['best']:.3f}, the move played {found['playouts']['played']:.3f};"
          f" {time.process_time() - began:.0f} s of CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
