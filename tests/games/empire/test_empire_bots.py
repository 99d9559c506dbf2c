"""The detective: what it does in telling situations, that it plays only legal actions from its seat's
view, and that it beats the random player in at least 90% of 500 games (issue 6)."""

from __future__ import annotations

from empire_states import CHALLENGE, END, GAME, PASS, SPY, claim, make_state, run

from parlour import bots
from parlour.core import derive
from parlour.games.empire.bots import DetectiveBot, SleuthBot


def choice(state, seat=None, seed=0):
    seat = min(GAME.to_act(state)) if seat is None else seat
    bot = DetectiveBot(GAME, seed=seed)
    action = bot.choose(GAME.view(state, seat), seat, GAME.legal_actions(state, seat))
    GAME.check(state, seat, action)
    return action


def test_detective_is_registered():
    assert bots.names(GAME)[:2] == ["detective", "random"]
    assert isinstance(bots.create(GAME, "detective"), DetectiveBot)


def test_accuses_when_only_one_suspect_is_left():
    # player 1 has seen every card but the culprit (6): its role 7, the opponent's 3 (spied), A to D
    # looked at, the rest on the pile
    state = make_state(deck=(), pile=(8, 9, 10, 11, 12, 13, 14, 15), looked=((0, 1, 2, 3), ()), known=((3,), ()))
    assert GAME.view(state, 0)["suspects"] == [6]
    assert choice(state) == {"type": "accuse", "role": 6}


def test_accuses_what_it_discovered():
    state = make_state(discovered=(True, False), turn=3)
    assert choice(state) == {"type": "accuse", "role": 6}


def test_gambles_when_the_opponent_has_discovered_the_culprit():
    state = make_state(discovered=(False, True), turn=4)
    action = choice(state)
    assert action["type"] == "accuse" and action["role"] in GAME.view(state, 0)["suspects"]
    chance = make_state(discovered=(False, True), queue=(("accuse_chance", 0),), active=1)
    assert choice(chance)["type"] == "accuse"
    calm = make_state(queue=(("accuse_chance", 0),), active=1)
    assert choice(calm) == {"type": "decline"}


def test_guesses_a_role_it_knows():
    state = run(make_state(coins=(4, 2), known=((), (7,))), (0, claim(4)))
    assert choice(state) == {"type": "guess", "role": 7}


def test_challenges_with_a_strong_role_and_not_with_a_weak_one():
    strong = run(make_state(coins=(4, 2), roles=(7, 15)), (0, claim(4)))
    assert choice(strong)["type"] == "challenge"
    weak = run(make_state(coins=(4, 2), roles=(7, 1)), (0, claim(4)))
    assert choice(weak)["type"] != "challenge"


def test_takes_all_it_can_from_the_opponent():
    state = run(make_state(coins=(4, 3)), (0, claim(4)), (1, CHALLENGE))
    assert choice(state) == {"type": "collect", "from_opponent": 3}


def test_keeps_the_stronger_card_or_the_one_the_opponent_does_not_know():
    promoting = make_state(coins=(4, 2), roles=(7, 3), drawn=12, queue=(("keep", 0),))
    assert choice(promoting) == {"type": "keep", "card": "drawn"}
    spied = make_state(coins=(4, 2), roles=(12, 3), drawn=7, queue=(("keep", 0),), known=((), (12,)))
    assert choice(spied) == {"type": "keep", "card": "drawn"}


def test_discovers_once_it_can_afford_it():
    state = run(make_state(coins=(19, 2)), (0, {"type": "income"}))
    assert choice(state) == {"type": "discover"}
    fresh = make_state(coins=(19, 2))
    assert choice(fresh) == {"type": "income"}, "a claim could lose coins it needs to discover"


def test_does_not_claim_when_the_opponent_knows_its_role():
    state = make_state(coins=(10, 2), roles=(9, 3), known=((), (9,)), deck=())
    assert choice(state) == {"type": "income"}


def play(names, number, seed=11):
    players = [bots.create(GAME, names[(seat + number) % 2], seed=derive(seed, number, seat).getrandbits(32))
               for seat in (0, 1)]
    state = GAME.start(2, {}, derive(seed, "game", number).getrandbits(63))
    while not GAME.is_over(state):
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        action = players[seat].choose(GAME.view(state, seat), seat, legal)
        assert action in legal, action
        state = GAME.apply(state, seat, action)
    return state, [names[(seat + number) % 2] for seat in (0, 1)]


def test_detective_beats_random_in_90_percent_of_500_games():
    wins = 0
    for number in range(500):
        state, seated = play(("detective", "random"), number)
        winners = GAME.result(state).winners
        wins += len(winners) == 1 and seated[winners[0]] == "detective"
    assert wins >= 450, wins


