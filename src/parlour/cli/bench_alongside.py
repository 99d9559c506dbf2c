"""What ``parlour bench hall --analyses N`` runs beside the measured play: finished games' analyses
(docs/analysis.md), so that the bench shows whether the analysis worker slows the live rooms.

    codes = finished_games(base, "patchwork", 8)         # bots against bots, before the window
    with Analysing(base, codes) as analysing:             # asked for during the window
        ...                                               # the rooms are played
    print(analysing.said())

The games are played to their end by the hall's own bots (``random``), before the rooms are made;
during the window their analyses are asked for one after the other, two waiting at a time (as
one address may: hall/analyses.py), each asked again every half second until it is made, so the
analysis worker has work throughout.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType

import httpx

from ..core import ParlourError

WAITING = 2  # analyses asked for at once: one address's share of the queue
LOOK_EVERY = 0.5  # seconds between two looks at an analysis being made
FINISH_WITHIN = 60.0  # seconds a bots' game has to end before the bench gives up


def finished_games(base: str, game: str, players: int, count: int) -> list[str]:
    """``count`` games of ``game`` played to their end by the hall's ``random`` bots: their codes."""
    codes = []
    with httpx.Client(base_url=base, timeout=30) as client:
        for _ in range(count):
            made = client.post("/api/rooms", json={"game": game, "seats": [{"kind": "bot", "bot": "random"}] * players})
            if made.status_code != 201:
                raise ParlourError(f"the hall refused a bots' room: {made.text}")
            room = made.json()
            client.post(f"/api/rooms/{room['code']}/start", headers={"Authorization": f"Bearer {room['host_token']}"})
            codes.append(room["code"])
        deadline = time.monotonic() + FINISH_WITHIN
        for code in codes:
            while client.get(f"/api/rooms/{code}").json()["status"] != "over":
                if time.monotonic() > deadline:
                    raise ParlourError(f"the bots' game {code} did not end within {FINISH_WITHIN:.0f} s")
                time.sleep(0.2)
    return codes


class Analysing:
    """Asks for the analyses of ``codes`` in a thread of its own while the block runs."""

    def __init__(self, base: str, codes: list[str]) -> None:
        self.base, self.codes = base, codes
        self.made = 0  # analyses made in the block's time
        self.moves = 0  # moves judged in the block's time (of analyses made, and of the one under way)
        self.refused: list[str] = []
        self.spent: dict[str, float] = {}  # the worker's seconds judging and waiting for the busy hall, in the block
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._ask, name="parlour-bench-analyses", daemon=True)

    def __enter__(self) -> Analysing:
        self.spent = self._worker_seconds() if self.codes else {}
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._stop.set()
        if self.codes:
            self.spent = {spent: value - self.spent.get(spent, 0.0) for spent, value in self._worker_seconds().items()}
        self._thread.join(30)

    def _worker_seconds(self) -> dict[str, float]:
        """The hall's ``parlour_analysis_worker_seconds`` (hall/pacing.py): judging, waiting."""
        from prometheus_client.parser import text_string_to_metric_families

        text = httpx.get(f"{self.base}/metrics", timeout=10).text
        return {sample.labels["spent"]: sample.value for family in text_string_to_metric_families(text)
                if family.name == "parlour_analysis_worker_seconds" for sample in family.samples}

    def _ask(self) -> None:
        waiting: dict[str, int] = {}  # code -> moves already judged when last seen
        todo = list(self.codes)
        with httpx.Client(base_url=self.base, timeout=30) as client:
            while not self._stop.is_set() and (todo or waiting):
                while todo and len(waiting) < WAITING:
                    waiting[todo.pop(0)] = 0
                for code in list(waiting):
                    answer = client.get(f"/api/rooms/{code}/analysis")
                    if answer.status_code != 200:
                        self.refused.append(f"{answer.status_code} {answer.text[:120]}")
                        del waiting[code]
                        continue
                    found = answer.json()
                    if found["status"] == "made":
                        self.made += 1
                        self.moves += len(found["moves"]) - waiting.pop(code)
                    elif found["status"] == "pending":
                        self.moves += found["done"] - waiting[code]
                        waiting[code] = found["done"]
                    else:
                        self.refused.append(f"{code}: {found}")
                        del waiting[code]
                self._stop.wait(LOOK_EVERY)

    def said(self) -> str:
        """The line the bench prints."""
        return (f"alongside: {self.made} of {len(self.codes)} games' analyses made and {self.moves} moves judged"
                f" by the hall's analysis worker during the window (its CPU time is in the server's)"
                + (f"; it judged for {self.spent.get('judging', 0.0):.1f} s of CPU and waited"
                   f" {self.spent.get('waiting', 0.0):.1f} s for the busy hall" if self.spent else "")
                + (f"; refused: {self.refused[:3]}" if self.refused else ""))
