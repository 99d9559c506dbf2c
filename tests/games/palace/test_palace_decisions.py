"""One test for each line of docs/rules/palace.md, in its order: what Parlour decided where the
Judd School rules are silent."""

from __future__ import annotations

from collections import Counter

import pytest
from palace_states import GAME, NO_FIVES, NO_SWAP, TAKE, face_ups, flip, hand, make, pile, play, swap

from contract import assert_refused
from parlour.core import BadOptions, LogEntry
from parlour.games.palace.cards import ID_FACE, PACK, code


def after(state, seat, *actions):
    for action in actions:
        state = GAME.apply(state, seat, action)
    return state


def all_codes(state):
    ids = [i for part in (state.hands, state.face_ups, state.face_downs) for cards in part for i in cards]
    return Counter(code(ID_FACE[i]) for i in ids + list(state.pick_up))


def test_a_pack_is_57_cards():
    """A pack is 52 cards, 2 Jokers, 1 Rules card, 1 Social card and 1 Cardinal card: 57 cards."""
    cards = all_codes(GAME.start(2, {}, seed=1))
    assert sum(cards.values()) == 57 == len(PACK)
    assert cards["joker"] == 2 and cards["rules"] == cards["social"] == cards["cardinal"] == 1
    assert all(cards[rank + suit] == 1 for rank in ("2", "10", "A") for suit in "HDCS")


def test_two_to_six_players_two_packs_for_six():
    """Palace is for 2 to 6 players: one pack for 2 to 5, two packs shuffled together for 6."""
    assert sum(all_codes(GAME.start(5, {}, seed=1)).values()) == 57
    six = all_codes(GAME.start(6, {}, seed=1))
    assert sum(six.values()) == 114 and six["joker"] == 4 and six["AS"] == 2
    for players in (1, 7):
        with pytest.raises(BadOptions):
            GAME.start(players, {}, seed=1)


def test_no_exchange_before_play():
    """Each player is dealt three face-downs, then three face-ups, then three hand cards; there is no
    exchange of hand cards and face-ups before play."""
    state = GAME.start(3, {}, seed=4)
    seat = state.current
    kinds = {a["type"] for a in GAME.legal_actions(state, seat)}
    assert kinds <= {"play", "take"}
    assert_refused(GAME, state, seat, {"type": "exchange"}, "unknown action type")


def test_seat_numbers_and_direction():
    """Seats are numbered 0 upwards; "ascending player number" goes 0, 1, 2, ... round the table, and
    "clockwise" is the direction of play at that moment, "anticlockwise" the other way."""
    state = make(4, hands=[["4H", "5H"], ["4D", "5D"], ["4C", "5C"], ["7S", "KS"]], current=3)
    assert after(state, 3, play("KS")).current == 0
    # reversed by a Social card, a 7 sends the turn the other way: to the next higher seat
    state = make(4, hands=[["4H", "5H"], ["7D", "5D"]], current=1, direction=-1)
    state = after(state, 1, play("7D"))
    assert state.current == 2
    state = after(state, 2, play(hand(state, 2)[0]))
    assert state.current == 0


def test_take_only_when_nothing_can_be_played():
    """A player may take the pile only when nothing can be played; taking it ends the turn."""
    state = make(3, hands=[["5H", "KH"]], pile=["QS"])
    assert_refused(GAME, state, 0, TAKE, "you can play")
    state = make(3, hands=[["5H", "JH"]], pile=["QS"])
    assert after(state, 0, TAKE).current == 1


def test_face_downs_one_per_turn():
    """Face-downs are turned over one per turn; one that can go on the pile is played with all its
    effects, one that cannot is taken into the hand with the pile, and the turn ends."""
    state = make(3, hands=[[]], face_ups=[[]], face_downs=[["10H", "5C", "4C"]], pile=["6S"])
    state = after(state, 0, flip(0))  # the 10 burns and its player goes again
    assert pile(state) == [] and state.current == 0 and GAME.view(state, 0)["players"][0]["face_downs"] == 2
    state = after(state, 0, flip(1))  # the 4: fine on an empty pile
    assert pile(state) == ["4C"] and state.current == 1
    state = make(3, hands=[[]], face_ups=[[]], face_downs=[["5C", "KC"]], pile=["6S", "9D"])
    log: list[LogEntry] = []
    state = GAME.apply(state, 0, flip(1), log)
    assert hand(state, 0) == ["6S", "9D", "KC"] and pile(state) == [] and state.current == 1
    assert any("cannot be played" in e.text and e.seats is None for e in log)


