"""Palace's log reads as a person would write it, cards drawn as the board draws them ("Q♣", "10♥"),
while actions keep their codes ("QC"): the log is for people, the actions for bots."""

from __future__ import annotations

from palace_states import GAME, NO_SWAP, TAKE, flip, make, play, swap

from contract import log_texts

NAMES = ["Ann", "Bob", "Cy"]


def told(state, seat, action, reader=None):
    """The log lines of one action that ``reader`` may read (None: what everybody may read)."""
    log = []
    GAME.apply(state, seat, action, log)
    return log_texts([e for e in log if e.visible_to(reader)], NAMES)


def test_a_card_is_written_as_the_board_draws_it():
    state = make(3, hands=[["QC", "5H", "6H"]], pick_up=["4S"])
    assert told(state, 0, play("QC"))[0] == "Ann played Q♣"
    state = make(3, hands=[["10H", "5H", "6H"]], pile=["4S"], pick_up=["4D"])
    assert told(state, 0, play("10H"))[:2] == ["Ann played 10♥", "The 10 burns the play pile"]


def test_several_cards_are_counted_and_named():
    state = make(3, hands=[["7H", "7D", "7C", "KS"]], pick_up=["4S", "4D"])
    assert told(state, 0, play("7H", "7D", "7C"))[0] == "Ann played three 7s: 7♥, 7♦ and 7♣"
    state = make(3, hands=[["QH", "QD", "KS"]])
    assert told(state, 0, play("QH", "QD"))[0] == "Ann played two Queens: Q♥ and Q♦"


def test_jokers_say_what_they_are_played_as():
    state = make(3, hands=[["joker", "4H", "5H"]], pile=["4S"])
    assert told(state, 0, play("joker", as_="10"))[0] == "Ann played a Joker as a 10"
    state = make(3, hands=[["joker", "joker", "5H"]])
    assert told(state, 0, play("joker", "joker", as_="K"))[0] == "Ann played two Jokers as Kings"
    state = make(3, hands=[["8H", "joker", "5H"]])
    assert told(state, 0, play("8H", "joker", as_="8"))[0] == "Ann played two 8s: 8♥ and a Joker"
    state = make(3, hands=[["joker", "5H"]])
    assert told(state, 0, play("joker", as_="A"))[0] == "Ann played a Joker as an Ace"


def test_school_cards_are_named_in_words():
    state = make(3, hands=[["rules", "5H"]], pick_up=["4S"])
    assert told(state, 0, play("rules"))[0] == "Ann played a Rules card"
    state = make(3, hands=[["cardinal", "5H"]], pick_up=["4S"])
    assert told(state, 0, play("cardinal"))[-1] == "Ann may swap hands once"


def test_where_the_cards_came_from_when_not_the_hand():
    state = make(3, hands=[[]], face_ups=[["9H", "KD"]])
    assert told(state, 0, play("KD"))[0] == "Ann played K♦ from their face-ups"
    state = make(3, hands=[["9C"]], face_ups=[["9H", "KD"]])
    assert told(state, 0, play("9C", "9H"))[0] == "Ann played two 9s: 9♣ and 9♥ from their hand and face-ups"


def test_face_downs_turned_over():
    state = make(3, hands=[[]], face_ups=[[]], face_downs=[["KD", "4S"]], pile=["9S"])
    assert told(state, 0, flip(1))[0] == ("Ann turned over 4♠ from their face-downs and played it")
    lines = told(state, 0, flip(0))
    assert lines[0] == ("Ann turned over K♦ from their face-downs, which cannot be played, and took it with the"
                        " pile (2 cards)")
    state = make(3, hands=[[]], face_ups=[[]], face_downs=[["joker", "4S"]], pile=["9S"])
    assert told(state, 0, flip(0)) == ["Ann turned over a Joker from their face-downs and names what it plays as"]
    state = GAME.apply(state, 0, flip(0))
    assert told(state, 0, play("joker", as_="5"))[0] == "Ann played the face-down Joker as a 5"


def test_drawing_is_counted_for_all_and_named_for_the_drawer():
    state = make(3, hands=[["7H", "7D", "KS"]], pick_up=["QC", "joker", "4S"])
    assert told(state, 0, play("7H", "7D"), reader=1)[1] == "Ann drew two cards"
    assert told(state, 0, play("7H", "7D"), reader=0)[2] == "Ann drew Q♣ and a Joker"


def test_taking_skipping_reversing_and_going_out():
    state = make(3, hands=[["4H"]], pile=["QS"])
    assert told(state, 0, TAKE) == ["Ann could not play and took the pile (1 card)"]
    state = make(3, hands=[["8H", "8D", "KS"]])
    assert "Bob and Cy are skipped" in told(state, 0, play("8H", "8D"))
    state = make(3, hands=[["social", "KS"]])
    assert "The order of play is reversed" in told(state, 0, play("social"))
    state = make(3, hands=[["KS"]], face_ups=[[]], face_downs=[[]])
    assert "Ann is out in 1st place" in told(state, 0, play("KS"))


def test_a_swap_names_the_hands_to_the_two_players_only():
    state = make(3, hands=[["cardinal", "9H", "10D"], ["4D"]], pick_up=[])
    state = GAME.apply(state, 0, play("cardinal"))
    assert told(state, 0, swap(0, 1)) == ["Ann and Bob swapped hands"]
    assert told(state, 0, swap(0, 1), reader=1)[1] == "Ann gave Bob 9♥ and 10♦ for 4♦"
    assert told(state, 0, NO_SWAP) == ["Ann makes no more swaps"]


def test_actions_keep_their_codes():
    state = make(3, hands=[["QC", "5H", "6H"]])
    assert {"type": "play", "cards": ["QC"]} in GAME.legal_actions(state, 0)
    assert GAME.view(GAME.apply(state, 0, play("QC")), None)["last"]["cards"] == ["QC"]


def test_a_burn_says_what_follows():
    """A 10 burn gives another turn and says so; a stack burn does not, and burning 8s and 7s say whom
    they skip or send the turn to (rules edition 3)."""
    state = make(3, hands=[["10H", "5H", "6H"]], pile=["4S"])
    assert told(state, 0, play("10H")) == ["Ann played 10♥", "The 10 burns the play pile", "Ann takes another turn"]
    state = make(3, hands=[["8H", "8D", "KC"]], pile=["8S", "8C"])
    assert told(state, 0, play("8H", "8D")) == ["Ann played two 8s: 8♥ and 8♦", "Four 8s burn the play pile",
                                                "Bob and Cy are skipped"]
    state = make(3, hands=[["7H", "7D", "KC"]], pile=["7S", "7C"])
    assert told(state, 0, play("7H", "7D"))[1:] == ["Four 7s burn the play pile",
                                                    "Bob plays next, against the order of play, then play goes on"
                                                    " after Ann"]
    state = make(3, hands=[["8H", "8D", "KC"]], pile=["8S", "8C"], edition=2)
    assert told(state, 0, play("8H", "8D"))[1:] == ["Four 8s burn the play pile", "Ann takes another turn"]