def test_detectives_play_whole_games_against_each_other():
    for number in range(30):
        state, _ = play(("detective", "detective"), number)
        assert GAME.is_over(state)


# -- the sleuth (the hard level): exact deduction and tempo -----------------------------------------

def sleuth_choice(state, seat=None, seed=0):
    seat = min(GAME.to_act(state)) if seat is None else seat
    action = SleuthBot(GAME, seed=seed).choose(GAME.view(state, seat), seat, GAME.legal_actions(state, seat))
    GAME.check(state, seat, action)
    return action


SEEN_ALL = dict(deck=(), pile=(8, 9, 10, 11, 12, 13, 14, 15), looked=((0, 1, 2, 3), ()))  # suspects 3 and 6


def test_sleuth_is_the_hard_level():
    assert isinstance(bots.create(GAME, "hard"), SleuthBot)


def test_sleuth_weighs_suspects_by_the_roles_its_wrong_guesses_ruled_out():
    # player 1 suspects 1 to 6; the opponent's role (3) is one of them, and is not 5: 5 is likelier the culprit
    state = make_state(deck=(), pile=(8, 9, 10, 11, 12, 13, 14, 15), ruled_out=((5,), ()))
    odds = SleuthBot(GAME).culprit_odds(GAME.view(state, 0))
    assert odds == {1: 0.16, 2: 0.16, 3: 0.16, 4: 0.16, 5: 0.2, 6: 0.16}  # 4 ways each, 5 for suspect 5


def test_sleuth_accuses_when_a_wrong_guess_leaves_one_culprit():
    # suspects 3 and 6; player 1 guessed 6 as the opponent's role and was wrong: 6 is the culprit
    state = make_state(**SEEN_ALL, ruled_out=((6,), ()))
    assert sleuth_choice(state) == {"type": "accuse", "role": 6}
    assert choice(state)["type"] != "accuse", "the detective counts two suspects and waits"


def test_sleuth_accuses_its_likeliest_suspect_when_the_opponent_is_about_to_be_sure():
    # player 2 has seen all but one card (player 1's role 7 it knows, the slots it looked at)
    state = make_state(deck=(), pile=(8, 9, 10, 11, 12, 13, 14, 15), looked=((), (0, 1, 2, 3)), known=((), (7,)),
                       ruled_out=((5,), ()))
    assert sleuth_choice(state) == {"type": "accuse", "role": 5}


def test_sleuth_does_not_claim_once_the_deck_is_empty():
    state = make_state(coins=(4, 2), roles=(14, 3), deck=(), pile=(7, 8, 9, 10, 11, 12, 13, 15))
    assert choice(state) == claim(4), "the detective claims the most with a strong role"
    assert sleuth_choice(state) == {"type": "income"}


def test_sleuth_challenges_with_the_last_two_suspects_and_then_accuses():
    # player 2 looked at every revelatory card: its suspects are player 1's role (7) and the culprit (6)
    state = run(make_state(deck=(), pile=(8, 9, 10, 11, 12, 13, 14, 15), looked=((), (0, 1, 2, 3))),
                (0, claim(2)))
    assert sleuth_choice(state) == CHALLENGE
    state = run(state, (1, CHALLENGE))
    while min(GAME.to_act(state)) == 0:  # player 1 collects and draws a revelatory card: player 2's chance
        state = run(state, (0, sleuth_choice(state)))
    assert sleuth_choice(state) == {"type": "accuse", "role": 6}


def test_sleuth_does_not_challenge_when_the_claimant_would_then_be_sure_first():
    # player 1 has seen all but three cards: player 2's role, the deck's last card and the culprit
    state = run(make_state(roles=(7, 15), deck=(14,), pile=(3, 8, 9, 10, 11, 12, 13), looked=((0, 1, 2, 3), ())),
                (0, claim(2)))
    assert choice(state, seat=1) == CHALLENGE, "the detective's Empress wins any challenge"
    assert sleuth_choice(state, seat=1) == PASS
    shown = run(state, (1, CHALLENGE))  # player 1 saw the Empress and drew the 14; player 2 draws next,
    assert GAME.view(shown, 0)["suspects"] == [6]  # and player 1 accuses at the chance that gives it


def test_sleuth_spies_when_the_opponents_role_is_all_it_lacks():
    state = run(make_state(coins=(9, 2), **SEEN_ALL), (0, {"type": "income"}))
    assert choice(state) == END, "the detective saves up for Discover"
    assert sleuth_choice(state) == SPY
    state = run(state, (0, SPY))
    assert sleuth_choice(state) == {"type": "accuse", "role": 6}


def test_sleuths_and_detectives_play_whole_games_against_each_other():
    for number in range(30):
        state, _ = play(("hard", "detective"), number)
        assert GAME.is_over(state)
