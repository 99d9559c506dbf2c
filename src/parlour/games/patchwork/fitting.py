"""Fit the chance of winning the analysis judges Patchwork positions by (``search.CHANCE_WEIGHTS``)
to who won games between hard bots.

Two hard bots play (each move searched for 100 to 600 iterations, drawn at random, so no two games
are alike; now and then, one move in 25, a random move and one in 12 a greedy one, so positions
that weaker players reach are in the data too); every position of every game is kept with its
winner. A conditional logit, P(seat s wins) = softmax over the two seats of ``weights .
features(s)`` (``search.seat_features``; ``parlour.bots.fitting``), is fitted on the games but
every fourth and its log-loss measured on those, beside that of the hard level's own evaluation::

    python -m parlour.games.patchwork.fitting --games 400 --seed 10000

NumPy is needed (the ``rl`` extra); the analysis itself does not need it.
"""

from __future__ import annotations

import argparse
import math
import random
import sys

from ...bots.fitting import Position, fit, log_loss, weights_text
from .engine import State
from .search import FEATURES, seat_features


def position(state: State, shares: list[float]) -> Position:
    """Both seats' features and their shares of the win."""
    return [seat_features(state, 0), seat_features(state, 1)], shares


def games(count: int, seed: int) -> list[list[tuple[Position, float]]]:
    """Each game's positions: (both seats' features, each one's share of the win), with the first
    seat's chance of winning by the hard level's own evaluation, to compare."""
    from ...bots import create
    from ...bots.mcts import MctsBot
    from . import GAME as game
    from .search import PatchworkSearch

    evaluation = PatchworkSearch().evaluate
    out: list[list[tuple[Position, float]]] = []
    for g in range(count):
        rng = random.Random(seed + g)
        state = game.start(2, {}, seed=seed + g)
        hard = [MctsBot(game, seed=(seed + g) * 2 + s, time_limit=100.0) for s in range(2)]
        greedy, anyhow = create(game, "medium", seed=seed + g), create(game, "random", seed=seed + g)
        seen = []
        while not game.is_over(state):
            seat = state.mover
            assert seat is not None
            seen.append(state)
            draw = rng.random()
            bot = anyhow if draw < 0.04 else greedy if draw < 0.12 else hard[seat]
            hard[seat].max_iterations = rng.randint(100, 600)
            state = game.apply(state, seat, bot.choose(game.view(state, seat), seat, game.legal_actions(state, seat)))
        result = game.result(state)
        assert result is not None
        shares = [1.0 / len(result.winners) if s in result.winners else 0.0 for s in range(2)]
        out.append([(position(p, shares), evaluation(p)[0]) for p in seen])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parlour.games.patchwork.fitting",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=10_000)
    args = parser.parse_args(argv)
    if args.games < 8:
        parser.error("--games must be at least 8")
    played = games(args.games, args.seed)
    train = [p for g, positions in enumerate(played) if g % 4 for p, _ in positions]
    test = [(p, first) for g, positions in enumerate(played) if not g % 4 for p, first in positions]
    w = fit(train)
    own = -sum(shares[0] * math.log(max(1e-9, first)) + shares[1] * math.log(max(1e-9, 1.0 - first))
               for (_, shares), first in test) / len(test)
    print(f"{len(train) + len(test)} positions of {args.games} games; log-loss on every fourth game"
          f" {log_loss(w, [p for p, _ in test]):.4f} (fitted on the rest: {log_loss(w, train):.4f});"
          f" the hard level's evaluation's {own:.4f}")
    print(weights_text(w, FEATURES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
