"""One scenario test for each rule sentence of the Prestige Cities rules document (seed
000_fbdca8bf42dd0582.txt, facts in prestige_cities.json). Expansions and the lines of
docs/rules/prestige_cities.md are in test_prestige_expansions.py and test_prestige_notes.py."""

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
    finish_choices,
    full_city,
    run,
    squares_of_legal,
)

from contract import assert_refused
from parlour.games.prestige_cities.engine import (
    AFTER,
    BASE_ERAS,
    CHOOSE,
    COLS,
    COMMERCE,
    CULTURE,
    DECK_SIZE,
    ERAS,
    INDUSTRY,
    INNER,
    OVER,
    PARKS,
    RESIDENTIAL,
    ROWS,
    START_CITY,
    bit,
    category_scores,
    culture_score,
    happiness_score,
    overall_score,
    squares_of,
    wealth_score,
)

# --- Scoring ----------------------------------------------------------------------------------------


def test_city_is_8_columns_by_9_rows_with_a_4_by_5_inner_district():
    """"Your city is made up of a grid of 8 columns by 9 rows. In the center is a smaller grid, the
    Inner District, which is 4 columns by 5 rows.\""""
    assert (ROWS, COLS) == (9, 8)
    inner = squares_of(INNER)
    assert len(inner) == 20
    assert {r for r, _ in inner} == {2, 3, 4, 5, 6} and {c for _, c in inner} == {2, 3, 4, 5}
    view = GAME.view(GAME.start(2, {}, 1), 0)
    assert len(view["cities"][0]["rows"]) == 9 and all(len(r) == 8 for r in view["cities"][0]["rows"])


def test_culture_score_counts_culture_in_the_inner_district_only():
    """"Your culture score is the total number of blocks of Culture you have in the Inner District.
    Blocks of Culture outside the Inner District do not contribute to your culture score.\""""
    c = city("U.......", "U.......", "..UU....", "........", "........", "........", ".....U..")
    assert culture_score(c) == 3


def test_wealth_is_the_average_of_industry_and_commerce_plus_one_per_inner_commerce():
    """"Your wealth score is the average of your number of blocks of Industry and blocks of Commerce.
    ... you get an extra point added to your wealth score for each block of Commerce there.\""""
    c = city("III.....", "CC......", "..C.....")
    assert wealth_score(c) == (3 + 3) / 2 + 1
    assert wealth_score(city("II......", "C.......")) == 1.5  # not rounded (docs/rules)


def test_happiness_minus_one_per_home_touching_industry():
    """"For each Residential block, if it touches any Industry blocks, 1 point is subtracted.\""""
    assert happiness_score(city("RI......", "I.......")) == -1  # touching two Industry still costs 1
    assert happiness_score(city("R.......", ".I......")) == 0  # diagonal is not touching


def test_happiness_plus_one_per_home_touching_parks():
    """"For each Residential block, if it touches any Parks blocks, 1 point is added.\""""
    assert happiness_score(city("RPR.....", ".P......")) == 2


def test_happiness_plus_one_per_home_touching_culture():
    """"For each Residential block, if it touches any Culture blocks, 1 point is added.\""""
    assert happiness_score(city("RU......")) == 1
    assert happiness_score(city("RU......", "I.......")) == 0  # +1 culture, -1 industry
    assert happiness_score(city("RU......", "P.......")) == 2


def test_overall_is_the_two_lowest_plus_bonus():
    """"your overall score is based on the sum of your lowest two of your Culture Score, your
    Wealth Score, and your Happiness Score, throwing out the highest. To that number, you'll add any
    Bonus points.\""""
    c = city("RP......", "........", "..UU....", "..CC....")  # culture 2, wealth 1 + 2 = 3, happiness 1
    assert category_scores(c) == (2, 3, 1)
    assert overall_score(c, 0) == 3 and overall_score(c, 5) == 8


def test_a_new_city_has_the_eight_starting_blocks():
    """Facts: four Residential and four Industry blocks; happiness -4, wealth 2, culture 0."""
    state = GAME.start(3, {}, 4)
    for seat in range(3):
        assert state.cities[seat] == START_CITY
        assert category_scores(START_CITY) == (0, 2, -4)
        assert GAME.view(state, seat)["scores"] == [-4, -4, -4]


# --- Setup -------------------------------------------------------------------------------------------


