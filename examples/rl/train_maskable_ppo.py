"""Train a small agent for one of Parlour's games against a built-in bot, then compare it with a
random player on the same deals.

It uses sb3-contrib's MaskablePPO (Stable-Baselines3's PPO with action masks) on the Gymnasium
environment of ``parlour.rl.gym``, on one core of the CPU::

    pip install torch==2.13.0            # the CPU build (docs/rl.md)
    pip install -e '.[rl-train]'
    python examples/rl/train_maskable_ppo.py --game patchwork --steps 260000 --anneal --games 200
    python examples/rl/train_maskable_ppo.py --game dinosaurs --opponent medium --gamma 0.99 --steps 150000 --games 200

The learner plays a random seat each game. The game's reward is +1 for a win, -1 for a loss, 0
for a tie; while training, potential-based shaping (``parlour.rl.shaping``: how far the seat is
ahead, as its view shows it) adds a denser reward that leaves the result, and the best policy,
as they were (``--no-shaping`` trains on the result alone). The win rates are given with their 95%
(Wilson) intervals.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

from parlour.rl import gym, shaping
from parlour.rl.token_values import TOKEN_VALUES, WithTokenValues

Chooser = Callable[[np.ndarray, np.ndarray], int]


def evaluate(env: gymnasium.Env, choose: Chooser, games: int, seed: int) -> dict[str, int]:
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


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% (Wilson score) interval of a win rate of ``wins`` in ``games``."""
    p = wins / games
    middle, half = p + z * z / (2 * games), z * (p * (1 - p) / games + z * z / (4 * games * games)) ** 0.5
    return (middle - half) / (1 + z * z / games), (middle + half) / (1 + z * z / games)


def rate(tally: dict[str, int]) -> str:
    games = sum(tally.values())
    low, high = wilson(tally["wins"], games)
    return f"{tally} (wins {tally['wins'] / games:.1%}, 95% interval {low:.1%} to {high:.1%})"


def one_hot_columns(rows: list[list[int]], width: int) -> np.ndarray:
    """A tokens x ``width`` 0/1 matrix with a 1 in each token's listed columns."""
    out = np.zeros((len(rows), width), dtype=np.float32)
    for token, columns in enumerate(rows):
        out[token, columns] = 1.0
    return out


