"""One scenario test for each rule sentence of the Patchwork rules document (seed
002_d51a75e465c0c24d.txt, facts in patchwork.json), each defeat condition, and each line of
docs/rules/patchwork.md. Situations are built directly as engine states."""

from __future__ import annotations

import pytest
from patchwork_states import GAME, SKIP, bit, full_except, make_state, picture, play, squares

from contract import assert_refused
from parlour.core import IllegalAction, LogEntry
from parlour.games.patchwork.engine import BONUS_POINTS, FULL, INCOME_TIMES, LAST_SPACE, PATCHES, SPECIAL_TIMES, score


def after(state, seat, action, log=None):
    return GAME.apply(state, seat, action, log)


# --- turn order -----------------------------------------------------------------------------------

def test_players_do_not_necessarily_alternate():
    """"This is turn based game but players do not necessarily alternate between turns.\""""
    state = make_state(circle=(32, 1, 2), time=(0, 10))
    state = after(state, 0, play(32, 0, 0))  # patch 32 costs 2 and takes 1 space
    assert state.time == (1, 10) and GAME.to_act(state) == {0}


def test_furthest_behind_takes_the_turn():
    """"The player who is furthest behind on the Timeline takes his turn.\""""
    assert GAME.to_act(make_state(time=(7, 3), last=0)) == {1}
    assert GAME.to_act(make_state(time=(2, 3), last=1)) == {0}
    assert GAME.legal_actions(make_state(time=(7, 3)), 0) == []


def test_a_player_may_take_several_turns_in_a_row():
    """"This may result in a player taking multiple turns in a row before his opponent can take one.\""""
    state = make_state(circle=(32, 18, 30) + tuple(range(18)), time=(0, 6), buttons=(20, 5))
    state = after(state, 0, play(32, 0, 0))      # 1 space
    assert GAME.to_act(state) == {0}
    state = after(state, 0, play(18, 0, 1))      # 2 more spaces: 3
    assert GAME.to_act(state) == {0}
    state = after(state, 0, play(30, 4, 4))      # 3 more: 6, level with player 2, and moved last
    assert state.time == (6, 6) and GAME.to_act(state) == {0}
    state = after(state, 0, SKIP)
    assert state.time == (7, 6) and GAME.to_act(state) == {1}


def test_tie_the_last_mover_moves_again():
    """"If there are both time tokens on same spot, player that played last move takes his turn.\""""
    assert GAME.to_act(make_state(time=(9, 9), last=1)) == {1}
    assert GAME.to_act(make_state(time=(9, 9), last=0)) == {0}
    # arriving on the opponent's space by buying: the buyer moves again
    state = after(make_state(circle=(32, 1, 2), time=(4, 5), last=0), 0, play(32, 0, 0))
    assert state.time == (5, 5) and GAME.to_act(state) == {0}


def test_rules_note_player_one_moves_first():
    """docs/rules/patchwork.md: "Player 1 (seat 0) takes the first turn"."""
    state = GAME.start(2, {}, seed=5)
    assert state.time == (0, 0) and GAME.to_act(state) == {0}
    assert GAME.legal_actions(state, 1) == []


def test_one_action_per_turn_skip_or_play():
    """"On your turn, you carry out one of the following actions": SKIP or PLAY."""
    state = make_state()
    kinds = {a["type"] for a in GAME.legal_actions(state, 0)}
    assert kinds == {"skip", "play"}
    moved = after(state, 0, play(1, 0, 0))  # patch 1 takes 6 spaces: the other player is behind
    assert GAME.to_act(moved) == {1}


# --- SKIP -------------------------------------------------------------------------------------------

def test_skip_moves_directly_in_front_of_the_opponent():
    """"Your Time token will move on the Timeline so that it occupies the space directly in front of
    your opponent's time token.\""""
    assert after(make_state(time=(3, 12)), 0, SKIP).time == (13, 12)
    assert after(make_state(time=(12, 3)), 1, SKIP).time == (12, 13)
    # from a shared space, one step ahead
    assert after(make_state(time=(8, 8), last=1), 1, SKIP).time == (8, 9)


def test_skip_pays_one_button_per_space():
    """"You receive 1 Button per space your time token moves.\""""
    state = after(make_state(time=(12, 15), buttons=(4, 9)), 0, SKIP)
    assert state.buttons == (4 + 4, 9)


