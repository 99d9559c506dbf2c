"""One scenario test for each rule sentence of the Empire rules document (seed
001_4c3f7851320eb4d9.txt) and each line of docs/rules/empire.md. Situations are built directly as
engine states (empire_states.make_state: player 1 is the Captain (7), player 2 the Jester (3), the
revelatory cards are 1, 2, 4, 5 in places A to D, the culprit is the Alchemist (6), the deck
8 to 15 from the top)."""

from __future__ import annotations

import pytest
from empire_states import (
    CHALLENGE,
    DECLINE,
    DISCOVER,
    END,
    GAME,
    INCOME,
    PASS,
    PROMOTE,
    SPY,
    accuse,
    all_cards,
    claim,
    collect,
    draw,
    guess,
    keep,
    make_state,
    reveal,
    run,
)

from contract import assert_refused, log_texts
from parlour.games.empire.engine import COSTS, NUMBERS, ROLES, START_COINS, suspects

NAMES = ["Ana", "Bob"]
EMPTY_DECK = dict(deck=(), pile=(8, 9, 10, 11, 12, 13, 14, 15))  # the deck drawn and discarded
NOTHING_LEFT = (7, 3) + EMPTY_DECK["pile"] + (1, 2)  # ... and revelatory cards 1 and 2 too


def kinds(state, seat):
    return {a["type"] for a in GAME.legal_actions(state, seat)}


# --- the deck (docs/rules/empire.md) -------------------------------------------------------------------

def test_rules_note_the_deck_is_fifteen_roles_each_with_its_own_number():
    assert len(ROLES) == 15 and tuple(range(1, 16)) == NUMBERS
    assert len(set(ROLES.values())) == len(ROLES)
    assert ROLES[1] == "Urchin" and ROLES[15] == "Empress"


# --- setup ----------------------------------------------------------------------------------------------

def test_each_player_begins_with_two_coins():
    """"Each player begins with 2 coins\""""
    assert START_COINS == 2
    assert GAME.start(2, {}, seed=3).coins == (2, 2)


def test_setup_deals_roles_revelatory_cards_culprit_and_deck():
    """"Each player takes a card from the deck. This is their role." "Lay out four cards ... These are the
    revelatory cards." "Place one more card face down ... the culprit card." "Place the remainder of the
    deck on the side.\""""
    for seed in range(20):
        state = GAME.start(2, {}, seed)
        assert None not in state.roles and len(state.slots) == 4 and state.taken == (None,) * 4
        assert len(state.deck) == 15 - 2 - 4 - 1
        assert all_cards(state) == list(NUMBERS)
        assert state.pile == () and state.drawn is None
    decks = {GAME.start(2, {}, seed).deck for seed in range(20)}
    assert len(decks) > 15, "the deal comes from the seed"
    assert GAME.start(2, {}, 5) == GAME.start(2, {}, 5)


def test_each_player_sees_only_their_own_role_at_the_start():
    state = make_state()
    assert GAME.view(state, 0)["you"]["role"] == 7 and GAME.view(state, 0)["opponent"]["role"] is None
    assert GAME.view(state, 1)["you"]["role"] == 3 and GAME.view(state, 1)["opponent"]["role"] is None
    assert all(s["card"] is None for s in GAME.view(state, 0)["revelatory"])
    assert GAME.view(state, 0)["culprit"] is None and GAME.view(state, 0)["deck_count"] == 8


def test_rules_note_player_one_takes_the_first_turn():
    state = GAME.start(2, {}, seed=9)
    assert GAME.to_act(state) == {0} and GAME.legal_actions(state, 1) == []


# --- the turn -------------------------------------------------------------------------------------------

def test_players_alternate_taking_turns():
    """"Players alternate taking turns.\""""
    state = run(make_state(), (0, INCOME), (0, END))
    assert GAME.to_act(state) == {1} and state.active == 1 and state.turn == 2
    state = run(state, (1, INCOME), (1, END))
    assert GAME.to_act(state) == {0} and state.turn == 3


