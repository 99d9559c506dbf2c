"""Secrets: a tiny hidden-information game for the hall's tests, injected into the app's registry.

Each seat holds a secret word dealt from the seed, and the deck holds one more that nobody sees
while the game runs. For two rounds every seat picks a number at the same time; picks show once
the round is complete. Before picking, a seat may think (up to three times a round): a move only
that seat sees, like one step of a secret choice made in several actions. A seat's view holds its
own secret, its own pick and its own thoughts, nothing of the others'.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from parlour.core import Game, IllegalAction, LogEntry, Result, derive, require_action

ROUNDS = 2
THOUGHTS = 3  # per seat and round


@dataclass(frozen=True)
class State:
    secrets: tuple[str, ...]
    deck: str
    round: int
    picks: tuple[int | None, ...]       # this round's, hidden until all have picked
    revealed: tuple[tuple[int, ...], ...]
    thoughts: tuple[int, ...] = ()      # this round's thinking steps per seat, seen by nobody else


class Secrets(Game[State]):
    id = "secrets"
    name = "Secrets"
    pitch = "pick numbers while hiding your secret word"
    min_players = 2
    max_players = 3
    hidden_information = True

    def start(self, players: int, options: Mapping[str, Any] | None, seed: int) -> State:
        self.check_players(players)
        rng = derive(seed, "deal")
        secrets = tuple(f"SECRET{seat}X{rng.randrange(10**9):09d}" for seat in range(players))
        return State(secrets, f"DECKX{rng.randrange(10**9):09d}", 0, (None,) * players, (), (0,) * players)

    def to_act(self, state: State) -> frozenset[int]:
        if state.round >= ROUNDS:
            return frozenset()
        return frozenset(s for s, pick in enumerate(state.picks) if pick is None)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(state):
            return []
        thinking = [{"type": "think"}] if state.thoughts[seat] < THOUGHTS else []
        return [{"type": "pick", "number": n} for n in range(10)] + thinking

    def check(self, state: State, seat: int, action: Any) -> None:
        kind = require_action(action)
        if kind not in ("pick", "think"):
            raise IllegalAction(f"unknown action type {action['type']!r}: the actions are 'pick' and 'think'")
        if seat not in self.to_act(state):
            raise IllegalAction("you have picked already this round")
        if kind == "think":
            if state.thoughts[seat] >= THOUGHTS:
                raise IllegalAction(f"you may think {THOUGHTS} times a round")
            return
        number = action.get("number")
        if isinstance(number, bool) or number not in range(10):
            raise IllegalAction(f"pick a whole number from 0 to 9, not {number!r}")

    def apply(self, state: State, seat: int, action: dict[str, Any], log: list[LogEntry] | None = None) -> State:
        self.check(state, seat, action)
        if action["type"] == "think":
            if log is not None:
                log.append(LogEntry("you thought it over", frozenset({seat})))
            thoughts = tuple(n + (s == seat) for s, n in enumerate(state.thoughts))
            return State(state.secrets, state.deck, state.round, state.picks, state.revealed, thoughts)
        picks = tuple(action["number"] if s == seat else p for s, p in enumerate(state.picks))
        if log is not None:
            log.append(LogEntry(f"{{p{seat}}} picked"))
            log.append(LogEntry(f"you picked {action['number']} holding {state.secrets[seat]}", frozenset({seat})))
        if any(p is None for p in picks):
            return State(state.secrets, state.deck, state.round, picks, state.revealed, state.thoughts)
        if log is not None:
            log.append(LogEntry(f"round {state.round + 1}: " + ", ".join(f"{{p{s}}} {p}" for s, p in enumerate(picks))))
        return State(state.secrets, state.deck, state.round + 1, (None,) * len(picks),
                     state.revealed + (tuple(p for p in picks if p is not None),), (0,) * len(picks))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {"round": state.round, "picked": [p is not None for p in state.picks],
                                "revealed": [list(r) for r in state.revealed],
                                "scores": [sum(r[s] for r in state.revealed) for s in range(len(state.picks))]}
        if seat is not None:
            view["secret"] = state.secrets[seat]
            view["my_pick"] = state.picks[seat]
            view["my_thoughts"] = state.thoughts[seat]
        if self.is_over(state):
            view["deck"] = state.deck
        return view

    def is_over(self, state: State) -> bool:
        return state.round >= ROUNDS

    def result(self, state: State) -> Result | None:
        if not self.is_over(state):
            return None
        return Result.from_scores(sum(r[s] for r in state.revealed) for s in range(len(state.picks)))

    def state_to_json(self, state: State) -> dict[str, Any]:
        return {"secrets": list(state.secrets), "deck": state.deck, "round": state.round,
                "picks": list(state.picks), "revealed": [list(r) for r in state.revealed],
                "thoughts": list(state.thoughts)}

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State(tuple(data["secrets"]), data["deck"], data["round"], tuple(data["picks"]),
                     tuple(tuple(r) for r in data["revealed"]), tuple(data["thoughts"]))


SECRETS = Secrets()