def test_skip_stops_on_the_last_space_and_pays_only_the_spaces_moved():
    """"If a time token were to move past the last space, it simply stops on the last space. In case of
    SKIP action, you only receive buttons for the actual number of spaces moved.\""""
    state = after(make_state(time=(50, 53), buttons=(0, 0), specials_left=()), 0, SKIP)
    assert state.time == (53, 53) and state.buttons == (3 + 0, 0)  # no income: income 0
    state = after(make_state(time=(52, 53), buttons=(1, 0), specials_left=()), 0, SKIP)
    assert state.time == (53, 53) and state.buttons == (2, 0)


def test_skip_also_collects_income_and_special_patches():
    """The events of the time track happen "Regardless of the action you take"."""
    state = after(make_state(time=(18, 25), income=(4, 0), buttons=(0, 0)), 0, SKIP)
    assert state.time == (26, 25)
    assert state.buttons == (8 + 4, 0)  # 8 spaces, and the income space 23 passed
    assert state.pending == ((-20, -26), ())


# --- PLAY -------------------------------------------------------------------------------------------

def test_play_chooses_from_the_three_on_offer():
    """"Choose from the three available Patches and place it on board.\""""
    state = make_state(buttons=(50, 50))
    offered = {a["patch"] for a in GAME.legal_actions(state, 0) if a["type"] == "play"}
    assert offered == {0, 1, 2}
    assert_refused(GAME, state, 0, play(3, 0, 0), "patch 3", "not one of the three on offer", "0, 1, 2")


def test_play_pays_the_price_in_buttons():
    """"Pay the depicted number of Buttons to the supply.\""""
    state = after(make_state(circle=(12, 1, 2), buttons=(9, 5), time=(17, 20)), 0, play(12, 0, 0))
    assert state.time == (22, 20)  # no income space on the way
    assert state.buttons == (9 - PATCHES[12].price, 5) == (4, 5)


def test_play_moves_the_token_by_the_patch_time():
    """"Move your Time token on the time board by a number of spaces as depicted on the label.\""""
    state = after(make_state(circle=(12, 1, 2), buttons=(9, 5), time=(0, 0)), 0, play(12, 0, 0))
    assert state.time == (PATCHES[12].time, 0) == (5, 0)


def test_play_token_stops_on_the_last_space():
    """"If a time token were to move past the last space, it simply stops on the last space.\""""
    state = make_state(circle=(1, 2, 3), time=(51, 53), buttons=(10, 0), specials_left=())
    state = after(state, 0, play(1, 0, 0))  # 6 spaces from 51
    assert state.time == (53, 53)
    # buttons: paid 3, income 2 from the patch just placed, for the income space 53 reached
    assert state.buttons == (10 - 3 + 2, 0)


# the patch 'OOOO|O...' in each (rotation, flip): flip mirrors each row first, then clockwise turns
PATCH_3_ORIENTATIONS = {
    (0, False): ("OOOO",
                 "O..."),
    (1, False): ("OO",
                 ".O",
                 ".O",
                 ".O"),
    (2, False): ("...O",
                 "OOOO"),
    (3, False): ("O.",
                 "O.",
                 "O.",
                 "OO"),
    (0, True): ("OOOO",
                "...O"),
    (1, True): (".O",
                ".O",
                ".O",
                "OO"),
    (2, True): ("O...",
                "OOOO"),
    (3, True): ("OO",
                "O.",
                "O.",
                "O."),
}


@pytest.mark.parametrize("rotation,flip", sorted(PATCH_3_ORIENTATIONS))
def test_patches_can_be_flipped_then_rotated_clockwise(rotation, flip):
    """"Patches can be rotated in any way - flipped (horizontally) and/or rotated right (clockwise) 0, 1,
    2 or 3 times." The data file: flip mirrors each row first, then the clockwise turns; x, y is the
    top-left corner of the transformed shape."""
    state = make_state(circle=(3, 1, 2), buttons=(10, 5))
    state = after(state, 0, play(3, 2, 3, rotation, flip))
    assert squares(state.quilts[0]) == picture(*PATCH_3_ORIENTATIONS[(rotation, flip)], x=2, y=3)
    assert state.placed[0] == ((3, rotation, flip, 2, 3),)


def test_the_eight_orientations_of_an_asymmetric_patch_are_all_listed():
    state = make_state(circle=(3, 1, 2), buttons=(10, 5))
    listed = {(a["rotation"], a["flip"]) for a in GAME.legal_actions(state, 0)
              if a.get("patch") == 3 and (a["x"], a["y"]) == (0, 0)}
    assert listed == set(PATCH_3_ORIENTATIONS)