def test_face_down_joker_is_named_after_it_is_turned():
    """A face-down joker can always be played: once it is turned over, its owner names what it plays as."""
    state = make(3, hands=[[]], face_ups=[[]], face_downs=[["joker", "5C"]], pile=["AS"])
    state = after(state, 0, flip(0))
    assert state.current == 0 and GAME.view(state, 1)["revealed"] == "joker"
    legal = GAME.legal_actions(state, 0)
    assert {"type": "play", "cards": ["joker"], "as": "K"} in legal and TAKE not in legal
    assert_refused(GAME, state, 0, flip(0), "joker")
    state = after(state, 0, play("joker", as_="K"))
    assert pile(state) == ["AS", "joker"] and state.current == 1 and GAME.view(state, 1)["revealed"] is None
    # named, it obeys only the restrictions of the card it plays as (a 2 never goes on a Rules card)
    state = after(make(3, hands=[[]], face_ups=[[]], face_downs=[["joker", "5C"]], pile=["AS", "rules"]), 0, flip(0))
    assert_refused(GAME, state, 0, play("joker", as_="2"), "Rules card")
    state = after(state, 0, play("joker", as_="10"))
    assert pile(state) == [] and state.current == 0


def test_face_ups_join_the_last_hand_cards_whatever_is_left_to_draw():
    """Face-ups may join the last hand cards whether or not the pick-up pile is empty (the hand is then
    refilled); any number of the matching face-ups may join."""
    state = make(3, hands=[["8H", "8S", "8D"]], face_ups=[["8C", "KC"]], pick_up=["4C", "5C", "6C", "9C"])
    assert {"type": "play", "cards": ["8H", "8D", "8S", "8C"]} in GAME.legal_actions(state, 0)
    state = after(state, 0, play("8H", "8S", "8D", "8C"))
    assert pile(state) == [] and face_ups(state, 0) == ["KC"] and hand(state, 0) == ["4C", "5C", "6C"]
    assert_refused(GAME, make(3, hands=[["8H", "8S", "KD"]], face_ups=[["8C"]], pick_up=["4C"]), 0,
                   play("8H", "8S", "8C"), "only your last hand cards")
    state = make(6, hands=[["8H"]], face_ups=[["8C", "8D", "8H"]])
    legal = [sorted(a["cards"]) for a in GAME.legal_actions(state, 0)]
    assert legal == [["8H"], ["8H", "8H"], ["8D", "8H", "8H"], ["8C", "8D", "8H", "8H"]]


def test_jokers_alone_or_with_naturals():
    """Jokers may be played alone, naming what they play as, or with natural cards of one value, as
    that value; face-up jokers may join the last hand cards like matching face-ups."""
    state = make(3, hands=[["QH", "joker", "4C"]], pile=["JS"])
    state2 = after(state, 0, play("QH", "joker"))
    assert [p["as"] for p in GAME.view(state2, 1)["play_pile"]] == ["J", "Q", "Q"]
    assert_refused(GAME, state, 0, play("QH", "joker", as_="K"), "they are Qs")
    state = make(3, hands=[["QH"]], face_ups=[["joker", "5S"]], pile=["JS"])
    state = after(state, 0, play("QH", "joker"))
    assert face_ups(state, 0) == ["5S"] and [p["as"] for p in GAME.view(state, 1)["play_pile"]] == ["J", "Q", "Q"]


def test_joker_values():
    """A joker may be played as any value from 2 to Ace, or as a Rules, Social or Cardinal card."""
    state = make(3, hands=[["joker", "4C"]])
    named = sorted({a["as"] for a in GAME.legal_actions(state, 0) if "as" in a})
    assert named == sorted(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "rules",
                            "social", "cardinal"])
    assert_refused(GAME, state, 0, play("joker", as_="joker"), "may be played as")
    assert_refused(GAME, state, 0, play("joker", as_="11"), "may be played as")