def token_features(game_id: str) -> np.ndarray | None:
    """What tokens share (docs/rl.md, "Actions: tokens"), one column per feature: a policy that
    scores features as well as tokens learns from every token it tries something about its
    siblings. None for a game with no features written here."""
    if game_id == "patchwork":  # 0 skip; 1 + slot * 648 + orientation * 81 + y * 9 + x
        rows = [[0]]
        for u in range(4 * 648):
            slot, orientation, square = u // 648, u % 648 // 81, u % 81
            rows.append([1 + slot, 5 + orientation, 13 + square, 94 + slot * 8 + orientation])
        return one_hot_columns(rows, 126)
    if game_id == "palace":  # 0-719 (value * 9 + naturals) * 5 + jokers; 720-739 the other actions
        rows = [[t // 45, 16 + t % 45 // 5, 25 + t % 5, 30 + t % 45 // 5 + t % 5] for t in range(720)]
        rows += [[43 + k] for k in range(20)]
        return one_hot_columns(rows, 63)
    return None


class SplitMlp(torch.nn.Module):
    """The actor's and the critic's MLPs (tanh, as Stable-Baselines3's) on the observation; the
    actor's latent is followed by the per-token values, untouched, for :class:`FeaturedHead`."""

    def __init__(self, observed: int, extra: int, width: int) -> None:
        super().__init__()
        self.observed = observed

        def mlp() -> torch.nn.Sequential:
            return torch.nn.Sequential(torch.nn.Linear(observed, width), torch.nn.Tanh(),
                                       torch.nn.Linear(width, width), torch.nn.Tanh())
        self.policy_net, self.value_net = mlp(), mlp()
        self.latent_dim_pi, self.latent_dim_vf = width + extra, width

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return torch.cat((self.policy_net(features[:, :self.observed]), features[:, self.observed:]), dim=1)

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.value_net(features[:, :self.observed])  # type: ignore[no-any-return]


VALUE_SCALE = 10.0


class FeaturedHead(torch.nn.Module):
    """Action logits: one per token, plus the sum of the scores of the token's features, plus, with
    per-token values after the latent, each value times a weight learnt for it (0 at first)."""

    def __init__(self, latent: int, features: np.ndarray, values: int = 0) -> None:
        super().__init__()
        self.latent, self.values = latent, values
        self.tokens = torch.nn.Linear(latent, features.shape[0])
        self.features = torch.nn.Linear(latent, features.shape[1])
        self.register_buffer("by_token", torch.as_tensor(features.T.copy()))
        self.weights = torch.nn.Parameter(torch.zeros(values, 1))  # times VALUE_SCALE: see forward

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        hidden = latent[:, :self.latent]
        logits: torch.Tensor = self.tokens(hidden) + self.features(hidden) @ self.by_token
        if self.values:
            per_token = latent[:, self.latent:].reshape(len(latent), self.values, -1)
            # Adam moves a parameter by about the learning rate a step whatever its gradient: scaled,
            # a value's weight is learnt in a hundred updates, not a thousand
            logits = logits + (per_token * (VALUE_SCALE * self.weights)).sum(dim=1)
        return logits


class FeaturedPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's policy with :class:`FeaturedHead` for its action logits (and :class:`SplitMlp`
    when the observation ends with ``values`` numbers per token)."""

    def __init__(self, *args: Any, token_features: np.ndarray, values: int = 0, width: int = 128,
                 **kwargs: Any) -> None:
        self.token_features, self.values, self.width = token_features, values, width
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        if not self.values:
            super()._build_mlp_extractor()
            return
        extra = self.values * self.token_features.shape[0]
        self.mlp_extractor = SplitMlp(self.features_dim - extra, extra, self.width)  # type: ignore[assignment]

    def _build(self, lr_schedule: Callable[[float], float]) -> None:
        super()._build(lr_schedule)
        latent = self.mlp_extractor.latent_dim_pi - self.values * self.token_features.shape[0]
        self.action_net = FeaturedHead(latent, self.token_features, self.values)
        self.action_net.apply(partial(self.init_weights, gain=0.01))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),  # type: ignore[call-arg]
                                              **self.optimizer_kwargs)  # (as sb3-contrib's own _build)


class Progress(BaseCallback):
    """Prints, every ``every`` steps, the CPU time so far and the results of the training games
    since the last line (the game's own results, not the shaped rewards)."""

    def __init__(self, every: int) -> None:
        super().__init__()
        self.every, self.next = every, every
        self.results: list[float] = []
        self.cpu = time.process_time()

    def _on_step(self) -> bool:
        for done, reward, info in zip(self.locals["dones"], self.locals["rewards"], self.locals["infos"]):
            if done:  # the game's own reward (shaped rewards tell it in info["result"])
                self.results.append(float(info.get("result", reward)))
        if self.num_timesteps >= self.next:
            self.next += self.every
            wins = sum(r > 0 for r in self.results)
            print(f"  {self.num_timesteps:>8,} steps, {time.process_time() - self.cpu:6.0f} s of CPU:"
                  f" won {wins} of the last {len(self.results)} training games", flush=True)
            self.results = []
        return True


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
    parser.add_argument("--envs", type=int, default=8, help="games played at once while training")
    parser.add_argument("--rollout", type=int, default=512, help="steps between two updates")
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--anneal", action="store_true",
                        help="let the learning rate fall in a straight line to 0 at the last step")
    parser.add_argument("--width", type=int, default=128, help="units of each of the two hidden layers")
    parser.add_argument("--gamma", type=float, default=0.9, help="the discount (the learner's and the shaping's)")
    parser.add_argument("--entropy", type=float, default=0.0, help="the entropy bonus")
    parser.add_argument("--no-features", action="store_true", help="one logit per token, nothing shared")
    parser.add_argument("--own-score", action="store_true",
                        help="Patchwork's potential: the seat's own score, not its lead over the opponent")
    parser.add_argument("--seam-points", type=float, default=0.5,
                        help="Patchwork's potential: points off for each seam of the quilt (default 0.5)")
    parser.add_argument("--token-values", action="store_true",
                        help="end the observation with numbers per token, weighed in the policy's head (Patchwork:"
                             " parlour.rl.token_values)")
    parser.add_argument("--progress", type=int, default=10_000, help="print progress every so many steps (0: never)")
    args = parser.parse_args()
    torch.set_num_threads(1)  # one core

    potential = None if args.no_shaping else shaping.POTENTIALS.get(args.game)
    if potential is shaping.patchwork_potential:
        potential = partial(shaping.patchwork_potential, seam_points=args.seam_points, lead=not args.own_score)
    features = None if args.no_features else token_features(args.game)
    values = TOKEN_VALUES.get(args.game) if features is not None and args.token_values else None

    def environment(shaped: bool) -> gymnasium.Env:
        parlour = gym.make(args.game, opponent=args.opponent, players=args.players, seat="random")
        env: gymnasium.Env = parlour
        if shaped and potential is not None:
            env = shaping.Shaped(parlour, potential, args.gamma)
        return env if values is None else WithTokenValues(env, parlour, *values)

    # several games at once: the policy is asked about all of them in one call, which costs little
    # more than asking about one
    train_env = DummyVecEnv([partial(environment, True)] * args.envs)
    policy_kwargs: dict[str, object] = {"net_arch": [args.width, args.width]}
    if features is not None:
        policy_kwargs.update(token_features=features, values=0 if values is None else values[0], width=args.width)
    # Stable-Baselines3 calls a schedule with the part of the training still to come (1 down to 0)
    learning_rate: float | Callable[[float], float] = (lambda left: args.lr * left) if args.anneal else args.lr
    model = MaskablePPO("MlpPolicy" if features is None else FeaturedPolicy, train_env, seed=args.seed,
                        n_steps=args.rollout // args.envs, batch_size=args.batch, n_epochs=args.epochs,
                        learning_rate=learning_rate, gamma=args.gamma, gae_lambda=0.95, ent_coef=args.entropy,
                        policy_kwargs=policy_kwargs, device="cpu", verbose=0)
    started, cpu = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=args.steps, callback=Progress(args.progress) if args.progress else None)
    trained_in, trained_cpu = time.perf_counter() - started, time.process_time() - cpu
    if args.save:
        model.save(args.save)

    rng = np.random.default_rng(args.seed)
    test_env = environment(False)
    random_tally = evaluate(test_env, lambda obs, mask: int(rng.choice(np.flatnonzero(mask))), args.games, 10_000)
    started = time.perf_counter()
    trained_tally = evaluate(
        test_env, lambda obs, mask: int(model.predict(obs, action_masks=mask, deterministic=True)[0]),
        args.games, 10_000)
    played_in = time.perf_counter() - started
    print(f"{args.game}, against {args.opponent!r}, {args.games} games each (the same deals), seats drawn at random")
    print(f"  a random player: {rate(random_tally)}")
    print(f"  MaskablePPO after {args.steps:,} steps ({'no shaping' if potential is None else 'shaped'};"
          f" {trained_in:.0f} s of training, {trained_cpu:.0f} s of CPU): {rate(trained_tally)}")
    print(f"  ({played_in:.0f} s to play the trained games; load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
