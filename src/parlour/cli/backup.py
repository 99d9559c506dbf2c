"""``parlour db backup --db URL FILE`` and ``parlour db restore --db URL FILE [--replace]``: the
store copied while the hall plays on, and put back (:mod:`parlour.hall.store.backup`)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ..core import ParlourError


def run(args: argparse.Namespace) -> int:
    from ..hall.store import StoreError
    from ..hall.store.backup import backup, restore, safe
    from .serve import ensure_folder

    if not args.file:
        raise ParlourError(f"say where the backup is: parlour db {args.what} --db URL FILE")
    file = Path(args.file)
    began = time.monotonic()
    try:
        if args.what == "backup":
            counted = backup(args.db, file)
            said = f"backed up {safe(args.db)} into {file} ({file.stat().st_size:,} bytes)"
        else:
            ensure_folder(args.db)
            counted = restore(args.db, file, replace=args.replace)
            said = f"restored {file} into {safe(args.db)}"
    except StoreError as error:
        raise ParlourError(str(error)) from None
    held = ", ".join(f"{n:,} {name}" for name, n in counted.items())
    print(f"{said} in {time.monotonic() - began:.1f} s: {held}")
    return 0
