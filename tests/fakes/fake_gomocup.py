"""A scripted Gomocup (pbrain) program for the arena's tests, with its own tiny board (stdlib only).

Answers ``START``/``RECTSTART`` with ``OK``, ``BEGIN``/``TURN``/``BOARD``...``DONE``
with the first empty cell (row by row from the top) as ``x,y``. ``--mode
good|illegal|offboard|crash|hang|slow|garbage|error|complain|nolimit|refuse`` acts on the
``--at``-th move request (``complain``: an ``ERROR`` line about an ``INFO`` key, as Rapfi once
sent, then the move; ``nolimit``: ``UNKNOWN`` to ``MAX_NODE``, then the move); ``--log FILE`` records every line read.

It honours ``INFO MAX_NODE n`` visibly: with no node limit, or one of at
least ``--smart-at`` (default 1000), it plays "smart" (a cell that makes three
in a row, else one that blocks the opponent's three, else the first empty
cell); below that it plays the first empty cell. ``MESSAGE nodes N`` before
each move says which limit it played under.

Swap openings (``SWAP2BOARD``, stones, ``DONE``): with no stones it places the
first three empty cells; with three it answers by ``--swap3 swap|one|two|bad``
(``one``/``two``: the first empty cells; ``bad``: an occupied cell), with five
by ``--swap5 swap|one|bad``; ``--swap0 bad`` answers ``SWAP`` to the empty board.
"""

import argparse
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--mode", default="good")
ap.add_argument("--at", type=int, default=1)
ap.add_argument("--sleep", type=float, default=1.0)
ap.add_argument("--log")
ap.add_argument("--smart-at", type=int, default=1000)
ap.add_argument("--swap0", default="good")
ap.add_argument("--swap3", default="one")
ap.add_argument("--swap5", default="swap")
a = ap.parse_args()
log = open(a.log, "a") if a.log else None
if log:
    log.write("#started\n")
    log.flush()
w = h = 0
board = {}
asks = 0
in_board = False
in_swap = None
max_node = None


def swap_answer(cells):
    empty = [(x, y) for y in range(h) for x in range(w) if (x, y) not in cells]
    how = {0: a.swap0, 3: a.swap3, 5: a.swap5}.get(len(cells), "bad")
    if len(cells) == 0:
        return "SWAP" if how == "bad" else " ".join(f"{x},{y}" for x, y in empty[:3])
    if how == "swap":
        return "SWAP"
    if how == "bad":
        x, y = cells[0]
        return f"{x},{y}"
    return " ".join(f"{x},{y}" for x, y in empty[: 2 if how == "two" else 1])


def three(x, y, who):
    """Would a stone of ``who`` at x,y make three in a row?"""
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sgn in (1, -1):
            k = 1
            while board.get((x + sgn * k * dx, y + sgn * k * dy)) == who:
                run += 1
                k += 1
        if run >= 3:
            return True
    return False


def out(s):
    print(s, flush=True)


def answer():
    global asks
    asks += 1
    empty = [(x, y) for y in range(h) for x in range(w) if (x, y) not in board]
    x, y = empty[0]
    if max_node is None or max_node >= a.smart_at:
        x, y = next((c for c in empty if three(*c, 1)), None) or next((c for c in empty if three(*c, 2)), (x, y))
    if asks >= a.at:
        if a.mode == "illegal" and board:
            x, y = next(iter(board))
        elif a.mode == "offboard":
            x, y = w + 5, 0
        elif a.mode == "crash":
            sys.exit(4)
        elif a.mode == "hang":
            return
        elif a.mode == "slow":
            time.sleep(a.sleep)
        elif a.mode == "garbage":
            out("what?")
            return
        elif a.mode == "error":
            out("ERROR cannot think")
            return
        elif a.mode == "complain":
            out("ERROR Unknown command: TIMEOUT_TURN")
        elif a.mode == "nolimit":
            out("UNKNOWN INFO MAX_NODE")
    board[(x, y)] = 1
    out(f"MESSAGE nodes {max_node if max_node is not None else 'unlimited'}")
    out("MESSAGE thinking done")
    out(f"{x},{y}")


for line in sys.stdin:
    line = line.strip()
    if log:
        log.write(line + "\n")
        log.flush()
    if not line:
        continue
    if in_swap is not None:
        if line == "DONE":
            out(swap_answer(in_swap))
            in_swap = None
        else:
            x, y = map(int, line.split(",")[:2])
            in_swap.append((x, y))
        continue
    if in_board:
        if line == "DONE":
            in_board = False
            answer()
        else:
            x, y, f = map(int, line.split(","))
            board[(x, y)] = f
        continue
    cmd, _, rest = line.partition(" ")
    cmd = cmd.upper()
    if cmd in ("START", "RECTSTART"):
        if a.mode == "refuse":
            out("ERROR unsupported size")
            continue
        if cmd == "START":
            w = h = int(rest)
        else:
            w, h = map(int, rest.split(","))
        board = {}
        asks = 0
        out("OK")
    elif cmd == "INFO":
        key, _, value = rest.partition(" ")
        if key.upper() == "MAX_NODE":
            max_node = int(value)
    elif cmd == "BEGIN":
        answer()
    elif cmd == "TURN":
        x, y = map(int, rest.split(","))
        board[(x, y)] = 2
        answer()
    elif cmd == "BOARD":
        board = {}
        in_board = True
    elif cmd == "SWAP2BOARD":
        in_swap = []
    elif cmd == "ABOUT":
        out('name="fake-gomocup", version="1"')
    elif cmd == "END":
        break
    else:
        out("UNKNOWN " + line)