def test_rules_note_any_of_the_eight_pairs_is_accepted_and_each_shape_listed_once():
    """docs/rules/patchwork.md: "A placement may be given with any of the 8 (rotation, flip) pairs; the
    list of legal actions names each distinct shape once, with the first pair (flip false before true,
    fewer rotations first) that gives it.\""""
    state = make_state(circle=(26, 18, 2), buttons=(10, 5))  # 26 is the 2x2 square, 18 is 'OOO'
    for rotation in range(4):
        for flip in (False, True):
            moved = after(state, 0, play(26, 4, 4, rotation, flip))
            assert squares(moved.quilts[0]) == picture("OO", "OO", x=4, y=4)
    at_corner = [(a["patch"], a["rotation"], a["flip"]) for a in GAME.legal_actions(state, 0)
                 if a["type"] == "play" and (a["x"], a["y"]) == (0, 0)]
    assert at_corner.count((26, 0, False)) == 1 and not [a for a in at_corner if a[0] == 26 and a[1:] != (0, False)]
    assert sorted(a[1:] for a in at_corner if a[0] == 18) == [(0, False), (1, False)]


def test_rules_note_flip_as_one_or_zero():
    """docs/rules/patchwork.md: "`flip` accepts true/false or 1/0, as the CodinGame protocol writes it.\""""
    state = make_state(circle=(3, 1, 2), buttons=(10, 5))
    assert after(state, 0, play(3, 0, 0, 1, 1)) == after(state, 0, play(3, 0, 0, 1, True))
    assert after(state, 0, play(3, 0, 0, 1, 0)) == after(state, 0, play(3, 0, 0, 1, False))
    assert_refused(GAME, state, 0, play(3, 0, 0, 1, 2), "'flip'")
    assert_refused(GAME, state, 0, play(3, 0, 0, 1, "yes"), "'flip'")
    assert_refused(GAME, state, 0, play(3, 0, 0, 1, 1.0), "'flip'")


def test_rules_note_rotation_and_flip_may_be_left_out():
    """docs/rules/patchwork.md: "`rotation` and `flip` may be left out of a PLAY: they mean 0 and false.\""""
    state = make_state(circle=(3, 1, 2), buttons=(10, 5))
    assert after(state, 0, {"type": "play", "patch": 3, "x": 1, "y": 1}) == after(state, 0, play(3, 1, 1, 0, False))


def test_a_patch_can_be_placed_anywhere_it_fits():
    """"It can be placed anywhere on board as far as it won't cover already placed patches.\""""
    state = make_state(circle=(3, 1, 2), buttons=(10, 5))
    corners = {(a["x"], a["y"]) for a in GAME.legal_actions(state, 0)
               if a.get("patch") == 3 and a["rotation"] == 0 and not a["flip"]}
    assert corners == {(x, y) for x in range(6) for y in range(8)}  # 4 wide, 2 tall
    for x, y in corners:
        GAME.check(state, 0, play(3, x, y))


def test_a_patch_may_not_cover_placed_patches():
    """"...as far as it won't cover already placed patches" (defeat: "invalid placement ...
    overlaping other patch")."""
    state = make_state(circle=(3, 1, 2), buttons=(10, 5), quilts=(bit(4, 4), 0))
    assert_refused(GAME, state, 0, play(3, 1, 4), "would cover squares already patched", "(4,4)")
    assert_refused(GAME, state, 0, play(3, 4, 3, 0, False), "(4,4)")  # the O below the row
    after(state, 0, play(3, 5, 4))  # just beside it
    assert not any(a.get("x") == 1 and a.get("y") == 4 and a.get("rotation") == 0 and not a.get("flip")
                   and a.get("patch") == 3 for a in GAME.legal_actions(state, 0))


@pytest.mark.parametrize("x,y,rotation",
                         [(6, 0, 0), (-1, 0, 0), (0, 8, 0), (0, 6, 1), (8, 0, 1), (0, -1, 0), (9, 9, 0)])
def test_a_patch_may_not_hang_off_the_quilt(x, y, rotation):
    """Defeat: "PLAY patch with invalid placement (outside quilt board ...)"."""
    state = make_state(circle=(3, 1, 2), buttons=(10, 5))
    assert_refused(GAME, state, 0, play(3, x, y, rotation), "hang off the 9x9 quilt")


# --- the circle and the neutral token (data file) ---------------------------------------------------

