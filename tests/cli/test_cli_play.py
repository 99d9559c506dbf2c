"""``parlour play``: a person plays in the terminal, driven here by scripted input."""

from __future__ import annotations

import io
import itertools

import pytest

from parlour.cli import main
from parlour.cli.play import NoTerminal, terminal_for
from parlour.core import Game


def play(monkeypatch, capsys, lines, *argv: str) -> tuple[int, str]:
    monkeypatch.setenv("COLUMNS", "110")
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["play", "patchwork", *argv])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_whole_game_against_a_bot(monkeypatch, capsys):
    # always SKIP; whenever a special patch is held, SKIP is refused and the next line places it
    lines = itertools.chain.from_iterable(("skip", "skip", f"sp {k % 9} {k // 9}") for k in range(200))
    code, out = play(monkeypatch, capsys, list(lines), "--vs", "random", "--seed", "3")
    assert code == 0
    assert "Patchwork, seed 3: you are player 1 against random" in out
    assert "You skipped ahead" in out and "random bought patch" in out
    assert "Not allowed: you cannot SKIP while holding special patch -" in out
    assert "You sewed the special patch onto the square at column " in out  # counted from 1, as the rules page does
    assert "you hold no special patch" in out  # 'sp' lines when nothing is held: the prompt comes back
    assert "Final scores" in out and ("random wins" in out or "You win" in out)
    assert "collected 0 buttons" not in out


def test_illegal_and_unreadable_moves_are_refused_and_the_prompt_comes_back(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["help", "dance", "play 99 0 0", "p 26 0 0 r 7", "board", "quit"],
                     "--seed", "7", "--vs", "random")
    assert code == 0
    assert "PLAY 12 1 0 3 4" in out  # the help
    assert "I do not understand 'dance'" in out
    assert "Not allowed: there is no patch 99" in out
    assert "Not allowed: 'rotation' is the number of clockwise quarter turns, 0 to 3, not 7" in out
    assert out.count("player 1>") == 6 and out.count("On offer:") == 2
    assert "You leave the game." in out


def test_a_legal_move_is_applied_and_the_bot_answers(monkeypatch, capsys):
    from parlour.games import get

    game = get("patchwork")
    offer = game.start(2, {}, 7).circle[:3]
    code, out = play(monkeypatch, capsys, [f"p {offer[2]} 0 0", "quit"], "--seed", "7")
    assert code == 0
    assert f"You bought patch {offer[2]} for" in out or "Not allowed" in out
    assert "greedy" in out


def test_seat_two_lets_the_bot_open(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, [], "--seat", "2", "--seed", "5")
    assert code == 0 and "you are player 2" in out and "no more input" in out
    assert out.index("greedy ") < out.index("player 2>")


def test_unknown_bot_and_bad_seat_are_refused_in_words(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, [], "--vs", "nobody")
    assert code == 2 and "has no bot 'nobody'" in out
    code, out = play(monkeypatch, capsys, [], "--seat", "3")
    assert code == 2 and "--seat is 1 to 2" in out


class Blank(Game):
    id = name = "blank"
    pitch = "nothing"
    min_players = max_players = 2


Blank.__abstractmethods__ = frozenset()
Blank.__module__ = "parlour.games.blank.engine"


def test_a_game_without_a_terminal_renderer_says_so():
    with pytest.raises(NoTerminal, match="blank cannot be played in the terminal"):
        terminal_for(Blank())


def test_unknown_game(capsys):
    assert main(["play", "chess"]) == 2
    assert "there is no game 'chess'" in capsys.readouterr().err