def test_a_turn_is_claim_or_income():
    """"On a turn, a player chooses between the following options: Claim ... Income\""""
    state = make_state(coins=(4, 2))
    legal = kinds(state, 0)
    assert {"claim", "income"} <= legal and "end" not in legal
    assert_refused(GAME, state, 0, END, "claim coins or take income")
    state = run(state, (0, INCOME))
    assert "claim" not in kinds(state, 0) and "income" not in kinds(state, 0)
    assert_refused(GAME, state, 0, claim(2), "already claimed or taken income")
    assert_refused(GAME, state, 0, INCOME, "already")


def test_claim_between_two_and_four_no_more_than_held():
    """"A player may claim between 2 and 4 coins per turn, and must have at least as many coins as they claim.\""""
    state = make_state(coins=(3, 2))
    amounts = sorted(a["amount"] for a in GAME.legal_actions(state, 0) if a["type"] == "claim")
    assert amounts == [2, 3]
    assert_refused(GAME, state, 0, claim(4), "at most as many coins as you hold", "3 coins")
    assert_refused(GAME, make_state(coins=(9, 2)), 0, claim(5), "2 to 4")
    assert_refused(GAME, make_state(coins=(9, 2)), 0, claim(1), "2 to 4")
    assert_refused(GAME, make_state(coins=(9, 2)), 0, {"type": "claim", "amount": "3"}, "whole number")
    assert "claim" not in kinds(make_state(coins=(1, 2)), 0)
    assert [a["amount"] for a in GAME.legal_actions(make_state(coins=(9, 2)), 0) if a["type"] == "claim"] == [2, 3, 4]


def test_claim_is_announced_and_the_opponent_responds():
    """"The player announces how many coins they are claiming, and the opponent then responds to the claim.\""""
    log = []
    state = run(make_state(coins=(4, 2)), (0, claim(4)), log=log)
    assert GAME.to_act(state) == {1} and state.claim == 4
    assert log_texts(log, NAMES) == ["Ana claims 4 coins"] and log[0].seats is None
    assert GAME.view(state, 0)["step"] == "respond" and GAME.view(state, None)["claim"] == 4
    assert_refused(GAME, state, 0, END, "player 2's move", "answer the claim")


def test_income_takes_one_coin_from_the_bank():
    """"Income: Take one coin from the bank.\""""
    assert run(make_state(coins=(0, 5)), (0, INCOME)).coins == (1, 5)


# --- extras at any point of the turn ------------------------------------------------------------------

def test_extras_before_and_after_the_main_action():
    """"At any point during the turn, the active player may also do any combination of the following\""""
    state = make_state(coins=(20, 2))
    assert {"promote", "reveal", "spy", "discover", "accuse"} <= kinds(state, 0)
    state = run(state, (0, reveal(0, 1)), (0, INCOME))
    assert {"promote", "spy", "discover", "accuse", "end"} <= kinds(state, 0)
    state = run(state, (0, SPY), (0, PROMOTE), (0, keep("role")), (0, END))
    assert state.coins == (20 - 3 + 1 - 8 - 2, 2) and state.active == 1


def test_extras_after_a_claim_is_answered():
    state = run(make_state(coins=(4, 2)), (0, claim(4)), (1, PASS))
    assert state.coins == (8, 2) and GAME.to_act(state) == {0}
    assert {"spy", "reveal", "promote", "end"} <= kinds(state, 0)
    state = run(state, (0, SPY))
    assert state.coins == (0, 2) and GAME.view(state, 0)["opponent"]["role"] == 3