def test_joker_restrictions():
    """Jokers played alone go on anything as any card (an 8, 9 or 10 on an Ace or under a 9's cap
    included) and do what that card does; the only restriction they keep is the one of the card they
    play as: as a 2, 3, 7 or Rules card, not on a Rules card. A play that mixes jokers with natural
    cards obeys the natural cards' restrictions."""
    for top in (["AS"], ["KS"], ["9S"], ["5S", "rules"]):
        for value in ("4", "5", "6", "8", "9", "10", "J", "Q", "K", "A", "social", "cardinal"):
            GAME.check(make(3, hands=[["joker", "4C"]], pile=top), 0, play("joker", as_=value))
    state = after(make(3, hands=[["joker", "4C"]], pile=["9S"]), 0, play("joker", as_="10"))
    assert pile(state) == [] and state.current == 0  # the 10 burns and its player goes again
    state = after(make(4, hands=[["joker", "4C"]], pile=["AS"]), 0, play("joker", as_="8"))
    assert state.current == 2 and GAME.view(state, 0)["last"]["skipped"] == [1]
    for special in ("2", "3", "7", "rules"):
        GAME.check(make(3, hands=[["joker", "4C"]], pile=["AS"]), 0, play("joker", as_=special))
        assert_refused(GAME, make(3, hands=[["joker", "4C"]], pile=["5S", "rules"]), 0, play("joker", as_=special),
                       "Rules card")
    state = make(3, hands=[["joker", "KC"]], pile=["AS"])
    assert_refused(GAME, state, 0, play("KC", "joker"), "lower than the A")
    assert_refused(GAME, make(3, hands=[["joker", "10C"]], pile=["9S"]), 0, play("10C", "joker"), "9 or lower")


def test_nine_takes_nine_or_lower():
    """On a 9 that counts, only cards of 9 or lower may be played (4, 5, 6, 8, 9), besides 2s, 3s, 7s,
    Rules, Social and Cardinal cards and jokers."""
    state = make(3, hands=[["4H", "5H", "6H", "8H", "9H", "QH", "rules", "social", "cardinal"]], pile=["9S"])
    singles = {a["cards"][0] for a in GAME.legal_actions(state, 0) if len(a["cards"]) == 1}
    assert singles == {"4H", "5H", "6H", "8H", "9H", "rules", "social", "cardinal"}
    state = after(state, 0, play("4H"))
    assert GAME.view(state, 1)["capped"] is False and GAME.view(state, 1)["counts"] == "4"


def test_tens_follow_the_ordinary_rule():
    """10s follow the ordinary rule (same or higher, and not on a 9)."""
    assert_refused(GAME, make(3, hands=[["10H", "4C"]], pile=["JS"]), 0, play("10H"), "lower than the J")
    assert_refused(GAME, make(3, hands=[["10H", "4C"]], pile=["9S"]), 0, play("10H"), "9 or lower")
    GAME.check(make(3, hands=[["10H", "4C"]], pile=["10S"]), 0, play("10H"))


def test_rules_card_refuses_2s_3s_7s_and_rules_cards():
    """A Rules card on top of the pile refuses 2s, 3s and Rules cards (its own sentence) and 7s (the 7's);
    Social and Cardinal cards may go on it, and any other card must match or beat the card that counts
    beneath it. The Rules card refuses only while it is on top."""
    state = make(3, hands=[["2H", "3H", "7H", "social", "cardinal", "6H", "8H", "9H"]], pile=["8S", "rules"])
    singles = sorted(a["cards"][0] for a in GAME.legal_actions(state, 0))
    assert singles == ["8H", "9H", "cardinal", "social"]
    for card in ("2H", "3H", "7H"):
        assert_refused(GAME, state, 0, play(card), "Rules card", "2s, 3s, 7s and Rules cards never")
    state = after(state, 0, play("social"))
    assert GAME.view(state, 1)["counts"] == "8" and GAME.view(state, 1)["rules_on_top"] is False
    GAME.check(make(3, hands=[["3H", "4H"]], pile=["8S", "rules", "social"]), 0, play("3H"))
    state = make(3, hands=[["2H", "4H"]], pile=["rules"])
    assert [a["cards"] for a in GAME.legal_actions(state, 0)] == [["4H"]]
    # nothing else to play: the Social card must be played rather than the pile taken
    assert_refused(GAME, make(3, hands=[["social", "4H"]], pile=["8S", "rules"]), 0, TAKE, "you can play")


def test_editions():
    """Option `edition` (rules edition, default 4); a game keeps the edition it was started with, and a
    game stored without the option (a hall room or replay file from before it) replays by edition 1."""
    assert GAME.resolve_options({}) == {"edition": 4} and GAME.stored_options({}) == {"edition": 1}
    for edition in (1, 2, 3, 4):
        assert GAME.stored_options({"edition": edition}) == {"edition": edition}
        assert GAME.start(3, {"edition": edition}, seed=1).edition == edition
    assert GAME.start(3, {}, seed=1).edition == 4
    with pytest.raises(BadOptions, match="at most 4"):
        GAME.start(3, {"edition": 5}, seed=1)
    with pytest.raises(BadOptions, match="at least 1"):
        GAME.start(3, {"edition": 0}, seed=1)


