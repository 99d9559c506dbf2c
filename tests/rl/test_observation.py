"""Observations: one fixed shape per game whatever the player count and options, built from the
seat's view alone; resampling what the seat cannot know changes neither its observation nor its
legal tokens."""

from __future__ import annotations

import random

import numpy as np
import pytest
from plain import dinosaurs_tensor_plainly, palace_tensor_plainly
from rlkit import CONFIGS, GAMES, Config, config_id, random_tokens

from parlour.games import get
from parlour.rl.table import Table

HIDDEN = [c for c in CONFIGS if get(c[0]).hidden_information]


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_observations_have_the_game_s_one_shape(config: Config) -> None:
    game_id, players, options = config
    table = Table(game_id, players, options, seed=7)
    layout = table.encoder.layout
    seen = set()
    for _ in random_tokens(table, 7, 300):
        for other in range(players):
            obs = table.observe(other)
            assert obs.shape == (layout.size,) and obs.dtype == np.float32 and np.isfinite(obs).all()
            # within the bounds the spaces declare, which nothing had to be clipped to
            assert (layout.low <= obs).all() and (obs <= layout.high).all()
            chosen = table.prefix if other == table.prefix_seat else ()
            assert obs.tobytes() == table.encoder.encode(table.view(other), other, chosen).tobytes()
            seen.add(obs.tobytes())
    assert len(seen) > 1  # the tensor follows the game


def test_a_value_beyond_its_block_s_bounds_is_clipped_to_them() -> None:
    from parlour.rl.encoding import Layout

    layout = Layout([("flags", 2, "0/1"), ("score", 1, "score / 20", (-1.0, 2.0)), ("lead", 1, "", (-1.0, 2.0)),
                     ("cards", 1, "cards / 20", (0.0, 3.0, "exact"))])
    assert layout.low.tolist() == [0, 0, -1, -1, 0] and layout.high.tolist() == [1, 1, 2, 2, 3]
    assert [c[0] for c in layout.clipped] == [slice(2, 4)]  # one clip for the two blocks side by side
    tensor = np.array([1.0, 0.0, -3.0, 2.5, 2.5], dtype=np.float32)
    assert layout.bound(tensor).tolist() == [1.0, 0.0, -1.0, 2.0, 2.5]
    exact = Layout([("cards", 1, "cards / 20", (0.0, 3.0, "exact"))])  # the game keeps it within: no pass
    assert not exact.clipped and exact.bound(np.array([4.0], dtype=np.float32)).tolist() == [4.0]
    for bad in ((1.0, 1.0), (0.0, 1.0, "roughly")):
        with pytest.raises(ValueError, match="are not"):
            Layout([("score", 1, "score", bad)])


@pytest.mark.parametrize("config", HIDDEN, ids=config_id)
def test_resampling_what_a_seat_cannot_know_leaves_its_observation_alone(config: Config) -> None:
    """The game's ``sample`` deals anew what ``seat`` cannot see; the seat's observation tensor and
    its legal tokens are the same in the resampled state."""
    game_id, players, options = config
    game = get(game_id)
    rng = random.Random(5)
    checked = changed = 0
    for seed in range(30):
        if checked >= 24:
            break
        table = Table(game_id, players, options, seed=seed)
        for k, _ in enumerate(random_tokens(table, seed, 400)):
            if table.prefix or k % 5:
                continue
            for who in range(players):
                resampled = Table(game_id, players, options, seed=seed)
                resampled.set_state(game.sample(table.view(who), who, rng))
                np.testing.assert_array_equal(resampled.observe(who), table.observe(who))
                np.testing.assert_array_equal(resampled.mask(who), table.mask(who))
                changed += game.state_to_json(resampled.state) != game.state_to_json(table.state)
                checked += 1
    assert checked >= 24
    assert changed, "no resampling changed anything hidden: the test has no teeth"


def test_every_game_of_the_registry_has_an_encoding() -> None:
    from parlour.games import all_games

    assert set(GAMES) == set(all_games())
    assert {c[0] for c in CONFIGS} == set(GAMES)


def test_the_layout_of_every_game_is_documented_in_docs_rl_md() -> None:
    """docs/rl.md shows each game's observation layout as the code has it."""
    from pathlib import Path

    from parlour.rl.encodings import encoding

    text = (Path(__file__).parents[2] / "docs" / "rl.md").read_text()
    for game_id in GAMES:
        assert encoding(game_id).observation.layout.table() in text, f"docs/rl.md is out of date for {game_id}"


def test_the_quick_start_of_docs_rl_md_runs() -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "rl.md").read_text()
    snippets = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(snippets) == 3
    for snippet in snippets:
        exec(compile(snippet, "docs/rl.md", "exec"), {})


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_palace_s_tensor_is_the_plain_one(players: int) -> None:
    """The encoder reads the view in as few steps as it can; every seat's tensor, at every step of
    random games, is the one written plainly."""
    table = Table("palace", players, seed=players)
    rng = random.Random(players)
    checked = 0
    seen = {"known": 0, "swapped": 0, "jokers": 0, "burned": 0}
    for _ in range(3):
        table.reset()
        while (seat := table.seat()) is not None and checked < 3000:
            for who in range(players):
                view = table.view(who)
                assert table.observe(who).tobytes() == palace_tensor_plainly(view, who).tobytes()
                checked += 1
                seen["known"] += any(p["known_hand"] for i, p in enumerate(view["players"]) if i != who)
                seen["swapped"] += bool(view["swapped"])
                seen["jokers"] += any(card["as"] == "joker" or card["card"] == "joker" for card in view["play_pile"])
                seen["burned"] += bool(view["burn_pile"])
            table.step(rng.choice(table.legal_tokens(seat)))
    assert checked > 500 and seen["known"] and seen["burned"] and seen["jokers"], seen


@pytest.mark.parametrize("config", [c for c in CONFIGS if c[0] == "dinosaurs"], ids=config_id)
def test_dinosaurs_tensor_is_the_plain_one(config: Config) -> None:
    """As for Palace: every seat's tensor, at every token of random games (Fire Spray's discards
    token by token among them), is the one written plainly."""
    game_id, players, options = config
    checked = chosen = 0
    for seed in range(3):
        table = Table(game_id, players, options, seed=seed)
        for _ in random_tokens(table, seed, 800):
            for who in range(players):
                so_far = table.prefix if who == table.prefix_seat else ()
                assert table.observe(who).tobytes() == dinosaurs_tensor_plainly(table.view(who), who, so_far).tobytes()
                checked += 1
                chosen += bool(so_far)
    assert checked > 150 and (chosen or players == 2)
