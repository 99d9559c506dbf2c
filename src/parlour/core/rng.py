"""Seeded randomness.

A game is its seed, its options and its actions: every random draw comes from a generator
derived from the seed and a label saying what the draw is for, so no generator state has to be
carried in a game state, and replaying the actions gives the same draws bit for bit.

>>> derive(7, "deck", 3).random() == derive(7, "deck", 3).random()
True
"""

from __future__ import annotations

import hashlib
import random


def derive(seed: int, *labels: object) -> random.Random:
    """A generator fixed by ``seed`` and ``labels`` (any values with a stable ``repr``)."""
    text = repr((int(seed),) + labels).encode()
    return random.Random(int.from_bytes(hashlib.blake2b(text, digest_size=16).digest(), "big"))


def fresh_seed() -> int:
    """A new random 63-bit seed, from the operating system's entropy."""
    return random.SystemRandom().getrandbits(63)
