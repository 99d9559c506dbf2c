"""Fitting a search bot's judgement to who wins: a conditional logit.

A position's players still in each have features; the chance that player ``i`` wins is
``softmax(features @ weights)[i]`` over them. The weights that make the recorded winners likeliest
are found by Newton's method, a little ridge keeping it stable. Palace's and Happy Little
Dinosaurs' hard bots judge positions this way (``python -m parlour.games.palace.fitting``,
``python -m parlour.games.dinosaurs.fit`` collect their games' positions). Needs NumPy (the ``rl``
extra); the bots themselves do not.

>>> w = fit([([(1.0,), (0.0,)], (1.0, 0.0)), ([(1.0,), (0.0,)], (0.0, 1.0))] + [([(1.0,), (0.0,)], (1.0, 0.0))] * 2)
>>> round(float(w[0]), 2), round(log_loss(w, [([(1.0,), (0.0,)], (1.0, 0.0))]), 2)  # won 3 of 4: w = log 3
(1.1, 0.29)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# (each player still in's features, each one's share of the win: 1 for the winner, shared in a tie)
Position = tuple[Sequence[Sequence[float]], Sequence[float]]


def fit(positions: Sequence[Position], iterations: int = 12, l2: float = 1e-4) -> Any:
    """The weights that make the positions' winners likeliest (a NumPy vector)."""
    import numpy as np

    groups = _groups(positions)
    size = next(iter(groups.values()))[0].shape[2]
    w = np.zeros(size)
    for _ in range(iterations):
        _, gradient, hessian = _loss(w, groups, second=True)
        w = w - np.linalg.solve(hessian + l2 * np.eye(size), gradient + l2 * w)
    return w


def log_loss(weights: Any, positions: Sequence[Position]) -> float:
    """The mean log-loss of the positions' winners under ``weights`` (zero weights: even chances)."""
    import numpy as np

    return float(_loss(np.asarray(weights, dtype=float), _groups(positions))[0])


def _groups(positions: Sequence[Position]) -> dict[int, tuple[Any, Any]]:
    """The positions by how many players are still in: (features, shares) arrays. A position none
    of whose players still in won says nothing of them and is left out."""
    import numpy as np

    by_size: dict[int, list[Position]] = {}
    for rows, shares in positions:
        if sum(shares) > 0:
            by_size.setdefault(len(rows), []).append((rows, shares))
    if not by_size:
        raise ValueError("no position to fit: none has a winner among its players")
    return {m: (np.array([r for r, _ in group], dtype=float),
                np.array([[v / sum(s) for v in s] for _, s in group], dtype=float))
            for m, group in by_size.items()}


def _loss(w: Any, groups: dict[int, tuple[Any, Any]], second: bool = False) -> tuple[float, Any, Any]:
    """Mean log-loss, its gradient and (``second``) its Hessian."""
    import numpy as np

    total, gradient, hessian, count = 0.0, np.zeros_like(w), np.zeros((len(w), len(w))), 0
    for x, y in groups.values():
        z = x @ w
        z -= z.max(axis=1, keepdims=True)
        log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        p = np.exp(log_p)
        total -= (y * log_p).sum()
        mean = np.einsum("nm,nmf->nf", p, x)
        gradient -= (np.einsum("nm,nmf->nf", y, x) - mean).sum(axis=0)
        if second:
            hessian += np.einsum("nm,nmf,nmg->fg", p, x, x) - mean.T @ mean
        count += len(y)
    return total / count, gradient / count, hessian / count


def weights_text(weights: Any, features: Sequence[str]) -> str:
    """Fitted ``weights`` as a tuple to paste into the code, then one line a feature."""
    return "\n".join(["(" + ", ".join(f"{x:.4f}" for x in weights) + ")",
                      *(f"  {name:16s} {x:+.4f}" for name, x in zip(features, weights, strict=True))])
