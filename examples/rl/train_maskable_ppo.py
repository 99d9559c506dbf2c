"""Train a small agent for one of Parlour's games against the ``random`` bot, then show it beats
``random`` more often than a random player does.

It uses sb3-contrib's MaskablePPO (Stable-Baselines3's PPO with action masks) on the Gymnasium
environment of ``parlour.rl.gym``, on the CPU::

    pip install torch==2.13.0            # the CPU build (docs/rl.md)
    pip install -e '.[rl-train]'
    python examples/rl/train_maskable_ppo.py --game patchwork --steps 60000 --games 200

The learner plays a random seat each game; the reward is +1 for a win, -1 for a loss, 0 for a tie.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from parlour.rl import gym


def evaluate(env: gym.ParlourGymEnv, choose, games: int, seed: int) -> dict[str, int]:
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="patchwork")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--steps", type=int, default=60_000, help="learner's steps of training")
    parser.add_argument("--games", type=int, default=200, help="games of each evaluation")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)

    env = gym.make(args.game, opponent=args.opponent, seat="random")
    env.reset(seed=args.seed)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=1024, batch_size=256, learning_rate=3e-4,
                        gamma=1.0, policy_kwargs={"net_arch": [128, 128]}, device="cpu", verbose=0)
    started = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    trained_in = time.perf_counter() - started

    rng = np.random.default_rng(args.seed)
    test_env = gym.make(args.game, opponent=args.opponent, seat="random")
    random_tally = evaluate(test_env, lambda obs, mask: rng.choice(np.flatnonzero(mask)), args.games, 10_000)
    trained_tally = evaluate(test_env, lambda obs, mask: model.predict(obs, action_masks=mask, deterministic=True)[0],
                             args.games, 10_000)
    print(f"{args.game}, against {args.opponent!r}, {args.games} games each (the same deals), seats drawn at random")
    print(f"  a random player: {random_tally}")
    print(f"  MaskablePPO after {args.steps:,} steps ({trained_in:.0f} s of training): {trained_tally}")


if __name__ == "__main__":
    main()