def test_one_bonus_card_from_each_deck():
    """"a random set of bonus cards--one from each of the bonus decks\""""
    dealt = {GAME.start(2, {}, seed).cards for seed in range(40)}
    assert all(len(cards) == 4 for cards in dealt)
    assert len(dealt) > 5
    view = GAME.view(GAME.start(2, {}, 3), None)
    assert [c["deck"] for c in view["bonus_cards"]] == [1, 2, 3, 4]


# --- Game play: dice ---------------------------------------------------------------------------------


def test_each_round_a_new_era_is_revealed_and_its_dice_rolled():
    """"Each round of the game ... a new era card will be revealed ... automatically rolling the
    appropriate dice for that era.\""""
    state = GAME.start(2, {"pregame": False}, 11)
    assert state.round >= 1 and state.era in BASE_ERAS and len(state.dice) == 5
    assert all(1 <= d <= 6 for d in state.dice)
    nxt = finish_choices(state)
    assert nxt.round > state.round and nxt.phase == CHOOSE
    dice = {GAME.start(2, {"pregame": False}, seed).dice for seed in range(30)}
    assert len(dice) > 20 and {d for roll in dice for d in roll} == {1, 2, 3, 4, 5, 6}
    again = finish_choices(GAME.start(2, {"pregame": False}, 11))
    assert (again.era, again.dice) == (nxt.era, nxt.dice)  # the seed decides


@pytest.mark.parametrize("block,color", [("industry", "yellow"), ("commerce", "blue"), ("residential", "red"),
                                         ("culture", "purple"), ("parks", "green")])
def test_die_colour_decides_the_block_type_and_its_number_the_count(block, color):
    """"The number of blocks they add is determined by the number on the die. The type of block is
    determined by the color\""""
    state = era_state("feel_good", dice=(3, 3, 3, 3, 3))
    view = GAME.view(state, 0)
    assert {d["block"]: d["color"] for d in view["dice"]}[block] == color
    assert view["task"]["choices"] == [{"block": b, "count": 3} for b in
                                       ("industry", "commerce", "residential", "culture", "parks")]
    state = run(state, 0, build(block, 4, 0), build(block, 5, 0))
    assert state.queues[0] and state.queues[0][0][2] == 1  # one more to build
    state = run(state, 0, build(block, 6, 0))
    assert not state.queues[0]


def test_a_six_is_set_aside_and_unavailable():
    """"Important: Die rolls of 6 are set aside and unavailable\""""
    state = era_state("feel_good", dice=(6, 2, 6, 6, 1))
    assert blocks_offered(state, 0) == {"commerce", "parks"}
    assert [d["usable"] for d in GAME.view(state, 0)["dice"]] == [False, True, False, False, True]
    assert_refused(GAME, state, 0, build("industry", 4, 0), "Industry", "1 Parks")


def test_the_drought_example():
    """"The die rolls are as follows: 6 Red, 1 Purple, 3 Blue, 5 Yellow ... Each player has a choice
    of placing either 1 block of culture, 3 blocks of commerce, or 5 blocks of industry.\""""
    state = era_state("drought", dice=(5, 3, 6, 1, 2))
    assert GAME.view(state, 1)["task"]["choices"] == [
        {"block": "industry", "count": 5}, {"block": "commerce", "count": 3}, {"block": "culture", "count": 1}]


# --- Rules for placement ----------------------------------------------------------------------------


def test_blocks_of_a_round_must_all_be_adjacent():
    """"the blocks you place in a round must all be adjacent\""""
    state = run(era_state("war", dice=(3, 1, 1, 1, 1)), 0, build("industry", 4, 0))
    assert squares_of_legal(state, 0) == {(3, 0), (5, 0), (4, 1)}
    assert_refused(GAME, state, 0, build("industry", 4, 2), "connected")
    state = run(state, 0, build("industry", 4, 1))
    assert squares_of_legal(state, 0) == {(3, 0), (5, 0), (3, 1), (5, 1), (4, 2)}


def test_blocks_need_not_touch_earlier_blocks_and_may_go_anywhere():
    """"they do not need to touch similar blocks placed in previous rounds of the game. There are no
    restrictions regarding where any given type of block can be placed in your city.\""""
    state = era_state("feel_good", dice=(1, 1, 1, 1, 1))
    free = {(r, c) for r in range(ROWS) for c in range(COLS)} - set(squares_of(START_CITY[0] | START_CITY[2]))
    for block in ("industry", "commerce", "residential", "culture", "parks"):
        assert squares_of_legal(state, 0, block) == free


