"""One test for each line of docs/rules/prestige_cities.md (decisions where the document is silent)."""

from __future__ import annotations

import pytest
from prestige_states import (
    ALL_SIX,
    GAME,
    act,
    blocks_offered,
    build,
    city,
    era_state,
    full_city,
    run,
    squares_of_legal,
)

from contract import assert_refused
from parlour.core import BadOptions
from parlour.games.prestige_cities.engine import (
    BLIGHT,
    CARDS,
    CHOOSE,
    CULTURE,
    DECK_SIZE,
    INDUSTRY,
    PARKS,
    RESIDENTIAL,
    START_CITY,
    bit,
    deal_cards,
    deck2_measure,
    deck4_measure,
    mask_of,
    wealth_score,
)


def test_one_to_six_players():
    for n in range(1, 7):
        assert len(GAME.start(n, {}, 1).cities) == n
    for n in (0, 7):
        with pytest.raises(BadOptions):
            GAME.start(n, {}, 1)


def test_pregame_round_first_and_optional():
    state = GAME.start(2, {}, 3)
    assert state.era == "pregame" and state.dice == (5, 2, 3, 4, 1) and state.deck_rounds == 0
    assert GAME.view(state, 0)["task"]["choices"] == [
        {"block": "industry", "count": 5}, {"block": "commerce", "count": 2}, {"block": "residential", "count": 3},
        {"block": "culture", "count": 4}, {"block": "parks", "count": 1}]
    assert GAME.start(2, {"pregame": False}, 3).era != "pregame"


def test_placement_is_a_sequence_of_builds_first_names_the_die():
    state = era_state("tech_revolution", dice=(2, 3, 1, 1, 1))
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"build"}
    state = run(state, 0, build("commerce", 4, 0))
    assert blocks_offered(state, 0) == {"commerce"}
    assert squares_of_legal(state, 0) == {(3, 0), (5, 0), (4, 1)}


def test_first_block_needs_room_for_the_whole_placement():
    holes = ((0, 0), (0, 1), (0, 2), (8, 7), (7, 7))
    state = era_state("roaring_market", dice=(1, 3, 1, 1, 1), cities=[full_city("P", *holes)] * 2)
    assert squares_of_legal(state, 0) == {(0, 0), (0, 1), (0, 2)}


def test_as_fully_as_possible_means_the_largest_open_area():
    holes = ((0, 0), (0, 1), (0, 2), (8, 7), (7, 7))
    state = era_state("roaring_market", dice=(1, 5, 1, 1, 1), cities=[full_city("P", *holes)] * 2)
    assert GAME.view(state, 0)["task"]["choices"] == [{"block": "commerce", "count": 3}]
    state = run(state, 0, build("commerce", 0, 2), build("commerce", 0, 1))
    assert state.queues[0]  # the third must be placed too


def test_me_generation_must_place_in_full():
    state = era_state("me_generation", dice=ALL_SIX, cities=[full_city("P", (0, 0), (4, 4), (4, 5))] * 2)
    assert squares_of_legal(state, 0) == {(4, 4), (4, 5)}


def test_golden_age_any_order_until_nothing_fits():
    state = era_state("golden_age", dice=ALL_SIX, cities=[full_city("C", (0, 0), (8, 7))] * 2)
    state = run(state, 0, build("parks", 8, 7))
    assert blocks_offered(state, 0) == {"industry", "commerce", "residential", "culture"}
    state = run(state, 0, build("industry", 0, 0))
    assert not state.queues[0]


def test_era_resolves_by_itself():
    state = era_state("war", dice=(1, 1, 1, 1, 1))
    state = run(state, 0, build("industry", 4, 4))
    assert state.round == 1
    state = run(state, 1, build("industry", 4, 4))
    assert state.round == 2 and state.phase == CHOOSE


def test_others_see_the_era_start_city_you_see_yours():
    state = run(era_state("war", dice=(2, 1, 1, 1, 1)), 0, build("industry", 4, 4))
    assert GAME.view(state, 1)["cities"][0]["counts"]["industry"] == 4
    assert GAME.view(state, 0)["cities"][0]["counts"]["industry"] == 5
    assert GAME.view(state, 1)["group"] == [] and GAME.view(state, 0)["group"] == [[4, 4]]
    assert GAME.view(state, 1)["queues"] is None and GAME.view(state, None)["queues"] is None


