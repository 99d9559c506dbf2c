"""One scenario test for each rule sentence of the Happy Little Dinosaurs rules document (seed
003_1930b22ba410ef93.txt), each card's effect (card data in static/cards.json) and each line of
docs/rules/dinosaurs.md (tests named test_note_...). Situations are built directly as engine states."""

from __future__ import annotations

import re
from importlib import resources

import pytest
from dino_states import GAME, PASS, answer_all, ids, make_state

from contract import assert_refused
from parlour.core import BadOptions, LogEntry
from parlour.games.dinosaurs.engine import CARDS, eliminates, round_scores

NAT, PRED, EMO, MET = ids("natural"), ids("predatory"), ids("emotional"), ids("meteor")
ROCK, STICK, GRABBER = ids("pet_rock"), ids("cool_stick"), ids("dino_grabber")
PAN, SNAKE = ids("handy_pan"), ids("grappling_snake")
GRAVE, SMOOTHIE, BONE = ids("grave_maker"), ids("delicious_smoothie"), ids("bonehead")
SPRAY, BAT = ids("fire_spray"), ids("run_home_bat")
TRAP, BOW, FRUIT = ids("mouth_trap"), ids("bow_and_dino"), ids("special_star_fruit")
STING, TREE = ids("sting_stabber"), ids("treenoculars")
PTEA, PLANT, CANNON, SAW = ids("iced_ptea"), ids("hungry_plant"), ids("meteor_cannon"), ids("flaming_chainsaw")
BOOST, SAP, INVERT = ids("score_booster"), ids("score_sapper"), ids("score_inversion")
INSURE, REDIRECT = ids("disaster_insurance"), ids("disaster_redirect")


def play(card):
    return {"type": "play", "card": card}


def reveal(state, cards, log=None):
    """Every seat plays its card of ``cards`` face down (None: seat not playing)."""
    for seat, card in enumerate(cards):
        if card is not None:
            state = GAME.apply(state, seat, play(card), log)
    return state


def pass_scoring(state, log=None):
    while state.phase == "scoring":
        state = answer_all(state, None, log)
    return state


def texts(log):
    return [e.render(["Ana", "Bo", "Cy", "Di"]) for e in log]


# --- How To Start ----------------------------------------------------------------------------------

def test_choose_a_dinosaur_then_five_cards_each_and_the_two_decks():
    """"Start by choosing a Dinosaur character" ... "each player is dealt five cards. The remaining cards
    ... form the Main deck." ... "The dark backed cards are shuffled together to form the Disaster deck"."""
    state = GAME.start(3, None, seed=11)
    assert state.phase == "dinosaur" and GAME.to_act(state) == {0} and all(not h for h in state.hands)
    state = GAME.apply(state, 0, {"type": "dinosaur", "dinosaur": "nervous_rex"})
    assert GAME.to_act(state) == {1}
    assert_refused(GAME, state, 1, {"type": "dinosaur", "dinosaur": "nervous_rex"}, "already taken")
    assert_refused(GAME, state, 1, {"type": "dinosaur", "dinosaur": "t_rex"}, "no dinosaur")
    state = GAME.apply(state, 1, {"type": "dinosaur", "dinosaur": "stego"})
    state = GAME.apply(state, 2, {"type": "dinosaur", "dinosaur": "cry_ceratops"})
    assert state.dinosaurs == ["nervous_rex", "stego", "cry_ceratops"]
    assert [len(h) for h in state.hands] == [5, 5, 5]
    assert all(CARDS[c].kind != "disaster" for h in state.hands for c in h)
    assert len(state.deck) == 69 - 15 and all(CARDS[c].kind != "disaster" for c in state.deck)
    assert len(state.disaster_deck) == 27 and CARDS[state.disaster].kind == "disaster"
    other = GAME.start(3, None, seed=12)
    assert other.deck != GAME.start(3, None, seed=11).deck, "the decks are shuffled by the seed"


def test_note_dinosaurs_chosen_in_seat_order_hands_dealt_after():
    """docs/rules/dinosaurs.md: one at a time in seat order, seat 0 first; hands dealt after the last choice."""
    state = GAME.start(2, None, seed=3)
    assert GAME.to_act(state) == {0} and GAME.legal_actions(state, 1) == []
    assert len(GAME.legal_actions(state, 0)) == 4
    assert_refused(GAME, state, 1, {"type": "dinosaur", "dinosaur": "stego"}, "nothing to do")
    state = GAME.apply(state, 0, {"type": "dinosaur", "dinosaur": "stego"})
    assert state.hands == [[], []]
    assert {a["dinosaur"] for a in GAME.legal_actions(state, 1)} == {"nervous_rex", "bad_luck_bronto", "cry_ceratops"}


def test_traits_table():
    """Dinosaur traits against the face-up Disaster's type (the card data)."""
    state = make_state(4, disaster=MET[0], front=[BONE[0], BONE[1], BONE[2], BONE[3]], phase="scoring")
    assert round_scores(state)[0] == [5, 4, 4, 4]  # Stego +1 against a Meteor
    for disaster, expected in ((NAT[0], [4, 4, 5, 3]), (PRED[0], [4, 5, 3, 4]), (EMO[0], [4, 3, 4, 5])):
        state = make_state(4, disaster=disaster, front=[BONE[0], BONE[1], BONE[2], BONE[3]], phase="scoring")
        assert round_scores(state)[0] == expected


def test_nervous_rex_example():
    """"if you are playing as Nervous Rex, 1 point will be added ... when facing a Predatory Disaster card and
    1 point will be subtracted ... when facing an Emotional Disaster card"."""
    for disaster, score in ((PRED[1], 6), (EMO[1], 4), (NAT[1], 5)):
        state = make_state(2, dinosaurs=("stego", "nervous_rex"), disaster=disaster, front=[PAN[0], BAT[0]],
                           phase="scoring")
        assert round_scores(state)[0][1] == score


# --- How To Play -----------------------------------------------------------------------------------

def test_round_starts_by_flipping_the_top_disaster():
    """"To start a round, the top card of the Disaster deck is automatically flipped face-up"."""
    state = GAME.start(2, None, seed=4)
    top = state.disaster_deck[-1]
    state = GAME.apply(state, 0, {"type": "dinosaur", "dinosaur": "stego"})
    state = GAME.apply(state, 1, {"type": "dinosaur", "dinosaur": "cry_ceratops"})
    assert state.disaster == top and state.round == 1 and state.phase == "select"


def test_each_player_must_select_a_point_card():
    """"Each player must select a Point card from their hand" (never an Instant, never a card not held)."""
    state = make_state(2, hands=[[BONE[0], BOOST[0]], [BAT[0], SAP[0]]])
    assert GAME.to_act(state) == {0, 1}
    assert GAME.legal_actions(state, 0) == [play(BONE[0])]
    assert_refused(GAME, state, 0, play(BOOST[0]), "Instant")
    assert_refused(GAME, state, 0, play(BAT[0]), "not in your hand")
    assert_refused(GAME, state, 0, PASS, "not possible now")