def test_must_choose_a_die_that_can_be_placed_fully_if_able():
    """"You must choose a die color that you can place fully if you are able.\""""
    holes = ((0, 0), (0, 1), (0, 2), (5, 5))  # largest open area: 3 squares
    state = era_state("feel_good", dice=(4, 3, 5, 1, 6), cities=[full_city("P", *holes)] * 2)
    assert blocks_offered(state, 0) == {"commerce", "culture"}
    assert_refused(GAME, state, 0, build("industry", 0, 0), "cannot build Industry")
    # a 1 may go in the lone hole; a 3 only in the open area of three
    assert squares_of_legal(state, 0, "culture") == set(holes)
    assert squares_of_legal(state, 0, "commerce") == {(0, 0), (0, 1), (0, 2)}
    assert_refused(GAME, state, 0, build("commerce", 5, 5), "too small", "in full")


def test_if_no_die_fits_in_full_place_one_as_fully_as_possible_still_adjacent():
    """"if you can't place any of the die colors fully, you are free to choose one and place it as
    fully as possible, bearing in mind that all the blocks you place this round must still be
    adjacent to each other.\""""
    holes = ((0, 0), (0, 1), (5, 5))
    state = era_state("feel_good", dice=(4, 3, 5, 6, 6), cities=[full_city("P", *holes)] * 2)
    view = GAME.view(state, 0)
    assert view["task"]["choices"] == [{"block": "industry", "count": 2}, {"block": "commerce", "count": 2},
                                       {"block": "residential", "count": 2}]
    assert squares_of_legal(state, 0, "industry") == {(0, 0), (0, 1)}
    state = run(state, 0, build("industry", 0, 1))
    assert squares_of_legal(state, 0) == {(0, 0)}
    state = run(state, 0, build("industry", 0, 0))
    assert not state.queues[0]


def test_once_all_have_chosen_the_next_era_comes_by_itself():
    """"Once all players have chosen one of the available dice, someone clicks "Next Turn", the next
    era is revealed\" (Parlour needs no click: docs/rules)."""
    state = era_state("roaring_market", dice=(1, 1, 1, 1, 1))
    state = run(state, 0, build("commerce", 4, 0))
    assert state.round == 1 and GAME.to_act(state) == {1}
    state = run(state, 1, build("commerce", 4, 7))
    assert state.round == 2 and state.phase == CHOOSE
    assert state.cities[0][COMMERCE] == bit(4, 0) and state.cities[1][COMMERCE] == bit(4, 7)


def test_nobody_sees_another_choice_until_all_have_chosen():
    """Issue 5: "nobody sees another's choice of this era until everyone has chosen"."""
    state = era_state("roaring_market", dice=(1, 3, 1, 1, 1), players=3)
    before = [GAME.view(state, s) for s in (1, 2, None)]
    mid = run(state, 0, build("commerce", 4, 0), build("commerce", 5, 0), build("commerce", 6, 0))
    for seat, old in zip((1, 2, None), before):
        now = GAME.view(mid, seat)
        assert now["cities"][0]["rows"] == old["cities"][0]["rows"]
        assert now["scores"] == old["scores"]
        assert "C" not in "".join(now["cities"][0]["rows"])
    assert "C" in "".join(GAME.view(mid, 0)["cities"][0]["rows"])  # I see my own
    done = finish_choices(mid)
    assert "C" in "".join(GAME.view(done, 1)["cities"][0]["rows"])


def test_if_all_dice_are_six_nothing_is_placed():
    """"If all of the dice rolled are 6, then nothing is placed in this era.\""""
    state = era_state("feel_good", dice=ALL_SIX)
    assert not state.queues[0] and not state.queues[1]
    after = GAME._advance(state.copy(), None)
    assert after.round == 2 and after.cities == state.cities


# --- The era deck ---------------------------------------------------------------------------------