def easy_bots_game(edition: int, players: int, seed: int, limit: int) -> tuple[object, int]:
    """Palace played by its easy bots from ``seed``, to its end or ``limit`` actions: (state, actions)."""
    bot = GAME.levels["easy"].bot
    bots = [(GAME.bots[bot] if isinstance(bot, str) else bot)(GAME, seed=seed * 10 + s) for s in range(players)]
    state, played = GAME.start(players, {"edition": edition}, seed), 0
    while not GAME.is_over(state) and played < limit:
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, bots[seat].choose(GAME.view(state, seat), seat,
                                                          GAME.legal_actions(state, seat)))
        played += 1
    return state, played


def test_a_position_that_comes_up_a_third_time_ends_the_game():
    """Edition 4: a position that comes up for the third time (the same cards in the same places and
    hands, the same player to act, the same knowledge of hands) ends the game; those still holding
    cards are placed after those out by how many cards they have left, fewest first, equal counts
    sharing a place (the easy bots of seed 1 with 3 players go round in circles for ever in edition 3)."""
    looping, played = easy_bots_game(3, 3, 1, 3000)
    assert not GAME.is_over(looping) and played == 3000
    state, played = easy_bots_game(4, 3, 1, 3000)
    assert GAME.is_over(state) and played < 600
    assert dict(state.last).get("repeated") is True
    result = GAME.result(state)
    assert result is not None and result.details["repetition"] is True
    left = {s: len(state.hands[s]) + len(state.face_ups[s]) + len(state.face_downs[s]) for s in range(3)}
    out = list(state.finished)
    still = sorted((s for s in range(3) if s not in out), key=lambda s: left[s])
    for k, s in enumerate(out):
        assert result.ranks[s] == k + 1
    for s in still:  # after those out, by cards left; equal counts share a place
        assert result.ranks[s] == len(out) + 1 + sum(1 for o in still if left[o] < left[s])
    assert "came up three times" in result.reason
    view = GAME.view(state, None)
    assert view["over"] and [p["place"] for p in view["players"]] == list(result.ranks)


def test_players_still_in_with_as_many_cards_left_share_a_place():
    from parlour.games.palace.repetition import standing

    fresh = GAME.start(3, {}, seed=3)  # nine cards each, nobody out
    assert standing(fresh) == ((1, 1, 1), (0.0, 0.0, 0.0))


def test_a_game_at_the_cap_on_actions_ends_as_a_repetition_does():
    """A game that reaches the cap on actions (4,000; an edition 1 to 3 game going round for ever) ends
    there as a repetition does: those out keep their places, the players still holding cards come after
    them by how many cards they hold, fewest first, equal counts sharing a place."""
    looping, played = easy_bots_game(3, 3, 1, 400)  # edition 3: this game never ends by itself
    assert not GAME.is_over(looping) and played == 400 and GAME.max_actions == 4000
    result = GAME.capped(looping, 3)
    left = [len(looping.hands[s]) + len(looping.face_ups[s]) + len(looping.face_downs[s]) for s in range(3)]
    out = list(looping.finished)
    for k, s in enumerate(out):
        assert result.ranks[s] == k + 1
    for s in (s for s in range(3) if s not in out):
        assert result.ranks[s] == len(out) + 1 + sum(1 for o in range(3) if o not in out and left[o] < left[s])
    assert list(result.scores) == [sum(1 for other in result.ranks if other > mine) for mine in result.ranks]
    assert result.reason.startswith("the game reached its cap of 4,000 actions") and "cards left" in result.reason
    assert result.details["capped"] == 4000 and "repetition" not in result.details


def test_edition_2_burns():
    """Edition 2: a stack burn gave its player another turn, and a burning play did nothing else (four 7s
    or four 8s neither turned play back nor skipped)."""
    state = after(make(4, hands=[["5H", "5D", "KC"], *NO_FIVES], pile=["5S", "5C"], edition=2), 0, play("5H", "5D"))
    assert pile(state) == [] and state.current == 0 and GAME.view(state, 0)["last"]["again"] is True
    state = make(6, hands=[["8H", "8D", "8C", "joker", "KC"]], pile=["4S"], edition=2)
    state = after(state, 0, play("8H", "8D", "8C", "joker", as_="8"))
    assert state.current == 0 and "skipped" not in GAME.view(state, 0)["last"]
    state = after(make(4, hands=[["8H", "8D", "KC"]], pile=["8S", "8C"], edition=2), 0, play("8H", "8D"))
    assert state.current == 0
    state = after(make(6, hands=[["7H", "7D", "7C", "7S", "KC"]], pile=["4S"], edition=2), 0,
                  play("7H", "7D", "7C", "7S"))
    assert pile(state) == [] and state.current == 0 and state.detour is None