def test_score_table_order_breaks_ties_by_the_ranking_keys_then_seat():
    homes = city("R.R")  # overall 0 like city("R"), but more population
    state = era_state("great_fire", dice=(1, 1, 2, 1, 1), cities=[START_CITY, START_CITY, START_CITY], players=3)
    assert state.targets == (2, 0, 1)  # all equal: seat order
    state = era_state("great_fire", dice=(1, 1, 2, 1, 1), cities=[city("R"), homes, city("R")], players=3)
    assert state.targets == (1, 2, 0)  # seat 1 leads on population


def test_solo_catastrophe_strikes_your_own_city():
    state = era_state("great_fire", dice=(1, 1, 1, 1, 1), players=1)
    assert state.targets == (0,)
    state = run(state, 0, act("remove", 1, 1))
    assert not state.cities[0][RESIDENTIAL] & bit(1, 1)


def test_catastrophe_count_is_the_smaller_of_die_and_largest_group():
    state = era_state("industrial_disaster", dice=(4, 1, 1, 1, 1), cities=[city("III"), city("III")])
    assert GAME.view(state, 0)["task"]["left"] == 3
    assert not era_state("industrial_disaster", dice=(6, 1, 1, 1, 1), cities=[city("I"), city("I")]).queues[0]
    assert not era_state("industrial_disaster", dice=(2, 1, 1, 1, 1), cities=[city("R"), city("R")]).queues[0]


def test_no_group_as_large_as_the_die_the_remover_picks_a_smaller_group_and_removes_it_whole():
    """"if there is no group of adjacent blocks as large as the number rolled, then the player removing
    the blocks chooses a smaller group of adjacent blocks and removes them": any one group, all of it."""
    state = era_state("industrial_disaster", dice=(5, 1, 1, 1, 1), cities=[city("III.I"), city("III.I")])
    task = GAME.view(state, 0)["task"]
    assert task["whole"] is True and task["left"] == 3 and "remove it whole" in task["text"]
    assert squares_of_legal(state, 0) == {(0, 0), (0, 1), (0, 2), (0, 4)}
    state = run(state, 0, act("remove", 0, 4))  # the group of one: that is the whole removal
    assert not state.queues[0] and GAME.view(state, 0)["removal"]["squares"] == [[0, 4]]
    state = run(state, 1, act("remove", 0, 1))  # a block of the group of three: all three go
    assert GAME.view(state, 1)["task"]["left"] == 2 and GAME.view(state, 1)["task"]["whole"] is False
    assert_refused(GAME, state, 1, act("remove", 0, 4), "does not touch")
    state = run(state, 1, act("remove", 0, 0), act("remove", 0, 2))
    assert state.cities[0][0] == city("....I")[0] and state.cities[1][0] == city("III")[0]
    # a group as large as the die exists: exactly the die's number, from a group that large
    state = era_state("industrial_disaster", dice=(2, 1, 1, 1, 1), cities=[city("III.I"), city("III.I")])
    assert GAME.view(state, 0)["task"]["whole"] is False
    assert_refused(GAME, state, 0, act("remove", 0, 4), "smaller than the 2")


def test_removals_all_happen_together():
    state = era_state("industrial_disaster", dice=(1, 1, 1, 1, 1), cities=[city("I.I"), city("I.I")])
    state = run(state, 0, act("remove", 0, 0))
    assert state.cities[1][0] == city("I.I")[0] and GAME.view(state, 1)["removal"] is None
    assert GAME.view(state, 0)["removal"] == {"target": 1, "block": "industry", "squares": [[0, 0]]}
    state = run(state, 1, act("remove", 0, 2))
    assert state.cities[0][0] == city("I")[0] and state.cities[1][0] == city("..I")[0]


def test_scores_are_not_rounded():
    assert wealth_score(city("I")) == 0.5
    assert GAME.view(era_state("war", cities=[city("I"), city("I")]), 0)["cities"][0]["wealth"] == 0.5


