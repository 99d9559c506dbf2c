"""Empire: two investigators, one stolen crystal, a deck of roles. Claim coins, bluff, challenge,
buy information, and be the first to name the culprit.

Every card is a different role with its own number (the deck is in ``empire.json``; why it is
that deck is in docs/rules/empire.md). A card is named by its number everywhere: in the state,
in actions and in views.

A turn is a sequence of actions by the active player: any of the extras (promote, reveal, spy,
discover, accuse), the main action (claim or income), more extras, then ``end``. Decisions that
interrupt it (the opponent's response to a claim, a challenge winner's choice of where the coins
come from, drawing a revelatory card when the deck is empty, the opponent's chance to accuse
then, keeping one of two cards after a promotion) wait in ``State.queue``; its head is who must
act now.

>>> game = Empire(); state = game.start(2, {}, seed=1)
>>> state = game.apply(state, 0, {"type": "income"}); state.coins
(3, 2)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from importlib import resources
from itertools import combinations
from typing import Any, NamedTuple

from ...core import Action, Game, IllegalAction, LogEntry, Result, View, derive, require_action, require_int

# --- data -------------------------------------------------------------------------------------

DATA = json.loads(resources.files(__package__).joinpath("empire.json").read_text())
ROLES: dict[int, str] = {r["number"]: r["name"] for r in DATA["roles"]}
LINES: dict[int, str] = {r["number"]: r["line"] for r in DATA["roles"]}  # a line of story each
NUMBERS: tuple[int, ...] = tuple(sorted(ROLES))
assert len(set(ROLES.values())) == len(ROLES), "each role has its own name"
START_COINS = DATA["start_coins"]
SLOTS = DATA["revelatory_cards"]
SLOT_NAMES = "ABCDEFGH"[:SLOTS]
CLAIM_MIN, CLAIM_MAX = DATA["claim"]["minimum"], DATA["claim"]["maximum"]
COSTS: dict[str, int] = DATA["costs"]
INCOME = DATA["income"]
EXTRAS = ("promote", "reveal", "spy", "discover")  # each as often as it is paid for (rules notes)
ACTION_TYPES = ("claim", "income", "promote", "reveal", "spy", "discover", "accuse", "end",
                "pass", "challenge", "guess", "collect", "draw", "decline", "keep")


def _role_field(action: Mapping[str, Any]) -> int:
    role = require_int(action, "role")
    if role not in ROLES:
        raise IllegalAction(f"there is no role {role}: the roles are numbered {NUMBERS[0]} to {NUMBERS[-1]}")
    return role


def _waiting_for(step: str) -> str:
    return {"turn": "take a turn", "respond": "answer the claim", "collect": "say where the coins come from",
            "draw": "choose a revelatory card to draw", "accuse_chance": "accuse or decline",
            "keep": "keep one of two cards"}[step]


def card_name(number: int) -> str:
    """'the Captain (7)': how the log and messages name a card."""
    return f"the {ROLES[number]} ({number})"


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def _pair(pair: tuple[Any, Any], seat: int, value: Any) -> tuple[Any, Any]:
    """``pair`` with the item of ``seat`` replaced by ``value``."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


# --- state ------------------------------------------------------------------------------------

# A pending decision: (kind, seat) or ("draw", seat, why) with why "challenge" or "promote".
Step = tuple[Any, ...]
NOBODY: frozenset[int] = frozenset()
EMPTY: frozenset[int] = frozenset()


class Challenge(NamedTuple):
    """The last challenge: who claimed how many coins, both roles shown (by seat), who won, in which
    turn. Stored as the list of its fields (``roles`` a list), as before it had names."""

    claimant: int
    amount: int
    roles: tuple[int, int]
    winner: int
    turn: int

    def to_json(self) -> list[Any]:
        return [self.claimant, self.amount, list(self.roles), self.winner, self.turn]

    @classmethod
    def from_json(cls, data: list[Any]) -> Challenge:
        claimant, amount, roles, winner, turn = data
        return cls(claimant, amount, (roles[0], roles[1]), winner, turn)


class Guess(NamedTuple):
    """The last guess at a claimant's role: who guessed which role, whether rightly, in which turn."""

    guesser: int
    role: int
    right: bool
    turn: int


class Outcome(NamedTuple):
    """How the game ended: the winner (None for a tie) and why, in words."""

    winner: int | None
    reason: str


