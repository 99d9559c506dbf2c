"""One scenario test for each rule sentence of the Palace rules document (seed
004_bbc11d50ca9dd7b5.txt, shipped as src/parlour/games/palace/spec.html), with every
special-card combination it spells out. Situations are built directly as engine states."""

from __future__ import annotations

from collections import Counter

import pytest
from palace_states import GAME, NO_FIVES, NO_SWAP, TAKE, face_ups, flip, hand, make, pile, play, swap

from contract import assert_refused
from parlour.core import LogEntry


def after(state, seat, *actions):
    for action in actions:
        state = GAME.apply(state, seat, action)
    return state


# --- before play begins -----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_nine_cards_dealt_three_of_each(players):
    """"You will be dealt 9 cards: 3 "face-downs", 3 "face-ups" and a "hand" containing 3 "hand cards"."""
    state = GAME.start(players, {}, seed=11)
    for seat in range(players):
        assert len(state.face_downs[seat]) == len(state.face_ups[seat]) == len(state.hands[seat]) == 3


def test_who_sees_what_at_the_deal():
    """"Your face-downs are visible to no-one, your face-ups are visible to everyone, and your hand
    cards are visible only to you.\""""
    state = GAME.start(4, {}, seed=2)
    for viewer in (None, 0, 1, 2, 3):
        view = GAME.view(state, viewer)
        for seat, player in enumerate(view["players"]):
            assert player["face_downs"] == 3 and isinstance(player["face_downs"], int)
            assert len(player["face_ups"]) == 3
            if seat == viewer:
                assert len(player["hand"]) == 3
            else:
                assert player["hand"] is None and player["known_hand"] == [] and player["hand_count"] == 3


@pytest.mark.parametrize("players, left", [(2, 39), (3, 30), (4, 21), (5, 12), (6, 60)])
def test_remaining_cards_form_the_pick_up_pile(players, left):
    """"If there are any cards remaining in the deck, these will be placed face-down on the table
    These cards are known as the "pick-up pile".\""""
    state = GAME.start(players, {}, seed=3)
    assert len(state.pick_up) == left
    assert GAME.view(state, 0)["pick_up_pile"] == left
    dealt = [i for seat in range(players) for part in (state.hands, state.face_ups, state.face_downs)
             for i in part[seat]] + list(state.pick_up)
    assert sorted(dealt) == list(range(len(dealt)))


# --- playing the game -------------------------------------------------------------------------------

def test_only_on_your_turn():
    """"You may only play cards when it is your turn.\""""
    state = make(3, hands=[["5H"], ["6H", "7H", "8H"]], current=0)
    assert_refused(GAME, state, 1, play("6H"), "player 1's turn")
    assert GAME.legal_actions(state, 1) == []


def test_a_random_player_takes_the_first_turn():
    """"At the start of the game, a random player will take the first turn.\""""
    firsts = Counter(min(GAME.to_act(GAME.start(4, {}, seed))) for seed in range(200))
    assert set(firsts) == {0, 1, 2, 3} and min(firsts.values()) > 25
    assert GAME.to_act(GAME.start(4, {}, 77)) == GAME.to_act(GAME.start(4, {}, 77))


def test_play_goes_in_ascending_player_number():
    """"The order of play will then proceed in ascending order by player number.\""""
    state = make(3, hands=[["4H", "5H", "6H"], ["4D", "5D", "6D"], ["4C", "5C", "6C"]], current=1)
    state = after(state, 1, play("4D"))
    assert state.current == 2
    state = after(state, 2, play("4C"))
    assert state.current == 0


def test_one_card_or_several_of_one_value():
    """"When it is your turn, you may play a single card, or any number of cards of the same number value.\""""
    state = make(3, hands=[["5H", "5D", "5C", "9S"]])
    legal = [sorted(a["cards"]) for a in GAME.legal_actions(state, 0)]
    assert ["5H"] in legal and ["5D", "5H"] in legal and ["5C", "5D", "5H"] in legal and ["9S"] in legal
    assert pile(after(state, 0, play("5H", "5C"))) == ["5H", "5C"]
    assert_refused(GAME, state, 0, play("5H", "9S"), "same value")


