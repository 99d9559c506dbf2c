"""A Patchwork bot that misbehaves in one chosen way: ``misbehave.py MODE [FILE]``.

It answers SKIP until its turn number TURN (``MODE@TURN``, default 1) and then does MODE.
Each mode is one of the ways the referee must survive (docs/bots.md lists the reasons).
"""

import os
import signal
import subprocess
import sys
import time

mode, _, at = sys.argv[1].partition("@")
at = int(at or 1)
note = sys.argv[2] if len(sys.argv) > 2 else None


def read_turn(first):
    lines = []
    if first:
        for _ in range(4):
            lines.append(sys.stdin.readline())
        tiles = int(sys.stdin.readline())
        lines += [sys.stdin.readline() for _ in range(tiles)]
    lines += [sys.stdin.readline() for _ in range(11)]
    playable = int(sys.stdin.readline())
    lines += [sys.stdin.readline() for _ in range(playable)]
    return lines


if mode == "children":  # leaves a child behind at once and writes its pid to FILE; later it hangs
    child = subprocess.Popen(["sleep", "120"])
    with open(note, "w") as f:
        f.write(str(child.pid))

if mode == "fullpipe":  # never reads its input; answers SKIP forever until its output pipe is full
    while True:
        sys.stdout.write("SKIP\n" * 1000)
        sys.stdout.flush()

if mode == "nonreader":  # never reads its input (and never answers)
    time.sleep(60)

turn = 0
while True:
    read_turn(turn == 0)
    turn += 1
    if turn < at:
        print("SKIP", flush=True)
        continue
    if mode == "timeout":
        time.sleep(60)
    elif mode == "slow":  # answers, but too late
        time.sleep(5)
        print("SKIP", flush=True)
    elif mode == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif mode == "status":
        sys.exit(3)
    elif mode == "exit":
        sys.exit(0)
    elif mode == "garbage":
        print("HELLO WORLD", flush=True)
    elif mode == "megabytes":  # 4 MB without a line ending
        sys.stdout.write("S" * (4 << 20))
        sys.stdout.flush()
        time.sleep(60)
    elif mode == "nonewline":
        sys.stdout.write("SKIP")
        sys.stdout.flush()
        time.sleep(60)
    elif mode == "illegal":
        print("PLAY 99 0 0 0 0", flush=True)
    elif mode == "children":
        time.sleep(60)
    elif mode == "stderr":  # floods its error log past the limit
        chunk = "x" * (1 << 20) + "\n"
        for _ in range(64):
            sys.stderr.write(chunk)
        print("SKIP", flush=True)
    else:
        raise SystemExit(f"unknown mode {mode}")