def test_no_point_card_means_discard_the_hand_and_draw_five_until_there_is_one():
    """"If a player does not have any Point cards in their hand ... must discard their hand and draw 5 new
    cards (and repeat the process until they have a Point card that they can play)"; also the helpful
    reminder "If you have 5 Instant cards in your hand, and no Point cards, your hand will be discarded"."""
    instants = [BOOST[0], BOOST[1], SAP[0], SAP[1], INSURE[0]]
    next_instants = [BOOST[2], BOOST[3], SAP[2], SAP[3], INVERT[0]]
    top = next_instants + [BONE[0], STICK[0], PAN[0], GRAVE[0], BAT[0]]  # drawn from the end
    state = make_state(2, hands=[[BAT[1], BAT[2], BOW[1], BOW[2], BONE[1]], instants], deck_top=top[::-1],
                       phase="discard",
                       front=[BOW[0], PAN[1]], areas=[[], [NAT[1]]], waiting=[1])
    log: list[LogEntry] = []
    state = GAME.apply(state, 1, PASS, log)  # ends the round; the next one starts
    assert state.phase == "select" and state.round == 2
    assert state.hands[1] == [BONE[0], STICK[0], PAN[0], GRAVE[0], BAT[0]]
    assert set(instants) | set(next_instants) <= set(state.discard)
    assert sum("has no Point card" in t for t in texts(log)) == 2


def test_cards_are_revealed_simultaneously_after_all_have_chosen():
    """"After all players have selected a Point card, the selected cards will be revealed simultaneously"."""
    state = make_state(3, hands=[[BONE[0], PAN[0]], [BAT[0], PAN[1]], [BOW[0], PAN[2]]])
    state = reveal(state, [BONE[0], BAT[0], None])
    assert state.front == [None, None, None] and state.hidden[:2] == [BONE[0], BAT[0]]
    assert GAME.to_act(state) == {2}
    state = GAME.apply(state, 2, play(BOW[0]))
    assert state.front == [BONE[0], BAT[0], BOW[0]] and state.hidden == [None, None, None]


def test_highest_collects_points_lowest_takes_the_disaster_and_may_discard():
    """"The player with the highest score in the round collects points equal to their score ... The face-up
    disaster card will be added to the player with the lowest score's Disaster Area. If a player adds a
    Disaster card to their Disaster Area, they may discard a card from their hand"."""
    state = make_state(3, hands=[[BONE[0], PAN[0]], [STING[0], BAT[0]], [PAN[1], GRAVE[0]]], disaster=EMO[2],
                       escape=[3, 10, 0])
    state = pass_scoring(reveal(state, [BONE[0], STING[0], PAN[1]]))
    # Stego 4, Nervous Rex 7-1=6, Bronto 2
    assert state.escape == [3, 16, 0] and state.phase == "disaster" and state.victim == 2
    state = GAME.apply(state, 2, PASS)
    assert state.areas[2] == [EMO[2]]
    assert state.phase == "discard" and GAME.to_act(state) == {2}
    assert GAME.legal_actions(state, 2) == [PASS, {"type": "discard", "cards": [GRAVE[0]]}]
    assert_refused(GAME, state, 2, {"type": "discard", "cards": [GRAVE[0], BONE[0]]}, "one card")
    log: list[LogEntry] = []
    state = GAME.apply(state, 2, {"type": "discard", "cards": [GRAVE[0]]}, log)
    assert GRAVE[0] in state.discard and "Cy discarded Grave Maker (3)" in texts(log)


def test_end_of_round_escape_route_refill_and_discard_order():
    """"At the end of each round, each players' Dinosaur meeple will be moved forward ... a number of spaces equal
    to the number of disasters in their Disaster Area. Cards from the Main deck will then be added to each
    players hand until they have 5 cards in their hand. All face-up Point cards and Instant cards will then be
    moved to the discard pile"."""
    state = make_state(3, hands=[[BONE[0], PAN[0]], [STING[0]], [PAN[1], GRAVE[0]]], disaster=NAT[3],
                       areas=[[NAT[0], PRED[0]], [EMO[0]], []], escape=[3, 10, 0])
    state = reveal(state, [BONE[0], STING[0], PAN[1]])
    state = pass_scoring(state)
    state = GAME.apply(state, 2, PASS)  # no Disaster Instant
    state = GAME.apply(state, 2, PASS)  # no discard
    # Rex collected 7; then each moved 2, 1, 1 for their Disasters
    assert state.escape == [5, 18, 1]
    assert [len(h) for h in state.hands] == [5, 5, 5]
    assert {BONE[0], STING[0], PAN[1]} <= set(state.discard)
    assert state.front == [None, None, None]


def test_reminder_draw_until_five_cards():
    """Helpful reminder: "At the end of each round you will automatically draw cards until you have 5"."""
    state = make_state(2, hands=[[], [BAT[0]]], disaster=NAT[3], front=[BONE[0], PAN[0]], phase="discard",
                       areas=[[], [NAT[0]]], waiting=[1])
    state = GAME.apply(state, 1, PASS)
    assert [len(h) for h in state.hands] == [5, 5]


def test_note_a_hand_over_five_keeps_its_cards():
    """docs/rules/dinosaurs.md: a hand of more than five cards keeps them all at the refill."""
    big = [BAT[1], BAT[2], BOW[1], BOW[2], BONE[1], BONE[2], STICK[0]]
    state = make_state(2, hands=[big, [BAT[0]]], disaster=NAT[3], front=[BONE[0], PAN[0]], phase="discard",
                       areas=[[], [NAT[0]]], waiting=[1])
    state = GAME.apply(state, 1, PASS)
    assert state.hands[0] == big


def test_empty_main_deck_reshuffles_the_discard_pile():
    """"If at any time the Main deck has no remaining cards, the discard pile will be shuffled and placed
    face-down to form a new Main deck"."""
    state = make_state(2, hands=[[BONE[0]], [BAT[0]]], disaster=NAT[3])
    everything = list(state.deck)
    state.deck = everything[:2]
    state.discard = everything[2:]
    state = pass_scoring(reveal(state, [BONE[0], BAT[0]]))  # Stego takes the Disaster, holding nothing
    assert state.reshuffles == 1 and [len(h) for h in state.hands] == [5, 5]
    assert BONE[0] in state.discard or BONE[0] in state.deck


def test_note_reshuffle_happens_the_moment_the_deck_is_empty():
    """docs/rules (document): "at any time": the last card drawn leaves the discard pile shuffled in at once."""
    state = make_state(2, hands=[[BONE[0], PAN[0], STICK[0], GRAVE[0]], [BAT[0]]], disaster=NAT[3],
                       front=[TREE[0], PAN[1]], phase="effect", queue=[TREE[0]], waiting=[0])
    rest = list(state.deck)
    state.deck, state.discard = rest[:2], rest[2:]
    state = GAME.apply(state, 0, {"type": "look_deck"})
    assert state.peek == rest[:2][::-1] and state.reshuffles == 1 and len(state.deck) == len(rest) - 2


# --- Disasters and elimination ---------------------------------------------------------------------

@pytest.mark.parametrize("area,out", [
    ([NAT[0], NAT[1], NAT[2]], True), ([NAT[0], PRED[0], EMO[0]], True), ([NAT[0], NAT[1], PRED[0]], False),
    ([NAT[0], NAT[1], PRED[0], PRED[1]], False), ([MET[0], NAT[0], NAT[1]], True), ([MET[0], NAT[0], PRED[1]], True),
    ([MET[0], MET[1]], False), ([MET[0], MET[1], EMO[0]], True), ([NAT[0], PRED[0]], False)])
def test_elimination_three_of_a_type_or_three_types_meteor_any(area, out):
    """"If you collect three Disaster cards of the same type or three different types of Disaster cards, you are
    eliminated" and "you will be eliminated ... if you collect a Meteor card in addition to any two other
    Disaster cards"."""
    assert eliminates(area) is out