def test_edition_1_rules_card_jokers_and_face_ups():
    """Edition 1 besides: a Rules card refused Social and Cardinal cards too; jokers played alone went on
    anything only as a 4, 5, 6, J, Q, K or A (as a special card they obeyed its restrictions); face-ups
    joined the last hand cards only once the pick-up pile was empty."""
    state = make(3, hands=[["social", "cardinal", "9H"]], pile=["8S", "rules"], edition=1)
    assert [a["cards"] for a in GAME.legal_actions(state, 0)] == [["9H"]]
    for card in ("social", "cardinal"):
        assert_refused(GAME, state, 0, play(card), "Rules, Social and Cardinal cards never")
    # a face-down Social card turned over onto a Rules card: taken with the pile in edition 1, played later
    for edition, taken in ((1, True), (2, False), (3, False)):
        state = make(3, hands=[[]], face_ups=[[]], face_downs=[["social", "5C"]], pile=["8S", "rules"], edition=edition)
        state = after(state, 0, flip(0))
        assert (hand(state, 0) == ["8S", "rules", "social"]) is taken
        assert GAME.view(state, 1)["edition"] == edition
    # jokers alone: plain values anywhere, special ones as the natural card would go
    for top in (["AS"], ["9S"], ["5S", "rules"]):
        for plain in ("4", "5", "6", "J", "Q", "K", "A"):
            GAME.check(make(3, hands=[["joker", "4C"]], pile=top, edition=1), 0, play("joker", as_=plain))
    assert_refused(GAME, make(3, hands=[["joker", "4C"]], pile=["9S"], edition=1), 0, play("joker", as_="10"),
                   "9 or lower")
    assert_refused(GAME, make(4, hands=[["joker", "4C"]], pile=["QS"], edition=1), 0, play("joker", as_="8"),
                   "lower than the Q")
    named = {a["as"] for a in GAME.legal_actions(make(3, hands=[["joker", "4C"]], pile=["QS"], edition=1), 0)
             if a["cards"] == ["joker"]}
    assert named == {"2", "3", "4", "5", "6", "7", "Q", "J", "K", "A", "rules", "social", "cardinal"}
    # a face-down joker turned over: named as edition 1 allowed
    state = after(make(3, hands=[[]], face_ups=[[]], face_downs=[["joker", "5C"]], pile=["AS"], edition=1), 0, flip(0))
    assert_refused(GAME, state, 0, play("joker", as_="10"), "lower than the A")
    GAME.check(state, 0, play("joker", as_="K"))
    # face-ups join the last hand cards only once nothing is left to draw
    state = make(3, hands=[["8H", "8S", "8D"]], face_ups=[["8C"]], pick_up=["4C"], edition=1)
    assert all("8C" not in a["cards"] for a in GAME.legal_actions(state, 0))
    assert_refused(GAME, state, 0, play("8H", "8S", "8D", "8C"), "pick-up pile is empty")
    state = after(make(3, hands=[["8H", "8S", "8D"]], face_ups=[["8C", "KC"]], edition=1), 0,
                  play("8H", "8S", "8D", "8C"))
    assert face_ups(state, 0) == ["KC"]


def test_social_and_cardinal_go_anywhere_and_are_invisible():
    """Social and Cardinal cards may be played on any card, a Rules card included, and are invisible like
    3s (the card beneath still counts, a 9's cap too)."""
    state = after(make(3, hands=[["social", "4C"]], pile=["AS"]), 0, play("social"))
    assert GAME.view(state, 0)["counts"] == "A"
    state = after(make(3, hands=[["cardinal", "4C"]], pile=["9S"]), 0, play("cardinal"), NO_SWAP)
    assert GAME.view(state, 0)["counts"] == "9" and GAME.view(state, 0)["capped"] is True


def test_what_a_stack_burn_is():
    """A stack burn is four cards of one number value on top of the pile, jokers counting as what they
    were played as; a card of another value between them breaks the four, and Rules, Social and Cardinal
    cards have no number value."""
    state = after(make(3, hands=[["6H", "KC"]], pile=["6S", "joker=6", "6C"]), 0, play("6H"))
    assert pile(state) == []
    state = after(make(3, hands=[["6H", "KC"]], pile=["6S", "6D", "3C", "6C"]), 0, play("6H"))
    assert pile(state) == ["6S", "6D", "3C", "6C", "6H"]
    state = after(make(6, hands=[["social", "social", "KC"]], pile=["joker=social", "joker=social"]), 0,
                  play("social", "social"))
    assert len(pile(state)) == 4
    state = after(make(3, hands=[["3H", "3D", "KC"]], pile=["3S", "3C"]), 0, play("3H", "3D"))
    assert pile(state) == []  # four 3s are four of a number value