def test_hand_cards_first():
    """"If you have any hand cards, you may only play hand cards.\""""
    state = make(3, hands=[["5H"]], face_ups=[["9D", "KD"]], face_downs=[["AH"]], pick_up=["2C"])
    assert_refused(GAME, state, 0, play("9D"), "face-ups may join only your last hand cards")
    assert_refused(GAME, state, 0, flip(0), "hand cards")
    assert all(a["cards"] == ["5H"] for a in GAME.legal_actions(state, 0))


def test_face_ups_before_face_downs():
    """"If you do not have any hand cards, but do have face-ups, you may only play face-ups.\""""
    state = make(3, hands=[[]], face_ups=[["9D", "KD"]], face_downs=[["AH"]])
    assert_refused(GAME, state, 0, flip(0), "face-up cards")
    assert sorted(tuple(a["cards"]) for a in GAME.legal_actions(state, 0)) == [("9D",), ("KD",)]
    state = after(state, 0, play("KD"))
    assert face_ups(state, 0) == ["9D"] and pile(state) == ["KD"]


def test_face_downs_last_and_blind():
    """"You may only play face-downs if you have no hand cards or face-ups.\""""
    state = make(3, hands=[[]], face_ups=[[]], face_downs=[["AH", "4C"]], pile=["9S"])
    assert GAME.legal_actions(state, 0) == [flip(0), flip(1)]
    assert_refused(GAME, state, 0, play("AH"), "face-down")
    assert GAME.view(state, 0)["players"][0]["face_downs"] == 2  # a count: even the owner sees no face
    state = after(state, 0, flip(1))
    assert pile(state) == ["9S", "4C"] and state.current == 1


def test_last_hand_card_with_matching_face_ups():
    """"If you play your last hand card, and have any face-up cards of the same number value, you may
    play these cards simultaneously.\""""
    state = make(3, hands=[["8H"]], face_ups=[["8D", "8C", "QS"]])
    legal = [sorted(a["cards"]) for a in GAME.legal_actions(state, 0)]
    assert ["8H"] in legal and ["8D", "8H"] in legal and ["8C", "8D", "8H"] in legal
    state = after(state, 0, play("8H", "8D", "8C"))
    assert hand(state, 0) == [] and face_ups(state, 0) == ["QS"] and pile(state) == ["8H", "8D", "8C"]
    # the sentence has no condition on the pick-up pile: the hand is refilled afterwards
    state = after(make(3, hands=[["8H", "8S", "8C"]], face_ups=[["8D"]], pick_up=["4C", "5C", "6C"]), 0,
                  play("8H", "8S", "8C", "8D"))
    assert face_ups(state, 0) == [] and hand(state, 0) == ["4C", "5C", "6C"]
    # not while other hand cards stay behind
    state = make(3, hands=[["8H", "9H"]], face_ups=[["8D"]])
    assert_refused(GAME, state, 0, play("8H", "8D"), "last hand cards", "9H")


def test_played_cards_go_face_up_on_the_play_pile():
    """"When you play a card, it is placed face-up onto a pile on the table, known as the "play pile".\""""
    state = after(make(3, hands=[["6H", "QD"]], pile=["5S"]), 0, play("QD"))
    assert pile(state) == ["5S", "QD"]
    assert GAME.view(state, 2)["play_pile"][-1] == {"card": "QD", "as": "Q"}


def test_draw_back_to_three():
    """"If at any point you have fewer than three hand cards, and there are cards remaining in the
    pick-up pile, take cards from the pick-up pile until you have three hand cards again, or the
    pick-up pile is depleted.\""""
    state = after(make(3, hands=[["5H", "5D", "9C"]], pick_up=["KH", "2C", "AD"]), 0, play("5H", "5D"))
    assert hand(state, 0) == ["2C", "9C", "KH"] and GAME.view(state, 0)["pick_up_pile"] == 1
    state = after(make(3, hands=[["5H", "5D", "9C"]], pick_up=["KH"]), 0, play("5H", "5D"))
    assert hand(state, 0) == ["9C", "KH"] and state.pick_up == ()