def test_fifteen_eras_twelve_in_the_deck_three_set_aside():
    """"There are fifteen different eras ... a virtual deck is created by choosing at random twelve
    of the eras and setting three aside.\""""
    assert len(BASE_ERAS) == 15
    state = GAME.start(2, {}, 21)
    assert len(state.deck) == DECK_SIZE and len(state.set_aside) == 3
    assert set(state.deck) | set(state.set_aside) == set(BASE_ERAS)
    decks = {GAME.start(2, {}, seed).deck for seed in range(10)}
    assert len(decks) == 10


def test_after_twelve_rounds_the_set_aside_eras_join_nine_from_the_old_deck():
    """"After each 12 rounds, the virtual deck runs out and a new deck is created with the 3 cards
    that were set aside along with 9 random cards from the previous deck.\""""
    log: list = []
    state = GAME.start(2, {"pregame": False}, 5)
    first_deck, aside = state.deck, state.set_aside
    while state.deck_rounds < DECK_SIZE + 1:
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0], log)
    names = {e: ERAS[e]["name"] for e in BASE_ERAS}
    by_length = sorted(names.values(), key=len, reverse=True)  # "Round 2: War! Only yellow is rolled."
    revealed = [next(n for n in by_length if e.text.split(": ", 1)[1].startswith(n))
                for e in log if e.text.startswith("Round ")]
    assert revealed[:DECK_SIZE - 1] == [names[e] for e in first_deck[1:]]
    assert state.decks == 2 and state.drawn == 1
    assert set(aside) <= set(state.deck)
    assert len(set(state.deck) & set(first_deck)) == 9
    assert set(state.set_aside) | set(state.deck) == set(BASE_ERAS) and len(state.set_aside) == 3


# --- Game end -----------------------------------------------------------------------------------------


def test_the_game_ends_when_a_city_is_full_then_final_bonuses():
    """"Play continues until one or more players have completely filled all blocks of their city.
    Final bonuses are then awarded and the game ends.\""""
    full_but_one = full_city("P", (0, 0))
    state = era_state("feel_good", dice=(1, 1, 1, 1, 1), cities=[full_but_one, START_CITY], options={
        "deck3": "master_planner", "deck4": "mixed_use_builder"})
    state = run(state, 0, build("culture", 0, 0))
    state = run(state, 1, build("culture", 4, 0))
    assert state.phase == OVER and GAME.is_over(state)
    assert state.winners[2] == (0,) and state.winners[3] is not None
    result = GAME.result(state)
    assert result.details["completed"] == [0]
    assert not GAME.to_act(state) and GAME.legal_actions(state, 0) == []
    assert_refused(GAME, state, 0, build("culture", 4, 4), "over")


# --- The eras -----------------------------------------------------------------------------------------

ERA_DICE = {
    "feel_good": {"industry", "commerce", "residential", "culture", "parks"},
    "drought": {"industry", "commerce", "residential", "culture"},
    "recession": {"residential", "culture", "parks"},
    "depression": {"residential", "parks"},
    "baby_boom": {"residential"},
    "war": {"industry"},
    "culture_war": {"industry", "commerce", "residential", "parks"},
    "tech_revolution": {"industry", "commerce"},
    "pandemic": {"industry", "culture", "parks"},
    "roaring_market": {"commerce"},
}


@pytest.mark.parametrize("era", sorted(ERA_DICE))
def test_each_era_uses_its_dice(era):
    """Feel Good: all; Drought: all but green; Recession: all but blue and yellow; Depression: all
    but blue, yellow and purple; Baby Boom: only red; War!: only yellow; Culture War: all but purple;
    Tech Revolution: only yellow and blue; Pandemic: all but red and blue; Roaring Market (facts): blue."""
    state = era_state(era, dice=(2, 2, 2, 2, 2))
    assert blocks_offered(state, 0) == ERA_DICE[era]


def test_stagflation_only_rolls_below_three():
    """"Stagflation - All dice are rolled but only rolls less than 3 are available.\""""
    state = era_state("stagflation", dice=(1, 2, 3, 5, 2))
    assert GAME.view(state, 0)["task"]["choices"] == [
        {"block": "industry", "count": 1}, {"block": "commerce", "count": 2}, {"block": "parks", "count": 2}]
    assert not era_state("stagflation", dice=(3, 4, 5, 3, 6)).queues[0]


