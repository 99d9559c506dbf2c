#!/usr/bin/env python3
"""A starter bot for Patchwork, written from the rules document's "Game Input/Output" alone.

It reads every line the referee sends, exactly as the document describes them, and plays a
simple but legal game: buy the first patch on offer that it can afford and fit on its quilt
(the best-looking one by a rough value), else SKIP. Run it in the arena:

    parlour arena patchwork --bot mine='python3 examples/bots/patchwork/starter.py' --bot g=builtin:greedy

Debug output goes to standard error (the arena writes it to a log file); standard output is
for commands only, one line per turn, flushed.
"""

import sys

SIZE = 9  # the quilt is 9x9; x counts columns from the left, y rows from the top


def read_ints():
    return [int(word) for word in input().split()]


def read_patch():
    """One 'tile_id tile_earning tile_button_price tile_time_price tile_shape' line."""
    pid, earning, price, time, shape = input().split()
    return {"id": int(pid), "earning": int(earning), "price": int(price), "time": int(time),
            "rows": shape.split("|")}  # 'O' is a square of the patch, '.' is not


def transform(rows, rotations, flip):
    """The shape as laid: mirrored horizontally first if flip, then turned clockwise."""
    if flip:
        rows = [row[::-1] for row in rows]
    for _ in range(rotations):
        rows = ["".join(rows[len(rows) - 1 - r][c] for r in range(len(rows))) for c in range(len(rows[0]))]
    return rows


def fits(quilt, rows, x, y):
    if x + len(rows[0]) > SIZE or y + len(rows) > SIZE:
        return False
    return all(quilt[y + dy][x + dx] == "." for dy, row in enumerate(rows) for dx, ch in enumerate(row) if ch == "O")


def sew(quilt, rows, x, y):
    for dy, row in enumerate(rows):
        for dx, ch in enumerate(row):
            if ch == "O":
                quilt[y + dy][x + dx] = "O"


def first_place(quilt, patch):
    """(rotations, flip, x, y) of the first place the patch fits, scanning row by row, or None."""
    for y in range(SIZE):
        for x in range(SIZE):
            for flip in (0, 1):
                for rotations in range(4):
                    rows = transform(patch["rows"], rotations, flip)
                    if fits(quilt, rows, x, y):
                        return rotations, flip, x, y
    return None


# --- initialisation input: read once, before the first turn ---------------------------------------
income_events = int(input())                 # how many "Button Income" events
income_times = read_ints()                   # their times on the time board
patch_events = int(input())                  # how many "Special Patch" events
patch_times = read_ints()                    # their times
tiles = int(input())                         # always 33
game_patches = [read_patch() for _ in range(tiles)]  # every patch, in game order
print(f"{income_events} income events at {income_times}, special patches at {patch_times}", file=sys.stderr)

# My own quilt: the referee only shows the opponent's, so the bot keeps track of its own.
quilt = [["."] * SIZE for _ in range(SIZE)]

# --- game turns ---------------------------------------------------------------------------------
while True:
    line = sys.stdin.readline()
    if not line:
        break  # the match is over: the referee closed our input
    my_buttons, my_time = map(int, line.split())
    opponent_buttons, opponent_time, opponent_income = read_ints()
    opponent_quilt = [input() for _ in range(SIZE)]  # 9 rows of 'O' (taken) and '.' (empty)
    playable = int(input())                  # 3 in a normal turn, 1 for a special patch
    patches = [read_patch() for _ in range(playable)]

    income_left = sum(1 for t in income_times if t > my_time)
    best, best_value = None, None
    for patch in patches:
        if patch["price"] > my_buttons:
            continue  # PLAYing a patch you cannot pay for loses the game
        place = first_place(quilt, patch)
        if place is None:
            continue
        squares = sum(row.count("O") for row in patch["rows"])
        value = 2 * squares + patch["earning"] * income_left - patch["price"] - patch["time"]
        if patch["id"] < 0:
            value = float("inf")  # a special patch must be placed now: SKIP would lose
        if best_value is None or value > best_value:
            best, best_value = (patch, place), value

    if best is None or (best_value < 0 and best[0]["id"] >= 0):
        print("SKIP", flush=True)
    else:
        patch, (rotations, flip, x, y) = best
        sew(quilt, transform(patch["rows"], rotations, flip), x, y)
        print(f"PLAY {patch['id']} {rotations} {flip} {x} {y}", flush=True)
