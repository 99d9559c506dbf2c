"""Record random Palace games as the engine of a given source tree plays them, for
tests/games/palace/test_palace_editions.py: each game's actions, a digest of the legal actions at
every step and a digest of the final state (without its edition, which older engines lack).

    python tests/games/palace/old_games/record.py SRC EDITION OUT [GAMES]

SRC is the ``src`` directory of the tree whose engine plays (a worktree of an older commit for an
older edition); EDITION 1 records games started without the option, as games stored before it were.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[3]))  # tests/, for editions.py
from editions import recorded, write_records  # noqa: E402


def only(seats: list[int]) -> int:
    """Palace has one seat to act at a time."""
    (seat,) = seats
    return seat


def main(src: str, edition: int, out: str, count: int) -> None:
    sys.path.insert(0, src)
    from parlour.games.palace.engine import Palace

    game = Palace()
    games = []
    for k in range(count):
        players, seed = 2 + k % 5, 1000 + 7 * k
        options = {} if edition == 1 else {"edition": edition}
        record, state = recorded(game, players, seed, options, "edition", lambda state, rng: only(game.to_act(state)),
                                 lambda state, seat, rng: rng.choice(game.legal_actions(state, seat)))
        games.append({**record, "finished": list(state.finished)})
    write_records(out, edition, games)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 5)
