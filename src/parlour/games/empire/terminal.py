"""Empire in a terminal: a seat's view drawn with Rich, and moves typed in words or picked by number.

``parlour play empire`` finds this module by the game's package (``render``, ``parse_move``,
``describe``, ``HELP``). Nothing here decides a rule: the engine says whether a move is legal.

>>> parse_move("claim 3", {"roles": [], "revelatory": []}, 0)
{'type': 'claim', 'amount': 3}
"""

from __future__ import annotations

import re

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core import Action, View
from ...core.words import number

HELP = """\
Moves (upper or lower case), or the number of a move in the list under the board:
  income / i            take 1 coin
  claim 3 / c 3         claim 2, 3 or 4 coins (you must hold as many)
  promote / p           pay 2: draw a card, then keep 'role' or 'drawn'
  reveal a b            pay 3: look at revelatory cards A and B
  spy                   pay 8: see your opponent's role
  discover              pay 18: see the culprit (ends your turn)
  accuse 7 / accuse captain   name the culprit: right, you win; wrong, you lose
  end / e               end your turn (after your claim or income)
Answering a claim: pass, challenge, guess 7 (or guess captain, 1 coin).
Other moments: collect 2 (coins from your opponent, the rest from the bank), draw a (a revelatory
card when the deck is empty), decline (do not accuse), keep role / keep drawn.
Other words: help, board (draw it again), quit."""

_SIMPLE = {"income": "income", "i": "income", "promote": "promote", "p": "promote", "spy": "spy",
           "discover": "discover", "end": "end", "e": "end", "pass": "pass", "challenge": "challenge",
           "decline": "decline", "no": "decline"}


def _role(word: str, view: View) -> int:
    if word.isdigit():
        return int(word)
    for role in view["roles"]:
        if role["name"].lower().startswith(word):
            return int(role["number"])
    raise ValueError(f"no role is called {word!r}; give its number or name")


def _slot(word: str, view: View) -> int:
    letters = [s["name"].lower() for s in view["revelatory"]] or ["a", "b", "c", "d"]
    if word in letters:
        return letters.index(word)
    raise ValueError(f"{word!r} is not a revelatory card: A, B, C or D")


def parse_move(text: str, view: View, seat: int) -> Action:
    """The action that ``text`` asks for; ValueError saying what was not understood."""
    words = re.findall(r"[a-z]+|\d+", text.lower())
    if not words:
        raise ValueError("type a move, or 'help'")
    verb, rest = words[0], words[1:]
    if verb in _SIMPLE and not rest:
        return {"type": _SIMPLE[verb]}
    if verb in ("claim", "c") and len(rest) == 1 and rest[0].isdigit():
        return {"type": "claim", "amount": int(rest[0])}
    if verb in ("accuse", "x", "guess", "g") and len(rest) == 1:
        return {"type": "accuse" if verb in ("accuse", "x") else "guess", "role": _role(rest[0], view)}
    if verb == "reveal" and 1 <= len(rest) <= 2:
        return {"type": "reveal", "slots": sorted(_slot(w, view) for w in rest)}
    if verb == "draw" and len(rest) == 1:
        return {"type": "draw", "slot": _slot(rest[0], view)}
    if verb == "collect" and len(rest) == 1 and rest[0].isdigit():
        return {"type": "collect", "from_opponent": int(rest[0])}
    if verb == "keep" and len(rest) == 1 and rest[0] in ("role", "old", "drawn", "new"):
        return {"type": "keep", "card": "role" if rest[0] in ("role", "old") else "drawn"}
    raise ValueError(f"I do not understand {text.strip()!r}; type 'help' for the moves")


def _name(view: View, number: int | None) -> str:
    if number is None:
        return "?"
    return next((f"{r['name']} ({number})" for r in view["roles"] if r["number"] == number), str(number))


