"""The three expansions of the rules document: Blight, the Ocean and the Mountains."""

from __future__ import annotations

from prestige_states import GAME, act, blocks_offered, build, city, era_state, full_city, run, squares_of_legal

from contract import assert_refused
from parlour.games.prestige_cities.engine import (
    BASE_ERAS,
    BLIGHT,
    BLIGHT_ERAS,
    DECK_SIZE,
    INDUSTRY,
    MOUNTAINS,
    RESIDENTIAL,
    START_CITY,
    bit,
    category_scores,
    empty_squares,
    happiness_score,
    mask_of,
    squares_of,
    wealth_score,
)

BLIGHT_ON = {"blight": True}

# --- Blight ------------------------------------------------------------------------------------------


def test_blight_costs_a_point_per_home_touching_it():
    """"for each Residential block, if it touches any blocks of Blight, one point is subtracted from
    your happiness score.\""""
    assert happiness_score(city("RBR", "..R")) == -2
    assert happiness_score(city("RB", "BR")) == -2


def test_blight_adds_the_industrial_revolution_and_sets_four_aside():
    """"In the Blight expansion, another era is added--Industrial Revolution, which provides Red and
    Yellow squares. The virtual deck still only contains 12 eras, so four eras are set aside instead of 3.\""""
    assert set(BLIGHT_ERAS) - set(BASE_ERAS) == {"industrial_revolution"}
    state = GAME.start(2, BLIGHT_ON, 9)
    assert len(state.deck) == DECK_SIZE and len(state.set_aside) == 4
    assert set(state.deck) | set(state.set_aside) == set(BLIGHT_ERAS)
    assert all("industrial_revolution" not in GAME.start(2, {}, s).deck + GAME.start(2, {}, s).set_aside
               for s in range(10))


def test_four_or_more_homes_or_industry_in_a_round_add_an_adjacent_blight():
    """"Any time you add 4 or more Residential or Industrial blocks to your city in one round, you must
    add a block of Blight to an empty square that is adjacent to the blocks you just placed.\""""
    state = era_state("war", dice=(4, 1, 1, 1, 1), options=BLIGHT_ON)
    state = run(state, 0, *(build("industry", 4, c) for c in range(4)))
    assert GAME.view(state, 0)["task"]["kind"] == "blight"
    near = squares_of_legal(state, 0)
    assert near == {(3, c) for c in range(4)} | {(5, c) for c in range(4)} | {(4, 4)}
    assert_refused(GAME, state, 0, act("blight", 0, 0), "next to the blocks")
    state = run(state, 0, act("blight", 4, 4))
    assert state.cities[0][BLIGHT] == bit(4, 4) and not state.queues[0]
    # three blocks: no Blight; four Commerce: no Blight either
    for era, dice, block in (("war", (3, 1, 1, 1, 1), "industry"), ("roaring_market", (1, 4, 1, 1, 1), "commerce")):
        s = era_state(era, dice=dice, options=BLIGHT_ON)
        n = dice[0] if block == "industry" else dice[1]
        s = run(s, 0, *(build(block, 4, c) for c in range(n)))
        assert not s.queues[0]


def test_every_home_and_industry_block_of_the_round_counts_toward_blight():
    """"4 or more Residential or Industrial blocks ... in one round": a bonus card's blocks count with the
    die's, Residential and Industrial together, and the Blight comes once, next to them (rules edition 2;
    edition 1, for games played before, counted the die's placement alone)."""
    homes = city("RRRRRRRR", "R")  # nine homes: two more earn Cheap Labor's two Industry
    for edition, blight in ((2, True), (1, False)):
        options = {**BLIGHT_ON, "deck1": "cheap_labor", "edition": edition}
        state = era_state("baby_boom", dice=(1, 1, 2, 1, 1), cities=[homes, START_CITY], options=options)
        state = run(state, 0, build("residential", 4, 0), build("residential", 4, 1))
        state = run(state, 1, build("residential", 4, 4), build("residential", 4, 5))
        assert state.phase == "after" and GAME.view(state, 0)["task"]["kind"] == "build"
        round_ = state.round
        state = run(state, 0, build("industry", 5, 0), build("industry", 5, 1))
        if not blight:  # the next era is revealed
            assert state.round == round_ + 1 and not state.cities[0][BLIGHT]
            continue
        assert GAME.view(state, 0)["task"]["kind"] == "blight"
        assert squares_of_legal(state, 0) == {(3, 0), (3, 1), (4, 2), (5, 2), (6, 0), (6, 1)}
        state = run(state, 0, act("blight", 4, 2))
        assert state.cities[0][BLIGHT] == bit(4, 2) and state.round == round_ + 1
    # four from the die and two more from the card: one Blight, after the die's placement
    homes = city("RRRRRRR")
    state = era_state("baby_boom", dice=(1, 1, 4, 1, 1), cities=[homes, START_CITY],
                      options={**BLIGHT_ON, "deck1": "cheap_labor"})
    state = run(state, 0, *(build("residential", 4, c) for c in range(4)))
    state = run(state, 0, act("blight", 3, 0))
    state = run(state, 1, *(build("residential", 4, c) for c in range(4, 8)), act("blight", 3, 7))
    round_ = state.round
    state = run(state, 0, build("industry", 5, 0), build("industry", 5, 1))
    assert state.round == round_ + 1 and state.cities[0][BLIGHT] == bit(3, 0)