def test_stack_burn_gives_no_other_turn():
    """A stack burn gives no other turn (the document gives one only to the 10-player): play passes on
    as after any other play. Several 10s in one play burn once and give one more turn."""
    state = after(make(3, hands=[["6H", "KC"]], pile=["6S", "6D", "6C"]), 0, play("6H"))
    assert state.current == 1 and GAME.view(state, 1)["last"]["burn"] == "stack"
    state = after(make(3, hands=[["10H", "10D", "KC"]], pile=["6S"]), 0, play("10H", "10D"))
    assert state.current == 0 and len(GAME.view(state, 1)["burn_pile"]) == 3
    state = after(state, 0, play("KC"))
    assert state.current == 1
    # a stack burn on the turn a 7 sent back: play goes on after the 7-player, as after any play
    state = make(5, hands=[["JH", "JD", "JC", "JS"], ["7H", "KH", "QH"]], current=1)
    state = after(state, 1, play("7H"))
    state = after(state, 0, play("JH", "JD", "JC", "JS"))
    assert pile(state) == [] and state.current == 2 and state.detour is None


def test_burning_play_keeps_its_seven_or_eight():
    """A burning play still does what its cards do: n 7s send the next turn n places back, n 8s skip
    the next n players, n counting the cards of that play (jokers played as 7s or 8s too), not the four
    on the pile."""
    state = after(make(4, hands=[["7H", "7D", "KC"]], pile=["7S", "7C"]), 0, play("7H", "7D"))
    assert pile(state) == [] and state.current == 2 and state.detour == 0
    state = after(make(4, hands=[["8H", "KC"]], pile=["8S", "8C", "8D"]), 0, play("8H"))
    assert pile(state) == [] and state.current == 2 and GAME.view(state, 0)["last"]["skipped"] == [1]
    state = after(make(5, hands=[["8H", "joker", "KC"]], pile=["8S", "8C"]), 0, play("8H", "joker", as_="8"))
    assert pile(state) == [] and state.current == 3


def test_going_out_on_a_burn_passes_the_turn():
    """A player who goes out with a burning play takes no other turn: play passes on (after 7s or 8s, as
    they send it)."""
    state = make(3, hands=[["10H"]], face_ups=[[]], face_downs=[[]], pile=["6S"])
    state = after(state, 0, play("10H"))
    assert state.finished == (0,) and state.current == 1 and pile(state) == []
    state = make(4, hands=[["8H", "8D"]], face_ups=[[]], face_downs=[[]], pile=["8S", "8C"])
    state = after(state, 0, play("8H", "8D"))
    assert state.finished == (0,) and state.current == 3 and pile(state) == []
    for edition in (1, 2):  # a stack burn that goes out: the next player
        state = make(4, hands=[["8H", "8D"]], face_ups=[[]], face_downs=[[]], pile=["8S", "8C"], edition=edition)
        assert after(state, 0, play("8H", "8D")).current == 1


def test_counting_places_wraps_round():
    """Counting places for 7s and 8s counts only players still in the game and goes round the table as
    often as needed: with two players one 7 gives the opponent two turns in a row and one 8 gives the
    8-player another turn."""
    state = after(make(2, hands=[["7H", "KH"], ["4D", "5D", "6D"]]), 0, play("7H"))
    assert state.current == 1
    state = after(state, 1, play("4D"))
    assert state.current == 1
    state = after(make(2, hands=[["8H", "KH"]]), 0, play("8H"))
    assert state.current == 0
    # as written, n 7s can give one player two turns in a row with 3 or 4 players too: two 7s with
    # three players send the turn two places back (to 1), then play resumes after the 7-player (1)
    state = after(make(3, hands=[["7H", "7D", "KH"], ["4D", "5D", "6D"]]), 0, play("7H", "7D"))
    assert state.current == 1 and after(state, 1, play("4D")).current == 1
    state = after(make(4, hands=[["7H", "7D", "7C", "KH"], ["4D", "5D", "6D"]]), 0, play("7H", "7D", "7C"))
    assert state.current == 1 and after(state, 1, play("4D")).current == 1
    # a player who is out is not counted
    state = make(4, hands=[["8H", "KH"], [], ["4C"], ["4S"]], face_ups=[["KS"], [], ["KC"], ["KD"]],
                 face_downs=[["QS"], [], ["QC"], ["QD"]], finished=(1,))
    assert after(state, 0, play("8H")).current == 3


