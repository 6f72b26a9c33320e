"""A scripted external engine that analyses until stopped, for the window's tests (stdlib only).

``--protocol usi`` (default) or ``gomocup``; plays tic-tac-toe-like boards: USI positions as
``position sfen TEXT moves ...`` (TEXT the cells ``x``/``o``/``.``, moves as ``b2``: column letter,
row from the bottom), Gomocup ones as ``BOARD`` lines. It always chooses the first empty cell.

USI: declares options of every kind (spin, check, combo, string, filename, button); ``go infinite``
writes an ``info`` line per ``MultiPV`` line every 10 ms until ``stop``; any other ``go`` answers
after three depths. Gomocup: ``ABOUT`` gives its name; a search with ``INFO timeout_turn`` of at least
10^8 ms writes a ``MESSAGE depth ...`` line (gamesuite's brain's format) every 10 ms until ``YXSTOP``
(``--no-yxstop``: it answers ``UNKNOWN`` and goes on); other searches answer after three depths.
``--log FILE`` records every line read.
"""

import argparse
import math
import queue
import sys
import threading
import time

ap = argparse.ArgumentParser()
ap.add_argument("--protocol", default="usi")
ap.add_argument("--log")
ap.add_argument("--no-yxstop", action="store_true")
ap.add_argument("--name", default="")
a = ap.parse_args()
log = open(a.log, "a") if a.log else None
lines: "queue.Queue[str | None]" = queue.Queue()


def reader():
    for line in sys.stdin:
        if log:
            log.write(line)
            log.flush()
        lines.put(line.strip())
    lines.put(None)


threading.Thread(target=reader, daemon=True).start()


def out(s):
    print(s, flush=True)


def cell(i, w, h):
    r, c = divmod(i, w)
    return f"{chr(97 + c)}{h - r}"


def usi():
    board, w, h, multipv = [], 3, 3, 1
    while True:
        line = lines.get()
        if line is None:
            return
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "usi":
            out(f"id name {a.name or 'Fake Analyser'}")
            out("id author gamesuite tests")
            out("option name USI_Hash type spin default 16 min 1 max 1024")
            out("option name Threads type spin default 1 min 1 max 8")
            out("option name Style type combo default Normal var Solid var Normal var Risky")
            out("option name Ponder type check default false")
            out("option name BookFile type filename default <empty>")
            out("option name Clear Hash type button")
            out("option name MultiPV type spin default 1 min 1 max 10")
            out("usiok")
        elif cmd == "setoption" and len(words) >= 5 and words[2] == "MultiPV":
            multipv = int(words[4])
        elif cmd == "isready":
            out("readyok")
        elif cmd == "position":
            board = list(words[2].replace("/", ""))
            w = h = int(math.isqrt(len(board)))
            if "moves" in words:
                for mv in words[words.index("moves") + 1:]:
                    col, row = ord(mv[0]) - 97, int(mv[1:])
                    board[(h - row) * w + col] = "x" if board.count("x") == board.count("o") else "o"
        elif cmd == "go":
            empty = [i for i, c in enumerate(board) if c == "."]
            infinite = "infinite" in words
            depth, nodes, t0 = 0, 0, time.time()
            stopped = False
            while not stopped:
                depth += 1
                for k in range(min(multipv, len(empty))):
                    nodes += 100
                    out(f"info depth {depth} seldepth {depth} multipv {k + 1} score cp {10 * depth - k} "
                        f"nodes {nodes} time {int((time.time() - t0) * 1000)} pv {cell(empty[k], w, h)}")
                if not infinite and depth >= 3:
                    break
                try:
                    line = lines.get(timeout=0.01)
                except queue.Empty:
                    continue
                if line is None:
                    return
                if line == "stop":
                    stopped = True
            out(f"bestmove {cell(empty[0], w, h)}")
        elif cmd == "quit":
            return


def gomocup():
    w = h = 0
    stones = {}
    timeout_turn = 5000
    while True:
        line = lines.get()
        if line is None:
            return
        words = line.replace(",", " ").split()
        if not words:
            continue
        cmd = words[0].upper()
        if cmd == "START":
            w = h = int(words[1])
            stones = {}
            out("OK")
        elif cmd == "ABOUT":
            out(f'name="{a.name or "Fake Gomocup Analyser"}", version="1.0", author="gamesuite tests"')
        elif cmd == "INFO":
            key = words[1].lower() if len(words) > 1 else ""
            if key == "timeout_turn":
                timeout_turn = int(words[2])
            elif key not in ("timeout_match", "rule", "game_type", "time_left", "max_memory", "thread_num"):
                out(f"UNKNOWN INFO key {key!r}")
        elif cmd in ("BOARD", "BEGIN", "TURN"):
            if cmd == "BOARD":
                stones = {}
                while True:
                    ln = lines.get()
                    if ln is None:
                        return
                    if ln.upper() == "DONE":
                        break
                    x, y, f = (int(v) for v in ln.split(","))
                    stones[(x, y)] = f
            elif cmd == "TURN":
                stones[(int(words[1]), int(words[2]))] = 2
            empty = [(x, y) for y in range(h) for x in range(w) if (x, y) not in stones]
            x, y = empty[0]
            depth, t0 = 0, time.time()
            infinite = timeout_turn >= 10**8
            while True:
                depth += 1
                out(f"MESSAGE depth {depth}/{depth} score +0.{depth:02d} nodes {depth * 100} nps 0 "
                    f"time {int((time.time() - t0) * 1000)} pv {x},{y}")
                if not infinite and depth >= 3:
                    break
                try:
                    ln = lines.get(timeout=0.01)
                except queue.Empty:
                    continue
                if ln is None:
                    return
                if ln.upper() == "YXSTOP":
                    if a.no_yxstop:
                        out("UNKNOWN YXSTOP")
                        continue
                    break
            stones[(x, y)] = 1
            out(f"{x},{y}")
        elif cmd == "END":
            return


usi() if a.protocol == "usi" else gomocup()