def test_rules_note_extras_may_be_repeated_when_paid_again():
    """"Any combination of the following" sets no limit: each extra may be done again in the same turn,
    paid each time (two Reveals see all four revelatory cards); Discover ends the turn, so once."""
    state = run(make_state(coins=(30, 2)), (0, reveal(0, 1)))
    assert {"reveal", "spy", "promote", "discover"} <= kinds(state, 0)
    state = run(state, (0, reveal(2, 3)))
    view = GAME.view(state, 0)
    assert state.coins == (24, 2) and all(slot["card"] is not None for slot in view["revelatory"])
    state = run(state, (0, SPY), (0, SPY), (0, PROMOTE), (0, keep("drawn")), (0, PROMOTE), (0, keep("role")))
    assert state.coins == (24 - 16 - 4, 2) and GAME.view(state, 0)["used"] == ["promote", "reveal", "spy"]
    assert_refused(GAME, state, 0, SPY, "costs 8 coins", "you have 4 coins")
    state = run(state, (0, INCOME), (0, END))
    assert GAME.view(state, 0)["used"] == []


def test_extras_cost_what_they_cost_and_need_the_coins():
    assert COSTS == {"promote": 2, "reveal": 3, "spy": 8, "discover": 18, "guess": 1}
    poor = make_state(coins=(1, 2))
    assert not {"promote", "reveal", "spy", "discover"} & kinds(poor, 0)
    assert_refused(GAME, poor, 0, PROMOTE, "costs 2 coins", "you have 1 coin")
    assert_refused(GAME, make_state(coins=(2, 2)), 0, reveal(0, 1), "costs 3 coins")
    assert_refused(GAME, make_state(coins=(7, 2)), 0, SPY, "costs 8 coins")
    assert_refused(GAME, make_state(coins=(17, 2)), 0, DISCOVER, "costs 18 coins")


def test_promote_pays_two_draws_and_keeps_one():
    """"Promote: Pay 2 coins to the bank. Draw the top card of the deck and discard either your old role or
    the newly drawn card. Whichever you choose to keep becomes your role.\""""
    log = []
    state = run(make_state(coins=(5, 2)), (0, PROMOTE), log=log)
    assert state.coins == (3, 2) and state.drawn == 8 and state.deck == (9, 10, 11, 12, 13, 14, 15)
    assert GAME.to_act(state) == {0} and kinds(state, 0) == {"keep"}
    assert GAME.view(state, 0)["you"] == {"role": 7, "drawn": 8}
    assert GAME.view(state, 1)["opponent"]["drawn"] is None and GAME.view(state, 1)["holding"] == [2, 1]
    kept_new = run(state, (0, keep("drawn")), log=log)
    assert kept_new.roles == (8, 3) and kept_new.pile == (7,) and kept_new.drawn is None
    kept_old = run(state, (0, keep("role")))
    assert kept_old.roles == (7, 3) and kept_old.pile == (8,)
    assert_refused(GAME, state, 0, keep("both"), "\"role\"", "\"drawn\"")
    texts = log_texts(log, NAMES)
    assert "Ana pays 2 coins to promote" in texts and "Ana discards the Captain (7) and keeps the other card" in texts
    private = [e for e in log if e.seats is not None]
    assert all(e.seats == {0} for e in private)
    assert {e.render(NAMES) for e in private} == {"Ana draws the Priestess (8)",
                                                  "Ana keeps the Priestess (8) as their role"}


def test_reveal_pays_three_and_privately_shows_two_revelatory_cards():
    """"Reveal: Pay 3 coins to the bank. Privately look at any two of the four revelatory cards. Then return
    them in the same order.\""""
    log = []
    state = run(make_state(coins=(3, 2)), (0, reveal(3, 1)), log=log)
    assert state.coins == (0, 2) and state.slots == (1, 2, 4, 5) and state.taken == (None,) * 4
    cards = [s["card"] for s in GAME.view(state, 0)["revelatory"]]
    assert cards == [None, 2, None, 5]
    assert [s["card"] for s in GAME.view(state, 1)["revelatory"]] == [None] * 4
    assert [s["looked_at_by"] for s in GAME.view(state, 1)["revelatory"]] == [[], [0], [], [0]]
    assert log_texts(log, NAMES)[0] == "Ana pays 3 coins and looks at revelatory cards B and D"
    assert log[1].seats == {0} and log[1].render(NAMES) == "Ana sees that B is the Peasant (2), D is the Scholar (5)"
    assert len([a for a in GAME.legal_actions(make_state(coins=(3, 2)), 0) if a["type"] == "reveal"]) == 6