@dataclass(frozen=True)
class State:
    """One moment of a game; per-seat pairs are indexed by seat. Immutable: the engine only
    builds new ones."""

    deck: tuple[int, ...]                 # face down, top first
    slots: tuple[int, ...]                # the revelatory cards in their places, drawn or not
    culprit: int
    roles: tuple[int | None, int | None]  # None between a challenge's discards and the redraw
    drawn: int | None                     # the card a promoting player holds beside their role
    coins: tuple[int, int]
    pile: tuple[int, ...]                 # the face-up discard pile, oldest first
    active: int                           # whose turn it is
    queue: tuple[Step, ...]               # decisions that must be taken before the turn goes on
    claim: int                            # the claim being answered (0 when none)
    used: frozenset[str]                  # extras done this turn (they may be done again)
    main_done: bool                       # claim or income done this turn
    # What each seat knows beyond its own hand and the pile. All of it follows from public events
    # except the cards themselves.
    looked: tuple[frozenset[int], frozenset[int]]  # slots each seat has looked at (public)
    taken: tuple[int | None, ...]                  # per slot, the seat that drew it; None while it lies there
    discovered: tuple[bool, bool]                  # who has looked at the culprit (public)
    known: tuple[frozenset[int], frozenset[int]]   # cards in the opponent's hand this seat knows
    ruled_out: tuple[frozenset[int], frozenset[int]]  # wrong guesses at the opponent's current role
    challenge: Challenge | None           # the last challenge
    guess: Guess | None                   # the last guess
    turn: int                             # turns begun, counting from 1
    outcome: Outcome | None               # once over

    def holder_hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds: its role and, while promoting, the drawn card."""
        role = self.roles[seat]
        hand: tuple[int, ...] = () if role is None else (role,)
        if self.drawn is not None and self.active == seat:
            hand += (self.drawn,)
        return hand


def to_move(state: State) -> int | None:
    if state.outcome is not None:
        return None
    return state.queue[0][1] if state.queue else state.active


def seen_by(state: State, seat: int) -> frozenset[int]:
    """Every card ``seat`` has seen and can place: so none of them can be the culprit, unless it
    is the culprit card itself, seen by discovering it."""
    cards = set(state.pile) | set(state.holder_hand(seat)) | state.known[seat]
    cards |= {state.slots[i] for i in state.looked[seat]}
    cards |= {state.slots[i] for i in range(SLOTS) if state.taken[i] == seat}
    return frozenset(cards)


def present_slots(state: State) -> list[int]:
    """The places whose revelatory card still lies there."""
    return [i for i in range(SLOTS) if state.taken[i] is None]


def suspects(state: State, seat: int) -> tuple[int, ...]:
    """The roles that can still be the culprit as far as ``seat`` knows."""
    if state.discovered[seat] or state.outcome is not None:
        return (state.culprit,)
    cleared = seen_by(state, seat)
    return tuple(n for n in NUMBERS if n not in cleared)


# --- the rules ----------------------------------------------------------------------------------

class Empire(Game[State]):
    id = "empire"
    name = "Empire"
    pitch = "Two investigators claim coins, bluff and buy clues: first to name who stole the crystal wins."
    scores_label = "coins"
    min_players = 2
    max_players = 2
    hidden_information = True
    action_fields = {"claim": {"amount": "int"}, "income": {}, "promote": {}, "reveal": {"slots": "ints"},
                     "spy": {}, "discover": {}, "accuse": {"role": "int"}, "end": {}, "pass": {}, "challenge": {},
                     "guess": {"role": "int"}, "collect": {"from_opponent": "int"}, "draw": {"slot": "int"},
                     "decline": {}, "keep": {"card": "str"}}

    def start(self, players: int, options: Mapping[str, Any] | None, seed: int) -> State:
        self.check_players(players)
        self.resolve_options(options, players)
        cards = list(NUMBERS)
        derive(seed, "deck").shuffle(cards)
        roles, slots, culprit, deck = cards[:2], cards[2:2 + SLOTS], cards[2 + SLOTS], cards[3 + SLOTS:]
        return State(tuple(deck), tuple(slots), culprit, (roles[0], roles[1]), None,
                     (START_COINS, START_COINS), (), 0, (), 0, frozenset(), False, (EMPTY, EMPTY),
                     (None,) * SLOTS, (False, False), (EMPTY, EMPTY), (EMPTY, EMPTY), None, None, 1, None)

    def to_act(self, state: State) -> frozenset[int]:
        seat = to_move(state)
        return NOBODY if seat is None else frozenset((seat,))

    def is_over(self, state: State) -> bool:
        return state.outcome is not None

    # -- listing ------------------------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if to_move(state) != seat:
            return []
        kind = state.queue[0][0] if state.queue else "turn"
        accuse = [{"type": "accuse", "role": n} for n in NUMBERS]
        if kind == "respond":
            actions: list[Action] = [{"type": "pass"}, {"type": "challenge"}]
            if state.coins[seat] >= COSTS["guess"]:
                actions += [{"type": "guess", "role": n} for n in NUMBERS]
            return actions
        if kind == "collect":
            most = min(state.claim, state.coins[1 - seat])
            return [{"type": "collect", "from_opponent": k} for k in range(most + 1)]
        if kind == "draw":
            return [{"type": "draw", "slot": i} for i in present_slots(state)]
        if kind == "accuse_chance":
            return [{"type": "decline"}] + accuse
        if kind == "keep":
            return [{"type": "keep", "card": "role"}, {"type": "keep", "card": "drawn"}]
        coins = state.coins[seat]
        actions = []
        if not state.main_done:
            actions.append({"type": "income"})
            actions += [{"type": "claim", "amount": a} for a in range(CLAIM_MIN, min(CLAIM_MAX, coins) + 1)]
        else:
            actions.append({"type": "end"})
        if coins >= COSTS["promote"]:
            actions.append({"type": "promote"})
        if coins >= COSTS["reveal"]:
            present = present_slots(state)
            if len(present) == 1:
                actions.append({"type": "reveal", "slots": present})
            actions += [{"type": "reveal", "slots": list(p)} for p in combinations(present, 2)]
        for extra in ("spy", "discover"):
            if coins >= COSTS[extra]:
                actions.append({"type": extra})
        return actions + accuse

    @staticmethod
    def _can_draw(state: State) -> bool:
        return bool(state.deck) or None in state.taken

    # -- checking -----------------------------------------------------------------------------------
    def check(self, state: State, seat: int, action: Any) -> None:
        self._checked(state, seat, action)

    def _checked(self, state: State, seat: int, action: Any) -> str:
        """The action's type once it is known to be legal; IllegalAction saying why otherwise."""
        kind = require_action(action)
        if kind not in ACTION_TYPES:
            raise IllegalAction(f"unknown action type {kind!r}: the actions are {', '.join(ACTION_TYPES)}")
        mover = to_move(state)
        if mover is None:
            raise IllegalAction("the game is over")
        step = state.queue[0][0] if state.queue else "turn"
        if mover != seat:
            raise IllegalAction(f"it is player {mover + 1}'s move ({_waiting_for(step)}), not player {seat + 1}'s")
        expected = {"respond": ("pass", "challenge", "guess"), "collect": ("collect",), "draw": ("draw",),
                    "accuse_chance": ("accuse", "decline"), "keep": ("keep",)}.get(step)
        if expected is None:
            expected = ("claim", "income", "promote", "reveal", "spy", "discover", "accuse", "end")
        if kind not in expected:
            raise IllegalAction(f"you must {_waiting_for(step)} now ({' or '.join(expected)}), not {kind}")
        getattr(self, f"_check_{kind}")(state, seat, action)
        return kind

    def _check_claim(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        self._main_open(state)
        amount = require_int(action, "amount")
        if not CLAIM_MIN <= amount <= CLAIM_MAX:
            raise IllegalAction(f"a claim is {CLAIM_MIN} to {CLAIM_MAX} coins, not {amount}")
        if amount > state.coins[seat]:
            raise IllegalAction(f"you may claim at most as many coins as you hold: you hold"
                                f" {_coins(state.coins[seat])} and claimed {amount}")

    def _check_income(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        self._main_open(state)

    @staticmethod
    def _main_open(state: State) -> None:
        if state.main_done:
            raise IllegalAction("you have already claimed or taken income this turn")

    def _check_end(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        if not state.main_done:
            raise IllegalAction("claim coins or take income before you end your turn")

    def _pay(self, state: State, seat: int, what: str) -> None:
        if state.coins[seat] < COSTS[what]:
            raise IllegalAction(f"to {what} costs {_coins(COSTS[what])} and you have {_coins(state.coins[seat])}")

    def _check_promote(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        # docs/rules/empire.md: with nothing left to draw a promotion is still allowed, and its draw
        # ends the game in a tie
        self._pay(state, seat, "promote")

    def _check_reveal(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        self._pay(state, seat, "reveal")
        slots = action.get("slots")
        present = present_slots(state)
        if not present:
            raise IllegalAction("no revelatory cards are left to look at")
        if not isinstance(slots, list) or any(type(i) is not int for i in slots):
            raise IllegalAction(f"reveal needs 'slots': a list of two revelatory card places (0 to {SLOTS - 1})")
        need = min(2, len(present))
        if len(slots) != need or len(set(slots)) != need:
            raise IllegalAction(f"reveal looks at {'two different' if need == 2 else 'the one remaining'}"
                                f" revelatory card{'s' if need == 2 else ''}, not {slots}")
        for i in slots:
            if not 0 <= i < SLOTS:
                raise IllegalAction(f"revelatory cards are places 0 to {SLOTS - 1}, not {i}")
            if state.taken[i] is not None:
                raise IllegalAction(f"revelatory card {SLOT_NAMES[i]} has already been drawn")

    def _check_spy(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        self._pay(state, seat, "spy")

    def _check_discover(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        self._pay(state, seat, "discover")

    def _check_accuse(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        _role_field(action)

    def _check_pass(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        pass

    def _check_challenge(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        pass

    def _check_guess(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        _role_field(action)
        if state.coins[seat] < COSTS["guess"]:
            raise IllegalAction(f"a guess costs {_coins(COSTS['guess'])} and you have none")

    def _check_collect(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        k = require_int(action, "from_opponent")
        most = min(state.claim, state.coins[1 - seat])
        if not 0 <= k <= most:
            raise IllegalAction(f"you may take 0 to {most} of the {_coins(state.claim)} from your opponent"
                                f" (they hold {_coins(state.coins[1 - seat])}), not {k}; the rest comes from the bank")

    def _check_draw(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        i = require_int(action, "slot")
        if not 0 <= i < SLOTS:
            raise IllegalAction(f"revelatory cards are places 0 to {SLOTS - 1}, not {i}")
        if state.taken[i] is not None:
            raise IllegalAction(f"revelatory card {SLOT_NAMES[i]} has already been drawn")

    def _check_decline(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        pass

    def _check_keep(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        if action.get("card") not in ("role", "drawn"):
            raise IllegalAction(f"keep needs 'card': \"role\" (keep your old role) or \"drawn\" (keep the new"
                                f" card), not {action.get('card')!r}")

    # -- applying -----------------------------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action, log: list[LogEntry] | None = None) -> State:
        kind = self._checked(state, seat, action)
        out: list[LogEntry] = []
        state = getattr(self, f"_do_{kind}")(state, seat, action, out)
        state = self._settle(state, out)
        if log is not None:
            log.extend(out)
        return state

    def _do_income(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        log.append(LogEntry(f"{{p{seat}}} takes {_coins(INCOME)} of income"))
        return replace(state, coins=_pair(state.coins, seat, state.coins[seat] + INCOME), main_done=True)

    def _do_claim(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        amount = action["amount"]
        log.append(LogEntry(f"{{p{seat}}} claims {_coins(amount)}"))
        return replace(state, claim=amount, queue=(("respond", 1 - seat),) + state.queue)

    def _do_pass(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        active, amount = state.active, state.claim
        log.append(LogEntry(f"{{p{seat}}} passes: {{p{active}}} takes {_coins(amount)} from the bank"))
        return replace(self._claim_settled(state), coins=_pair(state.coins, active, state.coins[active] + amount))

    def _claim_settled(self, state: State) -> State:
        return replace(state, queue=state.queue[1:], claim=0, main_done=True)

    def _do_guess(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        active, amount, role = state.active, state.claim, action["role"]
        right = state.roles[active] == role
        coins = _pair(state.coins, seat, state.coins[seat] - COSTS["guess"])
        text = f"{{p{seat}}} pays {_coins(COSTS['guess'])} and guesses that {{p{active}}} is {card_name(role)}: "
        if right:
            coins = _pair(coins, active, coins[active] - amount)
            coins = _pair(coins, seat, coins[seat] + amount)
            log.append(LogEntry(text + f"right, so {{p{active}}} pays {_coins(amount)} to {{p{seat}}}"))
            known = _pair(state.known, seat, frozenset((role,)))
            ruled_out = state.ruled_out
        else:
            coins = _pair(coins, active, coins[active] + amount)
            log.append(LogEntry(text + f"wrong, so {{p{active}}} takes {_coins(amount)} from the bank"))
            known = state.known
            ruled_out = _pair(state.ruled_out, seat, state.ruled_out[seat] | {role})
        return replace(self._claim_settled(state), coins=coins, known=known, ruled_out=ruled_out,
                       guess=Guess(seat, role, right, state.turn))

    def _do_challenge(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        active, amount = state.active, state.claim
        mine, theirs = state.roles[active], state.roles[seat]
        assert mine is not None and theirs is not None
        winner = active if mine > theirs else seat
        log.append(LogEntry(f"{{p{seat}}} challenges. {{p{active}}} shows {card_name(mine)}, {{p{seat}}} shows"
                            f" {card_name(theirs)}: {{p{winner}}} wins the challenge"))
        roles = (mine, theirs) if active == 0 else (theirs, mine)
        shown = (frozenset((roles[1],)), frozenset((roles[0],)))  # both roles are face up until discarded
        state = replace(state, challenge=Challenge(active, amount, roles, winner, state.turn), main_done=True,
                        known=shown)
        redraws: tuple[Step, ...] = (("discard",), ("draw", active, "challenge"), ("draw", seat, "challenge"))
        if winner == active:
            if state.coins[seat] > 0:
                return replace(state, queue=(("collect", active),) + redraws + state.queue[1:])
            # docs/rules/empire.md: with nothing to take from the opponent, the bank pays it all
            log.append(LogEntry(f"{{p{active}}} takes {_coins(amount)} from the bank"))
            state = replace(state, coins=_pair(state.coins, active, state.coins[active] + amount))
        else:
            log.append(LogEntry(f"{{p{active}}} pays {_coins(amount)} to the bank"))
            state = replace(state, coins=_pair(state.coins, active, state.coins[active] - amount))
        return replace(state, queue=redraws + state.queue[1:], claim=0)

    def _do_collect(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        amount, k = state.claim, action["from_opponent"]
        other = 1 - seat
        coins = _pair(state.coins, other, state.coins[other] - k)
        coins = _pair(coins, seat, coins[seat] + amount)
        log.append(LogEntry(f"{{p{seat}}} takes {_coins(k)} from {{p{other}}} and {_coins(amount - k)} from the bank"))
        return replace(state, coins=coins, queue=state.queue[1:], claim=0)

    def _do_promote(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        log.append(LogEntry(f"{{p{seat}}} pays {_coins(COSTS['promote'])} to promote"))
        return replace(state, coins=_pair(state.coins, seat, state.coins[seat] - COSTS["promote"]),
                       used=state.used | {"promote"},
                       queue=(("draw", seat, "promote"), ("keep", seat)) + state.queue)

    def _do_keep(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        old, new = state.roles[seat], state.drawn
        assert old is not None and new is not None
        kept, dropped = (old, new) if action["card"] == "role" else (new, old)
        log.append(LogEntry(f"{{p{seat}}} discards {card_name(dropped)} and keeps the other card"))
        log.append(LogEntry(f"{{p{seat}}} keeps {card_name(kept)} as their role", frozenset((seat,))))
        other = 1 - seat
        # the opponent still knows the role only if it is a card of the two they knew
        known = _pair(state.known, other, frozenset((kept,)) & state.known[other])
        # docs/rules/empire.md: wrong guesses at a role are forgotten once its holder may have changed it
        ruled_out = _pair(state.ruled_out, other, frozenset())
        return replace(state, roles=_pair(state.roles, seat, kept), drawn=None, pile=state.pile + (dropped,),
                       known=known, ruled_out=ruled_out, queue=state.queue[1:])

    def _do_reveal(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        slots = sorted(action["slots"])
        names = " and ".join(SLOT_NAMES[i] for i in slots)
        log.append(LogEntry(f"{{p{seat}}} pays {_coins(COSTS['reveal'])} and looks at revelatory card"
                            f"{'s' if len(slots) > 1 else ''} {names}"))
        seen = ", ".join(f"{SLOT_NAMES[i]} is {card_name(state.slots[i])}" for i in slots)
        log.append(LogEntry(f"{{p{seat}}} sees that {seen}", frozenset((seat,))))
        return replace(state, coins=_pair(state.coins, seat, state.coins[seat] - COSTS["reveal"]),
                       used=state.used | {"reveal"},
                       looked=_pair(state.looked, seat, state.looked[seat] | frozenset(slots)))

    def _do_spy(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        other = 1 - seat
        role = state.roles[other]
        assert role is not None
        log.append(LogEntry(f"{{p{seat}}} pays {_coins(COSTS['spy'])} to spy on {{p{other}}}'s role"))
        log.append(LogEntry(f"{{p{seat}}} sees that {{p{other}}} is {card_name(role)}", frozenset((seat,))))
        return replace(state, coins=_pair(state.coins, seat, state.coins[seat] - COSTS["spy"]),
                       used=state.used | {"spy"}, known=_pair(state.known, seat, frozenset((role,))))

    def _do_discover(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        log.append(LogEntry(f"{{p{seat}}} pays {_coins(COSTS['discover'])} to look at the culprit card,"
                            " which ends their turn"))
        log.append(LogEntry(f"{{p{seat}}} sees that the culprit is {card_name(state.culprit)}", frozenset((seat,))))
        state = replace(state, coins=_pair(state.coins, seat, state.coins[seat] - COSTS["discover"]),
                        used=state.used | {"discover"}, discovered=_pair(state.discovered, seat, True))
        return self._next_turn(state)

    def _do_end(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        log.append(LogEntry(f"{{p{seat}}} ends their turn"))
        return self._next_turn(state)

    @staticmethod
    def _next_turn(state: State) -> State:
        return replace(state, active=1 - state.active, used=frozenset(), main_done=False, turn=state.turn + 1)

    def _do_accuse(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        role = action["role"]
        right = role == state.culprit
        winner = seat if right else 1 - seat
        log.append(LogEntry(f"{{p{seat}}} accuses {card_name(role)}. The culprit is {card_name(state.culprit)}:"
                            f" {{p{seat}}} {'wins' if right else 'loses'}"))
        reason = f"{{p{seat}}} accused {card_name(role)} {'rightly' if right else 'wrongly'}"
        return replace(state, queue=(), outcome=Outcome(winner, reason))

    def _do_decline(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        log.append(LogEntry(f"{{p{seat}}} does not accuse"))
        return replace(state, queue=state.queue[1:])

    def _do_draw(self, state: State, seat: int, action: Action, log: list[LogEntry]) -> State:
        return self._draw(state, action["slot"], log)

    def _draw(self, state: State, slot: int | None, log: list[LogEntry]) -> State:
        """The head of the queue, a draw, done: from the deck (``slot`` None) or from a revelatory
        card, which gives the opponent a chance to accuse."""
        _, seat, why = state.queue[0]
        other = 1 - seat
        queue = state.queue[1:]
        known, taken, deck = state.known, state.taken, state.deck
        if slot is None:
            card, deck = deck[0], deck[1:]
            log.append(LogEntry(f"{{p{seat}}} draws a card from the deck"))
        else:
            card = state.slots[slot]
            taken = taken[:slot] + (seat,) + taken[slot + 1:]
            log.append(LogEntry(f"the deck is empty, so {{p{seat}}} draws revelatory card {SLOT_NAMES[slot]}"))
            if slot in state.looked[other]:
                known = _pair(known, other, known[other] | {card})
            queue = (("accuse_chance", other),) + queue
        log.append(LogEntry(f"{{p{seat}}} draws {card_name(card)}", frozenset((seat,))))
        if why == "promote":
            return replace(state, deck=deck, taken=taken, drawn=card, known=known, queue=queue)
        return replace(state, deck=deck, taken=taken, known=known, queue=queue,
                       roles=_pair(state.roles, seat, card))

    def _settle(self, state: State, log: list[LogEntry]) -> State:
        """Carry out the steps that need nobody's decision: discards, draws from the deck, the tie."""
        while state.outcome is None and state.queue:
            step = state.queue[0]
            if step[0] == "discard":
                shown = tuple(r for r in state.roles if r is not None)
                log.append(LogEntry("both players discard their revealed roles"))
                state = replace(state, pile=state.pile + shown, roles=(None, None), queue=state.queue[1:],
                                known=(EMPTY, EMPTY), ruled_out=(EMPTY, EMPTY))
            elif step[0] == "draw" and state.deck:
                state = self._draw(state, None, log)
            elif step[0] == "draw" and not self._can_draw(state):
                log.append(LogEntry(f"{{p{step[1]}}} must draw, but the deck and the revelatory cards are all"
                                    " gone: the game is a tie"))
                state = replace(state, queue=(), outcome=Outcome(None, "nothing left to draw: a tie"))
            else:
                break
        return state

    # -- results and views ----------------------------------------------------------------------------
    def result(self, state: State) -> Result | None:
        if state.outcome is None:
            return None
        winner, reason = state.outcome
        scores = (0.5, 0.5) if winner is None else tuple(1.0 if s == winner else 0.0 for s in (0, 1))
        return Result.from_scores(scores, reason=reason, culprit=state.culprit)

    def view(self, state: State, seat: int | None) -> View:
        over = state.outcome is not None
        mover = to_move(state)
        slots = []
        for i, card in enumerate(state.slots):
            knows = seat is not None and (i in state.looked[seat] or state.taken[i] == seat)
            slots.append({"slot": i, "name": SLOT_NAMES[i], "present": state.taken[i] is None,
                          "looked_at_by": [s for s in (0, 1) if i in state.looked[s]],
                          "taken_by": state.taken[i], "card": card if knows else None})
        challenge, guess = state.challenge, state.guess
        last_challenge = None if challenge is None else {**challenge._asdict(), "roles": list(challenge.roles)}
        last_guess = None if guess is None else guess._asdict()
        promoting = state.active if state.drawn is not None else None
        result = self.result(state)
        view: View = {
            "game": self.id, "seat": seat, "turn": state.turn, "active": state.active,
            "to_act": [] if mover is None else [mover],
            "step": None if over else (state.queue[0][0] if state.queue else "turn"),
            "claim": state.claim, "used": sorted(state.used), "main_done": state.main_done,
            "coins": list(state.coins), "scores": list(state.coins),
            "queue": [list(step) for step in state.queue],
            "holding": [len(state.holder_hand(s)) for s in (0, 1)],
            "pile": list(state.pile), "deck_count": len(state.deck), "revelatory": slots,
            "discovered": list(state.discovered), "promoting": promoting,
            "last_challenge": last_challenge, "last_guess": last_guess,
            "roles": [{"number": n, "name": ROLES[n], "line": LINES[n]} for n in NUMBERS],
            "costs": dict(COSTS), "claim_range": [CLAIM_MIN, CLAIM_MAX],
            "over": over, "result": None if result is None else result.to_json(),
            "culprit": state.culprit if over or (seat is not None and state.discovered[seat]) else None,
        }
        if seat is not None:
            other = 1 - seat
            view["you"] = {"role": state.roles[seat], "drawn": state.drawn if promoting == seat else None}
            opponent_known = sorted(state.known[seat])
            view["opponent"] = {
                "role": state.roles[other] if over
                else next((c for c in opponent_known if c == state.roles[other]), None),
                "drawn": next((c for c in opponent_known if c == state.drawn and promoting == other), None),
                "ruled_out": sorted(state.ruled_out[seat]),
            }
            view["opponent_knows"] = {"cards": sorted(state.known[other]), "ruled_out": sorted(state.ruled_out[other])}
            view["suspects"] = list(suspects(state, seat))
        return view


    # -- hidden information -------------------------------------------------------------------------
    def sample(self, view: View, seat: int, rng: random.Random) -> State:
        """A full state consistent with ``seat``'s view: the cards the seat has not seen are dealt
        at random to the places it cannot see (the opponent's hand, the revelatory cards it has not
        looked at, the culprit, the deck), the opponent's role avoiding the seat's wrong guesses."""
        other = 1 - seat
        you, opponent = view["you"], view["opponent"]
        looked = tuple(frozenset(s["slot"] for s in view["revelatory"] if p in s["looked_at_by"]) for p in (0, 1))
        taken = tuple(s["taken_by"] for s in view["revelatory"])
        promoting = view["promoting"]
        pile = tuple(view["pile"])
        hand_known = {"role": opponent["role"], "drawn": opponent["drawn"]}
        has_drawn = promoting == other
        hand_slots = ["role"] if view["holding"][other] - has_drawn == 1 else []
        if has_drawn:
            hand_slots.append("drawn")
        slot_cards: list[int | None] = [s["card"] for s in view["revelatory"]]
        seen = set(pile) | {c for c in (you["role"], you["drawn"]) if c is not None}
        seen |= {c for c in slot_cards if c is not None} | {c for c in hand_known.values() if c is not None}
        if view["culprit"] is not None:
            seen.add(view["culprit"])
        unknown = [n for n in NUMBERS if n not in seen]
        rng.shuffle(unknown)
        hand: dict[str, int] = {k: hand_known[k] for k in hand_slots if hand_known[k] is not None}
        if "role" in hand_slots and "role" not in hand:
            allowed = [c for c in unknown if c not in opponent["ruled_out"]]
            hand["role"] = allowed[0]
            unknown.remove(allowed[0])
        if "drawn" in hand_slots and "drawn" not in hand:
            hand["drawn"] = unknown.pop()
        for i, card in enumerate(slot_cards):
            if card is None and taken[i] is None:
                slot_cards[i] = unknown.pop()
        culprit = view["culprit"] if view["culprit"] is not None else unknown.pop()
        deck = tuple(unknown)
        assert len(deck) == view["deck_count"], "the view's cards do not add up"
        # a revelatory card the opponent drew unseen is now in their hand or on the pile
        elsewhere = [c for c in list(hand.values()) + list(pile) if c not in slot_cards]
        rng.shuffle(elsewhere)
        for i, card in enumerate(slot_cards):
            if card is None:
                slot_cards[i] = elsewhere.pop()
        roles: list[int | None] = [None, None]
        roles[seat] = you["role"]
        roles[other] = hand.get("role")
        drawn = you["drawn"] if promoting == seat else hand.get("drawn")
        known: list[frozenset[int]] = [frozenset(), frozenset()]
        known[seat] = frozenset(c for c in hand_known.values() if c is not None)
        known[other] = frozenset(view["opponent_knows"]["cards"])
        ruled_out: list[frozenset[int]] = [frozenset(), frozenset()]
        ruled_out[seat] = frozenset(opponent["ruled_out"])
        ruled_out[other] = frozenset(view["opponent_knows"]["ruled_out"])
        placed = [c for c in slot_cards if c is not None]
        assert len(placed) == SLOTS, "every revelatory place has its card"
        return State(deck, tuple(placed), culprit, (roles[0], roles[1]), drawn, tuple(view["coins"]), pile,
                     view["active"], tuple(tuple(step) for step in view["queue"]), view["claim"],
                     frozenset(view["used"]), view["main_done"], (looked[0], looked[1]), taken,
                     tuple(view["discovered"]), (known[0], known[1]), (ruled_out[0], ruled_out[1]),
                     _challenge_from(view["last_challenge"]), _guess_from(view["last_guess"]), view["turn"],
                     _outcome_from(view["result"]))

    # -- (de)serialisation ----------------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        return {"deck": list(state.deck), "slots": list(state.slots), "culprit": state.culprit,
                "roles": list(state.roles), "drawn": state.drawn, "coins": list(state.coins),
                "pile": list(state.pile), "active": state.active, "queue": [list(s) for s in state.queue],
                "claim": state.claim, "used": sorted(state.used), "main_done": state.main_done,
                "looked": [sorted(x) for x in state.looked], "taken": list(state.taken),
                "discovered": list(state.discovered), "known": [sorted(x) for x in state.known],
                "ruled_out": [sorted(x) for x in state.ruled_out],
                "challenge": None if state.challenge is None else state.challenge.to_json(),
                "guess": None if state.guess is None else list(state.guess),
                "turn": state.turn, "outcome": None if state.outcome is None else list(state.outcome)}

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        def pair(key: str, kind: Callable[[Any], Any]) -> tuple[Any, Any]:
            return kind(data[key][0]), kind(data[key][1])

        challenge, guess, outcome = data["challenge"], data["guess"], data["outcome"]
        return State(tuple(data["deck"]), tuple(data["slots"]), data["culprit"], pair("roles", _same),
                     data["drawn"], pair("coins", int), tuple(data["pile"]), data["active"],
                     tuple(tuple(s) for s in data["queue"]), data["claim"], frozenset(data["used"]),
                     data["main_done"], pair("looked", frozenset), tuple(data["taken"]),
                     pair("discovered", bool), pair("known", frozenset), pair("ruled_out", frozenset),
                     None if challenge is None else Challenge.from_json(challenge),
                     None if guess is None else Guess(*guess), data["turn"],
                     None if outcome is None else Outcome(*outcome))


def _same(x: Any) -> Any:
    return x


def _challenge_from(data: Mapping[str, Any] | None) -> Challenge | None:
    if data is None:
        return None
    return Challenge.from_json([data[field] for field in Challenge._fields])


def _guess_from(data: Mapping[str, Any] | None) -> Guess | None:
    return None if data is None else Guess(*(data[field] for field in Guess._fields))


def _outcome_from(result: Mapping[str, Any] | None) -> Outcome | None:
    if result is None:
        return None
    winners = result["winners"]
    return Outcome(winners[0] if len(winners) == 1 else None, result["reason"])
