"""Record random Prestige Cities games as the engine of a given source tree plays them, for
tests/games/prestige_cities/test_prestige_editions.py: each game's actions, a digest of the legal
actions at every step and a digest of the final state (without ``reached``, which older engines lack).

    python tests/games/prestige_cities/old_cities/record.py SRC EDITION OUT [GAMES]

SRC is the ``src`` directory of the tree whose engine plays (a worktree or an archive of an older
commit for an older edition).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[3]))  # tests/, for editions.py
from editions import digest, legal_lines, state_digest  # noqa: E402


def main(src: str, edition: int, out: str, count: int) -> None:
    sys.path.insert(0, src)
    from parlour.games.prestige_cities.engine import PrestigeCities

    game = PrestigeCities()
    games = []
    for k in range(count):
        players, seed = 2 + k % 3, 2000 + 7 * k
        options = {"edition": edition, "blight": True, "mountains": k % 2 == 1, "deck1": "cheap_labor"}
        state = game.start(players, options, seed)
        rng = random.Random(seed)
        actions, legal = [], []
        while not game.is_over(state):
            seat = rng.choice(sorted(game.to_act(state)))
            legal.append(legal_lines(game, state, seat))
            action = game.random_action(state, seat, rng)
            actions.append([seat, action])
            state = game.apply(state, seat, action)
        games.append({"players": players, "seed": seed, "options": options, "actions": actions,
                      "legal": digest(legal), "final": state_digest(game, state, "reached"),
                      "scores": list(game.result(state).scores)})
    with open(out, "w") as f:
        json.dump({"edition": edition, "games": games}, f, separators=(",", ":"))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 4)