def test_circle_is_shuffled_by_the_seed_with_the_two_square_patch_last():
    """patchwork.json circle: "patches 0..31 are shuffled with the game's seed; patch 32 (OO) is put
    last; ... the first three of the shuffled order are on offer\""""
    a, b, again = GAME.start(2, {}, 1), GAME.start(2, {}, 2), GAME.start(2, {}, 1)
    assert sorted(a.circle) == list(range(33)) and a.circle[-1] == 32
    assert a.circle == again.circle and a.circle != b.circle
    assert GAME.view(a, 0)["offer"] == list(a.circle[:3])


def test_neutral_token_moves_to_where_the_patch_was():
    """patchwork.json neutral_token: "after a patch is taken, the token moves to where that patch was;
    the offer is always the next three patches of the circle\""""
    state = after(make_state(buttons=(10, 5)), 0, play(2, 0, 0))
    assert state.circle[:3] == (3, 4, 5)
    assert state.circle[-2:] == (0, 1) and 2 not in state.circle and len(state.circle) == 32
    # the offer wraps around the circle
    state = after(make_state(circle=(30, 31, 32, 7), buttons=(10, 5)), 0, play(32, 0, 0))
    assert state.circle == (7, 30, 31)


def test_rules_note_fewer_than_three_patches_left_are_all_on_offer():
    """docs/rules/patchwork.md: "When fewer than three patches are left in the circle, all of them are on
    offer.\""""
    state = make_state(circle=(9, 32), buttons=(10, 5))
    assert {a["patch"] for a in GAME.legal_actions(state, 0) if a["type"] == "play"} == {9, 32}
    state = after(state, 0, play(9, 0, 0))
    assert state.circle == (32,)
    state = after(make_state(circle=(32,), buttons=(10, 5)), 0, play(32, 0, 0))
    assert state.circle == () and GAME.legal_actions(state, 1) == [SKIP] and GAME.view(state, 1)["offer"] == []


# --- the time track ---------------------------------------------------------------------------------

def test_timeline_has_a_start_and_53_spaces():
    """"Timeline consists of starting point and 53 time points.\""""
    state = GAME.start(2, {}, 3)
    assert state.time == (0, 0) and LAST_SPACE == 53


def test_every_action_moves_the_token():
    """"Regardless of the action you take, you always move your time token on the time board.\""""
    state = make_state(time=(4, 4))
    assert after(state, 0, SKIP).time[0] > 4
    assert after(state, 0, play(1, 0, 0)).time[0] > 4


def test_rules_note_a_special_patch_takes_no_time():
    """docs/rules/patchwork.md: "Placing a special patch costs nothing and takes no time: its price and
    time are 0 in the data file, so the token stays where it is.\""""
    state = make_state(time=(21, 20), pending=((-20,), ()), buttons=(3, 3), income=(2, 0))
    state = after(state, 0, play(-20, 4, 4))
    assert state.time == (21, 20) and state.buttons == (3, 3) and state.income == (2, 0)


@pytest.mark.parametrize("start,end", [(3, 5), (4, 6)])
def test_events_happen_on_reaching_or_passing_their_space(start, end):
    """"Whenever you move onto or past one of those spaces, resolve the corresponding event.\""""
    state = make_state(time=(start, end - 1), income=(1, 0), buttons=(0, 0))
    state = after(state, 0, SKIP)
    assert state.time[0] == end
    assert state.buttons[0] == (end - start) + 1  # the income space 5 was reached or passed once


def test_button_income_pays_the_incomes_on_the_quilt():
    """"Button Income: You receive a number of buttons according to the patches on your quilt board.\""""
    state = make_state(time=(4, 5), income=(6, 1), buttons=(0, 0))
    state = after(state, 0, SKIP)
    assert state.buttons == (2 + 6, 0)


def test_income_includes_the_patch_just_placed():
    """patchwork.json income: "each button income time passed or reached during a move pays the sum of
    the incomes of the patches on that player's board, the patch just placed included\""""
    state = make_state(circle=(2, 1, 0), time=(1, 9), income=(1, 0), buttons=(10, 5))
    state = after(state, 0, play(2, 0, 0))  # income 3, price 10, 4 spaces: 1 -> 5
    assert state.time[0] == 5 and state.income == (4, 0)
    assert state.buttons == (10 - 10 + 4, 5)


def test_income_passing_several_income_spaces_in_one_move():
    """Each income space passed or reached pays; a long SKIP passes several."""
    state = make_state(time=(4, 17), income=(3, 0), buttons=(0, 0))
    state = after(state, 0, SKIP)  # 4 -> 18 passes 5, 11 and 17
    assert state.buttons == (14 + 3 * 3, 0)


