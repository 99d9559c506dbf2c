"""Fitting the hard bot's judgement (``search.WEIGHTS``) to who wins games between survivors::

    python -m parlour.games.dinosaurs.fit --players 4 --games 2000

At the start of every round of each game (where the search's playouts stop), each dinosaur's
``DinosaursSearch.features`` are recorded; the game's winner is the label. A conditional logit
(the chance of winning is a softmax of standings over the dinosaurs still in) is fitted by
gradient descent; it prints the weights and the log-loss on every fifth game, held out. Needs
numpy (``pip install -e '.[rl]'``).
"""

from __future__ import annotations

import argparse
from typing import Any

from ...core import derive


def positions(players: int, game_number: int, seed: int) -> tuple[list[list[Any]], list[float]]:
    """One game between survivors: each round start's (features, or None once eliminated) per
    seat, and each seat's share of the win."""
    from ... import bots
    from . import GAME

    start = derive(seed, "collect", players, game_number).getrandbits(63)
    survivors = [bots.create(GAME, "medium", seed=start + s) for s in range(players)]
    state, rows, last = GAME.start(players, {}, start), [], 0
    while not GAME.is_over(state):
        if state.phase == "select" and state.round != last:
            last = state.round
            rows.append([None if state.out[s] is not None else GAME.search.features(state, s) for s in range(players)])
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        state = GAME.apply(state, seat, survivors[seat].choose(GAME.view(state, seat), seat, legal))
    ranks = GAME.result(state).ranks
    firsts = ranks.count(1)
    return rows, [1.0 / firsts if r == 1 else 0.0 for r in ranks]


def fit(features: Any, active: Any, wins: Any, steps: int = 4000) -> Any:
    """Weights ``w`` maximising the likelihood of the winners, each position's chances being
    softmax(features @ w) over its active seats. ``features``: positions x seats x features."""
    import numpy as np

    scale = features[active].std(0) + 1e-9  # descent on standardised features, then back
    x = features / scale
    w = np.zeros(features.shape[2])
    for _ in range(steps):
        w -= 0.5 * _gradient(w, x, active, wins)
    return w / scale


def log_loss(w: Any, features: Any, active: Any, wins: Any) -> float:
    import numpy as np

    return float(-(wins * np.log(np.maximum(_chances(w, features, active), 1e-12))).sum() / len(features))


def _chances(w: Any, features: Any, active: Any) -> Any:
    import numpy as np

    z = np.where(active, features @ w, -np.inf)
    e = np.exp(z - z.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def _gradient(w: Any, features: Any, active: Any, wins: Any) -> Any:
    return ((_chances(w, features, active) - wins)[:, :, None] * features).sum((0, 1)) / len(features)


def main(argv: list[str] | None = None) -> int:
    import numpy as np

    parser = argparse.ArgumentParser(prog="python -m parlour.games.dinosaurs.fit", description=__doc__.split("::")[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=77)
    args = parser.parse_args(argv)
    features, active, wins, held_out = [], [], [], []
    for k in range(args.games):
        rows, share = positions(args.players, k, args.seed)
        for row in rows:
            width = len(next(f for f in row if f is not None))
            features.append([f if f is not None else (0.0,) * width for f in row])
            active.append([f is not None for f in row])
            wins.append(share)
            held_out.append(k % 5 == 0)
    x, a, y, test = np.array(features, float), np.array(active), np.array(wins), np.array(held_out)
    w = fit(x[~test], a[~test], y[~test])
    print(f"{len(x)} round starts from {args.games} games of {args.players}; log-loss on the held-out fifth"
          f" {log_loss(w, x[test], a[test], y[test]):.4f} (even chances: {log_loss(0 * w, x[test], a[test], y[test]):.4f})")
    print(f"    {args.players}: ({', '.join(f'{v:.4f}' for v in w)}),")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