def _ended(cities, bonus=(0, 0)):
    s = era_state("war", dice=ALL_SIX, cities=cities, bonus=bonus).copy()
    s.phase, s.queues = "over", ((), ())
    return GAME.result(s)


@pytest.mark.parametrize("first,second,bonus", [
    (city("R.R"), city("R"), (0, 0)),                       # population
    (city("RI"), city("R"), (1, 0)),                        # bonus (overall 0 each)
    (city("RP"), city("R"), (0, 0)),                        # happiness
    (city("R", "", "..U"), city("R"), (0, 0)),              # culture
    (city("R", "", "", "", "", "", "", "", "......C"), city("R"), (0, 0)),  # wealth
])
def test_ranking_tie_breaks(first, second, bonus):
    result = _ended([second, first], bonus[::-1])
    assert result.scores[0] == result.scores[1] and result.ranks == (2, 1)


def test_equal_on_every_key_share_the_rank():
    result = _ended([city("R", "P"), city("R", "U")])  # both: overall 0, 1 home, happiness 0... culture 0
    assert result.ranks == (1, 1) and result.winners == (0, 1)


def test_game_ends_after_the_era_of_completion_with_its_bonus_blocks():
    nine = full_city("C", (8, 0), (8, 1), (8, 2), base=city("RRRRRRRR", "R"))
    state = era_state("baby_boom", dice=(1, 1, 1, 1, 1), cities=[nine, START_CITY],
                      options={"deck1": "cheap_labor", "deck3": "master_planner"})
    state = run(state, 0, build("residential", 8, 0))
    state = run(state, 1, build("residential", 4, 4))
    assert state.phase == "after" and state.winners[0] == (0,)
    assert squares_of_legal(state, 0) == {(8, 1)}  # the first touches a home
    state = run(state, 0, build("industry", 8, 1), build("industry", 8, 2))
    assert GAME.is_over(state) and state.round == 1
    assert state.winners[2] == (0,) and state.bonus == (10, 0)


def test_cards_dealt_without_shared_groups_and_options_fix_them():
    for seed in range(60):
        cards = GAME.start(2, {}, seed).cards
        groups = [CARDS[d + 1][c]["group"] for d, c in enumerate(cards) if CARDS[d + 1][c]["group"]]
        assert len(groups) == len(set(groups))
        assert cards[2] != "urban_rehab"
    fixed = GAME.start(2, {"deck1": "cheap_labor", "deck4": "champs_central"}, 4).cards
    assert fixed[0] == "cheap_labor" and fixed[3] == "champs_central"
    with pytest.raises(BadOptions, match="group letter"):
        GAME.start(2, {"deck1": "titan_of_industry", "deck2": "industrial_powerhouse"}, 1)
    with pytest.raises(BadOptions, match="Blight"):
        GAME.start(2, {"deck3": "urban_rehab"}, 1)
    assert deal_cards(4, False, {f"deck{d}": "random" for d in range(1, 5)}) == GAME.start(2, {}, 4).cards


def test_deck1_checked_when_the_era_resolves_after_catastrophes():
    ten = city("IIIIIIII", "II")
    state = era_state("industrial_disaster", dice=(1, 1, 1, 1, 1), cities=[ten, ten],
                      options={"deck1": "titan_of_industry"})
    state = run(state, 0, act("remove", 0, 0))
    state = run(state, 1, act("remove", 1, 1))
    assert state.winners[0] is None  # both back to 9 when the era resolved


def test_deck1_extra_blocks_are_placed_in_view_of_all():
    nine = city("IIIIIIII", "I")
    state = era_state("war", dice=(1, 1, 1, 1, 1), cities=[nine, START_CITY], options={"deck1": "titan_of_industry"})
    state = run(run(state, 0, build("industry", 1, 1)), 1, build("industry", 4, 4))
    state = run(state, 0, build("culture", 5, 5))
    assert GAME.view(state, 1)["cities"][0]["counts"]["culture"] == 1
    assert GAME.view(state, 1)["queues"][0][0][0] == "build"


