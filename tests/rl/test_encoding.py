"""Every legal action of every state maps to its own tokens and back, for every game, player count
and option: played over bounded random games."""

from __future__ import annotations

import random

import numpy as np
import pytest
from rlkit import CONFIGS, GAMES, Config, config_id, random_tokens

from parlour.rl.encoding import Choices, EncodingError
from parlour.rl.encodings import encoding
from parlour.rl.table import Table

GAMES_PER_CONFIG = 2
TOKENS_PER_GAME = 600


def assert_round_trip(table: Table, seat: int) -> int:
    """Checks the encoding of every legal action of ``seat`` now; returns how many take several tokens."""
    legal = table.game.legal_actions(table.state, seat)
    view = table.view(seat)
    choices = Choices.of(table.codec, view, legal)  # raises on an action without tokens, or two alike
    assert len(choices.by_tokens) == len(legal)
    sequences = list(choices.by_tokens)
    for tokens, action in choices.by_tokens.items():
        assert tokens and all(0 <= t < table.codec.size for t in tokens)
        assert table.codec.encode(view, action) == tokens
        for k in range(1, len(tokens)):  # prefix-free: an action's first tokens are no action
            assert choices.action(tokens[:k]) is None
            assert choices.mask(tokens[:k])[tokens[k]] == 1
    # back: each action is found again from its tokens, and the mask is exactly the first tokens
    for action in legal:
        assert choices.action(table.codec.encode(view, action)) == action
    mask = choices.mask(())
    assert mask.dtype == np.int8 and mask.shape == (table.codec.size,)
    assert set(np.flatnonzero(mask)) == {t[0] for t in sequences}
    return sum(len(t) > 1 for t in sequences)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_legal_action_has_its_own_tokens_and_back(config: Config) -> None:
    game_id, players, options = config
    decisions = 0
    for seed in range(GAMES_PER_CONFIG):
        table = Table(game_id, players, options, seed=seed)
        for _ in random_tokens(table, seed, TOKENS_PER_GAME):
            if not table.prefix:
                for other in table.to_act():  # simultaneous phases: every seat that must act
                    assert_round_trip(table, other)
                decisions += 1
    assert decisions > 10


def test_fire_spray_discards_several_cards_token_by_token() -> None:
    """Happy Little Dinosaurs' Fire Spray discards up to three cards at once: one token a card."""
    rng = random.Random(1)
    several = 0
    for seed in range(12):
        table = Table("dinosaurs", 3, seed=seed)
        while (seat := table.seat()) is not None:
            choices = table.choices(seat)
            longest = max(choices.by_tokens, key=len)
            if len(longest) == 1:
                table.step(rng.choice(table.legal_tokens(seat)))
                continue
            several += 1
            action = choices.by_tokens[longest]
            for token in longest[:-1]:
                assert table.step(token) is None  # incomplete: the same seat picks again
                assert table.seat() == seat and table.prefix
                chosen = table.observe(seat)[table.encoder.layout["chosen"]]
                assert chosen.sum() == len(table.prefix)  # the observation shows the choice so far
            assert table.step(longest[-1]) == action
            assert action["type"] == "discard" and len(action["cards"]) == len(longest)
    assert several


@pytest.mark.parametrize("game_id", GAMES)
def test_a_token_the_mask_refuses_is_refused_in_words(game_id: str) -> None:
    table = Table(game_id, seed=3)
    seat = table.seat()
    assert seat is not None
    before = table.state
    refused = int(np.flatnonzero(table.mask(seat) == 0)[0])
    with pytest.raises(EncodingError, match="not legal"):
        table.step(refused)
    with pytest.raises(EncodingError, match="not legal"):
        table.step(table.codec.size)
    assert table.state is before and not table.prefix


@pytest.mark.parametrize("game_id", GAMES)
def test_every_token_has_a_name(game_id: str) -> None:
    codec = encoding(game_id).actions
    assert len(codec.names) == codec.size and all(codec.names)


def test_patchwork_s_choices_from_the_engine_s_placements_are_those_of_its_listing() -> None:
    """Patchwork's mask is read from the engine's placements as bits, and each action found by
    counting corners: the same mask, tokens and actions as reading the listing action by action."""
    from parlour.rl.encodings.patchwork import Placed

    rng = random.Random(4)
    table = Table("patchwork", seed=4)
    decisions = specials = 0
    for _ in range(12):
        table.reset()
        while (seat := table.seat()) is not None:
            view, legal = table.view(seat), table.game.legal_actions(table.state, seat)
            fast = table.codec.choices(table.game, table.state, seat, view)
            plain = Choices.of(table.codec, view, legal)
            assert isinstance(fast, Placed) and fast.legal == legal
            assert fast.mask(()).dtype == np.int8 and np.array_equal(fast.mask(()), plain.mask(()))
            assert fast.tokens(()) == plain.tokens(())
            for token in range(table.codec.size):
                assert fast.action((token,)) == plain.action((token,))  # None for the tokens refused
            assert fast.heads == plain.heads and fast.by_tokens == plain.by_tokens
            decisions += 1
            specials += view["players"][seat]["special_patches"] != []
            table.step(rng.choice(plain.tokens(())))
    assert decisions > 300 and specials > 0


def test_dinosaurs_actions_naming_a_player_have_the_catalogue_s_token_for_that_player_from_the_seat() -> None:
    """Their quick look-up (``by_player``) gives what the catalogue's own look-up gives for the same
    action with its player counted from the seat."""
    from parlour.rl.encoding import CatalogueCodec, action_key
    from parlour.rl.encodings.dinosaurs import ACTIONS as catalogue

    assert isinstance(catalogue, CatalogueCodec)
    checked = 0
    for players in (2, 3, 4):
        table = Table("dinosaurs", players, seed=players)
        for _ in random_tokens(table, players, 1500):
            for seat in table.to_act():
                view = table.view(seat)
                for action in table.game.legal_actions(table.state, seat):
                    if "player" in action:
                        turned = {**action, "player": (action["player"] - seat) % players}
                        assert table.codec.encode(view, action) == (catalogue.index[action_key(turned)],)
                        checked += 1
    assert checked > 100