def test_eliminated_player_discards_their_hand_at_once():
    """"you are eliminated from the game and must immediately discard your hand"."""
    state = make_state(3, hands=[[BONE[0], BOOST[0], PAN[0]], [STING[0]], [BOW[0]]], disaster=NAT[3],
                       areas=[[NAT[0], NAT[1]], [], []])
    state = pass_scoring(reveal(state, [PAN[0], STING[0], BOW[0]]))
    state = GAME.apply(state, 0, PASS)  # no Disaster Instant to play
    assert state.out[0] == 1 and state.hands[0] == [] and {BONE[0], BOOST[0]} <= set(state.discard)
    assert state.phase == "select" and GAME.to_act(state) == {1, 2}
    assert_refused(GAME, state, 0, play(BONE[0]), "eliminated")


def test_each_disaster_moves_the_meeple_one_space_every_round():
    """"For each Disaster card in your Disaster Area, your Dinosaur Meeple moves forward 1 space on your Escape
    Route at the end of each round" (also the helpful reminder)."""
    state = make_state(2, hands=[[BONE[0], BAT[1]], [BAT[0], PAN[1]]], disaster=NAT[3], two_player=True,
                       areas=[[PRED[0], EMO[0], NAT[0]], [MET[0]]], escape=[0, 0])
    state = pass_scoring(reveal(state, [BONE[0], BAT[0]]))
    state = GAME.apply(GAME.apply(state, 0, PASS), 0, PASS)  # no Disaster Instant, no discard
    assert state.escape == [4, 5 + 1]


def test_note_meteor_any_type_under_the_two_player_rules():
    """docs/rules/dinosaurs.md: under the 2-player rules, four of one type or two of each, Meteors filling in."""
    assert eliminates([NAT[0], NAT[1], NAT[2], NAT[3]], True)
    assert not eliminates([NAT[0], NAT[1], NAT[2]], True)
    assert eliminates([NAT[0], NAT[1], PRED[0], PRED[1], EMO[0], EMO[1]], True)
    assert not eliminates([NAT[0], NAT[1], NAT[2], PRED[0], PRED[1], PRED[2], EMO[0]], True)
    assert eliminates([NAT[0], NAT[1], NAT[2], MET[0]], True)
    assert eliminates([NAT[0], PRED[0], EMO[0], MET[0], MET[1], MET[2]], True)
    assert not eliminates([NAT[0], PRED[0], MET[0]], True)


# --- Point card effects and their order ------------------------------------------------------------

def test_plain_point_card_base_score_is_its_value():
    """"A player's base score equals the point value of the face-up Point card in front of them"."""
    state = make_state(2, dinosaurs=("stego", "stego"), disaster=NAT[0], front=[CANNON[0], ROCK[0]], phase="scoring")
    assert round_scores(state)[0] == [9, 0]


def test_effects_lowest_value_first():
    """"the player with the lowest Point card value may use their Point card's effect first"."""
    state = make_state(3, hands=[[TREE[0], BAT[0]], [SPRAY[0], BOW[0]], [ROCK[0], BONE[0]]], disaster=NAT[3])
    state = reveal(state, [TREE[0], SPRAY[0], ROCK[0]])
    assert state.queue == [ROCK[0], SPRAY[0], TREE[0]] and GAME.to_act(state) == {2}
    state = GAME.apply(state, 2, PASS)
    assert GAME.to_act(state) == {1}
    state = GAME.apply(state, 1, PASS)
    assert GAME.to_act(state) == {0}
    assert_refused(GAME, state, 1, PASS, "nothing to do")


def test_equal_values_fewest_escape_points_first():
    """"If two players play a Point card with the same value, the player with the fewest total collected points on
    their Escape Route may use their Point card's effect first"."""
    state = make_state(3, hands=[[ROCK[0], BAT[0]], [ROCK[1], BOW[0]], [BONE[0]]], escape=[9, 4, 0])
    state = reveal(state, [ROCK[0], ROCK[1], BONE[0]])
    assert state.queue == [ROCK[1], ROCK[0]] and GAME.to_act(state) == {1}


def test_equal_values_and_points_random_order_from_the_seed():
    """"If multiple players are tied for Point card number value and total points collected, the player to use
    their Point card's effect first is randomly selected" (docs/rules: drawn from the game's seed)."""
    firsts = set()
    for seed in range(20):
        state = make_state(3, hands=[[ROCK[0], BAT[0]], [ROCK[1], BOW[0]], [BONE[0]]], seed=seed)
        state = reveal(state, [ROCK[0], ROCK[1], BONE[0]])
        again = reveal(make_state(3, hands=[[ROCK[0], BAT[0]], [ROCK[1], BOW[0]], [BONE[0]]], seed=seed),
                       [ROCK[0], ROCK[1], BONE[0]])
        assert state.queue == again.queue
        firsts.add(state.queue[0])
    assert firsts == {ROCK[0], ROCK[1]}


def test_effect_once_per_card_per_round_and_swapped_cards_do_not_trigger_again():
    """"Point Card effects can only be used once per card per round" and docs/rules/dinosaurs.md: a card that
    changes hands by a swap does not use its effect again."""
    state = make_state(3, hands=[[PLANT[0], BAT[0]], [ROCK[0], BOW[0], BONE[1]], [BONE[0]]], disaster=NAT[3])
    state = reveal(state, [PLANT[0], ROCK[0], BONE[0]])
    state = GAME.apply(state, 1, {"type": "discard", "cards": [BOW[0]]})  # Pet Rock: +6
    assert state.bonus[1] == 6
    state = GAME.apply(state, 0, {"type": "swap", "players": [1, 2]})
    assert state.front == [PLANT[0], BONE[0], ROCK[0]]
    assert state.phase == "scoring", "the Pet Rock that moved to seat 2 is not used again"
    assert round_scores(state)[0] == [8, 4 + 6, 0 + 1], "docs/rules: Pet Rock's points stay with who used it"


def test_note_pet_rock_points_stay_with_the_player_who_used_it():
    """docs/rules/dinosaurs.md: Pet Rock and Smoothie points stay with the user after a swap."""
    state = make_state(3, front=[PLANT[0], ROCK[0], BONE[0]], bonus=[0, 6, 0], phase="scoring", disaster=NAT[3])
    assert round_scores(state)[0][1] == 6
    state.front = [PLANT[0], BONE[0], ROCK[0]]
    assert round_scores(state)[0][1:] == [10, 1]


def test_pet_rock():
    """Pet Rock (0): "You may discard a Point card from your hand, then add its point value to your score"."""
    state = make_state(2, hands=[[ROCK[0], BAT[0], BOOST[0]], [BONE[0]]], disaster=NAT[3])
    state = reveal(state, [ROCK[0], BONE[0]])
    assert GAME.legal_actions(state, 0) == [PASS, {"type": "discard", "cards": [BAT[0]]}]
    assert_refused(GAME, state, 0, {"type": "discard", "cards": [BOOST[0]]}, "Instant")
    state = GAME.apply(state, 0, {"type": "discard", "cards": [BAT[0]]})
    assert BAT[0] in state.discard and round_scores(state)[0][0] == 5


def test_dino_grabber():
    """Dino Grabber (1): "You may look at another player's hand. Choose a card and add it to your hand"; the
    look reaches only the grabber (docs/rules: after looking the player must take a card)."""
    state = make_state(3, hands=[[GRABBER[0], BAT[0]], [BONE[0], INSURE[0]], [BOW[0]]], disaster=NAT[3])
    state = reveal(state, [GRABBER[0], BONE[0], BOW[0]])
    assert GAME.legal_actions(state, 0) == [PASS, {"type": "look_hand", "player": 1}]
    assert_refused(GAME, state, 0, {"type": "look_hand", "player": 2}, "no cards")
    log: list[LogEntry] = []
    state = GAME.apply(state, 0, {"type": "look_hand", "player": 1}, log)
    assert GAME.view(state, 0)["grab"] == {"player": 1, "hand": [INSURE[0]]}
    assert GAME.view(state, 2)["grab"] == {"player": 1, "hand": None}
    assert [e.seats for e in log if "Disaster Insurance" in e.text] == [frozenset({0})]
    assert GAME.legal_actions(state, 0) == [{"type": "take", "card": INSURE[0]}]
    assert_refused(GAME, state, 0, PASS, "not possible now")
    log = []
    state = GAME.apply(state, 0, {"type": "take", "card": INSURE[0]}, log)
    assert state.hands[0] == [BAT[0], INSURE[0]] and state.hands[1] == []
    assert all(e.seats == frozenset({0, 1}) for e in log if "Insurance" in e.text)