def test_deck1_extra_blocks_may_be_declined_or_stopped_after_some():
    """Deck 1 cards "may also give the player the opportunity to add additional blocks" (the word that makes
    Deck 3's changes optional too): from rules edition 3 a player may decline them all, or stop after one;
    edition 2 kept them compulsory, as the games played under it were played."""
    nine = city("IIIIIIII", "I")

    def won(edition: int):
        state = era_state("war", dice=(1, 1, 1, 1, 1), cities=[nine, START_CITY],
                          options={"deck1": "titan_of_industry", "edition": edition})
        return run(run(state, 0, build("industry", 1, 1)), 1, build("industry", 4, 4))

    state = won(3)
    assert state.winners[0] == (0,) and {a["type"] for a in GAME.legal_actions(state, 0)} == {"build", "stop"}
    assert GAME.view(state, 0)["task"]["text"] == "build up to 2 more Culture, connected to each other, or stop"
    round_ = state.round
    declined = run(state, 0, {"type": "stop"})
    assert declined.round == round_ + 1 and not declined.cities[0][CULTURE] and declined.bonus[0] == 5
    one = run(state, 0, build("culture", 5, 5))
    assert {"type": "stop"} in GAME.legal_actions(one, 0)
    assert GAME.view(one, 0)["task"]["text"] == "build up to 1 more Culture, connected to the group, or stop"
    assert_refused(GAME, one, 0, build("culture", 7, 7), "does not touch")  # still connected to each other
    log: list = []
    one = run(one, 0, {"type": "stop"}, log=log)
    assert one.round == round_ + 1 and one.cities[0][CULTURE] == bit(5, 5)
    assert "added no more Culture blocks of the bonus card" in log[0].text
    assert GAME.view(state, 0)["bonus_cards"][0]["text"].endswith("and up to 2 connected Culture blocks.")
    old = won(2)
    assert GAME.view(old, 0)["bonus_cards"][0]["text"].endswith("and add 2 connected Culture blocks.")
    assert {a["type"] for a in GAME.legal_actions(old, 0)} == {"build"}
    assert_refused(GAME, old, 0, {"type": "stop"}, "cannot stop now", "build 2 more Culture")


def test_deck1_stopping_short_still_counts_toward_blight():
    """A Deck 1 card's blocks count toward Blight from growth as the die's do, as many as were placed."""
    homes = city("RRRRRRR")  # seven homes: three more earn Cheap Labor's two Industry
    for placed, blight in ((1, True), (0, False)):
        state = era_state("baby_boom", dice=(1, 1, 3, 1, 1), cities=[homes, START_CITY],
                          options={"blight": True, "deck1": "cheap_labor"})
        state = run(state, 0, *(build("residential", 4, c) for c in range(3)))
        state = run(state, 1, *(build("residential", 4, c) for c in range(3)))
        assert state.winners[0] == (0,)
        round_ = state.round
        state = run(state, 0, *(build("industry", 5, c) for c in range(placed)), {"type": "stop"})
        if blight:  # three homes and one Industry: four this round
            assert state.round == round_ and GAME.view(state, 0)["task"]["kind"] == "blight"
            assert squares_of_legal(state, 0) == {(3, 0), (3, 1), (3, 2), (4, 3), (5, 1), (5, 2), (6, 0)}
        else:
            assert state.round == round_ + 1 and not state.cities[0][BLIGHT]


def test_deck1_objective_is_fulfilled_as_soon_as_it_is_reached():
    """"Bonus cards from deck 1 award points as soon as a player or players reach some objective": a city
    that reaches 10 Industry and then must turn one of them into Blight in the same era (growth Blight with
    only Industry next to the new blocks) earns the card (rules edition 3; edition 2 checked the count
    when the era resolved, and gave nothing)."""
    walled = city("....I", "IIII", "", "", "", ".....I")  # six Industry, four of them around a hole of four
    for edition, earned in ((3, True), (2, False)):
        state = era_state("war", dice=(4, 1, 1, 1, 1), cities=[walled, START_CITY],
                          options={"blight": True, "deck1": "titan_of_industry", "edition": edition})
        state = run(state, 0, *(build("industry", 0, c) for c in range(4)))
        assert squares_of_legal(state, 0) == {(1, 0), (1, 1), (1, 2), (1, 3), (0, 4)}  # only Industry next to them
        state = run(state, 0, act("blight", 1, 0))
        assert state.cities[0][INDUSTRY].bit_count() == 9
        state = run(state, 1, *(build("industry", 4, c) for c in range(4)), act("blight", 3, 0))
        assert state.winners[0] == ((0,) if earned else None)
        assert state.bonus[0] == (5 if earned else 0)
        if earned:
            assert GAME.view(state, 0)["task"]["block"] == "culture"