def test_rules_note_income_after_the_patch_is_on_the_quilt():
    """docs/rules/patchwork.md: "Button income paid on a move counts every income space passed or
    reached, after the patch just bought is on the quilt.\""""
    state = make_state(circle=(24, 1, 2), time=(4, 30), income=(2, 0), buttons=(7, 0))
    state = after(state, 0, play(24, 0, 0))  # income 1, price 7, 1 space: 4 -> 5
    assert state.buttons == (0 + 2 + 1, 0)
    state = make_state(circle=(29, 1, 2), time=(0, 30), income=(0, 0), buttons=(4, 0))
    state = after(state, 0, play(29, 0, 0))  # income 2, 6 spaces: 0 -> 6 passes 5
    assert state.buttons == (0 + 2, 0)


def test_income_spaces_are_those_of_the_data_file():
    paid_at = []
    for t in range(1, LAST_SPACE + 1):
        state = after(make_state(time=(t - 1, t - 1), last=0, income=(1, 0), buttons=(0, 0),
                                 specials_left=()), 0, SKIP)
        if state.buttons[0] == 2:
            paid_at.append(t)
    assert tuple(paid_at) == INCOME_TIMES == (5, 11, 17, 23, 29, 35, 41, 47, 53)


# --- special patches -----------------------------------------------------------------------------

def test_special_patch_is_received_on_its_space_and_must_be_played():
    """"Special Patch: PLAY the special patch and place it on your quilt board." Its id is minus its
    space (patchwork.json special_patch)."""
    state = after(make_state(time=(18, 19)), 0, SKIP)  # 18 -> 20
    assert state.pending == ((-20,), ()) and 20 not in state.specials_left
    legal = GAME.legal_actions(state, 0)
    assert {a["patch"] for a in legal} == {-20} and SKIP not in legal
    assert len(legal) == 81 and {(a["rotation"], a["flip"]) for a in legal} == {(0, False)}
    state = after(state, 0, play(-20, 8, 8))
    assert squares(state.quilts[0]) == {(8, 8)} and state.pending == ((), ())
    assert state.placed[0] == ((-20, 0, False, 8, 8),)
    assert GAME.view(state, 0)["players"][0]["placed"][0]["patch"] == -20


def test_special_patch_is_one_square_and_the_only_single_square():
    """"The special patches are the only way to "patch" single spaces of your quilt board.\""""
    assert min(p.size for p in PATCHES) == 2
    state = make_state(time=(20, 19), pending=((-20,), ()))
    state = after(state, 0, play(-20, 3, 3))
    assert squares(state.quilts[0]) == {(3, 3)}


def test_special_patch_goes_to_the_first_to_reach_or_pass_it():
    """patchwork.json special_patch: "the first token to reach or pass each event time receives it\""""
    state = after(make_state(time=(19, 22), specials_left=SPECIAL_TIMES), 0, SKIP)  # passes 20
    assert state.pending == ((-20,), ())
    # once taken, nobody else gets it
    state = after(make_state(time=(19, 22), specials_left=(26, 32, 44, 50)), 0, SKIP)
    assert state.pending == ((), ()) and state.specials_left == (26, 32, 44, 50)


def test_special_patch_holder_acts_next_even_when_ahead():
    """"If you receive the Special Patch, you will have to resolve it in next turn." A player holding one
    acts before anyone else (patchwork.json)."""
    state = after(make_state(time=(19, 21)), 0, SKIP)  # 19 -> 22, past 20, now ahead
    assert state.time == (22, 21) and GAME.to_act(state) == {0}
    assert GAME.legal_actions(state, 1) == []
    assert_refused(GAME, state, 1, SKIP, "player 1's turn")
    state = after(state, 0, play(-20, 0, 0))
    assert GAME.to_act(state) == {1}


def test_special_patch_cannot_be_skipped():
    """"Playing special patch cannot be SKIP-ped" (defeat: "SKIP while holding Special Patch")."""
    state = make_state(time=(20, 19), pending=((-20,), ()))
    error = assert_refused(GAME, state, 0, SKIP, "cannot SKIP", "special patch -20")
    with pytest.raises(IllegalAction, match="cannot SKIP"):
        GAME.check(state, 0, SKIP)
    assert isinstance(error, IllegalAction)