def test_grappling_snake():
    """Grappling Snake (2): "You may swap this card with the Point card of the player to your right or left. You
    cannot swap for a card that has an effect"."""
    state = make_state(4, hands=[[SNAKE[0]], [CANNON[0]], [PTEA[0]], [TREE[0]]], disaster=NAT[3],
                       dinosaurs=("stego", "stego", "stego", "stego"))
    state = reveal(state, [SNAKE[0], CANNON[0], PTEA[0], TREE[0]])
    assert state.queue == [SNAKE[0], TREE[0]]
    # left is seat 1 (Meteor Cannon), right is seat 3 (Treenoculars has an effect); seat 2 is not a neighbour
    assert GAME.legal_actions(state, 0) == [PASS, {"type": "swap", "player": 1}]
    assert_refused(GAME, state, 0, {"type": "swap", "player": 3}, "has an effect")
    assert_refused(GAME, state, 0, {"type": "swap", "player": 2}, "right or left")
    state = GAME.apply(state, 0, {"type": "swap", "player": 1})
    assert state.front[:2] == [CANNON[0], SNAKE[0]]


def test_note_snake_neighbours_skip_eliminated_and_are_one_player_with_two():
    """docs/rules/dinosaurs.md: left is the next seat still in the game, right the previous; with two the same."""
    state = make_state(4, out=[None, 1, None, None], front=[SNAKE[0], None, PTEA[0], BAT[0]])
    assert state.neighbours(0) == [2, 3]
    state = make_state(2, front=[SNAKE[0], PTEA[0]])
    assert state.neighbours(0) == [1]


def test_delicious_smoothie():
    """"Delicious" Smoothie (3): "You may discard a Point card with an effect from your hand, then add its point
    value to your score"."""
    state = make_state(2, hands=[[SMOOTHIE[0], BAT[0], TREE[0]], [BONE[0]]], disaster=NAT[3])
    state = reveal(state, [SMOOTHIE[0], BONE[0]])
    assert GAME.legal_actions(state, 0) == [PASS, {"type": "discard", "cards": [TREE[0]]}]
    assert_refused(GAME, state, 0, {"type": "discard", "cards": [BAT[0]]}, "with an effect")
    state = GAME.apply(state, 0, {"type": "discard", "cards": [TREE[0]]})
    assert round_scores(state)[0][0] == 3 + 7


def test_fire_spray():
    """Fire Spray (4): "You may discard up to 3 cards from your hand"."""
    hand = [SPRAY[0], BAT[0], BOOST[0], PAN[0], STICK[0]]
    state = make_state(2, hands=[hand, [BONE[0]]], disaster=NAT[3])
    state = reveal(state, [SPRAY[0], BONE[0]])
    assert len(GAME.legal_actions(state, 0)) == 1 + 4 + 6 + 4
    assert_refused(GAME, state, 0, {"type": "discard", "cards": [BAT[0], BOOST[0], PAN[0], STICK[0]]}, "up to 3")
    state = GAME.apply(state, 0, {"type": "discard", "cards": [BOOST[0], STICK[0]]})
    assert state.hands[0] == [BAT[0], PAN[0]] and {BOOST[0], STICK[0]} <= set(state.discard)


def test_mouth_trap_switches_highest_and_lowest_at_scoring():
    """Mouth Trap (5): "During scoring this round, switch the score of the highest-scoring player with the score
    of the lowest-scoring player after scores have been calculated"."""
    state = make_state(3, hands=[[TRAP[0]], [CANNON[0]], [STICK[0]]], disaster=NAT[3],
                       dinosaurs=("stego", "stego", "stego"))
    state = pass_scoring(reveal(state, [TRAP[0], CANNON[0], STICK[0]]))
    assert state.last_round["scores"] == [5, 1, 9]
    assert state.escape == [0, 0 + 1, 9] and state.areas[1] == [NAT[3]]


def test_special_star_fruit_doubles_boosters_and_sappers():
    """Special Star Fruit (6): "During scoring this round, double the effects of Score Booster and Score Sapper"."""
    state = make_state(2, dinosaurs=("stego", "stego"), disaster=NAT[0], front=[FRUIT[0], BAT[0]], phase="scoring",
                       instants=[[1, BOOST[0], 1], [0, SAP[0], 1]])
    assert round_scores(state)[0] == [6, 5]
    state.instants = [[1, BOOST[0], 1]]
    assert round_scores(state)[0] == [6, 9]


def test_note_two_star_fruits_double_again():
    """docs/rules/dinosaurs.md: each Special Star Fruit doubles again."""
    state = make_state(3, dinosaurs=("stego",) * 3, disaster=NAT[0], front=[FRUIT[0], FRUIT[1], STICK[0]],
                       phase="scoring", instants=[[0, BOOST[0], 2]])
    assert round_scores(state)[0][2] == 1 + 8


def test_treenoculars():
    """Treenoculars (7): "You may look at the top 2 cards in the deck. Choose a card and add it to your hand.
    Discard the other card"; only its player sees them."""
    state = make_state(2, hands=[[TREE[0]], [BONE[0]]], disaster=NAT[3], deck_top=[INSURE[0], CANNON[0]])
    state = reveal(state, [TREE[0], BONE[0]])
    state = GAME.apply(state, 0, {"type": "look_deck"})
    assert state.peek == [CANNON[0], INSURE[0]]
    assert GAME.view(state, 0)["peek"] == [CANNON[0], INSURE[0]] and GAME.view(state, 1)["peek"] is None
    assert GAME.view(state, 1)["peek_size"] == 2
    assert_refused(GAME, state, 0, {"type": "take", "card": BONE[0]}, "not among")
    state = GAME.apply(state, 0, {"type": "take", "card": INSURE[0]})
    assert state.hands[0] == [INSURE[0]] and state.discard[-1] == CANNON[0] and state.peek == []


def test_note_treenoculars_with_one_card_left_anywhere():
    """docs/rules/dinosaurs.md: fewer than two cards in deck and discard pile: look at what there is, keep one."""
    state = make_state(2, hands=[[TREE[0]], [BONE[0]]], disaster=NAT[3])
    state.hands[1] = [BONE[0]] + state.deck[1:]
    state.deck = state.deck[:1]
    state = reveal(state, [TREE[0], BONE[0]])
    state = GAME.apply(state, 0, {"type": "look_deck"})
    assert len(state.peek) == 1 and GAME.legal_actions(state, 0) == [{"type": "take", "card": state.peek[0]}]


def test_hungry_plant():
    """Hungry Plant (8): "You may swap the Point cards of any two other players"."""
    state = make_state(3, hands=[[PLANT[0]], [CANNON[0]], [STICK[0]]], disaster=NAT[3])
    state = reveal(state, [PLANT[0], CANNON[0], STICK[0]])
    assert GAME.legal_actions(state, 0) == [PASS, {"type": "swap", "players": [1, 2]}]
    assert_refused(GAME, state, 0, {"type": "swap", "players": [0, 2]}, "two other players")
    state = GAME.apply(state, 0, {"type": "swap", "players": [1, 2]})
    assert state.last_round["front"] == [PLANT[0], STICK[0], CANNON[0]]
    assert state.areas[1] == [NAT[3]] and state.escape == [0, 1, 10]  # Bronto +1 against a Natural Disaster