def test_a_blight_with_only_blight_around_the_blocks_turns_one_of_them():
    """"If there are no empty blocks adjacent to the blocks you just placed, then convert an occupied block
    adjacent to the blocks you just placed": when every square next to them is Blight already, the only
    occupied blocks next to the blocks just placed are those blocks themselves, and one of them becomes the
    Blight (rules edition 3; edition 2 added none)."""
    ringed = city("....B", "BBBB")
    for edition in (3, 2):
        state = era_state("baby_boom", dice=(1, 1, 4, 1, 1), cities=[ringed, START_CITY],
                          options={"blight": True, "edition": edition})
        state = run(state, 0, *(build("residential", 0, c) for c in range(4)))
        if edition == 2:
            assert not state.queues[0]
            continue
        assert GAME.view(state, 0)["task"]["kind"] == "blight"
        assert squares_of_legal(state, 0) == {(0, c) for c in range(4)}
        state = run(state, 0, act("blight", 0, 2))
        assert state.cities[0][BLIGHT] == mask_of([(0, 2), (0, 4)] + [(1, c) for c in range(4)])
        assert state.cities[0][RESIDENTIAL] == mask_of([(0, 0), (0, 1), (0, 3)]) and not state.queues[0]


def test_touch_and_adjacent_are_orthogonal():
    """"Touch" and "adjacent" mean sharing a side: a diagonal neighbour neither touches (scores) nor
    connects (placements, catastrophes, Blight)."""
    from parlour.games.prestige_cities.engine import happiness_score

    assert happiness_score(city("R.", ".I")) == 0 and happiness_score(city("RI")) == -1
    assert happiness_score(city("R.", ".P")) == 0 and happiness_score(city("R", "P")) == 1
    state = era_state("war", dice=(2, 1, 1, 1, 1))
    state = run(state, 0, build("industry", 4, 0))
    assert squares_of_legal(state, 0) == {(3, 0), (5, 0), (4, 1)}
    assert_refused(GAME, state, 0, build("industry", 5, 1), "does not touch")


def test_cheap_labor_falls_back_to_anywhere():
    homes = city("RRRRRRRR", "RR")
    walled = full_city("P", (6, 6), (6, 7), base=homes)
    walled = tuple(m & ~(bit(6, 6) | bit(6, 7)) for m in walled)
    state = era_state("feel_good", dice=ALL_SIX, cities=[walled, START_CITY], options={"deck1": "cheap_labor"})
    state = GAME._advance(state.copy(), None)
    assert squares_of_legal(state, 0) == {(6, 6), (6, 7)}


def test_deck1_after_a_final_conversion_gives_points_only():
    nine_c = full_city("I", (0, 0), base=city("CCCCCCCC", "CC"))
    nine_c = tuple(m & ~bit(0, 0) for m in nine_c)
    state = era_state("tech_revolution", dice=(1, 6, 1, 1, 1), cities=[nine_c, START_CITY],
                      options={"deck1": "public_benefactor", "deck3": "the_new_economy"})
    state = run(state, 0, build("industry", 0, 0))
    state = run(state, 1, build("industry", 4, 4))
    assert state.phase == "final"
    state = run(state, 0, act("convert", 2, 0), {"type": "stop"})
    assert GAME.is_over(state) and state.winners[0] == (0,) and state.bonus[0] == 5