def test_no_free_square_next_to_them_converts_an_occupied_one():
    """"If there are no empty blocks adjacent to the blocks you just placed, then convert an occupied
    block adjacent to the blocks you just placed into a block of Blight.\""""
    holes = [(0, c) for c in range(4)]
    walled = full_city("P", *holes)
    state = era_state("baby_boom", dice=(1, 1, 4, 1, 1), cities=[walled, walled], options=BLIGHT_ON)
    state = run(state, 0, *(build("residential", 0, c) for c in range(4)))
    assert squares_of_legal(state, 0) == {(1, c) for c in range(4)} | {(0, 4)}
    state = run(state, 0, act("blight", 1, 2))
    assert state.cities[0][BLIGHT] == bit(1, 2) and not state.cities[0][4] & bit(1, 2)


def test_homes_or_industry_removed_by_a_catastrophe_leave_a_blight_in_an_emptied_square():
    """"If Residential or Industry blocks are removed from your city by The Great Fire or Industrial
    Disaster, after the blocks have been removed, you fill one of the just-emptied blocks in your own
    city with a block of Blight.\""""
    state = era_state("industrial_disaster", dice=(2, 1, 1, 1, 1), cities=[city("III"), city("II")],
                      options=BLIGHT_ON)
    state = run(state, 0, act("remove", 0, 0), act("remove", 0, 1))
    state = run(state, 1, act("remove", 0, 1), act("remove", 0, 2))
    assert state.phase == "after" and GAME.to_act(state) == {0, 1}
    assert squares_of_legal(state, 1) == {(0, 0), (0, 1)}
    assert_refused(GAME, state, 1, act("blight", 0, 5), "just emptied")
    state = run(state, 1, act("blight", 0, 0))
    state = run(state, 0, act("blight", 0, 2))
    assert state.cities[0][BLIGHT] == bit(0, 2) and state.cities[1][BLIGHT] == bit(0, 0)
    assert state.phase == "choose" and state.round > 1


def test_industrial_revolution_red_or_yellow_and_an_adjacent_blight_even_on_two_sixes():
    """"As a result of the Industrial Revolution era, in addition to adding Residential or Industrial
    blocks, you also add an adjacent block of Blight. Even if 6es are rolled on both the red and
    yellow dice, you still add a block of Blight.\""""
    state = era_state("industrial_revolution", dice=(2, 1, 3, 1, 1), options=BLIGHT_ON)
    assert blocks_offered(state, 0) == {"industry", "residential"}
    state = run(state, 0, build("industry", 4, 0), build("industry", 4, 1))
    assert squares_of_legal(state, 0) == {(3, 0), (3, 1), (5, 0), (5, 1), (4, 2)}
    state = run(state, 0, act("blight", 4, 2))
    assert not state.queues[0]
    sixes = era_state("industrial_revolution", dice=(6, 1, 6, 1, 1), options=BLIGHT_ON)
    assert GAME.view(sixes, 0)["task"]["kind"] == "blight"
    assert squares_of_legal(sixes, 0) == set(squares_of(empty_squares(START_CITY, 0)))


def test_blight_rules_are_off_without_the_expansion():
    state = era_state("war", dice=(5, 1, 1, 1, 1))
    state = run(state, 0, *(build("industry", 4, c) for c in range(5)))
    assert not state.queues[0]


# --- The Ocean --------------------------------------------------------------------------------------


def test_homes_on_the_shore_add_happiness():
    """"for each Residential Block touching the ocean, your happiness score is increased by one.\""""
    shore = city(*([""] * 8), "RR.R")
    assert happiness_score(shore, ocean=True) == 3 and happiness_score(shore) == 0
    assert happiness_score(city(*([""] * 7), "R"), ocean=True) == 0  # one row up is not the shore


def test_industry_on_the_shore_adds_wealth():
    """"for each Industry Block touching the ocean, your wealth score is increased by one.\""""
    shore = city(*([""] * 8), "II")
    assert wealth_score(shore, ocean=True) == 1 + 2 and wealth_score(shore) == 1
    state = era_state("war", cities=[shore, shore], options={"ocean": True})
    assert GAME.view(state, 1)["cities"][0]["wealth"] == 3 and GAME.view(state, 1)["board"]["ocean"]


# --- Mountains -----------------------------------------------------------------------------------------

MOUNT = {"mountains": True}