def test_after_the_seven_play_goes_on_from_the_seven_player():
    """After the turn a 7 sent back (a play, taking the pile, or another turn after a burn), play goes
    on from the 7-player in the direction of play at that moment: a Social card played on that turn has
    already reversed it, and 8s played on it skip players from there."""
    hands = [["4H", "5H", "6H"], ["7H", "KH", "QH"], ["4C", "5C", "6C"], ["4D", "5D", "6D"], ["8S", "10S", "social"]]
    base = make(5, hands=hands, current=1, pile=["4S"])
    state = after(base, 1, play("7H"))
    assert state.current == 0
    # another turn after a burn stays on the detour
    state = make(5, hands=[["10H", "5H", "6H"], ["7H", "KH", "QH"]], current=1, pile=["4S"])
    state = after(state, 1, play("7H"))
    state = after(state, 0, play("10H"))
    assert state.current == 0 and state.detour == 1
    state = after(state, 0, play("5H"))
    assert state.current == 2
    # a Social card on the detour turns play back first
    state = make(5, hands=[["social", "5H", "6H"], ["7H", "KH", "QH"]], current=1)
    state = after(state, 1, play("7H"))
    state = after(state, 0, play("social"))
    assert state.direction == -1 and state.current == 0  # from the 7-player (1), backwards: 0 again
    # 8s on the detour skip from the 7-player's follower
    state = make(5, hands=[["8H", "5H", "6H"], ["7H", "KH", "QH"]], current=1)
    state = after(state, 1, play("7H"))
    state = after(state, 0, play("8H"))
    assert state.current == 3 and GAME.view(state, 0)["last"]["skipped"] == [2]


def test_social_reversal_lasts():
    """A Social card's reversal lasts until the next odd number of Social cards; with two players it
    changes nothing."""
    state = make(4, hands=[["4H", "5H"], ["social", "5D"], ["4C", "5C"], ["4S", "5S"]], current=1)
    state = after(state, 1, play("social"))
    state = after(state, 0, play("4H"))
    state = after(state, 3, play("4S"))
    assert state.current == 2 and state.direction == -1
    state = after(make(2, hands=[["social", "4H"]]), 0, play("social"))
    assert state.current == 1


def test_cardinal_swaps_are_optional_and_ordered():
    """Cardinal swaps are optional: the first is the player's own hand with another player's, the others
    any two players still in the game (the Cardinal player too), never a pair that already swapped this
    turn; `no_swap` gives up the swaps left, and swaps lapse when no new pair is left."""
    state = make(6, hands=[["cardinal", "cardinal", "joker", "KH"], ["4D"], ["5C"]])
    state = after(state, 0, play("cardinal", "cardinal", "joker"))
    assert state.swaps_left == 3
    assert_refused(GAME, state, 0, TAKE, "Cardinal swap")
    state = after(state, 0, swap(0, 1))
    assert swap(0, 2) in GAME.legal_actions(state, 0) and swap(1, 2) in GAME.legal_actions(state, 0)
    state = after(state, 0, NO_SWAP)
    assert state.current == 1 and state.swaps_left == 0
    # with two players only one pair exists: the second swap lapses
    state = after(make(2, hands=[["cardinal", "joker", "KH"], ["4D"]]), 0, play("cardinal", "joker"), swap(0, 1))
    assert state.current == 1 and state.swaps_left == 0
    # declined at once: hands stay
    state = after(make(3, hands=[["cardinal", "KH"], ["4D"]]), 0, play("cardinal"), NO_SWAP)
    assert hand(state, 0) == ["KH"] and state.current == 1
    assert_refused(GAME, state, 1, swap(0, 1), "no Cardinal swap")


def test_out_players_do_not_swap():
    """Players who are out take no part in swaps, and a player who goes out with their Cardinal play
    makes no swap."""
    state = make(3, hands=[["cardinal", "KH"], [], ["5C"]], face_ups=[["KS"], [], ["KC"]],
                 face_downs=[["QS"], [], ["QC"]], finished=(1,))
    state = after(state, 0, play("cardinal"))
    assert GAME.legal_actions(state, 0) == [swap(0, 2), NO_SWAP]
    assert_refused(GAME, state, 0, swap(0, 1), "out of the game")
    state = make(3, hands=[["cardinal"]], face_ups=[[]], face_downs=[[]])
    state = after(state, 0, play("cardinal"))
    assert state.finished == (0,) and state.swaps_left == 0 and state.current == 1