def test_reveal_refuses_bad_places():
    state = make_state(coins=(5, 2), taken=(1, None, None, None))
    assert_refused(GAME, state, 0, reveal(0, 1), "A has already been drawn")
    assert_refused(GAME, state, 0, reveal(1, 1), "two different")
    assert_refused(GAME, state, 0, reveal(1, 7), "places 0 to 3")
    assert_refused(GAME, state, 0, reveal(1), "two different")
    assert_refused(GAME, state, 0, {"type": "reveal"}, "'slots'")


def test_rules_note_reveal_with_one_card_left_looks_at_it_and_with_none_is_refused():
    one = make_state(coins=(5, 2), deck=(), taken=(1, 0, None, 1), roles=(2, 1), pile=(7, 3) + EMPTY_DECK["pile"])
    assert [a for a in GAME.legal_actions(one, 0) if a["type"] == "reveal"] == [reveal(2)]
    state = run(one, (0, reveal(2)))
    assert GAME.view(state, 0)["revelatory"][2]["card"] == 4
    none = make_state(coins=(5, 2), deck=(), taken=(1, 0, 0, 1), roles=(2, 1), pile=(7, 3) + EMPTY_DECK["pile"])
    assert "reveal" not in kinds(none, 0)
    assert_refused(GAME, none, 0, reveal(0, 1), "no revelatory cards are left")


def test_spy_pays_eight_and_shows_the_opponents_role():
    """"Spy: Pay 8 coins to the bank. View the role of your opponent.\""""
    log = []
    state = run(make_state(coins=(8, 2)), (0, SPY), log=log)
    assert state.coins == (0, 2) and GAME.view(state, 0)["opponent"]["role"] == 3
    assert GAME.view(state, 1)["opponent_knows"]["cards"] == [3]
    assert log[1].seats == {0} and log[1].render(NAMES) == "Ana sees that Bob is the Jester (3)"
    assert log[0].seats is None and "spy" in log[0].render(NAMES)


def test_discover_pays_eighteen_shows_the_culprit_and_ends_the_turn():
    """"Discover: Pay 18 coins to the bank. Privately view the culprit card and immediately end your turn.\""""
    log = []
    state = run(make_state(coins=(19, 2)), (0, INCOME), (0, DISCOVER), log=log)
    assert state.coins == (2, 2) and state.active == 1 and GAME.to_act(state) == {1}
    assert GAME.view(state, 0)["culprit"] == 6 and GAME.view(state, 0)["suspects"] == [6]
    assert GAME.view(state, 1)["culprit"] is None and GAME.view(state, 1)["discovered"] == [True, False]
    assert log[-1].seats == {0} and log[-1].render(NAMES) == "Ana sees that the culprit is the Alchemist (6)"


def test_rules_note_discover_before_the_main_action_forfeits_it():
    state = run(make_state(coins=(18, 2)), (0, DISCOVER))
    assert state.coins == (0, 2) and state.active == 1 and not state.main_done


def test_accuse_rightly_wins():
    """"Accuse: Make and announce your guess at what the culprit card is. Then reveal the culprit. If the
    active player's guess was correct, they win the game.\""""
    log = []
    state = run(make_state(), (0, accuse(6)), log=log)
    assert GAME.is_over(state) and GAME.result(state).winners == (0,)
    assert log_texts(log, NAMES) == ["Ana accuses the Alchemist (6). The culprit is the Alchemist (6): Ana wins"]
    assert GAME.view(state, 1)["culprit"] == 6 and GAME.view(state, None)["culprit"] == 6
    assert_refused(GAME, state, 1, INCOME, "the game is over")


