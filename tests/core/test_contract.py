import random

import pytest

from contract import json_safe
from parlour.core import (
    BadOptions,
    Bot,
    GameEntry,
    Level,
    LogEntry,
    Option,
    Result,
    SearchHooks,
    UnknownGame,
    derive,
    with_names,
)
from parlour.games import all_games, entry, get


def test_derived_generators_repeat_and_differ_by_label():
    assert derive(3, "deck").random() == derive(3, "deck").random()
    assert derive(3, "deck").random() != derive(3, "dice").random()
    assert derive(3, "deck").random() != derive(4, "deck").random()


def test_option_coercion_refuses_in_words():
    count = Option("rounds", "Rounds", "int", 3, minimum=1, maximum=5)
    assert count.coerce(4) == 4
    with pytest.raises(BadOptions, match="at most 5"):
        count.coerce(9)
    with pytest.raises(BadOptions, match="whole number"):
        count.coerce("4")
    with pytest.raises(BadOptions, match="true or false"):
        Option("x", "X", "bool", False).coerce(1)
    with pytest.raises(BadOptions, match="one of a, b"):
        Option("c", "C", "choice", "a", choices=("a", "b")).coerce("z")


def test_results_rank_by_score_then_tiebreak():
    assert Result.from_scores([10, 20, 20]).ranks == (3, 1, 1)
    assert Result.from_scores([10, 20, 20], [0, 0, 1]).ranks == (3, 2, 1)
    assert Result.from_scores([5, 5]).winners == (0, 1)


def test_result_reasons_name_players_like_log_entries():
    result = Result.from_scores([0, 1], reason="{p1} accused the Thief rightly; {p0} lost")
    assert result.render_reason(["Ana", "Ben"]) == "Ben accused the Thief rightly; Ana lost"
    assert result.to_json(["Ana", "Ben"])["reason"] == "Ben accused the Thief rightly; Ana lost"
    assert result.to_json()["reason"] == "{p1} accused the Thief rightly; {p0} lost"  # views know no names
    assert Result.from_scores([1, 0], reason="higher score").to_json(["Ana", "Ben"])["reason"] == "higher score"


def test_names_fill_only_seat_placeholders():
    # a forfeit's reason quotes the bot's JSON: other braces stay as they are
    assert with_names('illegal: {"type": "skip"} by {p0}', ["Ana"]) == 'illegal: {"type": "skip"} by Ana'
    assert with_names("{p2} and {x}", ["Ana", "Ben"]) == "{p2} and {x}"
    assert with_names("{p0}", ["{p1}", "Ben"]) == "{p1}"  # a name is put in once, never read again


def test_log_entries_name_players_and_know_their_readers():
    entry = LogEntry("{p1} drew a card", frozenset({1}))
    assert entry.render(["Ana", "Ben"]) == "Ben drew a card"
    assert entry.visible_to(1) and not entry.visible_to(0) and not entry.visible_to(None)
    assert LogEntry("public").visible_to(None)


def test_registry_lists_games_and_refuses_unknown_ones():
    assert "patchwork" in all_games()
    with pytest.raises(UnknownGame, match="there is no game 'chess'"):
        get("chess")
    for game in all_games().values():
        described = game.describe()
        assert described["min_players"] <= described["max_players"]
        with pytest.raises(BadOptions):
            game.resolve_options({"no-such-option": 1})


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_views_and_legal_actions_read_the_same_in_any_json_reader(game_id):
    """What crosses the wire (views, legal actions) holds no integer beyond 2**53, which a
    browser's or a bot's JSON reader would round."""
    game = get(game_id)
    players = max(game.min_players, 2 if game.max_players >= 2 else 1)
    rng = random.Random(7)
    state = game.start(players, {}, 7)
    for _ in range(150):
        if game.is_over(state):
            break
        for seat in (*range(players), None):
            assert json_safe(game.view(state, seat)), (game_id, seat)
        seat = min(game.to_act(state))
        assert json_safe(game.legal_actions(state, seat)), game_id
        state = game.apply(state, seat, game.random_action(state, seat, rng))



@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_every_entry_says_where_its_game_keeps_what_it_provides(game_id):
    """docs/adding-a-game.md: each package's ENTRY names its game, its assets folder with the rules
    for players, the rules document and the renderer, and its terminal renderer; and the game
    declares its bots, its three levels and its search hooks on itself."""
    found = entry(game_id)
    assert found.id == game_id and found.game is get(game_id)
    for name in ("rules.html", "spec.html", "static/renderer.js"):
        assert (found.assets / name).is_file(), name
    terminal = found.terminal_module()
    assert terminal is not None and callable(terminal.render) and callable(terminal.parse_move)
    protocol = found.protocol_module()
    assert protocol is None or callable(protocol.make_protocol)
    assert found.encoding == f"parlour.rl.encodings.{game_id}"
    game = found.game
    assert set(game.levels) == {"easy", "medium", "hard"}
    assert all(isinstance(level, Level) and level.about for level in game.levels.values())
    assert all(isinstance(cls, type) and issubclass(cls, Bot) for cls in game.bots.values())
    assert game.search is None or isinstance(game.search, SearchHooks)
    assert game.time_limits_ms["turn"] > 0 and game.time_limits_ms["first_turn"] >= game.time_limits_ms["turn"]


def test_an_unknown_entry_is_refused_in_words_and_an_entry_without_companions_has_none():
    with pytest.raises(UnknownGame, match="there is no game 'chess' \\(the games: patchwork, "):
        entry("chess")
    bare = GameEntry(get("patchwork"), assets=entry("patchwork").assets)
    assert bare.terminal_module() is None and bare.protocol_module() is None and bare.encoding is None


def test_a_game_made_without_its_package_has_no_bots_levels_or_hooks():
    bare = type(get("patchwork"))()
    assert dict(bare.bots) == {} and dict(bare.levels) == {} and bare.search is None
    assert get("patchwork").bots and get("patchwork").search is not None  # the package's own are untouched
