"""Parlour's games as OpenSpiel games, registered with ``pyspiel`` as ``parlour_<id>``::

    import pyspiel
    from parlour.rl import openspiel  # registers the games
    game = pyspiel.load_game("parlour_palace", {"players": 4})
    state = game.new_initial_state()      # the deal: a chance node
    state.apply_action(1234)              # deal 1234 (or sample one of state.chance_outcomes())

Chance is explicit (``EXPLICIT_STOCHASTIC``) and happens once, at the start: the first node deals
the game, outcome ``k`` of ``DEALS`` (each as likely) dealing the game of seed ``k``. Everything
the engine draws later (shuffles, the deck) follows from that seed and is part of the state, so a
state's future is the state's alone: it serialises (``state.serialize()``, ``pickle``,
``pyspiel.serialize_game_and_state``) to an equal state with the same future, and the game itself
holds nothing that changes. With the ``seed`` parameter set (0 or more), the deal is fixed and
there is no chance node. Actions are the game's tokens (docs/rl.md); the observation tensor is the
seat's tensor, the information state tensor the same followed by the tokens the seat has chosen of
an action under way. Both strings are the seat's view as JSON (the view holds what the rules let
the seat know). ``resample_from_infostate`` deals what the seat cannot see anew with the game's
``sample``, so OpenSpiel's ISMCTS can search the games.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..core import Game
from ..games import all_games, get
from .encoding import Choices, Tokens
from .encodings import encoding
from .table import default_players, rewards

MAX_GAME_LENGTH = 100_000  # a bound, not a length: Palace's random games are a few thousand tokens
SOLO_UTILITY = 1_000.0  # alone at the table the reward is the score, within this
DEALS = 1 << 16  # the deal's chance outcomes: outcome k deals the game of seed k
DEAL_OUTCOMES = [(k, 1.0 / DEALS) for k in range(DEALS)]


class _Engine:
    """An engine state, shared by clones (engine states are immutable, so a clone needs no copy)
    and pickled as the game's JSON, which holds all that decides its future."""

    __slots__ = ("game_id", "value")

    def __init__(self, game_id: str, value: Any) -> None:
        self.game_id, self.value = game_id, value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return _engine_from_json, (self.game_id, get(self.game_id).state_to_json(self.value))


def _engine_from_json(game_id: str, data: dict[str, Any]) -> _Engine:
    return _Engine(game_id, get(game_id).state_from_json(data))


class _Cache(dict[Any, Any]):
    """Views and legal choices of one state; a clone, or a state read back, starts with none."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cache:
        return _Cache()

    def __reduce__(self) -> tuple[Any, ...]:
        return _Cache, ()


def _parameters(game: Game[Any]) -> dict[str, Any]:
    params: dict[str, Any] = {"players": default_players(game), "seed": -1}
    for option in game.options:
        params[option.name] = option.default
    return params


def game_type(game: Game[Any]) -> pyspiel.GameType:
    solo = game.min_players == 1
    return pyspiel.GameType(
        short_name=f"parlour_{game.id}",
        long_name=f"Parlour {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if game.hidden_information
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.GENERAL_SUM if solo else pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game),
        default_loadable=True,
        provides_factored_observation_string=False)


def _load_game(text: str) -> pyspiel.Game:
    """The game ``text`` names (``str(game)``), as pickle reads a game back."""
    return pyspiel.load_game(text)


def _load_state(text: str) -> pyspiel.State:
    """The state ``pyspiel.serialize_game_and_state`` wrote, as pickle reads a state back."""
    return pyspiel.deserialize_game_and_state(text)[1]


class ParlourGame(pyspiel.Game):  # pyspiel ship no type information: the base is Any
    """One Parlour game for OpenSpiel; ``params`` are ``players``, ``seed`` and the game's options."""

    parlour: Game[Any]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_parameters(self.parlour), **(params or {})}
        self.players = int(params["players"])
        self.parlour.check_players(self.players)
        self.options = self.parlour.resolve_options(
            {o.name: params[o.name] for o in self.parlour.options}, self.players)
        enc = encoding(self.parlour.id)
        self.codec, self.encoder = enc.actions, enc.observation
        seed = int(params["seed"])
        self.fixed_seed = seed if seed >= 0 else None
        self.resampling = random.Random(seed + 1)  # for resample_from_infostate without a sampler
        bound = SOLO_UTILITY if self.players == 1 else 1.0
        info = pyspiel.GameInfo(num_distinct_actions=self.codec.size,
                                max_chance_outcomes=0 if self.fixed_seed is not None else DEALS,
                                num_players=self.players, min_utility=-bound, max_utility=bound,
                                utility_sum=None if self.parlour.min_players == 1 else 0.0,
                                max_game_length=MAX_GAME_LENGTH)
        super().__init__(game_type(self.parlour), info, params)

    def new_initial_state(self) -> ParlourState:
        """The deal (a chance node), or the dealt game when the ``seed`` parameter fixes it."""
        return ParlourState(self, None if self.fixed_seed is None else self.deal(self.fixed_seed))

    def deal(self, seed: int) -> Any:
        return self.parlour.start(self.players, self.options, seed)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ParlourObserver:
        info_state = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ParlourObserver(self, info_state)

    def __reduce__(self) -> tuple[Any, ...]:
        return _load_game, (str(self),)