def test_rules_note_the_end_shows_the_culprit_and_each_player_the_others_role():
    state = make_state(roles=(7, 3))
    assert GAME.view(state, 0)["opponent"]["role"] is None  # while the game runs, a secret
    state = run(state, (0, accuse(6)))
    assert GAME.view(state, 0)["opponent"]["role"] == 3 and GAME.view(state, 1)["opponent"]["role"] == 7
    assert GAME.view(state, None)["culprit"] == 6 and "opponent" not in GAME.view(state, None)
    assert "deck" not in GAME.view(state, 0)  # the deck stays face down


def test_accuse_wrongly_loses():
    """"Otherwise, they lose the game.\""""
    state = run(make_state(active=1), (1, accuse(9)))
    assert GAME.result(state).winners == (0,) and GAME.result(state).scores == (1.0, 0.0)
    assert_refused(GAME, make_state(), 0, accuse(16), "no role 16")


def test_rules_note_accuse_at_any_free_moment_of_your_turn():
    state = make_state(coins=(4, 2))
    assert "accuse" in kinds(state, 0)
    state = run(state, (0, claim(2)))
    assert "accuse" not in kinds(state, 1)
    assert_refused(GAME, state, 1, accuse(6), "answer the claim")
    state = run(state, (1, PASS))
    assert "accuse" in kinds(state, 0)


# --- responding to claims -----------------------------------------------------------------------------

def test_responses_are_pass_challenge_or_guess():
    """"Whenever a player makes a claim, the opponent responds by doing one of the following things\""""
    state = run(make_state(coins=(2, 2)), (0, claim(2)))
    assert kinds(state, 1) == {"pass", "challenge", "guess"}
    assert_refused(GAME, state, 1, INCOME, "answer the claim")
    assert_refused(GAME, make_state(), 1, PASS, "player 1's move")
    assert_refused(GAME, make_state(), 0, PASS, "take a turn")


def test_pass_lets_the_player_take_the_claim_from_the_bank():
    """"Pass: Allow the player to take the amount of coins claimed from the bank.\""""
    state = run(make_state(coins=(3, 1)), (0, claim(3)), (1, PASS))
    assert state.coins == (6, 1) and state.claim == 0 and state.main_done


def test_challenge_higher_number_wins_and_the_winner_chooses_bank_and_opponent():
    """"Challenge: Both players reveal their roles. The role with the higher number wins the challenge. If the
    active player wins the challenge, they take the amount of coins they claimed from the bank and opponent
    in any combination.\""""
    log = []
    state = run(make_state(coins=(4, 3)), (0, claim(4)), (1, CHALLENGE), log=log)  # Captain 7 beats Jester 3
    assert GAME.to_act(state) == {0} and kinds(state, 0) == {"collect"}
    assert [a["from_opponent"] for a in GAME.legal_actions(state, 0)] == [0, 1, 2, 3]
    assert_refused(GAME, state, 0, collect(4), "0 to 3", "bank")
    assert log_texts(log, NAMES)[-1] == ("Bob challenges. Ana shows the Captain (7), Bob shows the Jester (3):"
                                         " Ana wins the challenge")
    assert GAME.view(state, None)["last_challenge"] == {"claimant": 0, "amount": 4, "roles": [7, 3], "winner": 0,
                                                            "turn": 1}
    for k in range(4):
        after = run(state, (0, collect(k)))
        assert after.coins == (8, 3 - k)
    # the whole claim from the opponent when they have enough
    rich = run(make_state(coins=(2, 9)), (0, claim(2)), (1, CHALLENGE))
    assert [a["from_opponent"] for a in GAME.legal_actions(rich, 0)] == [0, 1, 2]
    assert run(rich, (0, collect(2))).coins == (4, 7)


def test_challenge_lost_pays_the_claim_to_the_bank():
    """"If the active player loses, they pay the amount they claimed to the bank.\""""
    log = []
    state = run(make_state(coins=(2, 3), active=1, roles=(7, 3)), (1, claim(3)), (0, CHALLENGE), log=log)
    assert state.coins == (2, 0)
    assert "Bob pays 3 coins to the bank" in log_texts(log, NAMES)