def test_deck2_at_the_end_of_the_twelfth_deck_era():
    state = era_state("war", dice=ALL_SIX, cities=[city("II"), city("I")], deck_rounds=DECK_SIZE - 1,
                      options={"deck2": "industrial_powerhouse"})
    log: list = []
    state = GAME._advance(state.copy(), log)  # the 11th resolves: no evaluation, the 12th comes
    texts = [e.text for e in log]
    if state.deck_rounds == DECK_SIZE:
        assert state.winners[1] is None
    else:  # the 12th asked nothing of anyone and resolved at once: the card came right after it
        award = next(i for i, t in enumerate(texts) if "Industrial Powerhouse" in t)
        twelfth = [i for i, t in enumerate(texts) if t.startswith("Round ")][0]
        assert twelfth < award and all(not t.startswith("Round ") for t in texts[twelfth + 1:award])
    state = era_state("war", dice=ALL_SIX, cities=[city("II"), city("I")], deck_rounds=DECK_SIZE,
                      options={"deck2": "industrial_powerhouse"})
    state = GAME._advance(state.copy(), None)
    assert state.winners[1] == (0,)


def test_most_needs_at_least_one_fewest_always_wins():
    state = era_state("war", dice=ALL_SIX, cities=[city("I"), city("I")], deck_rounds=DECK_SIZE,
                      options={"deck2": "monument_builder"})
    state = GAME._advance(state.copy(), None)
    assert state.winners[1] == () and state.bonus == (0, 0)
    state = era_state("war", dice=ALL_SIX, deck_rounds=DECK_SIZE, options={"deck2": "measured_growth"})
    state = GAME._advance(state.copy(), None)
    assert state.winners[1] == (0, 1)


def test_least_numerous_type_and_district_developer_ties():
    c = city("I.I.I", "C.C.C", "R.R", "U.U", "P.P")  # least numerous: R, U, P (2 each), each in 2 groups
    assert deck4_measure("mixed_use_builder", c, False) == 2
    assert deck4_measure("district_developer", c, False) == 2
    c = city("I.I.I", "C.C.C", "RR", "U.U", "PP")
    assert deck4_measure("district_developer", c, False) == 2  # U's two groups count


def test_blight_counts_as_built_a_bare_mountain_does_not():
    c = city("", "", "..BB")
    assert deck2_measure("downtown_developer", c) == 2
    assert deck2_measure("race_to_the_exurbs", city("B")) == 1
    assert deck2_measure("measured_growth", c) == 2
    assert deck2_measure("downtown_developer", city()) == 0  # mountains are terrain, not blocks


def test_conversion_may_stop_before_the_first_block():
    almost = full_city("I", (0, 0))
    almost = tuple(m & ~bit(0, 0) for m in almost)
    state = era_state("war", dice=(1, 1, 1, 1, 1), cities=[almost, START_CITY], options={"deck3": "rails_to_trails"})
    state = run(state, 0, build("industry", 0, 0))
    state = run(state, 1, build("industry", 4, 4))
    assert {"type": "stop"} in GAME.legal_actions(state, 0)
    state = run(state, 0, {"type": "stop"})
    assert GAME.is_over(state) and not state.cities[0][PARKS]


def test_rails_to_trails_is_three():
    assert CARDS[3]["rails_to_trails"]["convert"] == ["industry", "parks", 3, True]
    almost = full_city("I", (0, 0))
    almost = tuple(m & ~bit(0, 0) for m in almost)
    state = era_state("war", dice=(1, 1, 1, 1, 1), cities=[almost, START_CITY], options={"deck3": "rails_to_trails"})
    state = run(state, 0, build("industry", 0, 0))
    state = run(state, 1, build("industry", 4, 4))
    state = run(state, 0, act("convert", 4, 4), act("convert", 4, 5), act("convert", 4, 6))
    assert GAME.is_over(state) and state.cities[0][PARKS].bit_count() == 3
    assert_refused(GAME, state, 0, act("convert", 4, 7), "over")


def test_rules_edition_three_by_default_and_stored_games_keep_theirs():
    """Option `edition`: 3 for a new game; a game stored with an edition keeps it, and one stored before
    the option existed replays by edition 1."""
    assert GAME.resolve_options({})["edition"] == 3 and GAME.start(2, {}, 1).config.edition == 3
    assert GAME.stored_options({"edition": 2})["edition"] == 2
    assert GAME.stored_options({})["edition"] == 1
    assert GAME.state_from_json(GAME.state_to_json(GAME.start(2, {"edition": 2}, 1))).config.edition == 2