def test_me_generation_choose_a_colour_and_place_two():
    """"The "Me" Generation - Player chooses a color and places two squares of that color.\""""
    state = era_state("me_generation", dice=ALL_SIX)
    assert GAME.view(state, 0)["task"]["choices"] == [{"block": b, "count": 2} for b in
                                                      ("industry", "commerce", "residential", "culture", "parks")]
    state = run(state, 0, build("culture", 3, 3))
    assert_refused(GAME, state, 0, build("parks", 3, 4), "building Culture")
    assert_refused(GAME, state, 0, build("culture", 5, 5), "connected")
    state = run(state, 0, build("culture", 3, 4))
    assert not state.queues[0] and state.cities[0][CULTURE] == bit(3, 3) | bit(3, 4)


def test_golden_age_one_of_each_type_need_not_touch():
    """"for The Golden Age, you place one block of each type of square. These blocks do not need to
    be adjacent.\" (and: "does not use dice")"""
    state = era_state("golden_age", dice=ALL_SIX)
    assert GAME.view(state, 0)["dice"] == []
    corners = [("industry", 0, 0), ("commerce", 0, 7), ("residential", 8, 0), ("culture", 4, 4), ("parks", 8, 7)]
    for i, (block, r, c) in enumerate(corners):
        state = run(state, 0, build(block, r, c))
        if i < 4:
            assert_refused(GAME, state, 0, build(block, 3, 0), "already built")
    assert not state.queues[0]
    assert all(state.cities[0][b] & bit(r, c) for b, (_, r, c) in zip(
        (INDUSTRY, COMMERCE, RESIDENTIAL, CULTURE, PARKS), corners))


# --- Bonus cards -----------------------------------------------------------------------------------


def _ten(block_letter: str, extra: str = "") -> tuple[int, ...]:
    return city(block_letter * 8, block_letter * 2 + extra)


def test_deck1_full_value_to_one_player_and_extra_blocks_adjacent_to_each_other():
    """"If only one player fulfills a given bonus card, that player receives its full value, usually 5
    points.\" Deck 1: "give bonus points, and ... additional blocks ... These blocks do not need to
    be adjacent to the blocks already placed this round ... though they must be adjacent to each other.\""""
    nine = city("IIIIIIII", "I")
    state = era_state("war", dice=(1, 1, 1, 1, 1), cities=[nine, nine], options={"deck1": "titan_of_industry"})
    state = run(state, 0, build("industry", 1, 1))  # the tenth
    state = run(state, 1, build("industry", 5, 5))  # a tenth Industry anywhere counts
    # both reached ten in the same era: shared
    assert state.winners[0] == (0, 1) and state.bonus == (2, 2)
    assert state.phase == AFTER
    task = GAME.view(state, 0)["task"]
    assert task["kind"] == "build" and task["block"] == "culture" and task["left"] == 2
    state = run(state, 0, build("culture", 7, 7))
    assert_refused(GAME, state, 0, build("culture", 4, 4), "connected")
    state = run(state, 0, build("culture", 6, 7))
    state = run(state, 1, build("culture", 4, 4), build("culture", 4, 3))
    assert state.phase == CHOOSE and state.round > 1


def test_deck1_shared_when_fulfilled_at_the_same_time_and_gone_afterwards():
    """"If more than one player fulfills a bonus card at the same time, all of those players get the
    bonus points shown in parenthesis, usually 2 points.\" and "Once a deck 1 bonus card has been
    fulfilled, it is no longer available to be fulfilled by other players in future rounds.\""""
    nine = city("IIIIIIII", "I")
    state = era_state("war", dice=(1, 1, 1, 1, 1), cities=[nine, nine, START_CITY], players=3,
                      options={"deck1": "titan_of_industry"})
    state = run(state, 0, build("industry", 1, 1))
    state = run(state, 1, build("industry", 4, 4))
    state = run(state, 2, build("industry", 4, 4))
    assert state.winners[0] == (0, 1) and state.bonus == (2, 2, 0)
    state = finish_choices(state)
    later = era_state("war", dice=(1, 1, 1, 1, 1), cities=[nine, nine, nine], players=3,
                      winners=state.winners, bonus=state.bonus)
    later = finish_choices(later)
    assert later.bonus == (2, 2, 0)  # the third player's tenth Industry earns nothing now


