"""Parlour's games as OpenSpiel games, registered with ``pyspiel`` as ``parlour_<id>``::

    import pyspiel
    from parlour.rl import openspiel  # registers the games
    game = pyspiel.load_game("parlour_palace", {"players": 4})
    state = game.new_initial_state()

Chance is sampled (``SAMPLED_STOCHASTIC``): the engine draws from the game's seed, a new one for
each ``new_initial_state()`` unless the ``seed`` parameter fixes it. Actions are the game's tokens
(docs/rl.md); the observation tensor is the seat's tensor, the information state tensor the same
followed by the tokens the seat has chosen of an action under way. Both strings are the seat's view
as JSON (the view holds what the rules let the seat know). ``resample_from_infostate`` deals what
the seat cannot see anew with the game's ``sample``, so OpenSpiel's ISMCTS can search the games.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..core import Game
from ..games import all_games
from .encoding import Choices, Tokens
from .encodings import encoding
from .table import default_players, rewards

MAX_GAME_LENGTH = 100_000  # a bound, not a length: Palace's random games are a few thousand tokens
SOLO_UTILITY = 1_000.0  # alone at the table the reward is the score, within this


class _Shared:
    """A value clones share: engine states are immutable, so a clone needs no copy of one."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self


class _Cache(dict):
    """Views and legal choices of one state; a clone starts with none."""

    def __deepcopy__(self, memo: dict) -> _Cache:
        return _Cache()


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
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
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


class ParlourGame(pyspiel.Game):
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
        self.seeds = random.Random(seed)
        self.resampling = random.Random(seed + 1)  # apart from the deals: searching changes no deal
        bound = SOLO_UTILITY if self.players == 1 else 1.0
        info = pyspiel.GameInfo(num_distinct_actions=self.codec.size, max_chance_outcomes=0,
                                num_players=self.players, min_utility=-bound, max_utility=bound,
                                utility_sum=None if self.parlour.min_players == 1 else 0.0,
                                max_game_length=MAX_GAME_LENGTH)
        super().__init__(game_type(self.parlour), info, params)

    def new_initial_state(self) -> ParlourState:
        seed = self.fixed_seed if self.fixed_seed is not None else self.seeds.randrange(2**63)
        return ParlourState(self, self.parlour.start(self.players, self.options, seed))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ParlourObserver:
        info_state = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ParlourObserver(self, info_state)


class ParlourState(pyspiel.State):
    """A Parlour state, plus the tokens chosen so far of an action not yet complete."""

    def __init__(self, game: ParlourGame, state: Any) -> None:
        super().__init__(game)
        self.game_ = _Shared(game)
        self.state = _Shared(state)
        self.prefix: Tokens = ()
        self.prefix_seat: int | None = None
        self.cache = _Cache()

    # -- the engine, through the cache --------------------------------------------------------------
    @property
    def _parlour(self) -> Game[Any]:
        return self.game_.value.parlour

    def _to_act(self) -> frozenset[int]:
        if "to_act" not in self.cache:
            self.cache["to_act"] = self._parlour.to_act(self.state.value)
        return self.cache["to_act"]

    def view(self, seat: int) -> dict[str, Any]:
        key = ("view", seat)
        if key not in self.cache:
            self.cache[key] = self._parlour.view(self.state.value, seat)
        return self.cache[key]

    def _choices(self, seat: int) -> Choices:
        key = ("choices", seat)
        if key not in self.cache:
            self.cache[key] = self.game_.value.codec.choices(self._parlour, self.state.value, seat, self.view(seat))
        return self.cache[key]

    # -- OpenSpiel's verbs --------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.prefix_seat is not None:
            return self.prefix_seat
        to_act = self._to_act()
        return min(to_act) if to_act else pyspiel.PlayerId.TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return self._choices(player).tokens(self.prefix)

    def _apply_action(self, action: int) -> None:
        seat = self.current_player()
        choices = self._choices(seat)
        tokens = self.prefix + (int(action),)
        engine_action = choices.action(tokens)
        if engine_action is None:
            self.prefix, self.prefix_seat = tokens, seat
            return
        self.state = _Shared(self._parlour.apply(self.state.value, seat, engine_action))
        self.prefix, self.prefix_seat = (), None
        self.cache = _Cache()

    def _action_to_string(self, player: int, action: int) -> str:
        return self.game_.value.codec.names[action]

    def is_terminal(self) -> bool:
        return self._parlour.is_over(self.state.value)

    def returns(self) -> list[float]:
        result = self._parlour.result(self.state.value)
        return [0.0] * self.game_.value.players if result is None else rewards(result)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> ParlourState:
        """A state ``player_id`` cannot tell from this one: what it cannot see dealt anew, drawn with
        ``probability_sampler`` (OpenSpiel's uniform sampler) when given one."""
        game = self.game_.value
        draw = probability_sampler() if probability_sampler is not None else game.resampling.random()
        rng = random.Random(int(draw * 2**53))
        clone = self.clone()
        clone.state = _Shared(self._parlour.sample(self.view(player_id), player_id, rng))
        clone.cache = _Cache()
        return clone

    def __str__(self) -> str:
        return json.dumps(self._parlour.view(self.state.value, None), sort_keys=True)


class ParlourObserver:
    """OpenSpiel's observer: the seat's tensor (and, for the information state, the tokens it has
    chosen of an action under way), and its view as JSON."""

    def __init__(self, game: ParlourGame, info_state: bool) -> None:
        self.encoder, self.codec = game.encoder, game.codec
        self.info_state = info_state
        size = game.encoder.layout.size
        self.tensor = np.zeros(size + (game.codec.size if info_state else 0), np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if info_state:
            self.dict["chosen"] = self.tensor[size:]

    def set_from(self, state: ParlourState, player: int) -> None:
        chosen = state.prefix if state.prefix_seat == player else ()
        self.dict["observation"][:] = self.encoder.encode(state.view(player), player, chosen)
        if self.info_state:
            chosen = self.dict["chosen"]
            chosen.fill(0)
            if state.prefix_seat == player:
                chosen[list(state.prefix)] = 1.0

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
