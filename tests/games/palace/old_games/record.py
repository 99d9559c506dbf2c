"""Record random Palace games as the engine of a given source tree plays them, for
tests/games/palace/test_palace_editions.py: each game's actions, a digest of the legal actions at
every step and a digest of the final state (without its edition, which older engines lack).

    python tests/games/palace/old_games/record.py SRC EDITION OUT [GAMES]

SRC is the ``src`` directory of the tree whose engine plays (a worktree of an older commit for an
older edition); EDITION 1 records games started without the option, as games stored before it were.
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
    from parlour.games.palace.engine import Palace

    game = Palace()
    games = []
    for k in range(count):
        players, seed = 2 + k % 5, 1000 + 7 * k
        options = {} if edition == 1 else {"edition": edition}
        state = game.start(players, options, seed)
        rng = random.Random(seed)
        actions, legal = [], []
        while not game.is_over(state):
            (seat,) = game.to_act(state)
            legal.append(legal_lines(game, state, seat))
            action = rng.choice(game.legal_actions(state, seat))
            actions.append([seat, action])
            state = game.apply(state, seat, action)
        games.append({"players": players, "seed": seed, "options": options, "actions": actions,
                      "legal": digest(legal), "final": state_digest(game, state, "edition"),
                      "finished": list(state.finished)})
    with open(out, "w") as f:
        json.dump({"edition": edition, "games": games}, f, separators=(",", ":"))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 5)