def test_flaming_chainsaw_ignores_all_other_effects_first():
    """Flaming Chainsaw (9): "During this round, all other Point card effects are ignored", and "If a card states
    'During this round' its effect occurs before the effects of any other Point cards"."""
    state = make_state(3, hands=[[SAW[0]], [ROCK[0], BAT[0]], [TRAP[0]]], disaster=NAT[3],
                       dinosaurs=("stego",) * 3)
    state = reveal(state, [SAW[0], ROCK[0], TRAP[0]])
    assert state.ignored and state.queue == [] and state.phase == "scoring"
    state = pass_scoring(state)
    assert state.round_scores == [9, 0, 5] and state.victim == 1, "Mouth Trap is ignored too"


def test_during_scoring_effects_come_after_all_other_effects():
    """"If a card states 'During scoring this round', its effect occurs when you calculate scores after all
    other Point cards effects have been used"."""
    state = make_state(3, hands=[[TRAP[0]], [TREE[0]], [ROCK[0], CANNON[1]]], disaster=NAT[3],
                       dinosaurs=("stego",) * 3)
    state = reveal(state, [TRAP[0], TREE[0], ROCK[0]])
    assert state.queue == [ROCK[0], TREE[0]]
    state = GAME.apply(state, 2, {"type": "discard", "cards": [CANNON[1]]})
    state = GAME.apply(state, 1, PASS)
    state = pass_scoring(state)
    assert state.last_round["scores"] == [9, 7, 5], "the switch uses the scores after Pet Rock: 9 high, 5 low"


def test_effect_may_be_used_after_the_reveal_before_scoring():
    """"Unless otherwise specified, players may use their Point card's effect after revealing their Point card,
    but before scoring occurs in the round"."""
    state = make_state(2, hands=[[ROCK[0], CANNON[0]], [BONE[0]]], disaster=NAT[3])
    state = reveal(state, [ROCK[0], BONE[0]])
    assert state.phase == "effect" and state.round_scores is None and state.escape == [0, 0]


def test_note_effects_with_nothing_to_work_on_are_skipped():
    """docs/rules/dinosaurs.md: an effect with nothing to work on, as everybody can see, is skipped."""
    state = make_state(2, hands=[[PLANT[0]], [SPRAY[0]]], disaster=NAT[3])
    log: list[LogEntry] = []
    state = reveal(state, [PLANT[0], SPRAY[0]], log)
    assert state.phase == "scoring" or state.phase in ("disaster", "discard", "select")
    assert any("nothing to work on" in t for t in texts(log))


# --- Instants --------------------------------------------------------------------------------------

def test_scoring_instants_everybody_answers_at_once_hidden_until_all_have():
    """"If an Instant card states 'Play this card during scoring', you may play that card when scores are being
    calculated after all Point card effects have been used" (docs/rules: all answer at once, hidden until all
    have answered, and the window opens again after any Instant)."""
    state = make_state(3, hands=[[BONE[0], BOOST[0]], [BAT[0], SAP[0]], [BOW[0], PAN[0]]], disaster=NAT[3],
                       dinosaurs=("stego",) * 3)
    state = reveal(state, [BONE[0], BAT[0], BOW[0]])
    assert state.phase == "scoring" and GAME.to_act(state) == {0, 1, 2}
    assert {"type": "instant", "card": BOOST[0], "player": 2} in GAME.legal_actions(state, 0)
    assert GAME.legal_actions(state, 2) == [PASS], "asked though it holds no Instant: nothing leaks"
    state = GAME.apply(state, 0, {"type": "instant", "card": BOOST[0], "player": 0})
    for seat in (1, 2, None):
        view = GAME.view(state, seat)
        assert view["instants"] == [] and view["players"][0]["answered"] and view["answer"] is None
        assert view["players"][0]["hand_size"] == 1
    assert GAME.view(state, 0)["answer"] == {"card": BOOST[0], "player": 0}
    state = GAME.apply(state, 1, {"type": "instant", "card": SAP[0], "player": 0})
    state = GAME.apply(state, 2, PASS)
    assert state.instants == [[0, BOOST[0], 0], [1, SAP[0], 0]]
    assert state.phase == "scoring" and GAME.to_act(state) == {2}, "again, for those still holding cards"
    state = GAME.apply(state, 2, PASS)
    assert state.last_round["scores"] == [4, 5, 6]


def test_score_booster_sapper_and_inversion():
    """Score Booster: "Add 2 points to any player's score", Score Sapper: "Subtract 2 points", Score Inversion:
    "Switch the score of the highest-scoring player with the score of the lowest-scoring player"."""
    state = make_state(3, dinosaurs=("stego",) * 3, disaster=NAT[0], front=[BONE[0], BAT[0], BOW[0]],
                       phase="scoring", instants=[[0, BOOST[0], 0], [0, SAP[0], 2]])
    assert round_scores(state)[0] == [6, 5, 4]
    state.instants.append([1, INVERT[0], -1])
    assert round_scores(state) == ([6, 5, 4], [4, 5, 6])


def test_scoring_instant_refused_outside_its_window():
    state = make_state(2, hands=[[BONE[0], INSURE[0], BOOST[0]], [BAT[0]]], disaster=NAT[3])
    state = reveal(state, [BONE[0], BAT[0]])
    assert_refused(GAME, state, 0, {"type": "instant", "card": INSURE[0]}, "when you would add a Disaster")
    assert_refused(GAME, state, 0, {"type": "instant", "card": BOOST[0]}, "'player'")
    assert_refused(GAME, state, 0, {"type": "instant", "card": BONE[0]}, "not in your hand")


def test_disaster_insurance():
    """"Play this card if you would add a Disaster card to your Disaster Area this round" ... Disaster Insurance:
    "Move that Disaster card to the bottom of the Disaster deck instead"."""
    state = make_state(2, hands=[[PAN[0], INSURE[0], BAT[1]], [BAT[0]]], disaster=PRED[3], two_player=False)
    state = pass_scoring(reveal(state, [PAN[0], BAT[0]]))
    assert state.phase == "disaster" and GAME.to_act(state) == {0}
    assert GAME.legal_actions(state, 0) == [PASS, {"type": "instant", "card": INSURE[0]}]
    state = GAME.apply(state, 0, {"type": "instant", "card": INSURE[0]})
    assert state.areas[0] == [] and state.disaster_deck[0] == PRED[3] and state.round == 2
    assert GAME.view(state, 1)["disaster_bottom"] == [PRED[3]], "docs/rules: everybody saw it go to the bottom"


def test_disaster_redirect_and_the_answer_of_its_receiver():
    """Disaster Redirect: "Add that Disaster card to another player's Disaster Area instead" and a player may play
    a Disaster Instant "if another player sends a Disaster card your way"."""
    state = make_state(3, hands=[[PAN[0], REDIRECT[0]], [BAT[0], INSURE[0]], [BOW[0], GRAVE[0]]],
                       disaster=PRED[3])
    state = pass_scoring(reveal(state, [PAN[0], BAT[0], BOW[0]]))
    assert GAME.to_act(state) == {0}
    assert_refused(GAME, state, 0, {"type": "instant", "card": REDIRECT[0], "player": 0}, "another player")
    state = GAME.apply(state, 0, {"type": "instant", "card": REDIRECT[0], "player": 1})
    assert state.phase == "disaster" and GAME.to_act(state) == {1} and state.victim == 1
    state = GAME.apply(state, 1, {"type": "instant", "card": INSURE[0]})
    assert state.areas == [[], [], []] and state.disaster_deck[0] == PRED[3]