def test_the_reason_at_the_end_names_the_players(monkeypatch, capsys):
    # Patchwork's own reasons name nobody: give it one that does, as Empire's do
    from dataclasses import replace

    from parlour.games.patchwork.engine import Patchwork

    def result(self, state):
        outcome = own(self, state)
        return outcome and replace(outcome, reason="{p1} outsewed {p0} [bold]")

    own = Patchwork.result
    monkeypatch.setattr(Patchwork, "result", result)
    lines = itertools.chain.from_iterable(("skip", "skip", f"sp {k % 9} {k // 9}") for k in range(200))
    code, out = play(monkeypatch, capsys, list(lines), "--vs", "random", "--seed", "3")
    assert code == 0 and "random outsewed You [bold]" in out


def test_options_are_checked_against_the_games(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, [], "--option", "blight=true")
    assert code == 2 and "Patchwork has no option 'blight'; its options: none" in out


# --- the other games: a whole game each, moves by number and in words --------------------------------

def play_game(monkeypatch, capsys, game: str, lines, *argv: str) -> tuple[int, str]:
    monkeypatch.setenv("COLUMNS", "110")
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["play", game, *argv])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.parametrize("game,words,understood,refused", [
    ("empire", ["claim 9", "guess nobody"], "claim 2, 3 or 4 coins", "no role is called 'nobody'"),
    ("dinosaurs", ["play 9", "dance"], "type a move's number", "your hand has cards 1 to 0"),
    ("palace", ["play 1x", "play joker as joker"], "play joker as 10", "'1x' is not a card"),
    ("prestige_cities", ["build q 3 4", "cards"], "build r 3 4", "'q' is not a block"),
])
def test_a_whole_game_in_the_terminal(monkeypatch, capsys, game, words, understood, refused):
    # the first listed move every time: a number picks from the list under the board
    lines = ["help", *words, "0", *["1"] * 2500]
    code, out = play_game(monkeypatch, capsys, game, lines, "--seed", "3")
    assert code == 0
    assert understood in out  # the help
    assert refused in out
    assert "there is no move 0: choose 1 to" in out
    assert "   1. " in out  # the moves, listed by number
    assert "no more input" not in out  # the game ended before the input did
    assert "wins" in out or "shared win" in out
    if game == "prestige_cities":
        assert "Deck 1, " in out  # 'cards': the bonus cards in full


def test_moves_in_words_are_the_engine_s_actions():
    from parlour.games.dinosaurs.terminal import parse_move as dinosaur
    from parlour.games.empire.terminal import parse_move as empire
    from parlour.games.palace.terminal import parse_move as palace
    from parlour.games.prestige_cities.terminal import parse_move as prestige

    view = {"roles": [{"number": 7, "name": "Captain"}], "revelatory": [{"name": n} for n in "ABCD"]}
    assert empire("Accuse captain", view, 0) == {"type": "accuse", "role": 7}
    assert empire("reveal d a", view, 0) == {"type": "reveal", "slots": [0, 3]}
    assert empire("keep drawn", view, 0) == {"type": "keep", "card": "drawn"}
    assert empire("collect 2", view, 0) == {"type": "collect", "from_opponent": 2}
    assert dinosaur("play 2", {"hand": [53, 26]}, 0) == {"type": "play", "card": 26}
    assert dinosaur("play 1", {"hand": [53, 26]}, 0) == {"type": "instant", "card": 53}
    assert palace("play 10s QH", {}, 0) == {"type": "play", "cards": ["10S", "QH"]}
    assert palace("swap 1 3", {}, 0) == {"type": "swap", "seats": [0, 2]}
    assert palace("flip 2", {}, 0) == {"type": "flip", "index": 1}
    # squares counted from 1, as the rules page and the log count them (issue 28.9); the actions from 0
    assert prestige("remove 2 5", {"task": {"kind": "remove"}}, 0) == {"type": "remove", "row": 1, "col": 4}
    assert prestige("2 5", {"task": {"kind": "remove"}}, 0) == {"type": "remove", "row": 1, "col": 4}
    with pytest.raises(ValueError, match="counted from 1"):
        prestige("0 5", {"task": {"kind": "remove"}}, 0)
    with pytest.raises(ValueError, match="which block"):
        prestige("2 5", {"task": {"kind": "pick"}}, 0)