def test_same_or_higher_aces_high():
    """"In general, you may only play a card if its number value is the same or higher than the number
    value of the card at the top of the play pile. [...] Aces are high.\""""
    state = make(3, hands=[["4H", "JH", "JD", "AS"]], pile=["JC"])
    assert sorted(a["cards"] for a in GAME.legal_actions(state, 0)) == [["AS"], ["JH"], ["JH", "JD"]]
    assert_refused(GAME, state, 0, play("4H"), "lower than the J")
    state = make(3, hands=[["KH"]], pile=["AS"])
    assert GAME.legal_actions(state, 0) == [TAKE]


def test_unable_to_play_takes_the_pile():
    """"If you are unable to play, you take the entire play pile and add it to your hand.\""""
    state = make(3, hands=[["4H", "5H"]], pile=["6C", "QS"])
    assert GAME.legal_actions(state, 0) == [TAKE]
    log: list[LogEntry] = []
    state = GAME.apply(state, 0, TAKE, log)
    assert hand(state, 0) == ["4H", "5H", "6C", "QS"] and pile(state) == [] and state.current == 1
    assert any("took the pile (2 cards)" in e.text and e.seats is None for e in log)


def test_four_of_a_value_burn_the_pile():
    """"If four cards of the same number value are stacked on the play pile, the play pile is "burned",
    and moved to the "burn pile", meaning they are out of play. This is known as a "stack burn".\""""
    state = after(make(3, hands=[["6H", "6D", "KC"]], pile=["4S", "6C", "6S"]), 0, play("6H", "6D"))
    assert pile(state) == [] and sorted(GAME.view(state, 1)["burn_pile"]) == ["4S", "6C", "6D", "6H", "6S"]
    # four in one play burn too
    state = after(make(3, hands=[["6H", "6D", "6C", "6S", "KC"]]), 0, play("6H", "6D", "6C", "6S"))
    assert pile(state) == [] and len(GAME.view(state, None)["burn_pile"]) == 4
    # three do not
    state = after(make(3, hands=[["6H", "6D", "KC"]], pile=["6C"]), 0, play("6H", "6D"))
    assert pile(state) == ["6C", "6H", "6D"]


def test_a_stack_burn_gives_no_other_turn():
    """The document gives another turn only for a 10 ("the 10-player takes another turn"); for four of a
    kind it says only that the pile is burned, so the order of play goes on (rules edition 3; issue 26).
    4 players, 5,5 on the pile, seat 0 plays 5,5: seat 1 has the next turn."""
    log: list[LogEntry] = []
    state = GAME.apply(make(4, hands=[["5H", "5D", "KC"], *NO_FIVES], pile=["5S", "5C"]), 0, play("5H", "5D"), log)
    assert pile(state) == [] and state.current == 1 and GAME.view(state, 0)["last"]["burn"] == "stack"
    assert "again" not in GAME.view(state, 0)["last"]
    assert [e.text for e in log if "burn" in e.text] == ["Four 5s burn the play pile"]
    assert not any("another turn" in e.text for e in log)
    # four in one play, by a Joker too: the same
    state = after(make(3, hands=[["QH", "QD", "QC", "joker", "4C"]]), 0, play("QH", "QD", "QC", "joker", as_="Q"))
    assert pile(state) == [] and state.current == 1


def test_burning_8s_still_skip():
    """"If n 8s are played simultaneously, the next n players have their turns skipped": the sentence has
    no exception for a play that burns the pile (rules edition 3; issue 26). n counts the 8s of the play."""
    # 6 players, seat 0 plays three 8s and a Joker as an 8: the pile burns and the next four are skipped
    state = make(6, hands=[["8H", "8D", "8C", "joker", "KC"]], pile=["4S"])
    state = after(state, 0, play("8H", "8D", "8C", "joker", as_="8"))
    assert pile(state) == [] and state.current == 5 and GAME.view(state, 0)["last"]["skipped"] == [1, 2, 3, 4]
    # 4 players, 8,8 on 8,8: seats 1 and 2 are skipped
    state = after(make(4, hands=[["8H", "8D", "KC"]], pile=["8S", "8C"]), 0, play("8H", "8D"))
    assert pile(state) == [] and state.current == 3 and GAME.view(state, 0)["last"]["skipped"] == [1, 2]