def test_drawing_order():
    """After every action every player still in with fewer than three hand cards draws from the pick-up
    pile, the acting player first, then in seat order."""
    state = make(3, hands=[["cardinal", "KH", "KD"], ["4D"], ["5C", "5D", "5S"]], pick_up=["2H", "3H", "9H"])
    state = after(state, 0, play("cardinal"))  # the Cardinal player draws first
    assert hand(state, 0) == ["2H", "KH", "KD"]
    state = after(state, 0, swap(0, 1))  # player 0 now holds one card and draws first, then player 1
    assert hand(state, 0) == ["3H", "4D", "9H"] and hand(state, 1) == ["2H", "KH", "KD"]


def test_going_out_at_once_and_in_order():
    """A player left with no cards at all, by playing or by being handed an empty hand in a swap, is out
    at once."""
    state = make(3, hands=[["cardinal", "KH"], [], ["5C"]], face_ups=[[], ["QS"], ["KC"]],
                 face_downs=[[], [], ["QC"]])
    state = after(state, 0, play("cardinal"), swap(0, 1))  # 0 hands KH to 1 and gets 1's empty hand
    assert state.finished == (0,) and hand(state, 1) == ["KH"]
    state = make(6, hands=[["cardinal", "cardinal", "KH"], ["4S"], ["5C"], [], ["4H"], ["4D"]],
                 face_ups=[[], ["KS"], ["KC"], ["QS"], ["KH"], ["KD"]],
                 face_downs=[[], ["QS"], ["QC"], [], ["QH"], ["QD"]])
    state = after(state, 0, play("cardinal", "cardinal"), swap(0, 3))
    assert state.finished == (0,) and state.current == 1  # 0 went out on its own swap: the second lapses
    assert hand(state, 3) == ["KH"]


def test_played_to_the_end():
    """The game is always played to the end: the last player holding cards comes last; a player's score
    is how many players finished after them."""
    state = make(3, hands=[["QH"], ["KD"], ["4C"]], face_ups=[[], [], ["5C"]], face_downs=[[], [], []])
    state = after(state, 0, play("QH"))
    state = after(state, 1, play("KD"))
    result = GAME.result(state)
    assert result.ranks == (1, 2, 3) and result.scores == (2.0, 1.0, 0.0)
    assert result.details["finishing_order"] == [0, 1, 2] and GAME.to_act(state) == frozenset()
    assert_refused(GAME, state, 2, TAKE, "over")


def test_what_everybody_knows():
    """Cards taken from the pile are known to everybody to be in that hand until they are played, and
    after a swap each of the two players knows the hand it gave away. The burn pile's cards are public."""
    state = make(3, hands=[["4H", "5H"], ["4D"], ["6C"]], pile=["QS", "KS"])
    state = after(state, 0, TAKE)
    for viewer in (None, 1, 2):
        assert GAME.view(state, viewer)["players"][0]["known_hand"] == ["QS", "KS"]
    state = make(3, hands=[["KH", "4H", "5H"]], pile=["QS", "KS"], current=0)
    state = after(state, 0, play("KH"))
    state = after(state, 1, TAKE)
    assert GAME.view(state, 2)["players"][1]["known_hand"] == ["QS", "KH", "KS"]
    assert GAME.view(state, 0)["players"][2]["known_hand"] == []
    # a card played from the hand leaves what others know of it
    state = make(3, hands=[["4H"], ["4D"], ["4C"]], pile=["QS", "KS"])
    state = after(state, 0, TAKE)
    state = after(state, 1, play("4D"))
    state = after(state, 2, play("4C"))
    state = after(state, 0, play("QS"))
    assert GAME.view(state, 2)["players"][0]["known_hand"] == ["KS"]
    # a swap: each party knows the hand it gave; a third player knows nothing new
    state = make(3, hands=[["cardinal", "9H", "9D", "9C"], ["4D", "5D"]])
    state = after(state, 0, play("cardinal"), swap(0, 1))
    assert GAME.view(state, 0)["players"][1]["known_hand"] == ["9H", "9D", "9C"]
    assert GAME.view(state, 1)["players"][0]["known_hand"] == ["4D", "5D"]
    assert GAME.view(state, 2)["players"][0]["known_hand"] == [] == GAME.view(state, None)["players"][1]["known_hand"]
    # burned cards are listed for everybody
    state = after(make(3, hands=[["10H", "KC"]], pile=["6S"]), 0, play("10H"))
    assert sorted(GAME.view(state, None)["burn_pile"]) == ["10H", "6S"]