def test_after_a_challenge_both_discard_and_draw_active_first():
    """"Both players then discard their revealed roles and draw new roles, starting with the active player.\""""
    log = []
    state = run(make_state(coins=(3, 2), active=1), (1, claim(2)), (0, CHALLENGE), log=log)
    assert state.pile == (7, 3) and state.roles == (9, 8) and state.deck == (10, 11, 12, 13, 14, 15)
    assert GAME.to_act(state) == {1} and state.main_done
    texts = log_texts(log, NAMES)
    assert texts.index("Bob draws a card from the deck") < texts.index("Ana draws a card from the deck")
    assert [e.render(NAMES) for e in log if e.seats == {1}] == ["Bob draws the Priestess (8)"]
    assert [e.render(NAMES) for e in log if e.seats == {0}] == ["Ana draws the Spymaster (9)"]
    # the winning claimant's collection comes before the discards
    state = run(make_state(coins=(3, 2)), (0, claim(2)), (1, CHALLENGE))
    assert state.roles == (7, 3) and state.pile == ()
    state = run(state, (0, collect(1)))
    assert state.roles == (8, 9) and state.pile == (7, 3) and state.coins == (5, 1)


def test_rules_note_challenge_winner_takes_from_the_bank_when_the_opponent_has_nothing():
    state = run(make_state(coins=(4, 0)), (0, claim(4)), (1, CHALLENGE))
    assert state.coins == (8, 0) and GAME.to_act(state) == {0} and state.pile == (7, 3)
    assert "collect" not in kinds(state, 0)


def test_guess_wrong_pays_one_and_the_claimant_takes_the_claim():
    """"Guess: Pay 1 coin to the bank and announce a guess at the active player's role. If the guess is
    incorrect, the active player takes the amount they claimed from the bank.\""""
    log = []
    state = run(make_state(coins=(4, 2)), (0, claim(4)), (1, guess(10)), log=log)
    assert state.coins == (8, 1)
    assert log_texts(log, NAMES)[-1] == ("Bob pays 1 coin and guesses that Ana is the General (10): wrong,"
                                         " so Ana takes 4 coins from the bank")
    assert GAME.view(state, 1)["opponent"]["ruled_out"] == [10]
    assert GAME.view(state, 0)["opponent_knows"]["ruled_out"] == [10]


def test_guess_right_makes_the_claimant_pay_the_guesser():
    """"If the guess is correct, the active player pays the amount they claimed to the other player.\""""
    state = run(make_state(coins=(4, 2)), (0, claim(4)), (1, guess(7)))
    assert state.coins == (0, 5)
    assert GAME.view(state, 1)["opponent"]["role"] == 7, "a right guess tells the guesser the role"
    assert GAME.view(state, None)["last_guess"] == {"guesser": 1, "role": 7, "right": True, "turn": 1}


def test_rules_note_guess_needs_a_coin():
    state = run(make_state(coins=(2, 0)), (0, claim(2)))
    assert kinds(state, 1) == {"pass", "challenge"}
    assert_refused(GAME, state, 1, guess(7), "costs 1 coin")


# --- drawing and discarding -----------------------------------------------------------------------------

def test_cards_are_drawn_from_the_deck_by_default():
    """"Cards are by default drawn from the deck.\""""
    state = run(make_state(coins=(2, 2)), (0, PROMOTE))
    assert state.drawn == 8 and state.taken == (None,) * 4


def test_empty_deck_draw_a_revelatory_card_of_your_choice_then_the_opponent_may_accuse():
    """"If no cards remain in the deck, a player draws by taking a revelatory card of their choice and
    immediately giving the opponent an oppurtunity to accuse.\""""
    log = []
    state = run(make_state(coins=(2, 2), **EMPTY_DECK), (0, PROMOTE), log=log)
    assert GAME.to_act(state) == {0} and kinds(state, 0) == {"draw"}
    assert [a["slot"] for a in GAME.legal_actions(state, 0)] == [0, 1, 2, 3]
    state = run(state, (0, draw(2)), log=log)
    assert state.drawn == 4 and state.taken == (None, None, 0, None)
    assert GAME.to_act(state) == {1} and kinds(state, 1) == {"decline", "accuse"}
    assert "the deck is empty, so Ana draws revelatory card C" in log_texts(log, NAMES)
    declined = run(state, (1, DECLINE))
    assert GAME.to_act(declined) == {0} and kinds(declined, 0) == {"keep"}
    assert GAME.result(run(state, (1, accuse(6)))).winners == (1,)
    assert GAME.result(run(state, (1, accuse(5)))).winners == (0,)
    assert_refused(GAME, run(state, (1, DECLINE), (0, keep("role")), (0, INCOME), (0, END), (1, PROMOTE)), 1,
                   draw(2), "C has already been drawn")


