"""Happy Little Dinosaurs in a terminal: a seat's view drawn with Rich, moves picked by number from the
list under the board, or typed in words.

``parlour play dinosaurs`` finds this module by the game's package (``render``, ``parse_move``,
``describe``, ``HELP``). Nothing here decides a rule: the engine says whether a move is legal.

>>> parse_move("pass", {"hand": []}, 0)
{'type': 'pass'}
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from ...core import Action, View
from .engine import DATA

HELP = """\
Each moment lists the moves open to you under the board: type a move's number to make it.
In words (upper or lower case):
  play 2 / p 2          play the second card of your hand (a Point card face down, or an Instant)
  pass                  take the Disaster, keep your hand, play no Instant, or decline an effect
Cards in your hand are numbered from 1, each printed with its value and its effect.
Other words: help, board (draw it again), quit."""

CARDS: list[dict[str, Any]] = DATA["cards"]
DINOS: dict[str, dict[str, Any]] = {d["key"]: d for d in DATA["dinosaurs"]}
TYPES = {"natural": "Natural", "predatory": "Predatory", "emotional": "Emotional", "meteor": "Meteor"}


def title(card: int) -> str:
    c = CARDS[card]
    if c["kind"] == "point":
        return f"{c['name']} ({c['value']})"
    if c["kind"] == "disaster":
        return f"{c['name']} [{TYPES[c['type']]}]"
    return str(c["name"])


def card_line(card: int) -> str:
    """A card with what it does: "Fire Spray (4): You may discard up to 3 cards from your hand."."""
    c = CARDS[card]
    if c["kind"] == "disaster":
        return f"{title(card)}: a Disaster" + (", counts as any type" if c["type"] == "meteor" else "")
    kind = "Instant" if c["kind"] == "instant" else "Point card"
    return f"{title(card)}, {kind}" + (f": {c['effect']}" if c.get("effect") else "")


def traits(key: str) -> str:
    shown = [f"{v:+d} against {TYPES[t]}" for t, v in DINOS[key]["traits"].items() if v]
    return f"{DINOS[key]['name']} ({', '.join(shown)})"


def parse_move(text: str, view: View, seat: int) -> Action:
    """The action that ``text`` asks for; ValueError saying what was not understood."""
    words = re.findall(r"[a-z]+|\d+", text.lower())
    if words == ["pass"] or words == ["p"]:
        return {"type": "pass"}
    if len(words) == 2 and words[0] in ("play", "p") and words[1].isdigit():
        hand = view.get("hand") or []
        n = int(words[1])
        if not 1 <= n <= len(hand):
            raise ValueError(f"your hand has cards 1 to {len(hand)}")
        card = hand[n - 1]
        return {"type": "instant" if CARDS[card]["kind"] == "instant" else "play", "card": card}
    raise ValueError(f"I do not understand {text.strip()!r}: type a move's number from the list, or 'help'")


def describe(action: Action, view: View, seat: int, names: list[str]) -> str:
    """One line for the numbered list of moves."""
    kind = action["type"]
    def who(s: int) -> str:
        return "yourself" if s == seat else names[s]

    if kind == "dinosaur":
        return f"be {traits(action['dinosaur'])}"
    if kind == "pass":
        return {"disaster": "take the Disaster", "discard": "keep your hand", "scoring": "play no Instant"}.get(
            view["phase"], "do not use the effect")
    if kind == "play":
        return f"play {card_line(action['card'])}"
    if kind == "take":
        return f"take {title(action['card'])}"
    if kind == "discard":
        return "discard " + ", ".join(title(c) for c in action["cards"])
    if kind == "instant":
        return f"play {title(action['card'])}" + (f" on {who(action['player'])}" if "player" in action else "")
    if kind == "look_hand":
        return f"look at {names[action['player']]}'s hand"
    if kind == "look_deck":
        return "look at the top 2 cards of the deck"
    if kind == "swap":
        if "players" in action:
            return f"swap the Point cards of {names[action['players'][0]]} and {names[action['players'][1]]}"
        return f"swap Point cards with {names[action['player']]}"
    return str(action)


def render(view: View, seat: int | None, names: list[str]) -> RenderableType:
    """The round's Disaster, every dinosaur, and your hand with each card's effect."""
    out = Text()
    if view["phase"] == "dinosaur":
        out.append("Choosing dinosaurs before the first round.\n", style="bold")
    else:
        out.append(f"Round {view['round']}", style="bold")
        if view["disaster"] is not None:
            out.append(f": the Disaster is {title(view['disaster'])}")
        out.append(f"   (first to {view['goal']} wins; main deck {view['deck_size']}, "
                   f"Disaster deck {view['disaster_deck_size']})\n")
    for s, p in enumerate(view["players"]):
        dino = traits(p["dinosaur"]) if p["dinosaur"] else "no dinosaur yet"
        out.append(f"{names[s]}: {dino}; ", style="bold" if s == seat else "")
        out.append(f"Escape Route {p['escape']}/{view['goal']}; Disasters: "
                   + (", ".join(TYPES[CARDS[c]["type"]] for c in p["area"]) or "none"))
        if p["eliminated"]:
            out.append(" - eliminated", style="red")
        elif p["card"] is not None:
            out.append(f"; plays {title(p['card'])}")
            if p["final_score"] is not None:
                out.append(f", score {p['final_score']}")
        elif p["face_down"]:
            out.append("; a card face down")
        out.append(f"; {p['hand_size']} cards in hand\n")
    if view.get("hand"):
        out.append("Your hand:\n", style="bold")
        for n, card in enumerate(view["hand"], 1):
            out.append(f"  {n}. {card_line(card)}\n")
    if view.get("face_down") is not None:
        out.append(f"Face down: {title(view['face_down'])}\n")
    for key in ("peek",):
        if view.get(key):
            out.append("You see: " + "; ".join(card_line(c) for c in view[key]) + "\n")
    grab = view.get("grab")
    if grab and grab.get("hand"):
        out.append(f"{names[grab['player']]}'s hand: " + "; ".join(card_line(c) for c in grab["hand"]) + "\n")
    return out


def render_result(view: View, names: list[str]) -> Text:
    ranks = view["result"]["ranks"]
    return Text("Final ranks: " + ", ".join(f"{names[s]} {ranks[s]}" for s in range(len(names))))
