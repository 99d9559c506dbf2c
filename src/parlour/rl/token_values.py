"""Numbers per token that a policy can weigh beside its observation: what each action would do,
worked out from the acting seat's view alone (the one-ply arithmetic of a game's shaping potential,
``parlour.rl.shaping``). An MLP that sees a quilt as 81 inputs learns slowly which of 2,593
placements leave it compact; given each placement's seams as a number, it learns one weight.

``WithTokenValues`` appends them to a Gymnasium environment's observation (``examples/rl/`` reads
them in its policy's head)::

    from parlour.rl import gym
    from parlour.rl.token_values import TOKEN_VALUES, WithTokenValues
    parlour = gym.make("patchwork")
    env = WithTokenValues(parlour, parlour, *TOKEN_VALUES["patchwork"])
"""

from __future__ import annotations

from collections.abc import Callable

import gymnasium
import numpy as np

from ..core import View
from ..games.patchwork.engine import PATCHES, SIZE, SPECIAL, SQUARES
from .encodings.patchwork import PER_SLOT, VALUES
from .gym import ParlourGymEnv, observation_box

Values = Callable[[View, int, np.ndarray], np.ndarray]  # (view, seat, observation) -> count * tokens numbers

PAD = SIZE + 5  # the quilt's 9x9 squares in a 14x14 map, so that a patch at any corner stays inside it
OUTSIDE = PAD * PAD  # the index of one more cell, always 0, for the squares a smaller patch lacks


def lay_cells(pid: int) -> tuple[np.ndarray, np.ndarray]:
    """For each token of patch ``pid`` in its slot (lay * 81 + corner): the map's cells it covers
    there, and how many sides its squares share with each other (the same at every corner)."""
    patch = PATCHES[pid] if pid >= 0 else SPECIAL
    squares = max(o.mask.bit_count() for o in patch.orientations)
    cells = np.full((8, SQUARES, squares), OUTSIDE, dtype=np.intp)
    inner = np.zeros(8, dtype=np.float32)
    for lay in range(8):
        offsets = [divmod(offset, SIZE) for offset in patch.by_key[(lay % 4, lay >= 4)].offsets]
        shape = set(offsets)
        inner[lay] = sum((dy, dx + 1) in shape for dy, dx in offsets) + sum((dy + 1, dx) in shape for dy, dx in offsets)
        for corner in range(SQUARES):
            y, x = divmod(corner, SIZE)
            cells[lay, corner, :len(offsets)] = [(y + dy) * PAD + x + dx for dy, dx in offsets]
    return cells.reshape(8 * SQUARES, squares), np.repeat(inner, SQUARES)


LAY_CELLS = {pid: lay_cells(pid) for pid in [-1, *range(len(PATCHES))]}
PATCHWORK_TOKEN_VALUES = 2


def patchwork_token_values(view: View, seat: int, observation: np.ndarray) -> np.ndarray:
    """Two numbers per token, read from the seat's view: how many seams (sides a patched square
    shares with an empty one, ``shaping.seams``) the placement adds to the quilt (/ 10; negative
    where it fills a hole), and what buying its patch is worth (``offer_value``, the observation's
    own). Skip, and tokens the mask refuses, get 0. This is the one-ply arithmetic of the shaping
    potential, one number per action, which an MLP that sees the quilt as 81 inputs learns slowly."""
    quilt = np.zeros((PAD, PAD), dtype=np.float32)
    quilt[:SIZE, :SIZE] = [[ch == "O" for ch in row] for row in view["players"][seat]["quilt"]]
    # a square's sides: +1 towards an empty square, -1 towards a patched one (the board's edge: 0)
    inside = np.zeros((PAD, PAD), dtype=np.float32)
    inside[:SIZE, :SIZE] = 1
    towards = 1 - 2 * quilt
    sides = np.zeros((PAD, PAD), dtype=np.float32)
    sides[:, :-1] += towards[:, 1:] * inside[:, 1:]
    sides[:, 1:] += towards[:, :-1] * inside[:, :-1]
    sides[:-1, :] += towards[1:, :] * inside[1:, :]
    sides[1:, :] += towards[:-1, :] * inside[:-1, :]
    flat = np.append(sides.ravel(), 0.0)
    out = np.zeros((PATCHWORK_TOKEN_VALUES, 1 + 4 * PER_SLOT), dtype=np.float32)
    slots = [*view["offer"], -1 if view["players"][seat]["special_patches"] else None]
    for k, pid in enumerate(slots):
        if pid is None:
            continue
        cells, inner = LAY_CELLS[pid if pid >= 0 else -1]
        # a placement's new seams: the sides of its squares towards squares it does not cover
        out[0, 1 + k * PER_SLOT:1 + (k + 1) * PER_SLOT] = (flat[cells].sum(axis=1) - 2 * inner) / 10
        if k < 3:
            out[1, 1 + k * PER_SLOT:1 + (k + 1) * PER_SLOT] = observation[VALUES + 2 * k + 1]
    return out.ravel()


TOKEN_VALUES: dict[str, tuple[int, Values]] = {
    "patchwork": (PATCHWORK_TOKEN_VALUES, patchwork_token_values)}


class WithTokenValues(gymnasium.ObservationWrapper[np.ndarray, np.int64, np.ndarray]):
    """The observation followed by ``count`` numbers per token from ``values(view, seat, observation)``
    (``parlour`` is the Parlour environment under ``env``, whose view and seat they read)."""

    def __init__(self, env: gymnasium.Env[np.ndarray, np.int64], parlour: ParlourGymEnv, count: int,
                 values: Values) -> None:
        super().__init__(env)
        self.parlour, self.values = parlour, values
        box = observation_box(parlour.table)
        tokens = count * parlour.table.codec.size
        self.observation_space = gymnasium.spaces.Box(np.append(box.low, np.full(tokens, -5.0, np.float32)),
                                                      np.append(box.high, np.full(tokens, 5.0, np.float32)),
                                                      dtype=np.float32)

    def observation(self, observation: np.ndarray) -> np.ndarray:
        values = self.values(self.parlour.view(), self.parlour.seat, observation)
        return np.concatenate((observation, values))

    def action_masks(self) -> np.ndarray:
        return self.parlour.action_masks()