class ParlourState(pyspiel.State):  # pyspiel ship no type information: the base is Any
    """A Parlour state (None before the deal), plus the tokens chosen so far of an action not yet
    complete. Its attributes are all that is serialised: the engine state goes as the game's JSON."""

    def __init__(self, game: ParlourGame, state: Any) -> None:
        super().__init__(game)
        self.state = None if state is None else _Engine(game.parlour.id, state)
        self.prefix: Tokens = ()
        self.prefix_seat: int | None = None
        self.cache = _Cache()

    # -- the engine, through the cache --------------------------------------------------------------
    def _engine(self) -> Any:
        """The engine state (the game is dealt: nothing is asked of it before)."""
        assert self.state is not None, "the game is not dealt yet"
        return self.state.value

    @property
    def _game(self) -> ParlourGame:
        game: ParlourGame = self.get_game()
        return game

    def _to_act(self) -> frozenset[int]:
        to_act: frozenset[int] | None = self.cache.get("to_act")
        if to_act is None:
            to_act = self.cache["to_act"] = self._game.parlour.to_act(self._engine())
        return to_act

    def view(self, seat: int) -> dict[str, Any]:
        """``seat``'s view (before the deal, a view with nothing in it)."""
        if self.state is None:
            return {"seat": seat, "dealt": False}
        key = ("view", seat)
        view: dict[str, Any] | None = self.cache.get(key)
        if view is None:
            view = self.cache[key] = self._game.parlour.view(self.state.value, seat)
        return view

    def _choices(self, seat: int) -> Choices:
        key = ("choices", seat)
        choices: Choices | None = self.cache.get(key)
        if choices is None:
            game = self._game
            choices = self.cache[key] = game.codec.choices(game.parlour, self._engine(), seat, self.view(seat))
        return choices

    # -- OpenSpiel's verbs --------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.prefix_seat is not None:
            return self.prefix_seat
        to_act = self._to_act()
        return min(to_act) if to_act else int(pyspiel.PlayerId.TERMINAL)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return DEAL_OUTCOMES if self.state is None else []

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return self._choices(player).tokens(self.prefix)

    def _apply_action(self, action: int) -> None:
        game = self._game
        if self.state is None:
            if not 0 <= action < DEALS:
                raise ValueError(f"the deal is one of 0 to {DEALS - 1}, not {action}")
            self.state = _Engine(game.parlour.id, game.deal(int(action)))
            self.cache = _Cache()
            return
        seat = self.current_player()
        choices = self._choices(seat)
        tokens = self.prefix + (int(action),)
        engine_action = choices.action(tokens)
        if engine_action is None:
            self.prefix, self.prefix_seat = tokens, seat
            return
        self.state = _Engine(game.parlour.id, game.parlour.apply(self.state.value, seat, engine_action))
        self.prefix, self.prefix_seat = (), None
        self.cache = _Cache()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self._game.codec.names[action]

    def is_terminal(self) -> bool:
        return self.state is not None and self._game.parlour.is_over(self.state.value)

    def returns(self) -> list[float]:
        game = self._game
        result = None if self.state is None else game.parlour.result(self.state.value)
        return [0.0] * game.players if result is None else rewards(result)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> ParlourState:
        """A state ``player_id`` cannot tell from this one: what it cannot see dealt anew, drawn with
        ``probability_sampler`` (OpenSpiel's uniform sampler) when given one."""
        clone: ParlourState = self.clone()
        if self.state is None:
            return clone
        game = self._game
        draw = probability_sampler() if probability_sampler is not None else game.resampling.random()
        rng = random.Random(int(draw * 2**53))
        clone.state = _Engine(game.parlour.id, game.parlour.sample(self.view(player_id), player_id, rng))
        clone.cache = _Cache()
        return clone

    def __reduce__(self) -> tuple[Any, ...]:
        return _load_state, (pyspiel.serialize_game_and_state(self._game, self),)

    def __str__(self) -> str:
        if self.state is None:
            return f"the deal: one of {DEALS}"
        return json.dumps(self._game.parlour.view(self.state.value, None), sort_keys=True)


class ParlourObserver:
    """OpenSpiel's observer: the seat's tensor (and, for the information state, the tokens it has
    chosen of an action under way), and its view as JSON."""

    def __init__(self, game: ParlourGame, info_state: bool) -> None:
        self.encoder, self.codec = game.encoder, game.codec
        self.info_state = info_state
        size = game.encoder.layout.size
        self.tensor = np.zeros(size + (game.codec.size if info_state else 0), np.float32)
        self.dict: dict[str, np.ndarray] = {"observation": self.tensor[:size]}
        if info_state:
            self.dict["chosen"] = self.tensor[size:]

    def set_from(self, state: ParlourState, player: int) -> None:
        if state.state is None:  # before the deal nobody knows anything
            self.tensor.fill(0.0)
            return
        so_far = state.prefix if state.prefix_seat == player else ()
        self.dict["observation"][:] = self.encoder.encode(state.view(player), player, so_far)
        if self.info_state:
            chosen = self.dict["chosen"]
            chosen.fill(0.0)
            if so_far:
                chosen[list(so_far)] = 1.0

    def string_from(self, state: ParlourState, player: int) -> str:
        text = json.dumps(state.view(player), sort_keys=True)
        if self.info_state and state.prefix_seat == player:
            text += f" chosen {list(state.prefix)}"
        return text


def register() -> None:
    """Register every Parlour game with pyspiel (done once, on import)."""
    registered = set(pyspiel.registered_names())
    for game in all_games().values():
        name = f"parlour_{game.id}"
        if name not in registered:
            cls = type(f"Parlour{type(game).__name__}Game", (ParlourGame,), {"parlour": game})
            pyspiel.register_game(game_type(game), cls)


register()