def test_deck1_single_winner_gets_five():
    nine = city("IIIIIIII", "I")
    state = era_state("war", dice=(1, 1, 1, 1, 1), cities=[nine, START_CITY], options={"deck1": "titan_of_industry"})
    state = finish_choices(state)
    assert state.winners[0] == (0,) and state.bonus[0] == 5


@pytest.mark.parametrize("card,goal,reward", [("titan_of_industry", "I", "culture"),
                                              ("public_benefactor", "C", "parks"),
                                              ("cheap_labor", "R", "industry"),
                                              ("urban_paradise", "P", "residential")])
def test_deck1_cards_objectives_and_rewards(card, goal, reward):
    """Facts: Titan of Industry (10 Industry: 2 Culture), Public Benefactor (10 Commerce: 2 Parks),
    Cheap Labor (10 Residential: 2 Industry touching Residential), Urban Paradise (10 Parks: 2 Residential)."""
    ten = city(goal * 8, goal * 2)
    state = era_state("feel_good", dice=ALL_SIX, cities=[ten, START_CITY], options={"deck1": card})
    state = GAME._advance(state.copy(), None)
    assert state.winners[0] == (0,) and state.bonus == (5, 0)
    assert state.phase == AFTER and GAME.view(state, 0)["task"]["block"] == reward


def test_cheap_labor_blocks_touch_residential():
    """Facts: "add 2 contiguous Industry blocks that touch Residential" (docs/rules: the first one touches)."""
    ten = city("RRRRRRRR", "RR")
    state = era_state("feel_good", dice=ALL_SIX, cities=[ten, START_CITY], options={"deck1": "cheap_labor"})
    state = GAME._advance(state.copy(), None)
    assert squares_of_legal(state, 0) == {(1, c) for c in range(2, 8)} | {(2, 0), (2, 1)}


def test_deck2_evaluated_once_after_twelve_rounds():
    """"Bonus cards from deck 2 are evaluated as soon as the deck rounds out for the first time, ie
    after 12 rounds. Once the points have been awarded and the deck reshuffled, the deck 2 bonus card
    is no longer available.\""""
    state = GAME.start(2, {"pregame": False, "deck2": "industrial_powerhouse"}, 8)
    while state.deck_rounds < DECK_SIZE:
        assert state.winners[1] is None
        state = finish_choices(state)
    assert state.winners[1] is None and state.deck_rounds == DECK_SIZE
    state = finish_choices(state)
    assert state.winners[1] is not None and state.decks == 2
    bonus = state.bonus
    while state.deck_rounds < 2 * DECK_SIZE + 1 and not GAME.is_over(state):
        state = finish_choices(state)
        assert state.winners[1] is not None
    assert state.bonus == bonus or GAME.is_over(state)


@pytest.mark.parametrize("card,better,worse", [
    ("downtown_developer", city("", "", "..CC"), city("CCC")),
    ("race_to_the_exurbs", city("CCC"), city("", "", "..CC")),
    ("monument_builder", city("PP"), city("P")),
    ("measured_growth", city("P"), city("PP")),
    ("retail_entrepreneur", city("RC", ".C"), city("RPC")),
    ("industrial_powerhouse", city("II"), city("I")),
])
def test_deck2_cards(card, better, worse):
    """Facts: Downtown Developer (most in the Inner District), Race to the Exurbs (most on the outer
    edge), Monument Builder (most Parks), Measured Growth (fewest built), Retail Entrepreneur (most
    Commerce touching Residential), Industrial Powerhouse (most Industry)."""
    state = era_state("feel_good", dice=ALL_SIX, cities=[worse, better], options={"deck2": card},
                      deck_rounds=DECK_SIZE)
    state = GAME._advance(state.copy(), None)
    assert state.winners[1] == (1,) and state.bonus == (0, 5)
    tie = era_state("feel_good", dice=ALL_SIX, cities=[better, better], options={"deck2": card},
                    deck_rounds=DECK_SIZE)
    tie = GAME._advance(tie.copy(), None)
    assert tie.winners[1] == (0, 1) and tie.bonus == (2, 2)


