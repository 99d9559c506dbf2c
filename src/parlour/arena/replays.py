"""Replay files: one JSON file per game, in the format of :mod:`parlour.core.replays` (``docs/protocol.md``)
that the hall shows; this module reads and writes the files, ``core`` says what they hold."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.replays import BadReplay, dumps, loads

__all__ = ["BadReplay", "read", "write"]


def write(folder: str | Path, number: int, replay: dict[str, Any]) -> Path:
    """Write ``replay`` as ``<folder>/<game>-<number>.json``; the path written."""
    path = Path(folder) / f"{replay['game']}-{number:04d}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(replay) + "\n")
    return path


def read(path: str | Path) -> dict[str, Any]:
    """The replay in ``path``, checked to have every field of its kind; :class:`BadReplay` in words if not."""
    try:
        text = Path(path).read_bytes()
    except OSError as error:
        raise BadReplay(f"cannot read {path}: {error.strerror}") from None
    return loads(text, str(path))

