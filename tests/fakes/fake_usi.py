"""A scripted USI program for the arena's tests: plays tic-tac-toe-like boards given as text.

It keeps its own tiny board logic (stdlib only): ``position sfen TEXT moves ...``
with TEXT the board's cells (``x``, ``o``, ``.``), moves as ``b2`` (column letter,
row from the bottom); it answers ``bestmove`` with the first empty cell. Options:
``--mode good|illegal|crash|hang|slow|garbage|resign|nousiok`` acting on the
``--at``-th ``go`` of a game, ``--log FILE`` to record every line it reads.

It honours a node limit (the ``NodesLimit`` option, or ``go ... nodes N`` for
one move) visibly: with none, or one of at least ``--smart-at`` (default
1000), it plays "smart" (a cell that makes three in a row, else one that
blocks the opponent's three, else the first empty cell); below that the
first empty cell. ``info nodes N`` says which limit it played under.
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
ap.add_argument("--smart-at", type=int, default=1000)
a = ap.parse_args()
log = open(a.log, "a") if a.log else None
if log:
    log.write("#started\n")
    log.flush()
board, gos = [], 0
nodes_limit = None


def three(board, i, stone, w, h):
    """Would ``stone`` at cell ``i`` make three in a row?"""
    r0, c0 = divmod(i, w)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sgn in (1, -1):
            r, c = r0 + sgn * dr, c0 + sgn * dc
            while 0 <= r < h and 0 <= c < w and board[r * w + c] == stone:
                run += 1
                r, c = r + sgn * dr, c + sgn * dc
        if run >= 3:
            return True
    return False


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
    elif cmd == "setoption" and len(words) >= 5 and words[2] == "NodesLimit":
        nodes_limit = int(words[4]) or None
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
        limit = int(words[words.index("nodes") + 1]) if "nodes" in words else nodes_limit
        best = empty[0]
        if limit is None or limit >= a.smart_at:
            me = "x" if board.count("x") == board.count("o") else "o"
            them = "o" if me == "x" else "x"
            best = next((i for i in empty if three(board, i, me, w, h)), None)
            if best is None:
                best = next((i for i in empty if three(board, i, them, w, h)), empty[0])
        move = cell(best, w, h)
        out(f"info nodes {limit if limit is not None else 0} string limit {limit}")
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