def test_deck3_to_the_first_to_complete_with_conversion():
    """"The bonus from the deck 3 bonus cards are awarded to the player(s) that are first to complete
    their city. It may include points or the opportunity to change blocks in your city.\""""
    almost = full_city("P", (0, 0), base=city("IIIII"))
    almost = tuple(m & ~bit(0, 0) for m in almost)
    state = era_state("feel_good", dice=(1, 1, 1, 1, 1), cities=[almost, START_CITY],
                      options={"deck3": "the_new_economy"})
    state = run(state, 0, build("parks", 0, 0))
    state = run(state, 1, build("parks", 4, 4))
    assert state.phase == "final" and state.winners[2] == (0,) and state.bonus == (0, 0)
    assert GAME.to_act(state) == {0}
    task = GAME.view(state, 0)["task"]
    assert task["kind"] == "convert" and task["left"] == 4
    state = run(state, 0, act("convert", 0, 1), act("convert", 0, 2))
    assert_refused(GAME, state, 0, act("convert", 0, 4), "connected")
    state = run(state, 0, {"type": "stop"})
    assert GAME.is_over(state)
    assert state.cities[0][COMMERCE] == bit(0, 1) | bit(0, 2)


def test_deck3_master_planner_points_shared():
    almost = full_city("P", (0, 0))
    state = era_state("feel_good", dice=(1, 1, 1, 1, 1), cities=[almost, almost],
                      options={"deck3": "master_planner"})
    state = finish_choices(state)
    assert GAME.is_over(state) and state.winners[2] == (0, 1) and state.bonus[:2] == (2, 2)


def test_rails_to_trails_converts_up_to_three_connected_industry_to_parks():
    almost = full_city("C", (0, 0), base=city("", "IIIII"))
    state = era_state("feel_good", dice=(1, 1, 1, 1, 1), cities=[almost, START_CITY],
                      options={"deck3": "rails_to_trails"})
    state = run(state, 0, build("commerce", 0, 0))
    state = run(state, 1, build("commerce", 4, 4))
    state = run(state, 0, act("convert", 1, 0), act("convert", 1, 1), act("convert", 1, 2))
    assert GAME.is_over(state) and (state.cities[0][PARKS] & city("", "IIIII")[0]).bit_count() == 3


@pytest.mark.parametrize("card,better,worse", [
    ("champs_central", city("", "", "..PP", "..P"), city("PPPPP", "", "..P")),
    ("mixed_use_builder", city("ICRUP", "ICRUP"), city("ICRUP", "ICRU")),
    ("global_hub_of_finance", city("CCC"), city("CC.CC")),
    ("district_developer", city("IICCRRUU", "P.P"), city("IICCRRUU", "PP")),
    ("suburban_lifestyle_dream", city("RRR"), city("", ".RR")),
    ("culture_for_the_masses", city("UU"), city("U", "", "..UU")),
])
def test_deck4_cards_scored_after_the_game(card, better, worse):
    """"The bonus cards from deck 4 are scored after the game is over.\" Facts: Champs Central
    (largest Parks group inside the Inner District), Mixed Use Builder (most of your least numerous
    type), Global Hub of Finance (largest Commerce group), District Developer (most separate groups
    of your least numerous type), Suburban Lifestyle Dream (most Residential on the outer edge),
    Culture for the Masses (most Culture outside the Inner District)."""
    s = era_state("feel_good", dice=ALL_SIX, cities=[worse, better],
                  options={"deck4": card, "deck3": "master_planner"}).copy()
    s.cities = (full_city("B", base=worse), better)  # the first city is full: the game ends
    s.phase, s.queues = AFTER, ((), ())
    s = GAME._advance(s, None)
    assert GAME.is_over(s)
    assert s.winners[3] == (1,)
    assert s.winners[2] == (0,) and s.bonus == (5, 5)


# --- Catastrophes ------------------------------------------------------------------------------------


def _ordered_cities():
    """Three cities whose overall scores are 3 (seat 0), 1 (seat 1) and -4 (seat 2)."""
    top = city("RPIIIII", "RP", "..UUU", "..UUU")  # culture 6, wealth 2.5, happiness 2 -> 4.5
    mid = city("RP.IIII", "", "..U", "")  # culture 1, wealth 2, happiness 1 -> 2
    return [top, mid, START_CITY]


def test_catastrophe_removes_from_the_city_above_and_the_leader_from_the_last():
    """"you remove blocks from whichever city is currently higher than yours in the list of scores
    ... If you are at the top of the score table, then you remove blocks from the city in last place.\""""
    state = era_state("industrial_disaster", dice=(2, 1, 1, 1, 1), cities=_ordered_cities(), players=3)
    assert state.targets == (2, 0, 1)
    view = GAME.view(state, 1)
    assert view["targets"] == [2, 0, 1] and view["task"]["target"] == 0


