"""A scripted USI program for the arena's tests: plays tic-tac-toe-like boards given as text.

It keeps its own tiny board logic (stdlib only): ``position sfen TEXT moves ...``
with TEXT the board's cells (``x``, ``o``, ``.``), moves as ``b2`` (column letter,
row from the bottom); it answers ``bestmove`` with the first empty cell. Options:
``--mode good|illegal|crash|hang|slow|garbage|resign|nousiok`` acting on the
``--at``-th ``go`` of a game, ``--log FILE`` to record every line it reads.
"""

import argparse
import math
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--mode", default="good")
ap.add_argument("--at", type=int, default=1)
ap.add_argument("--sleep", type=float, default=1.0)
ap.add_argument("--log")
a = ap.parse_args()
log = open(a.log, "a") if a.log else None
if log:
    log.write("#started\n")
    log.flush()
board, gos = [], 0


def cell(i, w, h):
    r, c = divmod(i, w)
    return f"{chr(97 + c)}{h - r}"


def out(s):
    print(s, flush=True)


for line in sys.stdin:
    line = line.strip()
    if log:
        log.write(line + "\n")
        log.flush()
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "usi":
        out("id name fake-usi")
        out("id author tests")
        if a.mode != "nousiok":
            out("usiok")
    elif cmd == "isready":
        out("readyok")
    elif cmd == "usinewgame":
        gos = 0
    elif cmd == "position":
        text = words[2]
        board = list(text.replace("/", ""))
        w = h = int(math.isqrt(len(board)))
        if "moves" in words:
            for mv in words[words.index("moves") + 1:]:
                col, row = ord(mv[0]) - 97, int(mv[1:])
                stone = "x" if board.count("x") == board.count("o") else "o"
                board[(h - row) * w + col] = stone
    elif cmd == "go":
        gos += 1
        w = h = int(math.isqrt(len(board)))
        empty = [i for i, c in enumerate(board) if c == "."]
        move = cell(empty[0], w, h)
        if gos >= a.at:
            if a.mode == "illegal":
                taken = [i for i, c in enumerate(board) if c != "."]
                move = cell(taken[0], w, h) if taken else "z99"
            elif a.mode == "crash":
                sys.exit(3)
            elif a.mode == "hang":
                continue
            elif a.mode == "slow":
                time.sleep(a.sleep)
            elif a.mode == "garbage":
                move = "banana"
            elif a.mode == "resign":
                move = "resign"
        out("info depth 1 score cp 0 pv " + move)
        out("bestmove " + move)
    elif cmd == "quit":
        break