def test_burning_7s_still_turn_play_back():
    """"If n 7s are played simultaneously, the next turn is taken by the player n places away from the
    7-player in the anticlockwise direction. Once they take their turn, play skips to the player after the
    7-player": no exception for a burn (rules edition 3; issue 26). Four 7s in 6 players send the turn
    to seat 2, then play goes on after seat 0."""
    hands = [["7H", "7D", "7C", "7S", "KC"], ["4D", "5D", "6D"], ["4C", "5C", "6C"]]
    state = after(make(6, hands=hands, pile=["4S"]), 0, play("7H", "7D", "7C", "7S"))
    assert pile(state) == [] and state.current == 2 and state.detour == 0
    assert GAME.view(state, 0)["last"]["detour"] == 2
    state = after(state, 2, play("4C"))
    assert state.current == 1 and state.detour is None
    # 7,7 on 7,7 with 4 players: two places back, to seat 2
    state = after(make(4, hands=[["7H", "7D", "KC"]], pile=["7S", "7C"]), 0, play("7H", "7D"))
    assert pile(state) == [] and state.current == 2


# --- ending the game --------------------------------------------------------------------------------

def test_first_out_wins_and_stops_playing():
    """"The first person to have no hand cards, no face-ups and no face-downs remaining is out, wins the
    game, and stops playing.\""""
    state = make(3, hands=[["QH"], ["4D", "5D"], ["4C", "5C"]], face_ups=[[]], face_downs=[[]], current=0)
    state = after(state, 0, play("QH"))
    assert state.finished == (0,) and GAME.view(state, None)["players"][0]["place"] == 1
    state = after(state, 1, TAKE)
    assert state.current == 2  # the winner is passed over
    state = after(state, 2, play("4C"))
    assert state.current == 1


def test_play_continues_until_one_player_remains():
    """"You may continue play until only one player remains.\""""
    state = make(3, hands=[["QH"], ["KD"], ["4C"]], face_ups=[[], [], ["5C"]], face_downs=[[], [], []],
                 current=0)
    state = after(state, 0, play("QH"))
    assert not GAME.is_over(state)
    state = after(state, 1, play("KD"))
    assert GAME.is_over(state) and state.finished == (0, 1, 2)


def test_second_out_comes_second():
    """"If you do so, the second player to get out comes second, etc.\""""
    state = make(4, hands=[["QH"], ["4D"], ["KD"], ["4C"]], face_ups=[[], ["5D"], [], ["5C"]],
                 face_downs=[[], [], [], []], current=0)
    state = after(state, 0, play("QH"))
    state = after(state, 1, TAKE)
    state = after(state, 2, play("KD"))
    state = after(state, 3, TAKE)
    assert state.finished == (0, 2)
    while not GAME.is_over(state):
        seat = state.current
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    result = GAME.result(state)
    assert state.finished[:2] == (0, 2)
    assert result.ranks[0] == 1 and result.ranks[2] == 2 and sorted(result.ranks) == [1, 2, 3, 4]
    assert result.scores[0] == 3 and result.scores[2] == 2


# --- special cards ----------------------------------------------------------------------------------

@pytest.mark.parametrize("top", ["AS", "KS", "9S", "3S", "7S", "socialX", "joker=A"])
def test_twos_go_on_anything(top):
    """"2s: Can be played on any card except for rules cards.\""""
    top = "social" if top == "socialX" else top
    state = make(3, hands=[["2H", "4H"]], pile=[top])
    state = after(state, 0, play("2H"))
    assert pile(state)[-1] == "2H"
    assert GAME.view(state, 0)["counts"] == "2"


def test_twos_not_on_rules():
    state = make(3, hands=[["2H", "KH"]], pile=["5S", "rules"])
    assert_refused(GAME, state, 0, play("2H"), "Rules card")


