"""Fitting the hard bot's judgement (``search.WEIGHTS``) to who wins games between survivors::

    python -m parlour.games.dinosaurs.fit --players 4 --games 2000

At the start of every round of each game (where the search's playouts stop), each dinosaur's
``DinosaursSearch.features`` are recorded; the game's winner is the label. A conditional logit
(the chance of winning is a softmax of standings over the dinosaurs still in:
``parlour.bots.fitting``) is fitted to four games of five; it prints the weights and the log-loss
on every fifth game, held out. Needs numpy (``pip install -e '.[rl]'``).
"""

from __future__ import annotations

import argparse
from typing import Any

from ...bots.fitting import Position, fit, log_loss
from ...core import derive
from .search import DinosaursSearch


def positions(players: int, game_number: int, seed: int) -> tuple[list[list[Any]], list[float]]:
    """One game between survivors: each round start's (features, or None once eliminated) per
    seat, and each seat's share of the win."""
    from ... import bots
    from . import GAME

    search = GAME.search
    assert isinstance(search, DinosaursSearch)
    start = derive(seed, "collect", players, game_number).getrandbits(63)
    survivors = [bots.create(GAME, "medium", seed=start + s) for s in range(players)]
    state, rows, last = GAME.start(players, {}, start), [], 0
    while not GAME.is_over(state):
        if state.phase == "select" and state.round != last:
            last = state.round
            rows.append([None if state.out[s] is not None else search.features(state, s) for s in range(players)])
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        state = GAME.apply(state, seat, survivors[seat].choose(GAME.view(state, seat), seat, legal))
    result = GAME.result(state)
    assert result is not None  # the game is over
    ranks = result.ranks
    firsts = ranks.count(1)
    return rows, [1.0 / firsts if r == 1 else 0.0 for r in ranks]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parlour.games.dinosaurs.fit", description=__doc__.split("::")[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=77)
    args = parser.parse_args(argv)
    learn: list[Position] = []
    held_out: list[Position] = []
    for k in range(args.games):
        rows, shares = positions(args.players, k, args.seed)
        for row in rows:  # the dinosaurs still in, each with its share of the win
            still_in = [s for s, f in enumerate(row) if f is not None]
            (held_out if k % 5 == 0 else learn).append(([row[s] for s in still_in], [shares[s] for s in still_in]))
    w = fit(learn)
    print(f"{len(learn) + len(held_out)} round starts from {args.games} games of {args.players}; log-loss on the"
          f" held-out fifth {log_loss(w, held_out):.4f} (even chances: {log_loss(0 * w, held_out):.4f})")
    print(f"    {args.players}: ({', '.join(f'{v:.4f}' for v in w)}),")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