def test_removed_blocks_must_be_one_adjacent_group():
    """"the blocks removed must be in an adjacent group.\""""
    state = era_state("industrial_disaster", dice=(3, 1, 1, 1, 1), cities=_ordered_cities(), players=3)
    state = run(state, 1, act("remove", 0, 3))  # seat 1 strikes seat 0's Industry row
    assert_refused(GAME, state, 1, act("remove", 0, 6), "connected")
    assert_refused(GAME, state, 1, act("remove", 1, 1), "no Industry")
    state = run(state, 1, act("remove", 0, 4), act("remove", 0, 5))
    assert state.cities[0][INDUSTRY] == city("..IIIII")[0]  # nothing happens until all have chosen
    state = finish_choices(state)
    assert state.cities[0][INDUSTRY] == city("..I...I")[0]


def test_smaller_group_when_none_is_as_large_as_the_roll():
    """"if there is no group of adjacent blocks as large as the number rolled, then the player
    removing the blocks chooses a smaller group of adjacent blocks and removes them.\""""
    state = era_state("great_fire", dice=(1, 1, 5, 1, 1), cities=_ordered_cities(), players=3)
    # seat 0 (top) strikes seat 2 (last): its four homes stand alone, so one goes
    assert GAME.view(state, 0)["task"]["left"] == 1
    assert squares_of_legal(state, 0) == {(1, 1), (1, 6), (7, 1), (7, 6)}
    # seat 2 strikes seat 1, whose homes are R at (0,0) only
    assert GAME.view(state, 2)["task"]["left"] == 1
    state = run(state, 0, act("remove", 7, 6))
    state = finish_choices(state)
    assert not state.cities[2][RESIDENTIAL] & bit(7, 6)


def test_targets_are_fixed_when_the_era_is_revealed():
    """"make sure everyone has had a chance to see whose city they change before anyone starts
    making changes\" (issue 5: targets are fixed when the era is revealed)."""
    state = era_state("industrial_disaster", dice=(2, 1, 1, 1, 1), cities=_ordered_cities(), players=3)
    targets = state.targets
    state = run(state, 1, act("remove", 0, 2), act("remove", 0, 3))
    assert state.targets == targets and GAME.view(state, 2)["task"]["target"] == 1


def test_a_catastrophe_with_nothing_to_remove_asks_nothing():
    state = era_state("great_fire", dice=(1, 1, 6, 1, 1), cities=_ordered_cities(), players=3)
    assert not any(state.queues)
    state = era_state("industrial_disaster", dice=(3, 1, 1, 1, 1),
                      cities=[city("R"), city("I"), city("R")], players=3)
    # the scores: 0, 0.5, 0 ... whoever targets a city without Industry has nothing to do
    assert [bool(q) for q in state.queues] == [state.cities[t][INDUSTRY] != 0 for t in state.targets]


# --- Bad input -------------------------------------------------------------------------------------


def test_bad_input_is_refused_in_words_and_changes_nothing():
    state = era_state("feel_good", dice=(1, 2, 3, 4, 5))
    assert_refused(GAME, state, 0, "build", "JSON object")
    assert_refused(GAME, state, 0, {"type": "fly"}, "unknown action type")
    assert_refused(GAME, state, 0, {"type": "build", "block": "castle", "row": 1, "col": 1}, "'block' must be")
    assert_refused(GAME, state, 0, {"type": "build", "block": "parks", "row": "1", "col": 1}, "whole number 'row'")
    assert_refused(GAME, state, 0, build("parks", 9, 0), "no square")
    assert_refused(GAME, state, 0, build("parks", 1, 1), "already built")
    assert_refused(GAME, state, 0, act("remove", 1, 1), "cannot remove")
    assert_refused(GAME, state, 0, {"type": "stop"}, "cannot stop")
    assert_refused(GAME, state, 5, build("parks", 4, 4), "no seat 5")
    state = run(state, 0, build("parks", 4, 4), build("parks", 4, 5), build("parks", 4, 6), build("parks", 3, 4),
                build("parks", 5, 4))
    assert_refused(GAME, state, 0, build("parks", 0, 0), "nothing to do", "player 2")