def test_threes_go_on_anything_and_are_invisible():
    """"3s: Can be played on any card except for rules cards, and are "invisible", meaning that they are
    never counted as the card on top of the play pile. If an invisible card is at the top of the play
    pile, the closest non-invisible card to the top is treated as if it were at the top instead.\""""
    state = make(3, hands=[["3H", "4H"], ["JD", "6D"]], pile=["QS"])
    state = after(state, 0, play("3H"))
    assert GAME.view(state, 1)["counts"] == "Q"
    assert_refused(GAME, state, 1, play("JD"), "lower than the Q")
    state = make(3, hands=[["3H"]], pile=["5S", "rules"])
    assert_refused(GAME, state, 0, play("3H"), "Rules card")
    # several invisible cards: the closest visible one counts
    state = make(3, hands=[["8H", "4H"]], pile=["8S", "3C", "7D", "3D"])
    assert GAME.view(state, 0)["counts"] == "8"
    assert [a["cards"] for a in GAME.legal_actions(state, 0)] == [["8H"]]


def test_seven_turns_play_back_for_one_turn():
    """"7s: Acts like a 3 [...] After a 7 is played, the order of play is swapped for one turn, so that
    the next turn is taken by the player who is adjacent in the anticlockwise direction to the player
    who played the 7. After this player takes their turn, the order of play resets, and skips to the
    player after the player who played the 7.\""""
    state = make(4, hands=[["4H", "5H"], ["7H", "KH"]], pile=["QS"], current=1)
    state = after(state, 1, play("7H"))
    assert state.current == 0 and GAME.view(state, 2)["counts"] == "Q"
    assert GAME.view(state, 2)["last"]["detour"] == 0
    state = after(state, 0, TAKE)  # player 0 cannot beat the Q: taking the pile is their turn
    assert state.current == 2
    state = make(4, hands=[["7H"]], pile=["5S", "rules"])
    assert_refused(GAME, state, 0, play("7H"), "Rules card")


def test_several_sevens_at_once():
    """"if n 7s are played simultaneously, the next turn is taken by the player n places away from the
    7-player in the anticlockwise direction. Once they take their turn, play skips to the player after
    the 7-player in the clockwise direction.\""""
    state = make(5, hands=[["4H", "5H", "6H"], ["7H", "7D", "KH"]], current=1)
    state = after(state, 1, play("7H", "7D"))
    assert state.current == 4
    state = after(state, 4, play(*hand(state, 4)[:1]))
    assert state.current == 2


def test_sevens_answered_by_sevens():
    """"If a player who is taking their turn as a result of a 7 being played also plays a 7, prior
    instances of a 7 being played are forgotten. This means that once someone plays a card other than
    a 7, the order of play will return to being clockwise starting with the player after the player who
    most recently played a 7.\""""
    state = make(5, hands=[["4H", "5H", "6H"], ["4D", "5D", "6D"], ["7H", "KH", "QH"], ["7D", "KD", "QD"]],
                 current=2)
    state = after(state, 2, play("7H"))
    assert state.current == 1
    state = make(5, hands=[["4H", "5H", "6H"], ["7C", "5D", "6D"], ["7H", "KH", "QH"]], current=2)
    state = after(state, 2, play("7H"))
    assert state.current == 1
    state = after(state, 1, play("7C"))  # answered: the 7 of player 2 is forgotten
    assert state.current == 0 and state.detour == 1
    state = after(state, 0, play("4H"))
    assert state.current == 2  # the player after the most recent 7-player (1)


def test_eight_skips_the_next_player():
    """"8s: Skips the next player's turn.\""""
    state = after(make(4, hands=[["8H", "KH"]], current=0), 0, play("8H"))
    assert state.current == 2
    assert GAME.view(state, 1)["last"]["skipped"] == [1]


def test_several_eights_skip_several_players():
    """"If n 8s are played simultaneously, the next n players have their turns skipped.\""""
    state = after(make(5, hands=[["4H", "5H"], ["8H", "8D", "8C", "KH"]], current=1), 1, play("8H", "8D", "8C"))
    assert state.current == 0
    assert GAME.view(state, 1)["last"]["skipped"] == [2, 3, 4]


def test_nine_caps_the_next_play():
    """"9s: If a 9 is on the top of the play pile, you may only play cards with a number value less than
    or equal to 9, or a special card which allows you to ignore play restrictions.\""""
    state = make(3, hands=[["4H", "8H", "9H", "10H", "JH", "AH", "2H", "3H", "7H"]], pile=["9S"])
    played = sorted({a["cards"][0] for a in GAME.legal_actions(state, 0) if len(a["cards"]) == 1})
    assert played == ["2H", "3H", "4H", "7H", "8H", "9H"]
    assert_refused(GAME, state, 0, play("JH"), "9 or lower")
    assert_refused(GAME, state, 0, play("10H"), "9 or lower")
    assert GAME.view(state, 0)["capped"] is True