def test_note_redirected_disaster_taken_by_its_receiver():
    """docs/rules/dinosaurs.md: a redirected Disaster goes to the chosen dinosaur (highest scorer included)."""
    state = make_state(3, hands=[[PAN[0], REDIRECT[0]], [BAT[0]], [BOW[0], GRAVE[0]]], disaster=PRED[3],
                       dinosaurs=("stego",) * 3)
    state = pass_scoring(reveal(state, [PAN[0], BAT[0], BOW[0]]))
    state = GAME.apply(state, 0, {"type": "instant", "card": REDIRECT[0], "player": 2})
    assert GAME.to_act(state) == {2}
    state = GAME.apply(state, 2, PASS)
    assert state.areas[2] == [PRED[3]] and state.escape[2] == 6
    assert state.phase == "discard" and GAME.to_act(state) == {2}


# --- Ties ------------------------------------------------------------------------------------------

def test_tied_highest_all_collect():
    """"If multiple players tie for the highest score in a round, each of those players collects points equal to
    their score"."""
    state = make_state(3, hands=[[BAT[0]], [BAT[1]], [PAN[0], BONE[0]]], disaster=NAT[3],
                       dinosaurs=("stego",) * 3)
    state = pass_scoring(reveal(state, [BAT[0], BAT[1], PAN[0]]))
    assert state.escape[:2] == [5, 5] and state.victim == 2


def test_tied_lowest_sudden_death():
    """"If multiple players tie for the lowest score in a round, Sudden Death occurs! Each player tied for the lowest
    score must play another Point card face-down ... simultaneously flip ... The face-up Disaster card is added to
    the Disaster Area of the player with the lowest point value during Sudden Death"."""
    state = make_state(3, hands=[[PAN[0], BONE[0]], [PAN[1], STICK[0], INSURE[0]], [CANNON[0]]], disaster=NAT[3],
                       dinosaurs=("stego",) * 3)
    state = pass_scoring(reveal(state, [PAN[0], PAN[1], CANNON[0]]))
    assert state.escape == [0, 0, 9]
    assert state.phase == "sudden_death" and GAME.to_act(state) == {0, 1}
    assert GAME.legal_actions(state, 1) == [play(STICK[0])]
    state = GAME.apply(state, 0, play(BONE[0]))
    assert GAME.view(state, 1)["players"][0]["sudden_death"] == [] and GAME.view(state, 1)["players"][0]["face_down"]
    state = GAME.apply(state, 1, play(STICK[0]))
    assert state.areas[1] == [NAT[3]] and state.phase == "discard", "no Disaster Instant in Sudden Death"


def test_sudden_death_ignores_traits_effects_and_instants_and_pays_no_points():
    """"During Sudden Death, Dinosaur Traits, Point card effects and Instant cards do not apply. No player involved
    in Sudden Death collects points for the round, even if their new Point card exceeds the score of the
    highest-scoring player"."""
    state = make_state(3, hands=[[PAN[0], ROCK[0]], [PAN[1], STICK[0], INSURE[0]], [BAT[0]]], disaster=NAT[3],
                       dinosaurs=("bad_luck_bronto", "stego", "stego"))
    state.hands[1] = [PAN[1], SAW[0], INSURE[0]]
    state.hands[0] = [STICK[1], ROCK[0]]
    state = pass_scoring(reveal(state, [STICK[1], PAN[1], BAT[0]]))  # Bronto 1+1 = 2 ties Stego's 2
    assert state.phase == "sudden_death"
    state = GAME.apply(state, 0, play(ROCK[0]))  # Pet Rock: no effect, no +1 trait
    state = GAME.apply(state, 1, play(SAW[0]))  # 9 beats the round's 5 but scores nothing
    assert state.areas[0] == [NAT[3]] and state.escape == [0 + 1, 0, 5] and state.round == 2


def test_sudden_death_tie_repeats():
    """"If a tie occurs during Sudden Death, the process is repeated until the tie is broken" (docs/rules: only
    among those tied for the lowest Sudden Death card)."""
    state = make_state(4, hands=[[PAN[0], BONE[0], CANNON[0]], [PAN[1], BONE[1], STICK[0]], [PAN[2], BAT[0]],
                                 [BOW[0]]], disaster=NAT[3], dinosaurs=("stego",) * 4)
    state = pass_scoring(reveal(state, [PAN[0], PAN[1], PAN[2], BOW[0]]))
    state = reveal(state, [BONE[0], BONE[1], BAT[0], None])
    assert state.phase == "sudden_death" and GAME.to_act(state) == {0, 1}
    state = reveal(state, [CANNON[0], STICK[0], None, None])
    assert state.areas[1] == [NAT[3]] and state.last_round["sudden"][1] == [BONE[1], STICK[0]]


def test_sudden_death_player_without_point_card_takes_the_disaster():
    """"If at any time one of the players involved in Sudden Death does not have a Point card in their hand to
    play, the face-up Disaster card is added to their Disaster Area"."""
    state = make_state(3, hands=[[PAN[0], BOOST[0]], [PAN[1], BONE[0]], [CANNON[0]]], disaster=NAT[3],
                       dinosaurs=("stego",) * 3)
    state = reveal(state, [PAN[0], PAN[1], CANNON[0]])
    state = pass_scoring(state)
    assert state.areas[0] == [NAT[3]] and state.phase == "discard"


def test_sudden_death_several_without_point_cards_buries_the_disaster():
    """"If more than one player runs out of Point card in their hand during Sudden Death, the face-up Disaster card
    is moved to the bottom of the Disaster deck, the round is ended" (docs/rules: the round's points stand)."""
    state = make_state(3, hands=[[PAN[0]], [PAN[1], BOOST[0]], [CANNON[0]]], disaster=NAT[3],
                       dinosaurs=("stego",) * 3)
    state = pass_scoring(reveal(state, [PAN[0], PAN[1], CANNON[0]]))
    assert state.areas == [[], [], []] and state.disaster_deck[0] == NAT[3] and state.round == 2
    assert state.escape == [0, 0, 9]


def test_inverted_scores_with_ties_example():
    """"if two players are tied for the lowest score in the round at 3 points each and the highest score in that
    round is 9 points, both of the players originally tied for the lowest score received a score of 9 points ...
    and the player who originally had a score of 9 points now receives a score of 3 points"."""
    state = make_state(3, hands=[[GRAVE[0]], [GRAVE[1]], [CANNON[0], INVERT[0]]], disaster=NAT[3],
                       dinosaurs=("stego",) * 3)
    state = reveal(state, [GRAVE[0], GRAVE[1], CANNON[0]])
    state = GAME.apply(state, 2, {"type": "instant", "card": INVERT[0]})
    state = pass_scoring(state)
    assert state.last_round["scores"] == [9, 9, 3] and state.escape == [9, 9, 1] and state.areas[2] == [NAT[3]]


def test_reminder_inversion_affects_only_highest_and_lowest():
    """Helpful reminder: "If scores are inverted in a round, only the player(s) with the highest and lowest scores
    are affected"."""
    state = make_state(4, dinosaurs=("stego",) * 4, disaster=NAT[0], front=[STICK[0], BAT[0], BOW[0], CANNON[0]],
                       phase="scoring", instants=[[0, INVERT[0], -1]])
    assert round_scores(state)[1] == [9, 5, 6, 1]