def describe(action: Action, view: View, seat: int, names: list[str]) -> str:
    """One line for the numbered list of moves."""
    kind = action["type"]
    costs = view.get("costs", {})
    if kind == "claim":
        return f"claim {action['amount']} coins"
    if kind == "accuse":
        return f"accuse the {_name(view, action['role'])}"
    if kind == "guess":
        return f"guess the {_name(view, action['role'])} (1 coin)"
    if kind == "reveal":
        places = " and ".join(view["revelatory"][s]["name"] for s in action["slots"])
        return f"reveal {places} ({costs.get('reveal', 3)} coins)"
    if kind == "draw":
        return f"draw revelatory card {view['revelatory'][action['slot']]['name']}"
    if kind == "collect":
        taken = action["from_opponent"]
        return f"take {taken} from {names[1 - seat]}, {view['claim'] - taken} from the bank"
    if kind == "keep":
        return "keep your old role" if action["card"] == "role" else "keep the card you drew"
    if kind in ("promote", "spy", "discover"):
        return f"{kind} ({costs.get(kind, '?')} coins)"
    return {"income": "take 1 coin (income)", "end": "end your turn", "pass": "pass: let the claim be paid",
            "challenge": "challenge: show both roles, the higher wins", "decline": "do not accuse"}.get(kind, str(kind))


def render(view: View, seat: int | None, names: list[str]) -> RenderableType:
    """The table: both players, the revelatory cards, the culprit, the pile, what you know."""
    lines = Text()
    for s in (0, 1):
        who = "you" if s == seat else names[s]
        lines.append(f"{names[s]}: {view['coins'][s]} coins", style="bold" if view["active"] == s else "")
        if s == seat:
            lines.append(f", role {_name(view, view['you']['role'])}")
            if view["you"]["drawn"] is not None:
                lines.append(f", just drew {_name(view, view['you']['drawn'])}")
        elif seat is not None and view["opponent"]["role"] is not None:
            lines.append(f", role {_name(view, view['opponent']['role'])} (you know it)")
        if view["discovered"][s]:
            lines.append(f"  {who} has seen the culprit", style="red")
        lines.append("\n")
    slots = []
    for slot in view["revelatory"]:
        shown = _name(view, slot["card"]) if slot["card"] is not None else "face down"
        if not slot["present"]:
            shown = f"drawn by {names[slot['taken_by']]}"
            if slot["card"] is not None:
                shown += f" ({_name(view, slot['card'])})"
        seen = ", ".join(names[p] for p in slot["looked_at_by"])
        slots.append(f"{slot['name']}: {shown}" + (f" [looked at by {seen}]" if seen else ""))
    lines.append("Revelatory cards: " + "; ".join(slots) + "\n")
    lines.append(f"Culprit: {_name(view, view['culprit']) if view['culprit'] is not None else 'face down'}; "
                 f"deck: {view['deck_count']} cards; discard pile: "
                 + (", ".join(_name(view, n) for n in view["pile"]) or "empty") + "\n")
    suspects = view.get("suspects")
    if suspects is not None:
        lines.append(f"Suspects ({len(suspects)}): " + ", ".join(_name(view, n) for n in suspects) + "\n", style="cyan")
    challenge = view.get("last_challenge")
    if challenge and challenge["turn"] >= view["turn"] - 1:
        c = challenge["claimant"]
        lines.append(f"Challenge: {names[c]} showed {_name(view, challenge['roles'][c])}, {names[1 - c]} showed "
                     f"{_name(view, challenge['roles'][1 - c])}; {names[challenge['winner']]} won.\n", style="yellow")
    step = {"turn": "claim or take income, buy information, accuse, or end the turn",
            "respond": f"answer a claim of {view['claim']} coins: pass, challenge or guess",
            "collect": "you won the challenge: where do the coins come from?",
            "draw": "the deck is empty: draw a revelatory card", "accuse_chance": "you may accuse now",
            "keep": "keep your role or the card you drew"}.get(view["step"], "")
    if seat is not None and seat in view["to_act"] and step:
        lines.append(f"Now: {step}", style="bold")
    return lines


def render_result(view: View, names: list[str]) -> RenderableType:
    table = Table(title="The end")
    for column in ("player", "coins", "role", "score"):
        table.add_column(column)
    result = view["result"]
    for s in (0, 1):
        role = view["you"]["role"] if s == view["seat"] else view["opponent"]["role"]
        table.add_row(names[s], str(view["coins"][s]), _name(view, role), number(result["scores"][s]))
    return Group(table, Text(f"The culprit was the {_name(view, view['culprit'])}."))