def test_nine_caps_under_an_invisible_card():
    """"If an invisible card is on a 9, the rule still applies.\""""
    for invisible in ("3C", "7C", "social", "cardinal"):
        state = make(3, hands=[["KH", "5H"]], pile=["9S", invisible])
        assert_refused(GAME, state, 0, play("KH"), "9 or lower")
        assert [a["cards"] for a in GAME.legal_actions(state, 0)] == [["5H"]]


def test_ten_burns_and_plays_again():
    """"10s: When a player plays a 10, the play pile is burned, and the 10-player takes another turn.
    This is known as a '10 burn'\""""
    state = make(3, hands=[["10H", "4H", "5H"]], pile=["4S", "8C"])
    log: list[LogEntry] = []
    state = GAME.apply(state, 0, play("10H"), log)
    assert pile(state) == [] and state.current == 0
    assert sorted(GAME.view(state, 1)["burn_pile"]) == ["10H", "4S", "8C"]
    assert GAME.view(state, 1)["last"]["burn"] == "ten"
    assert any("another turn" in e.text for e in log)


def test_joker_as_any_card_ignores_restrictions():
    """"Joker: A joker may be played as if it were any card of the player's choosing. When it is played
    as a card which is subject to play restrictions, the joker ignores these restrictions (I.e. you can
    play any card on any other card).\""""
    state = make(3, hands=[["joker", "4H"]], pile=["AS"])
    state2 = after(state, 0, play("joker", as_="5"))
    assert GAME.view(state2, 1)["play_pile"][-1] == {"card": "joker", "as": "5"}
    assert GAME.view(state2, 1)["counts"] == "5"
    for top in (["9S"], ["5S", "rules"]):
        state = make(3, hands=[["joker", "4H"]], pile=top)
        after(state, 0, play("joker", as_="K"))
    for top in (["AS"], ["KS"], ["9S"]):  # "any card on any other card": an 8, 9 or 10 too
        for value in ("8", "9", "10"):
            GAME.check(make(3, hands=[["joker", "4H"]], pile=top), 0, play("joker", as_=value))
    assert_refused(GAME, state, 0, play("joker"), "what the joker is played as")


def test_joker_as_a_special_card_takes_its_properties():
    """"If played as a special card, the joker adopts the properties or play restrictions of this card.\""""
    state = make(4, hands=[["joker", "4H"]], pile=["6S"])
    state = after(state, 0, play("joker", as_="8"))
    assert state.current == 2  # skips like an 8
    state = after(make(4, hands=[["4D", "5D"], ["joker", "4H"]], pile=["QS"], current=1), 1, play("joker", as_="7"))
    assert state.current == 0 and GAME.view(state, 0)["counts"] == "Q"  # a 7: invisible, turns play back
    state = after(make(4, hands=[["joker", "4H"]], pile=["QS"]), 0, play("joker", as_="8"))
    assert state.current == 2  # an 8 on a Queen: the joker ignores "same or higher", still skips
    state = make(4, hands=[["joker", "4H"]], pile=["5S", "rules"])
    assert_refused(GAME, state, 0, play("joker", as_="2"), "Rules card")


def test_jokers_count_toward_burns():
    """"If played as the appropriate card, jokers can contribute towards stack burns or 10 burns.\""""
    state = after(make(3, hands=[["joker", "4H"]], pile=["5S", "5C", "5D"]), 0, play("joker", as_="5"))
    assert pile(state) == [] and state.current == 1 and GAME.view(state, 0)["last"]["burn"] == "stack"
    state = after(make(3, hands=[["joker", "4H"]], pile=["5S", "8C"]), 0, play("joker", as_="10"))
    assert pile(state) == [] and state.current == 0 and GAME.view(state, 0)["last"]["burn"] == "ten"
    state = after(make(3, hands=[["joker", "5H", "KC"]], pile=["5S", "5C"]), 0, play("5H", "joker", as_="5"))
    assert pile(state) == []


