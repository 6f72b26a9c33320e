"""Hare and Hedgehog: positions built and scored per second, and the time to search 8 plies with width limits.

The original C# engine built and scored about 100,000 positions in 300 ms and
looked 8 plies ahead in about 300 ms with the width limits [0, 0, 8, 8, 4]; it
assumed the worst hare card instead of branching on the cards. The targets here
are 3 M positions/s and 8 plies under 50 ms with the same limits.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

import numpy as np

from ..core.registry import load_game
from ..games.hare import kernels as K
from ..games.hare.config import DEFAULT_WIDTHS, Weights, parse_widths
from ..games.hare.engine import Workspace, search_root
from ..games.hare.rules import HareState

#: (spec, position) pairs: the start and a middle-game position of a few player counts.
POSITIONS = (
    ("hare(players=2,pieces=1)", None),
    ("hare(players=2,pieces=1)", "20:50:2/25:40:2 1 deck=hs"),
    ("hare", None),
    ("hare(players=3)", "20:50:2/25:40:2/16:60:3 1 deck=-"),
    ("hare(players=4)", "30:40:1/25:40:2/16:60:3/33:20:2 1 deck=gx"),
    ("hare(players=6)", None),
)

#: (label, spec, position, algorithm, worst card?)
SEARCHES = (
    ("2p one piece, alpha-beta, worst card", "hare(players=2,pieces=1)", None, "alphabeta", True),
    ("2p one piece, alpha-beta, expectimax", "hare(players=2,pieces=1)", None, "alphabeta", False),
    ("2p two pieces, alpha-beta, worst card", "hare", None, "alphabeta", True),
    ("3p max^n, worst card", "hare(players=3)", None, "maxn", True),
    ("3p paranoid, worst card", "hare(players=3)", None, "paranoid", True),
    ("3p max^n, expectimax", "hare(players=3)", None, "maxn", False),
)


def _load() -> str:
    try:
        a, b, c = os.getloadavg()
        return f"load average {a:.2f} {b:.2f} {c:.2f} on {os.cpu_count()} cores"
    except OSError:
        return "load average unknown"


def build_and_score(spec: str, text: str | None, rounds: int) -> tuple[int, float, float]:
    """Build and score every child of the position ``rounds`` times; (positions, wall s, CPU s)."""
    g = load_game(spec)
    s = g.new_state() if text is None else g.state_from_text(text)
    t = K.Tables(g)
    st = K.pack(s)
    w = Weights().array()
    moves = np.zeros(K.MAXMOVES, dtype=np.int64)
    child = np.zeros(K.SIZE, dtype=np.int64)
    tmp = np.zeros(K.MAXP, dtype=np.float64)
    K._build_and_score(st, t.cfg, t.kinds, t.prevh, t.board(w), w, np.int64(1), moves, child, tmp)
    t0, c0 = time.perf_counter(), time.process_time()
    n = K._build_and_score(st, t.cfg, t.kinds, t.prevh, t.board(w), w, np.int64(rounds), moves, child, tmp)
    return int(n), time.perf_counter() - t0, time.process_time() - c0


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="gamesuite bench hare", description=__doc__)
    p.add_argument("--rounds", type=int, default=50000, help="build-and-score rounds per position (default 50000)")
    p.add_argument("--depth", type=int, default=8, help="search depth in plies (default 8)")
    p.add_argument("--repeat", type=int, default=5, help="searches per line (default 5; the median is shown)")
    p.add_argument("--widths", default="/".join(map(str, DEFAULT_WIDTHS)), help="width limits (default 0/0/8/8/4)")
    p.add_argument("--studies", type=int, default=0, metavar="NODES",
                   help="also count the shipped studies the default and the writeup engines solve at NODES nodes "
                        "and at depths 1 and 2 (0: skip)")
    p.add_argument("--answers", type=int, default=0, metavar="N",
                   help="also time N move-time searches (--movetime) as the arena's referee does: a thread per "
                        "search, from its start to its join, through three-player games (0: skip)")
    p.add_argument("--movetime", type=int, default=100, help="move time of --answers in ms (default 100)")
    p.add_argument("--budget", type=float, default=5.0,
                   help="expectimax lines stop deepening once a search takes longer than this many seconds")
    args = p.parse_args(argv)
    widths = parse_widths(args.widths)
    print(f"gamesuite bench hare: {_load()}")
    print()
    print("positions built and scored (move generation + move + evaluation); M/s per wall second and per")
    print("CPU second of this process (the second is less sensitive to a loaded machine)")
    print(f"{'position':<52}{'positions':>12}{'M/s':>8}{'M/cpu-s':>9}")
    rates, cpu_rates = [], []
    for spec, text in POSITIONS:
        n, dt, cpu = build_and_score(spec, text, args.rounds)
        rates.append(n / dt / 1e6)
        cpu_rates.append(n / max(cpu, 1e-9) / 1e6)
        where = spec + (" " + text.split()[0] if text else " start")
        print(f"{where:<52}{n:>12}{rates[-1]:>8.2f}{cpu_rates[-1]:>9.2f}")
    print(f"{'median':<52}{'':>12}{statistics.median(rates):>8.2f}{statistics.median(cpu_rates):>9.2f}"
          "   (target >= 3 M/s)")
    print()
    print(f"search to {args.depth} plies with widths {'/'.join(map(str, widths))} from the start")
    print(f"{'search':<44}{'depth':>6}{'median ms':>11}{'cpu ms':>9}{'nodes':>11}{'M nodes/s':>11}  pv")
    ws = Workspace(max(args.depth, 12))
    for label, spec, text, algorithm, worst in SEARCHES:
        g = load_game(spec)
        s = g.new_state() if text is None else g.state_from_text(text)
        assert isinstance(s, HareState)
        search_root(s, 1, algorithm=algorithm, worst=worst, widths=widths, ws=ws)  # compile or load the cache
        depth = args.depth
        if not worst:  # expectimax branches on every card: deepen while it stays within the budget
            depth = 1
            while depth < args.depth:
                t0 = time.perf_counter()
                search_root(s, depth + 1, algorithm=algorithm, worst=worst, widths=widths, ws=ws)
                depth += 1
                if time.perf_counter() - t0 > args.budget / 4:
                    break
        times, cpus = [], []
        r = None
        for _ in range(args.repeat if worst else 1):
            t0, c0 = time.perf_counter(), time.process_time()
            r = search_root(s, depth, algorithm=algorithm, worst=worst, widths=widths, ws=ws)
            times.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
        assert r is not None
        med = statistics.median(times)
        print(f"{label:<44}{depth:>6}{med * 1000:>11.1f}{statistics.median(cpus) * 1000:>9.1f}{r.nodes:>11}"
              f"{r.nodes / med / 1e6:>11.2f}  "
              + " ".join(s.format_line(r.pv)))
    print()
    print("target: 8 plies under 50 ms (the original: about 300 ms, assuming the worst card)")
    if args.studies > 0:
        _studies(args.studies)
    if args.answers > 0:
        _answers(args.answers, args.movetime)
    return 0


def _answer(engine: Any, state: HareState, movetime: int, box: dict[str, Any]) -> None:
    from ..core.info import new_stop_flag
    from ..core.limits import Limits

    box["r"] = engine.search(state, Limits(movetime=movetime), new_stop_flag())


def _answers(n: int, movetime: int, margin_ms: float = 500.0) -> None:
    """How long move-time answers take as a referee sees them (a loaded machine shows here: run it
    beside other work to see what a timed match would); how many would lose on time past ``margin_ms``."""
    import random
    import threading

    from ..core.limits import Limits
    from ..core.registry import make_engine

    g = load_game("hare(players=3)")
    engines = [make_engine(g, "maxn"), make_engine(g, "writeup")]
    for e in engines:
        e.search(g.new_state(), Limits(depth=1))
    rng = random.Random(1)
    outer: list[float] = []
    inner: list[float] = []
    s = g.new_state()
    while len(outer) < n:
        if s.is_terminal():
            s = g.new_state()
        while s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.play(rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0])
        if s.is_terminal():
            continue
        box: dict[str, Any] = {}
        t0 = time.perf_counter()
        th = threading.Thread(target=_answer, args=(engines[s.current_player % 2], s.copy(), movetime, box),
                              daemon=True)
        th.start()
        th.join()
        outer.append((time.perf_counter() - t0) * 1000)
        inner.append(box["r"].time_ms)
        s.play(box["r"].best_move)

    def q(xs: list[float]) -> str:
        xs = sorted(xs)
        p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
        return f"{xs[len(xs) // 2]:>7.0f}{xs[int(len(xs) * 0.9)]:>7.0f}{p99:>7.0f}{xs[-1]:>7.0f}"

    print()
    print(f"{n} answers at {movetime} ms a move (three players, maxn and writeup; {_load()})")
    print(f"{'ms':<36}{'p50':>7}{'p90':>7}{'p99':>7}{'max':>7}")
    print(f"{'answer, as the referee times it':<36}{q(outer)}")
    print(f"{'search, as the engine times it':<36}{q(inner)}")
    late = sum(1 for x in outer if x > movetime + margin_ms)
    print(f"past {movetime} + {margin_ms:.0f} ms (a loss on time in the arena): {late}")


def _studies(nodes: int) -> None:
    """How many of the shipped studies each engine solves (node and depth limits: independent of the load)."""
    from ..core.limits import Limits
    from ..games.hare.studies import load_studies
    from ..games.hare.tuning import solved

    studies = load_studies()
    print()
    print(f"shipped studies solved (of {len(studies)})")
    print(f"{'engine':<20}{'depth 1':>9}{'depth 2':>9}{f'{nodes} nodes':>14}")
    for spec in ("maxn", "writeup"):
        got = [sum(solved(studies, spec, lim)) for lim in (Limits(depth=1), Limits(depth=2), Limits(nodes=nodes))]
        print(f"{spec:<20}{got[0]:>9}{got[1]:>9}{got[2]:>14}")
