"""The generic protocol every game speaks: one JSON line in per turn, one JSON line out.

In: ``{"game": "patchwork", "seat": 0, "turn": 3, "first": false, "view": {...}, "legal": [...]}``
(the seat's view and its legal actions, as the engine gives them). Out: one of the actions, e.g.
``{"type": "skip"}``. ``docs/bots.md`` is the documentation for bot authors.

>>> p = JsonProtocol("nim")
>>> p.parse('{"type": "take", "n": 2}', {}, 0)
{'type': 'take', 'n': 2}
"""

from __future__ import annotations

import json

from ..core import Action, View


class JsonProtocol:
    name = "json"
    needs_legal = True

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.turn = 0

    def turn_input(self, view: View, seat: int, legal: list[Action] | None, first: bool) -> str:
        message = {"game": self.game_id, "seat": seat, "turn": self.turn, "first": first,
                   "view": view, "legal": legal}
        self.turn += 1
        return json.dumps(message, separators=(",", ":")) + "\n"

    def parse(self, line: str, view: View, seat: int) -> Action:
        try:
            action = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"not JSON ({error.msg} at column {error.colno})") from None
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise ValueError("an action is a JSON object with a 'type', e.g. {\"type\": \"skip\"}")
        return action
