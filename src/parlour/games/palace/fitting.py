"""Fit the hard bot's evaluation (``search.WEIGHTS``) to who went out first in games of sharks.

Sharks play every seat; every few moves, until somebody goes out, the position's seat features
(``search.seat_features``) are kept with the seat that went out first in the end. A conditional
logit, P(seat s goes out first) = softmax over the seats still in of ``weights . features(s)``
(``parlour.bots.fitting``), is fitted on four fifths of the positions and its log-loss measured on
the rest::

    python -m parlour.games.palace.fitting --players 4 --games 20000 --seed 100000

NumPy is needed (the ``rl`` extra); the bot itself does not need it.
"""

from __future__ import annotations

import argparse
import random
import sys

from ...bots.fitting import Position, fit, log_loss, weights_text
from .search import FEATURES, next_and_allowed, seat_features

MAX_MOVES = 2_000  # a game of sharks this long is left out (they circle; it says little)


def positions(players: int, games: int, seed: int, every: int = 3) -> list[Position]:
    """(each seat still in's features, 1 for the one of them that went out first and 0 for the
    others), from every ``every``-th move, on average, of ``games`` games of sharks."""
    from .bots import SharkBot
    from .engine import Palace

    game = Palace()
    rng = random.Random(seed)
    out: list[Position] = []
    for g in range(games):
        state = game.start(players, {}, seed + g)
        sharks = [SharkBot(game, seed=(seed + g) * 10 + s) for s in range(players)]
        kept = []
        for step in range(MAX_MOVES):
            if game.is_over(state):
                break
            if not state.finished and step % every == rng.randrange(every):
                kept.append(state)
            s = state.current
            assert s is not None  # the game is not over
            state = game.apply(state, s, sharks[s].choose(game.view(state, s), s, game.legal_actions(state, s)))
        if not game.is_over(state):
            continue
        for p in kept:
            following, allowed = next_and_allowed(p)
            active = [s for s in range(players) if s not in p.finished]
            out.append(([seat_features(p, s, following, allowed) for s in active],
                        [1.0 if s == state.finished[0] else 0.0 for s in active]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parlour.games.palace.fitting", description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=100_000)
    args = parser.parse_args(argv)
    if not 2 <= args.players <= 6 or args.games < 5:
        parser.error("--players is 2 to 6 and --games at least 5")
    data = positions(args.players, args.games, args.seed)
    cut = len(data) * 4 // 5
    w = fit(data[:cut])
    print(f"{len(data)} positions of {args.games} games; log-loss on the last fifth {log_loss(w, data[cut:]):.4f}")
    print(weights_text(w, FEATURES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
