"""Train a small agent for one of Parlour's games against a built-in bot, then compare it with a
random player on the same deals.

It uses sb3-contrib's MaskablePPO (Stable-Baselines3's PPO with action masks) on the Gymnasium
environment of ``parlour.rl.gym``, on one core of the CPU::

    pip install torch==2.13.0            # the CPU build (docs/rl.md)
    pip install -e '.[rl-train]'
    python examples/rl/train_maskable_ppo.py --game patchwork --steps 100000 --games 200
    python examples/rl/train_maskable_ppo.py --game palace --opponent medium --steps 150000 --games 200

The learner plays a random seat each game. The game's reward is +1 for a win, -1 for a loss, 0
for a tie; while training, potential-based shaping (``parlour.rl.shaping``: how far the seat is
ahead, as its view shows it) adds a denser reward that leaves the result, and the best policy,
as they were (``--no-shaping`` trains on the result alone).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from parlour.rl import gym, shaping

Chooser = Callable[[np.ndarray, np.ndarray], int]


def evaluate(env: gym.ParlourGymEnv, choose: Chooser, games: int, seed: int) -> dict[str, int]:
    """Wins, ties and losses of ``choose(observation, mask)`` over ``games`` games."""
    tally = {"wins": 0, "ties": 0, "losses": 0}
    for game in range(games):
        observation, info = env.reset(seed=seed + game)
        while True:
            action = choose(observation, info["action_mask"].astype(bool))
            observation, reward, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                break
        tally["wins" if reward > 0 else "losses" if reward < 0 else "ties"] += 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--game", default="patchwork")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--steps", type=int, default=100_000, help="learner's steps of training")
    parser.add_argument("--games", type=int, default=200, help="games of each evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-shaping", action="store_true", help="train on the game's result alone")
    parser.add_argument("--save", default=None, help="save the trained model to this file")
    args = parser.parse_args()
    torch.set_num_threads(1)  # one core

    env = gym.make(args.game, opponent=args.opponent, players=args.players, seat="random")
    potential = None if args.no_shaping else shaping.POTENTIALS.get(args.game)
    train_env = env if potential is None else shaping.Shaped(env, potential)
    train_env.reset(seed=args.seed)
    model = MaskablePPO("MlpPolicy", train_env, seed=args.seed, n_steps=2048, batch_size=256, n_epochs=10,
                        learning_rate=3e-4, gamma=1.0, gae_lambda=0.95, ent_coef=0.01,
                        policy_kwargs={"net_arch": [256, 256]}, device="cpu", verbose=0)
    started, cpu = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=args.steps)
    trained_in, trained_cpu = time.perf_counter() - started, time.process_time() - cpu
    if args.save:
        model.save(args.save)

    rng = np.random.default_rng(args.seed)
    test_env = gym.make(args.game, opponent=args.opponent, players=args.players, seat="random")
    random_tally = evaluate(test_env, lambda obs, mask: int(rng.choice(np.flatnonzero(mask))), args.games, 10_000)
    started = time.perf_counter()
    trained_tally = evaluate(
        test_env, lambda obs, mask: int(model.predict(obs, action_masks=mask, deterministic=True)[0]),
        args.games, 10_000)
    played_in = time.perf_counter() - started
    print(f"{args.game}, against {args.opponent!r}, {args.games} games each (the same deals), seats drawn at random")
    print(f"  a random player: {random_tally}")
    print(f"  MaskablePPO after {args.steps:,} steps ({'no shaping' if potential is None else 'shaped'};"
          f" {trained_in:.0f} s of training, {trained_cpu:.0f} s of CPU): {trained_tally}")
    print(f"  ({played_in:.0f} s to play the trained games; load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
