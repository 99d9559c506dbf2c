"""Record random Prestige Cities games as the engine of a given source tree plays them, for
tests/games/prestige_cities/test_prestige_editions.py: each game's actions, a digest of the legal
actions at every step and a digest of the final state (without ``reached``, which older engines lack).

    python tests/games/prestige_cities/old_cities/record.py SRC EDITION OUT [GAMES]

SRC is the ``src`` directory of the tree whose engine plays (a worktree or an archive of an older
commit for an older edition).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[3]))  # tests/, for editions.py
from editions import recorded, write_records  # noqa: E402


def main(src: str, edition: int, out: str, count: int) -> None:
    sys.path.insert(0, src)
    from parlour.games.prestige_cities.engine import PrestigeCities

    game = PrestigeCities()
    games = []
    for k in range(count):
        players, seed = 2 + k % 3, 2000 + 7 * k
        options = {"edition": edition, "blight": True, "mountains": k % 2 == 1, "deck1": "cheap_labor"}
        record, state = recorded(game, players, seed, options, "reached",
                                 lambda state, rng: rng.choice(sorted(game.to_act(state))), game.random_action)
        games.append({**record, "scores": list(game.result(state).scores)})
    write_records(out, edition, games)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 4)