def test_empty_deck_after_a_challenge_each_draw_gives_the_other_a_chance():
    state = run(make_state(coins=(2, 2), **EMPTY_DECK), (0, claim(2)), (1, CHALLENGE), (0, collect(0)))
    assert GAME.to_act(state) == {0} and kinds(state, 0) == {"draw"}
    state = run(state, (0, draw(0)))
    assert GAME.to_act(state) == {1} and kinds(state, 1) == {"decline", "accuse"}
    state = run(state, (1, DECLINE))
    assert GAME.to_act(state) == {1} and kinds(state, 1) == {"draw"}
    state = run(state, (1, draw(3)), (0, DECLINE))
    assert state.roles == (1, 5) and GAME.to_act(state) == {0} and state.main_done


def test_rules_note_the_opponent_learns_a_drawn_revelatory_card_it_had_looked_at():
    state = make_state(coins=(2, 2), looked=((), (2,)), **EMPTY_DECK)
    state = run(state, (0, PROMOTE), (0, draw(2)), (1, DECLINE), (0, keep("drawn")))
    assert GAME.view(state, 1)["opponent"]["role"] == 4
    assert GAME.view(state, 0)["opponent_knows"]["cards"] == [4]
    unseen = run(make_state(coins=(2, 2), looked=((), (1,)), **EMPTY_DECK), (0, PROMOTE), (0, draw(2)),
                 (1, DECLINE), (0, keep("drawn")))
    assert GAME.view(unseen, 1)["opponent"]["role"] is None


def test_deck_and_revelatory_cards_empty_is_a_tie():
    """"If a player must draw but the deck and set of revelatory cards are both empty, the game ends in a tie.\""""
    state = make_state(coins=(2, 2), deck=(), taken=(0, 1, 0, 1), roles=(4, 5), pile=NOTHING_LEFT)
    log = []
    state = run(state, (0, claim(2)), (1, CHALLENGE), log=log)  # 4 loses to 5: no collect step
    assert GAME.is_over(state) and GAME.result(state).winners == (0, 1)
    assert GAME.result(state).scores == (0.5, 0.5)
    assert log_texts(log, NAMES)[-1] == ("Ana must draw, but the deck and the revelatory cards are all gone:"
                                         " the game is a tie")


def test_rules_note_promote_with_nothing_to_draw_is_a_tie():
    """Promote says "Draw the top card of the deck", and "if a player must draw but the deck and set of
    revelatory cards are both empty, the game ends in a tie": a player who promotes must draw, so with
    nothing left the promotion is allowed (2 coins paid) and ends the game in a tie."""
    state = make_state(coins=(5, 2), deck=(), taken=(0, 1, 0, 1), roles=(4, 5), pile=NOTHING_LEFT)
    assert "promote" in kinds(state, 0)
    log = []
    state = run(state, (0, PROMOTE), log=log)
    assert GAME.is_over(state) and GAME.result(state).scores == (0.5, 0.5) and state.coins == (3, 2)
    assert log_texts(log, NAMES) == ["Ana pays 2 coins to promote", "Ana must draw, but the deck and the revelatory"
                                     " cards are all gone: the game is a tie"]
    assert GAME.result(state).reason == "nothing left to draw: a tie"
    # with one revelatory card left the promotion draws it, and the opponent may accuse
    state = make_state(coins=(5, 2), deck=(), taken=(0, 1, 0, None), roles=(4, 2), pile=NOTHING_LEFT[:-1])
    state = run(state, (0, PROMOTE))
    assert not GAME.is_over(state) and GAME.view(state, 0)["step"] == "draw"
    # still 2 coins: without them it is refused
    poor = make_state(coins=(1, 2), deck=(), taken=(0, 1, 0, 1), roles=(4, 5), pile=NOTHING_LEFT)
    assert "promote" not in kinds(poor, 0)
    assert_refused(GAME, poor, 0, PROMOTE, "costs 2 coins")


