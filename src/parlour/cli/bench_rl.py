"""``parlour bench rl GAME``: PettingZoo environment steps per second next to the engine's own
moves per second, on one core, and where a step's time goes; the median of several runs.

Each run plays uniformly random games through the engine as ``parlour bench engine`` does
(``random_action``, ``apply``), then through the PettingZoo AEC environment (``env.last()``: the
observation tensor and the mask; a token drawn among the legal ones; ``env.step``; the reset for the
next game). Each game the environment plays is at once replayed through the engine alone, making
every call the environment made of the engine, once each: the start of the game; for each move who
acts, the acting seat's view, its legal actions, the random policy's draw among them, applying the
action and whether the game is over; at the end the result and every seat's view (each agent's last
observation). That is the engine's part of the environment's time; the wrapper's part is the rest
(tokens, mask, observation tensors, PettingZoo's and the table's bookkeeping). A game and its replay
follow each other, so that both meet the same load of a shared machine.

The random agent finds the legal tokens by reading the int8 mask as booleans: NumPy's ``nonzero``
on int8 is several times slower (7 µs on Patchwork's 2,593 tokens, more than the engine's whole
draw), and that would be the agent's cost, not the wrapper's.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any, NamedTuple

from .bench_engine import random_game_arguments, random_game_setup, random_games


class Played(NamedTuple):
    """One game the environment played: its seed and its moves as (seat, action). Not its states:
    holding every state would make the collector's full passes dearer in the environment's loop."""

    seed: int
    moves: list[tuple[int, Any]]


def register(targets: argparse._SubParsersAction) -> None:
    parser = targets.add_parser("rl", help="PettingZoo environment steps per second, next to the engine's",
                                description="PettingZoo environment steps per second on one core, next to"
                                            " the engine's own moves per second (needs the rl extra).")
    random_game_arguments(parser, games=20, runs=3)
    parser.set_defaults(run=run)


def environment_game(env: Any, rng: random.Random) -> tuple[float, int, Played]:
    """(CPU seconds, steps, the game) of the environment's game under way, played to the end by a
    random agent, and the environment's reset for the next one."""
    table = env.table
    moves: list[tuple[int, Any]] = []
    steps = 0
    started = time.process_time()
    for _agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        made = table.moves
        env.step(rng.choice(observation["action_mask"].view(bool).nonzero()[0]))  # see module docstring
        if table.moves != made:
            moves.append(table.last_move)
        steps += 1
    played = Played(table.seed, moves)
    env.reset()
    return time.process_time() - started, steps, played


def engine_game(game: Any, players: int, options: Any, played: Played, rng: random.Random) -> float:
    """CPU seconds of the engine's part of a game the environment played: each call the environment
    made of the engine, once (see the module's docstring)."""
    started = time.process_time()
    state = game.start(players, options, played.seed)
    for seat, action in played.moves:
        game.is_over(state)
        game.to_act(state)
        game.view(state, seat)
        rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, action)
    game.is_over(state)
    game.result(state)
    for other in range(players):
        game.view(state, other)
    return time.process_time() - started


def environment_and_engine(env: Any, games: int, seed: int) -> tuple[float, float, int]:
    """(CPU seconds of the environment, of its engine's part, steps) of ``games`` random games, each
    replayed through the engine as soon as the environment has played it, so that both share the
    machine's load of the moment."""
    rng, replay_rng = random.Random(seed), random.Random(seed)
    table = env.table
    env.reset(seed=seed)
    cpu_env = cpu_engine = 0.0
    steps = 0
    for _ in range(games):
        cpu, game_steps, played = environment_game(env, rng)
        cpu_env += cpu
        steps += game_steps
        cpu_engine += engine_game(table.game, table.players, table.options, played, replay_rng)
    return cpu_env, cpu_engine, steps


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from ..core import ParlourError
    from .bench import machine

    try:
        from ..rl import pettingzoo
    except ImportError as missing:
        raise ParlourError(f"parlour bench rl needs the rl extra (pip install -e '.[rl]'): {missing}") from None
    game, players = random_game_setup(args)
    env = pettingzoo.env(args.game, players=players)
    environment_and_engine(env, 2, args.seed)  # warm up
    console = Console()
    table = Table(title=f"{game.name}, {players} players: {args.games} uniformly random games per loop and run,"
                        " one core, per CPU second")
    for column in ("run", "engine moves/s", "PettingZoo steps/s", "engine's part µs/step", "wrapper's part µs/step",
                   "wrapper / engine"):
        table.add_column(column, justify="right")
    rows = []
    for number in range(args.runs):
        seed = args.seed + number * args.games
        cpu, _, engine_moves = random_games(game, players, args.games, seed)
        cpu_env, cpu_engine, steps = environment_and_engine(env, args.games, seed)
        step, engine = cpu_env / steps * 1e6, cpu_engine / steps * 1e6
        row = (engine_moves / cpu, steps / cpu_env, engine, step - engine, (step - engine) / engine)
        rows.append(row)
        table.add_row(str(number + 1), f"{row[0]:,.0f}", f"{row[1]:,.0f}", f"{row[2]:.1f}", f"{row[3]:.1f}",
                      f"{row[4]:.2f}")
    console.print(table)
    engine_rate, steps_per_second, _, _, ratio = (statistics.median(r[i] for r in rows) for i in range(5))
    console.print(f"median: [bold]{steps_per_second:,.0f} PettingZoo steps/s[/bold] ({engine_rate:,.0f} engine"
                  f" moves/s on its own); the wrapper's part of a step is {ratio:.2f} times the engine's")
    console.print(machine(), style="dim")
    return 0
