"""The survivor bot: legal moves from its seat's view alone, sensible choices where the stakes are
clear, and clearly more than its share of wins against random players."""

from __future__ import annotations

import pytest
from dino_states import GAME, PASS, ids, make_state

from contract import play_bots
from parlour import bots
from parlour.games.dinosaurs.bots import SurvivorBot

NAT, PRED, EMO = ids("natural"), ids("predatory"), ids("emotional")
PAN, BONE, BAT = ids("handy_pan"), ids("bonehead"), ids("run_home_bat")
CANNON, STICK = ids("meteor_cannon"), ids("cool_stick")
BOOST, INSURE, REDIRECT = ids("score_booster"), ids("disaster_insurance"), ids("disaster_redirect")


def choose(state, seat):
    bot = SurvivorBot(GAME, seed=1)
    return bot.choose(GAME.view(state, seat), seat, GAME.legal_actions(state, seat))


def play_game(names, seed):
    return play_bots(GAME, names, seed)


def test_survivor_is_registered():
    assert bots.names(GAME)[:2] == ["survivor", "random"]


def test_sudden_death_plays_the_highest_card():
    state = make_state(2, hands=[[STICK[0], CANNON[0], BONE[0]], [PAN[0]]], phase="sudden_death",
                       sudden_seats=[0, 1])
    assert choose(state, 0) == {"type": "play", "card": CANNON[0]}


def test_plays_high_against_a_deadly_disaster():
    hand = [STICK[0], BONE[0], CANNON[0], PAN[0]]
    deadly = make_state(3, hands=[hand, [BAT[0]], [BAT[1]]], disaster=NAT[3], areas=[[NAT[0], NAT[1]], [], []],
                        dinosaurs=("stego",) * 3)
    assert choose(deadly, 0) == {"type": "play", "card": CANNON[0]}


def test_insures_against_a_deadly_disaster_only():
    deadly = make_state(2, hands=[[INSURE[0], BAT[0]], [BONE[0]]], disaster=NAT[3], phase="disaster",
                        areas=[[NAT[0], NAT[1]], []], victim=0, waiting=[0], front=[PAN[0], CANNON[0]])
    assert choose(deadly, 0) == {"type": "instant", "card": INSURE[0]}
    harmless = make_state(2, hands=[[INSURE[0], BAT[0]], [BONE[0]]], disaster=NAT[3], phase="disaster",
                          victim=0, waiting=[0], front=[PAN[0], CANNON[0]])
    assert choose(harmless, 0) == PASS


def test_redirects_a_disaster_that_eliminates_another():
    state = make_state(3, hands=[[REDIRECT[0], BAT[0]], [BONE[0]], []], disaster=PRED[3], phase="disaster",
                       areas=[[], [PRED[0], PRED[1]], []], victim=0, waiting=[0], front=[PAN[0], CANNON[0], BAT[1]])
    assert choose(state, 0) == {"type": "instant", "card": REDIRECT[0], "player": 1}


def test_boosts_itself_off_the_bottom_only_when_it_matters():
    fronts = [PAN[0], BONE[0], CANNON[0]]
    deadly = make_state(3, hands=[[BOOST[0]], [BAT[0]], [BAT[1]]], disaster=NAT[3], phase="scoring",
                        areas=[[NAT[0], NAT[1]], [], []], front=fronts, dinosaurs=("stego",) * 3)
    assert choose(deadly, 0) == {"type": "instant", "card": BOOST[0], "player": 0}
    calm = make_state(3, hands=[[BOOST[0]], [BAT[0]], [BAT[1]]], disaster=NAT[3], phase="scoring",
                      front=[BONE[1], STICK[0], CANNON[0]], dinosaurs=("stego",) * 3)
    assert choose(calm, 0) == PASS


@pytest.mark.slow
def test_survivor_wins_clearly_more_than_its_share_against_random():
    """Four players, one survivor (every seat in turn) against three random bots: a fair share is 25%.
    Over 500 games (`parlour arena dinosaurs --bot s=builtin:survivor --bot r1=builtin:random
    --bot r2=builtin:random --bot r3=builtin:random --players 4 --games 500 -j 2`) it won 325, shared 4."""
    games = 40
    wins = 0.0
    for k in range(games):
        seat = k % 4
        names = ["random"] * 4
        names[seat] = "survivor"
        result = play_game(names, seed=500 + k)
        if seat in result.winners:
            wins += 1 / len(result.winners)
    assert wins / games >= 0.4, f"survivor won {wins} of {games}"