def test_rules_cards_act_like_threes():
    """"Rules Card: Rules act like 3s (I.e. can be played on anything but rules and is invisible), except
    that they do not allow 2s, 3s, or other rules cards to be played on top of them.\""""
    state = make(3, hands=[["rules", "4H"], ["2D", "3D", "QD", "5D"]], pile=["JS"])
    state = after(state, 0, play("rules"))
    view = GAME.view(state, 1)
    assert view["counts"] == "J" and view["rules_on_top"] is True
    assert [a["cards"] for a in GAME.legal_actions(state, 1)] == [["QD"]]
    assert_refused(GAME, state, 1, play("2D"), "Rules card")
    assert_refused(GAME, state, 1, play("3D"), "Rules card")
    assert_refused(GAME, state, 1, play("5D"), "lower than the J")
    state = make(6, hands=[["rules", "4H"]], pile=["5S", "rules"])
    assert_refused(GAME, state, 0, play("rules"), "Rules card")


def test_social_card_reverses():
    """"Social Card: When a player plays a social card, the order of play is reversed.\""""
    state = after(make(4, hands=[["4H", "5H"], ["social", "4D"]], current=1), 1, play("social"))
    assert state.current == 0 and state.direction == -1
    state = after(state, 0, play("4H"))
    assert state.current == 3
    assert GAME.view(state, 0)["direction"] == -1


def test_social_cards_odd_and_even():
    """"If an odd number of social cards are played, the order of play is reversed. If an even number of
    social cards are played, the order of play is unchanged.\""""
    state = after(make(6, hands=[["4H"], ["social", "social", "4H"]], current=1), 1, play("social", "social"))
    assert state.current == 2 and state.direction == 1
    state = after(make(6, hands=[["4H"], ["social", "social", "joker", "4H"]], current=1), 1,
                  play("social", "social", "joker", as_="social"))
    assert state.current == 0 and state.direction == -1


def test_cardinal_swaps_hands():
    """"Cardinal Card: Allows a player to select another player to swap their hand with.\""""
    state = make(3, hands=[["cardinal", "KH", "KD", "KC"], ["4D", "5D"]])
    state = after(state, 0, play("cardinal"))
    assert state.current == 0 and state.swaps_left == 1
    assert GAME.legal_actions(state, 0) == [swap(0, 1), swap(0, 2), NO_SWAP]
    assert_refused(GAME, state, 0, swap(1, 2), "your own hand")
    state = after(state, 0, swap(0, 1))
    assert hand(state, 0) == ["4D", "5D"] and hand(state, 1) == ["KH", "KD", "KC"]
    assert state.current == 1 and state.swaps_left == 0


def test_cardinal_with_an_empty_hand():
    """"If either player in this exchange has no hand cards, the other player will simply receive an
    empty hand.\""""
    state = make(3, hands=[["cardinal"], ["4D", "5D", "6D"]], face_ups=[["QS"]])
    state = after(state, 0, play("cardinal"), swap(0, 1))
    assert hand(state, 0) == ["4D", "5D", "6D"] and hand(state, 1) == []
    assert GAME.view(state, 1)["players"][1]["hand_count"] == 0


def test_several_cardinals_swap_several_pairs_once_each():
    """"if a player plays n many cardinal cards, they may choose one player to swap their own hand with,
    and (n-1) many pairs of players to also swap hands. Once a pair has swapped hands, they cannot swap
    hands again in the same players turn.\""""
    state = make(4, hands=[["cardinal", "joker", "KH"], ["4D"], ["5C"], ["6S"]])
    state = after(state, 0, play("cardinal", "joker", as_="cardinal"))
    assert state.swaps_left == 2
    state = after(state, 0, swap(0, 2))
    assert hand(state, 0) == ["5C"] and hand(state, 2) == ["KH"]
    assert swap(0, 2) not in GAME.legal_actions(state, 0)
    assert_refused(GAME, state, 0, swap(2, 0), "already swapped")
    state = after(state, 0, swap(1, 3))
    assert hand(state, 1) == ["6S"] and hand(state, 3) == ["4D"]
    assert state.current == 1 and state.swaps_left == 0