def test_note_two_switches_cancel():
    """docs/rules/dinosaurs.md: switches apply one after another after all other scoring."""
    state = make_state(3, dinosaurs=("stego",) * 3, disaster=NAT[0], front=[TRAP[0], CANNON[0], STICK[0]],
                       phase="scoring", instants=[[0, INVERT[0], -1], [0, BOOST[0], 2]])
    assert round_scores(state) == ([5, 9, 3], [5, 9, 3])


def test_all_tie():
    """"If all players tie, the face-up Disaster card is moved to the bottom of the Disaster deck and the round is
    ended. No player collects points for the round"."""
    state = make_state(3, hands=[[BAT[0]], [BAT[1]], [BAT[2]]], disaster=NAT[3], dinosaurs=("stego",) * 3)
    state = pass_scoring(reveal(state, [BAT[0], BAT[1], BAT[2]]))
    assert state.escape == [0, 0, 0] and state.areas == [[], [], []] and state.disaster_deck[0] == NAT[3]
    assert state.round == 2 and state.phase == "select"


def test_note_negative_highest_score_collects_nothing():
    """docs/rules/dinosaurs.md: a highest score below zero collects no points."""
    state = make_state(2, hands=[[ROCK[0], SAP[0]], [ROCK[1], SAP[1]]], disaster=EMO[3],
                       dinosaurs=("stego", "nervous_rex"), escape=[4, 4])
    state = reveal(state, [ROCK[0], ROCK[1]])
    state = GAME.apply(GAME.apply(state, 0, PASS), 1, PASS) if state.phase == "effect" else state
    while state.phase == "effect":
        state = GAME.apply(state, min(GAME.to_act(state)), PASS)
    state = GAME.apply(state, 0, {"type": "instant", "card": SAP[0], "player": 0})
    state = GAME.apply(state, 1, PASS)
    state = pass_scoring(state)
    assert state.last_round["scores"] == [-2, -1] and state.escape == [4 + 1, 4] and state.areas[0] == [EMO[3]]


# --- Winning ---------------------------------------------------------------------------------------

def test_first_to_fifty_wins():
    """"Be the first Dinosaur to reach 50 points on your Escape Route" (docs/rules: the game ends at once)."""
    state = make_state(3, hands=[[BAT[0]], [CANNON[0]], [PAN[0]]], disaster=NAT[3], escape=[10, 45, 48],
                       dinosaurs=("stego",) * 3)
    state = pass_scoring(reveal(state, [BAT[0], CANNON[0], PAN[0]]))
    assert GAME.is_over(state) and GAME.result(state).winners == (1,)
    assert state.areas[2] == [], "the game ended before the Disaster was given"
    assert GAME.result(state).ranks == (3, 1, 2)
    assert GAME.legal_actions(state, 0) == []
    assert_refused(GAME, state, 0, PASS, "over")


def test_fifty_reached_by_disasters_at_the_end_of_the_round():
    state = make_state(2, hands=[[BAT[0], BONE[0]], [PTEA[0], BONE[1]]], disaster=NAT[3], escape=[48, 10],
                       areas=[[PRED[0], PRED[1]], []], dinosaurs=("stego", "stego"))
    state = pass_scoring(reveal(state, [BAT[0], PTEA[0]]))
    state = GAME.apply(GAME.apply(state, 0, PASS), 0, PASS)
    assert GAME.is_over(state) and GAME.result(state).winners == (0,) and state.escape[0] == 51


def test_note_several_reach_fifty_furthest_wins_level_share():
    """docs/rules/dinosaurs.md: several at 50 at once: the furthest wins; level ones share the win."""
    state = make_state(3, hands=[[CANNON[0]], [CANNON[1]], [PAN[0]]], disaster=NAT[3], escape=[45, 42, 0],
                       dinosaurs=("stego",) * 3)
    state = pass_scoring(reveal(state, [CANNON[0], CANNON[1], PAN[0]]))
    assert GAME.result(state).winners == (0,)
    state = make_state(3, hands=[[CANNON[0]], [CANNON[1]], [PAN[0]]], disaster=NAT[3], escape=[45, 45, 0],
                       dinosaurs=("stego",) * 3)
    state = pass_scoring(reveal(state, [CANNON[0], CANNON[1], PAN[0]]))
    assert GAME.result(state).winners == (0, 1)


def test_last_dinosaur_standing_wins():
    """"Be the last Dinosaur left in the game" (docs/rules: ranks then by elimination, the later ahead)."""
    state = make_state(3, hands=[[PAN[0]], [CANNON[0]], []], disaster=NAT[3], escape=[30, 2, 40],
                       areas=[[NAT[0], NAT[1]], [], [PRED[0], PRED[1], PRED[2]]], out=[None, None, 1], round=3)
    state = pass_scoring(reveal(state, [PAN[0], CANNON[0], None]))
    assert GAME.is_over(state) and GAME.result(state).winners == (1,)
    assert GAME.result(state).ranks == (2, 1, 3)
    assert GAME.result(state).reason == "last dinosaur standing"


# --- 2-player rules --------------------------------------------------------------------------------

def test_two_player_rules_remove_small_point_cards_and_raise_elimination():
    """"all Point cards with a value of 1, 2, or 3 are removed from the Main deck. Each player is eliminated only
    after they collect either four Disaster cards of the same type or two of each of the three types"."""
    state = GAME.start(2, None, seed=9)
    assert state.two_player and len(state.removed) == 18
    assert all(CARDS[c].value in (1, 2, 3) and CARDS[c].kind == "point" for c in state.removed)
    assert len(state.deck) == 69 - 18
    state = make_state(2, hands=[[PAN[0]], [CANNON[0]]], disaster=NAT[3], two_player=True,
                       areas=[[NAT[0], NAT[1]], []])
    state = pass_scoring(reveal(state, [PAN[0], CANNON[0]]))
    assert state.out == [None, None] and len(state.areas[0]) == 3


def test_two_player_rules_can_be_toggled_off():
    """"These modifications can be toggled off in the game waiting room"."""
    state = GAME.start(2, {"two_player_rules": False}, seed=9)
    assert not state.two_player and state.removed == [] and len(state.deck) == 69
    with pytest.raises(BadOptions):
        GAME.start(2, {"two_player_rules": "yes"}, seed=9)


def test_note_two_player_option_ignored_with_more_players():
    """docs/rules/dinosaurs.md: the option is on by default and has no effect with three or four players."""
    assert GAME.resolve_options(None) == {"two_player_rules": True}
    for players in (3, 4):
        state = GAME.start(players, {"two_player_rules": True}, seed=1)
        assert not state.two_player and state.removed == []
    assert GAME.view(GAME.start(2, None, 1), 0)["removed"] == sorted(GAME.start(2, None, 1).removed)


# --- other notes -----------------------------------------------------------------------------------

def test_note_discard_pile_is_face_up():
    """docs/rules/dinosaurs.md: every discarded card is seen by everybody."""
    state = make_state(2, hands=[[SPRAY[0], BOOST[0], PAN[0]], [BONE[0]]], disaster=NAT[3])
    state = reveal(state, [SPRAY[0], BONE[0]])
    state = GAME.apply(state, 0, {"type": "discard", "cards": [BOOST[0]]})
    assert BOOST[0] in GAME.view(state, 1)["discard"] and BOOST[0] in GAME.view(state, None)["discard"]