def test_mountain_squares_count_as_filled_and_need_no_building():
    """"These blocks are treated as filled blocks, and you can complete your city without ever building
    over these Mountain blocks.\""""
    assert len(squares_of(MOUNTAINS)) == 6
    state = era_state("roaring_market", dice=(1, 1, 1, 1, 1), options=MOUNT)
    assert not squares_of_legal(state, 0, "commerce") & set(squares_of(MOUNTAINS))
    assert_refused(GAME, state, 0, build("commerce", 3, 3), "mountain")
    every_but = full_city("P", *squares_of(MOUNTAINS), (0, 0))
    every_but = tuple(m & ~bit(0, 0) & ~MOUNTAINS for m in every_but)
    state = era_state("roaring_market", dice=(1, 1, 1, 1, 1), cities=[every_but, START_CITY],
                      options={**MOUNT, "deck3": "master_planner"})
    state = run(state, 0, build("commerce", 0, 0))
    state = run(state, 1, build("commerce", 4, 0))
    assert GAME.is_over(state) and state.winners[2] == (0,)


def test_homes_may_be_built_over_mountains():
    """"However, Residential blocks may be built overtop Mountain blocks.\""""
    state = era_state("baby_boom", dice=(1, 1, 2, 1, 1), options=MOUNT)
    assert set(squares_of(MOUNTAINS)) <= squares_of_legal(state, 0, "residential")
    state = run(state, 0, build("residential", 3, 3), build("residential", 3, 2))
    assert state.cities[0][RESIDENTIAL] & bit(3, 3)
    assert GAME.view(state, 0)["cities"][0]["rows"][3][3] == "R"
    assert GAME.view(state, 1)["cities"][1]["rows"][3][3] == "M"


def test_mountains_do_not_change_scores():
    """"The Mountain expansion does not affect the calculation of scores in any way.\""""
    c = city("", "", "", "...R", "...P")
    assert category_scores(c) == (0, 0, 1)
    state = era_state("war", cities=[c, c], options=MOUNT)
    assert GAME.view(state, 0)["cities"][0]["happiness"] == 1


def test_a_home_over_a_mountain_burnt_down_reverts_to_mountain_or_blight():
    """"If a Residential block built overtop a Mountain block is removed as a result of The Great Fire,
    it should revert to a Mountain block, or it could be replaced with a block of Blight if the Blight
    expansion is being used as well.\""""
    over = city("", "", "", "...R")
    state = era_state("great_fire", dice=(1, 1, 1, 1, 1), cities=[over, city("R")], options=MOUNT)
    state = run(state, 1, act("remove", 3, 3))
    state = run(state, 0, act("remove", 0, 0))
    assert GAME.view(state, 0)["cities"][0]["rows"][3][3] == "M"
    assert empty_squares(state.cities[0], MOUNTAINS) & bit(3, 3) == 0
    state = era_state("great_fire", dice=(1, 1, 1, 1, 1), cities=[over, city("R")],
                      options={**MOUNT, **BLIGHT_ON})
    state = run(state, 1, act("remove", 3, 3))
    state = run(state, 0, act("remove", 0, 0))
    assert squares_of_legal(state, 0) == {(3, 3)}
    state = run(state, 0, act("blight", 3, 3))
    assert GAME.view(state, 1)["cities"][0]["rows"][3][3] == "B"


def test_layouts_are_in_the_view():
    view = GAME.view(GAME.start(2, {"mountains": True, "ocean": True}, 1), 0)
    assert sorted(map(tuple, view["board"]["mountains"])) == sorted(squares_of(MOUNTAINS))
    assert view["board"]["ocean"] is True
    assert GAME.view(GAME.start(2, {}, 1), 0)["board"]["mountains"] == []
    assert mask_of(view["board"]["mountains"]) == MOUNTAINS
    assert GAME.start(2, {"mountains": True}, 1).cities[0][INDUSTRY] == START_CITY[INDUSTRY]


def test_urban_rehab_converts_blight_to_parks_but_not_on_a_mountain():
    """Facts: Urban Rehab (Blight only): convert up to 3 Blight to Parks (docs/rules: not on a mountain)."""
    blighted = full_city("C", (0, 0), base=city("", "", "", "...B", "B.B"))
    blighted = tuple(m & ~bit(0, 0) & ~(MOUNTAINS & ~bit(3, 3)) for m in blighted)
    state = era_state("roaring_market", dice=(1, 1, 1, 1, 1), cities=[blighted, START_CITY],
                      options={"blight": True, "mountains": True, "deck3": "urban_rehab"})
    state = run(state, 0, build("commerce", 0, 0))
    state = run(state, 1, build("commerce", 4, 0))
    assert state.phase == "final" and squares_of_legal(state, 0) == {(4, 0), (4, 2)}  # (3, 3) is on a mountain
    state = run(state, 0, act("convert", 4, 2), act("convert", 4, 0))
    assert GAME.is_over(state) and state.cities[0][4] & (bit(4, 0) | bit(4, 2)) == bit(4, 0) | bit(4, 2)