def test_special_patch_holder_may_not_buy_instead():
    state = make_state(time=(20, 19), pending=((-20,), ()), buttons=(20, 5))
    assert_refused(GAME, state, 0, play(0, 0, 0), "first place your special patch -20")


def test_rules_note_two_special_patches_at_once():
    """docs/rules/patchwork.md: "A player who reaches two special-patch spaces in one move holds both and
    places them one per turn, before anyone else acts." They are placed in the order of their spaces."""
    state = after(make_state(time=(19, 30), buttons=(0, 0)), 0, SKIP)  # 19 -> 31 passes 20 and 26
    assert state.pending == ((-20, -26), ()) and GAME.to_act(state) == {0}
    assert_refused(GAME, state, 0, play(-26, 0, 0), "first place your special patch -20")
    state = after(state, 0, play(-20, 0, 0))
    assert state.pending == ((-26,), ()) and GAME.to_act(state) == {0} and state.time == (31, 30)
    state = after(state, 0, play(-26, 1, 0))
    assert state.pending == ((), ()) and GAME.to_act(state) == {1}
    assert squares(state.quilts[0]) == {(0, 0), (1, 0)}


def test_rules_note_special_patch_lost_on_a_full_quilt():
    """docs/rules/patchwork.md: "A special patch that cannot be placed because the quilt is full is lost.\""""
    state = after(make_state(time=(19, 22), quilts=(FULL, 0)), 0, SKIP)
    assert state.pending == ((), ()) and 20 not in state.specials_left and GAME.to_act(state) == {1}
    # two at once with one free square: the second is lost once the first fills the quilt
    state = after(make_state(time=(19, 30), quilts=(full_except((4, 4)), 0)), 0, SKIP)
    assert state.pending == ((-20, -26), ())
    state = after(state, 0, play(-20, 4, 4))
    assert state.quilts[0] == FULL and state.pending == ((), ()) and GAME.to_act(state) == {1}


def test_special_patch_spaces_are_those_of_the_data_file():
    won_at = []
    for t in range(1, LAST_SPACE + 1):
        state = after(make_state(time=(t - 1, t - 1), last=0), 0, SKIP)
        if state.pending[0]:
            assert state.pending[0] == (-t,)
            won_at.append(t)
    assert tuple(won_at) == SPECIAL_TIMES == (20, 26, 32, 44, 50)


# --- the 7x7 bonus ----------------------------------------------------------------------------------

SEVEN_BY_SEVEN = sum(bit(x, y) for x in range(7) for y in range(7))


def test_first_to_cover_a_seven_by_seven_square_gets_the_bonus():
    """"First player to fully cover 7x7 square of quilt board will receive Special Patch for bonus points
    at the End of the game.\""""
    almost = SEVEN_BY_SEVEN & ~bit(5, 6) & ~bit(6, 6)
    state = make_state(circle=(32, 1, 2), quilts=(almost, 0), buttons=(5, 5))
    log: list[LogEntry] = []
    state = after(state, 0, play(32, 5, 6), log)
    assert state.bonus == 0 and GAME.view(state, 0)["players"][0]["bonus"]
    assert any("7x7" in e.text for e in log)
    # any 7x7 square counts, not only the corner one
    shifted = (SEVEN_BY_SEVEN << (2 * 9 + 2)) & ~bit(2, 2)
    state = after(make_state(time=(20, 19), quilts=(shifted, 0), pending=((-20,), ())), 0, play(-20, 2, 2))
    assert state.bonus == 0


def test_seven_by_seven_bonus_only_ever_goes_to_one_player():
    """patchwork.json bonus: "the first player whose board has a fully covered 7x7 square gets the bonus;
    only one player can ever have it\""""
    almost = SEVEN_BY_SEVEN & ~bit(5, 6) & ~bit(6, 6)
    state = make_state(circle=(32, 1, 2), quilts=(SEVEN_BY_SEVEN, almost), bonus=0, time=(10, 3))
    state = after(state, 1, play(32, 5, 6))
    assert state.quilts[1] & SEVEN_BY_SEVEN == SEVEN_BY_SEVEN and state.bonus == 0


def test_seven_by_seven_bonus_is_not_taken_by_a_skip():
    state = make_state(quilts=(SEVEN_BY_SEVEN, 0))  # (a quilt built directly, without the bonus yet)
    assert after(state, 0, SKIP).bonus is None


# --- end of the game and scoring ------------------------------------------------------------------