def test_discards_go_face_up_where_everyone_can_look():
    """"Cards are discarded into a discard pile that is placed face-up and is always available for a player
    to look through.\""""
    state = run(make_state(coins=(4, 2)), (0, PROMOTE), (0, keep("role")), (0, claim(2)), (1, CHALLENGE),
                (0, collect(0)))
    assert state.pile == (8, 7, 3)
    for seat in (0, 1, None):
        assert GAME.view(state, seat)["pile"] == [8, 7, 3]


# --- what each seat knows (docs/rules/empire.md) ---------------------------------------------------------

def test_rules_note_which_cards_are_looked_at_is_public_but_not_what_they_are():
    state = run(make_state(coins=(3, 2)), (0, reveal(0, 1)))
    spectator = GAME.view(state, None)
    assert [s["looked_at_by"] for s in spectator["revelatory"]] == [[0], [0], [], []]
    assert all(s["card"] is None for s in spectator["revelatory"])


def test_rules_note_wrong_guesses_are_forgotten_when_the_role_may_change():
    state = run(make_state(coins=(4, 2)), (0, claim(2)), (1, guess(10)))
    assert GAME.view(state, 1)["opponent"]["ruled_out"] == [10]
    state = run(state, (0, PROMOTE), (0, keep("role")))
    assert GAME.view(state, 1)["opponent"]["ruled_out"] == []


def test_rules_note_a_spied_role_stays_known_until_it_is_discarded():
    state = run(make_state(coins=(8, 2), active=1, roles=(7, 3)), (1, INCOME), (1, END), (0, SPY), (0, INCOME),
                (0, END))
    state = run(state, (1, PROMOTE), (1, keep("role")))
    assert GAME.view(state, 0)["opponent"]["role"] == 3
    state = run(state, (1, INCOME), (1, END), (0, INCOME), (0, END), (1, PROMOTE), (1, keep("drawn")))
    assert state.roles[1] == 9 and GAME.view(state, 0)["opponent"]["role"] is None


def test_rules_note_suspects_are_the_roles_not_seen():
    state = run(make_state(coins=(3, 2)), (0, reveal(0, 1)))
    assert suspects(state, 0) == (3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15)
    assert GAME.view(state, 1)["suspects"] == [n for n in NUMBERS if n != 3]


def test_rules_note_result_scores_and_view_scores():
    state = make_state(coins=(5, 9))
    assert GAME.view(state, None)["scores"] == [5, 9]
    over = run(state, (0, accuse(6)))
    assert GAME.result(over).scores == (1.0, 0.0) and GAME.result(over).reason.startswith("{p0} accused")


@pytest.mark.parametrize("action, words", [
    ({"type": "fly"}, ("unknown action type",)),
    ("income", ("JSON object",)),
    ({"amount": 2}, ("'type'",)),
    ({"type": "collect", "from_opponent": 0}, ("take a turn",)),
    ({"type": "keep", "card": "role"}, ("take a turn",)),
    ({"type": "draw", "slot": 0}, ("take a turn",)),
    ({"type": "decline"}, ("take a turn",)),
    ({"type": "accuse"}, ("whole number 'role'",)),
])
def test_bad_input_is_refused_in_words(action, words):
    assert_refused(GAME, make_state(coins=(4, 2)), 0, action, *words)


def test_out_of_turn_is_refused():
    assert_refused(GAME, make_state(), 1, INCOME, "player 1's move", "not player 2's")