def test_note_only_the_threatened_dinosaur_is_asked_and_only_if_it_holds_a_card():
    """docs/rules/dinosaurs.md: the would-be receiver is asked for a Disaster Instant if it holds any card."""
    state = make_state(2, hands=[[PAN[0]], [CANNON[0], BONE[0]]], disaster=NAT[3])
    state = pass_scoring(reveal(state, [PAN[0], CANNON[0]]))
    assert state.areas[0] == [NAT[3]], "an empty hand takes the Disaster without a question"
    state = make_state(2, hands=[[PAN[0], BAT[0]], [CANNON[0], BONE[0]]], disaster=NAT[3])
    state = pass_scoring(reveal(state, [PAN[0], CANNON[0]]))
    assert state.phase == "disaster" and GAME.legal_actions(state, 0) == [PASS]


def test_note_no_disaster_instant_for_a_sudden_death_loser():
    """docs/rules/dinosaurs.md: Instants do not apply in Sudden Death, so its loser adds the Disaster with no
    chance to play Disaster Insurance or Disaster Redirect: whether it lost on its Sudden Death card or had no
    Point card to play."""
    state = make_state(3, hands=[[PAN[0], BONE[0]], [PAN[1], STICK[0], REDIRECT[0], INSURE[0]], [CANNON[0]]],
                       disaster=NAT[3], dinosaurs=("stego",) * 3)
    state = pass_scoring(reveal(state, [PAN[0], PAN[1], CANNON[0]]))
    state = reveal(state, [BONE[0], STICK[0], None])  # 2 against 1: seat 1 loses
    assert state.areas[1] == [NAT[3]] and state.phase == "discard" and state.victim is None
    assert not any(a["type"] == "instant" for a in GAME.legal_actions(state, 1))
    state = make_state(3, hands=[[PAN[0], INSURE[0]], [PAN[1], BONE[0]], [CANNON[0]]], disaster=NAT[3],
                       dinosaurs=("stego",) * 3)
    state = pass_scoring(reveal(state, [PAN[0], PAN[1], CANNON[0]]))  # seat 0 has no Point card left
    assert state.areas[0] == [NAT[3]] and state.phase == "discard"
    assert not any(a["type"] == "instant" for a in GAME.legal_actions(state, 0))


def test_the_rules_page_says_the_rulings_of_issue_26():
    """The players' rules page says that a negative top score collects nothing and that Sudden Death's loser
    plays no Disaster Instant."""
    html = resources.files("parlour.games.dinosaurs").joinpath("rules.html").read_text()
    page = " ".join(re.sub(r"<[^>]+>", "", html).split())
    assert "The highest score moves forward" in page and "a highest score below zero collects nothing" in page
    assert "its loser adds the Disaster without a chance to play Disaster Insurance or Disaster Redirect" in page


def test_note_eliminated_gets_no_optional_discard():
    """docs/rules/dinosaurs.md: an eliminated dinosaur discards its hand, no optional discard."""
    state = make_state(3, hands=[[PAN[0], BAT[0]], [CANNON[0]], [BOW[0]]], disaster=NAT[3],
                       areas=[[PRED[0], EMO[0]], [], []])
    state = pass_scoring(reveal(state, [PAN[0], CANNON[0], BOW[0]]))
    state = GAME.apply(state, 0, PASS)
    assert state.out[0] == 1 and state.phase == "select" and PAN[0] in state.discard


def test_log_reads_in_words():
    state = make_state(2, hands=[[BONE[0]], [CANNON[0]]], disaster=NAT[3], dinosaurs=("stego", "stego"))
    log: list[LogEntry] = []
    state = pass_scoring(reveal(state, [BONE[0], CANNON[0]], log), log)
    lines = [e.render(["Ana", "Bo"]) for e in log if e.seats is None]
    assert "Revealed: Ana Bonehead (4); Bo Meteor Cannon (9)" in lines
    assert "Bo collected 9 points (9 on the Escape Route)" in lines
    assert any(line.startswith("Ana added Bright Idea") for line in lines)


def test_bad_actions_are_refused_in_words():
    state = make_state(2, hands=[[BONE[0]], [CANNON[0]]])
    assert_refused(GAME, state, 0, "play", "JSON object")
    assert_refused(GAME, state, 0, {"type": "play"}, "card")
    assert_refused(GAME, state, 0, {"type": "play", "card": 500}, "0 to 96")
    assert_refused(GAME, state, 0, {"type": "play", "card": BONE[0], "extra": 1}, "takes no 'extra'")
    assert_refused(GAME, state, 5, {"type": "play", "card": BONE[0]}, "no seat")


def test_note_mouth_trap_applies_whoever_has_it_in_front():
    """docs/rules/dinosaurs.md: Mouth Trap and Special Star Fruit apply at scoring whoever has them in front."""
    state = make_state(3, hands=[[PLANT[0], BAT[0]], [TRAP[0], BOW[0]], [STICK[0], BONE[0]]], disaster=NAT[3],
                       dinosaurs=("stego",) * 3)
    state = reveal(state, [PLANT[0], TRAP[0], STICK[0]])
    state = GAME.apply(state, 0, {"type": "swap", "players": [1, 2]})
    assert state.front == [PLANT[0], STICK[0], TRAP[0]]
    assert round_scores(state) == ([8, 1, 5], [1, 8, 5])


def test_note_the_round_scores_stay_once_the_disaster_leaves_the_table():
    """docs/rules/dinosaurs.md: a seat's view shows the round's scores against the round's Disaster
    after it was given away (during the optional discard, at the end), and a dinosaur it eliminated
    keeps its score."""
    state = make_state(3, hands=[[PAN[0], BAT[0]], [BONE[0], STICK[0]], [PTEA[0], STICK[1]]], disaster=NAT[3],
                       dinosaurs=("stego", "nervous_rex", "bad_luck_bronto"))
    state = pass_scoring(reveal(state, [PAN[0], BONE[0], PTEA[0]]))
    assert state.phase == "disaster"
    state = GAME.apply(state, 0, PASS)  # no Disaster Instant: Stego adds it, then may discard
    assert state.phase == "discard" and state.disaster is None
    for seat in (None, 0, 1, 2):
        bronto = GAME.view(state, seat)["players"][2]
        assert (bronto["score"], bronto["final_score"], bronto["trait"]) == (9, 9, 1)  # Iced Ptea 8, +1 natural
    assert [p["final_score"] for p in GAME.view(state, 1)["players"]] == state.round_scores == [2, 4, 9]
    # an elimination that ends the game: the scores stay as they were, the eliminated one's included
    state = make_state(2, hands=[[PAN[0], BAT[0]], [BAT[1], STICK[0]]], disaster=PRED[3],
                       dinosaurs=("stego", "nervous_rex"), areas=[[PRED[0], PRED[1]], []], two_player=False)
    state = pass_scoring(reveal(state, [PAN[0], BAT[1]]))
    state = GAME.apply(state, 0, PASS)
    assert state.phase == "over" and state.out[0] == 1
    players = GAME.view(state, None)["players"]
    assert [p["final_score"] for p in players] == [2, 6] and players[1]["trait"] == 1  # Run Home Bat 5, +1 predatory


def test_note_meeples_move_for_their_disasters_in_an_all_tie_round():
    """docs/rules/dinosaurs.md: "No player collects points for the round" is the round's score; the
    meeples still move for their Disasters at the end of the round, as at the end of every round."""
    state = make_state(3, hands=[[BAT[0]], [BAT[1]], [BAT[2]]], disaster=NAT[3], dinosaurs=("stego",) * 3,
                       areas=[[EMO[0]], [], [PRED[0], EMO[1]]], escape=[3, 0, 7])
    state = pass_scoring(reveal(state, [BAT[0], BAT[1], BAT[2]]))
    assert state.round == 2 and state.disaster_deck[0] == NAT[3]
    assert state.escape == [3 + 1, 0, 7 + 2]