def test_game_ends_when_both_tokens_reach_the_last_space():
    """"The game ends after both time tokens reach the last point of the Timeline.\""""
    state = make_state(time=(52, 53), specials_left=(), first_home=1)
    assert not GAME.is_over(state) and GAME.result(state) is None
    state = after(state, 0, SKIP)
    assert state.time == (53, 53) and GAME.is_over(state) and GAME.to_act(state) == frozenset()
    assert GAME.legal_actions(state, 0) == [] == GAME.legal_actions(state, 1)
    assert_refused(GAME, state, 0, SKIP, "the game is over")
    assert_refused(GAME, state, 1, play(0, 0, 0), "the game is over")
    assert GAME.view(state, None)["over"] and GAME.result(state) is not None


def test_rules_note_game_waits_for_a_special_patch_on_the_last_space():
    """docs/rules/patchwork.md: "The game ends when both tokens are on space 53 and nobody still holds a
    special patch to place.\""""
    state = make_state(time=(49, 53), specials_left=(50,), first_home=1)
    state = after(state, 0, SKIP)  # 49 -> 53, past 50
    assert state.time == (53, 53) and not GAME.is_over(state) and GAME.to_act(state) == {0}
    state = after(state, 0, play(-50, 0, 0))
    assert GAME.is_over(state)


def test_score_formula():
    """"Starting with 200 points: add 1 point for each Button you have left, add 7 if you own Special
    Tile, subtract 2 points for each empty space of your quilt board.\""""
    quilt = sum(bit(x, 0) for x in range(9)) | bit(0, 1)  # 10 squares: 71 empty
    state = make_state(quilts=(quilt, FULL), buttons=(12, 3), bonus=0, time=(53, 53), specials_left=())
    assert score(state, 0) == 200 + 12 + BONUS_POINTS - 2 * 71 == 77
    assert score(state, 1) == 200 + 3 == 203
    assert GAME.result(state).scores == (77, 203)
    assert [p["score"] for p in GAME.view(state, None)["players"]] == [77, 203]


def test_uncovered_squares_cost_two_each():
    """"Uncovered squares on quilt board will cost you 2 Buttons per piece at the end of game.\""""
    base = make_state(quilts=(FULL, 0), buttons=(0, 0))
    one_hole = make_state(quilts=(full_except((3, 3)), 0), buttons=(0, 0))
    assert score(base, 0) - score(one_hole, 0) == 2 and score(base, 1) == 200 - 2 * 81


def test_higher_score_wins():
    """"The player with the higher score wins." / "You have more points at the end of the game\""""
    state = make_state(buttons=(10, 30), time=(53, 53), specials_left=(), first_home=0)
    result = GAME.result(state)
    assert result.winners == (1,) and result.ranks == (2, 1) and result.reason == "higher score"


def test_tie_goes_to_the_first_on_the_last_space():
    """"In case of a tie, the player who got to the final space of the time board first wins." / "You have
    same amount of points at the end of the game but you got to final space first\""""
    state = make_state(buttons=(10, 10), time=(53, 53), specials_left=(), first_home=1)
    result = GAME.result(state)
    assert result.scores == (48, 48) and result.winners == (1,) and result.ranks == (2, 1)


def test_first_on_the_last_space_is_remembered():
    state = make_state(time=(50, 52), specials_left=())
    state = after(state, 0, SKIP)  # 0 arrives first
    state = after(state, 1, SKIP)
    assert state.first_home == 0 and GAME.is_over(state)
    assert GAME.result(state).winners == (0,)  # equal scores, 0 arrived first
    state = after(make_state(circle=(1, 2, 3), time=(48, 30), buttons=(9, 0), specials_left=()), 1, SKIP)
    assert state.first_home is None


def test_rules_note_tie_always_broken():
    """docs/rules/patchwork.md: "... a tie is always broken; if neither reached 53 first (cannot happen)
    both rank first.\""""
    state = make_state(buttons=(10, 10), time=(53, 53), specials_left=(), first_home=None)
    assert GAME.result(state).ranks == (1, 1)


# --- defeat conditions: refused in words, nothing changes -------------------------------------------

def test_defeat_unknown_command():
    """Defeat: "Unknown command (only SKIP or PLAY are allowed)\""""
    state = make_state()
    assert_refused(GAME, state, 0, {"type": "pass"}, "unknown action type 'pass'", "'skip' and 'play'")


def test_defeat_play_unavailable_or_non_existent_patch():
    """Defeat: "PLAY unavailable or non-existent patch\""""
    state = make_state(circle=tuple(p for p in range(33) if p != 5), buttons=(20, 5))
    assert_refused(GAME, state, 0, play(33, 0, 0), "there is no patch 33")
    assert_refused(GAME, state, 0, play(99, 0, 0), "there is no patch 99")
    assert_refused(GAME, state, 0, play(5, 0, 0), "patch 5 is already on a quilt")
    assert_refused(GAME, state, 0, play(10, 0, 0), "patch 10 is not one of the three on offer")
    assert_refused(GAME, state, 0, play(-20, 0, 0), "you hold no special patch -20")


def test_defeat_play_invalid_placement():
    """Defeat: "PLAY patch with invalid placement (outside quilt board/overlaping other patch)\""""
    state = make_state(quilts=(bit(1, 1), 0))  # patch 1 is 'OO.|.OO|OO.'
    assert_refused(GAME, state, 0, play(1, 0, 0), "would cover", "(1,1)")
    assert_refused(GAME, state, 0, play(1, 7, 0), "hang off")


def test_defeat_play_without_the_buttons():
    """Defeat: "PLAY patch you have no money for\""""
    state = make_state(circle=(0, 1, 2), buttons=(6, 5))
    assert_refused(GAME, state, 0, play(0, 0, 0), "patch 0 costs 7 buttons and you have 6")
    assert not any(a.get("patch") == 0 for a in GAME.legal_actions(state, 0))
    after(make_state(circle=(0, 1, 2), buttons=(7, 5)), 0, play(0, 0, 0))  # exactly enough


@pytest.mark.parametrize("action,words", [
    ("skip", ["JSON object"]),
    (None, ["JSON object"]),
    (["skip"], ["JSON object"]),
    ({}, ["needs a 'type'"]),
    ({"type": 3}, ["needs a 'type'"]),
    ({"type": "play"}, ["'patch'"]),
    ({"type": "play", "patch": "1", "x": 0, "y": 0}, ["'patch'"]),
    ({"type": "play", "patch": True, "x": 0, "y": 0}, ["'patch'"]),
    ({"type": "play", "patch": 1, "y": 0}, ["'x'"]),
    ({"type": "play", "patch": 1, "x": 0.0, "y": 0}, ["'x'"]),
    ({"type": "play", "patch": 1, "x": 0, "y": None}, ["'y'"]),
    ({"type": "play", "patch": 1, "rotation": 4, "x": 0, "y": 0}, ["'rotation'", "0 to 3"]),
    ({"type": "play", "patch": 1, "rotation": -1, "x": 0, "y": 0}, ["'rotation'"]),
    ({"type": "play", "patch": 1, "rotation": "1", "x": 0, "y": 0}, ["'rotation'"]),
    ({"type": "play", "patch": 1, "flip": None, "x": 0, "y": 0}, ["'flip'"]),
    ({"type": "SKIP"}, ["unknown action type 'SKIP'"]),
])
def test_malformed_actions_are_refused_in_words(action, words):
    assert_refused(GAME, make_state(), 0, action, *words)


def test_out_of_turn_is_refused():
    state = make_state(time=(3, 1))
    assert_refused(GAME, state, 0, SKIP, "player 2's turn, not player 1's")
    assert_refused(GAME, state, 7, SKIP, "player 2's turn")
    with pytest.raises(IllegalAction, match="player 2's turn"):
        GAME.random_action(state, 0, __import__("random").Random(1))


# --- the log and the views ------------------------------------------------------------------------

def test_log_tells_each_move_in_words():
    log: list[LogEntry] = []
    state = after(make_state(circle=(12, 1, 2), buttons=(9, 5), time=(0, 2), income=(0, 0)), 0, play(12, 0, 0), log)
    state = after(state, 1, SKIP, log)
    texts = [e.render(["Ana", "Ben"]) for e in log]
    assert texts[0] == "Ana bought patch 12 for 5 buttons and moved 5 spaces"
    assert texts[1] == "Ana collected 2 buttons of income"
    assert texts[2] == "Ben skipped ahead 4 spaces and took 4 buttons"
    assert all(e.seats is None for e in log)


def test_view_rebuilds_the_state_and_holds_no_seed():
    state = GAME.start(2, {}, 11)
    for _ in range(6):
        seat = min(GAME.to_act(state))
        state = after(state, seat, GAME.legal_actions(state, seat)[0])
    view = GAME.view(state, 0)
    assert "seed" not in str(view).lower()
    assert GAME.sample(view, 0, __import__("random").Random(0)) == state
