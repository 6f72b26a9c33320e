"""Shogi: perft speed of the numba move generator (bulk counting at the last ply).

Counts the published perft figures (start position to depth 5, the two
drop-heavy positions, minishogi) and prints, per position, the count, whether
it is the published one, the best wall-clock time of the repeats and the
speed in nodes per second by wall clock and by process CPU time (the second
is steadier on a busy machine). Then the engine's search speed: a search of
fixed time from the start position and from the middle-game position, with
the full evaluation and with material and piece-square tables only
(``positional=false``). Then the df-pn mate search on tsume problems of 1 to
13 plies: the mate length, nodes and time of each; and on the repository's
set of mate problems from our own games (``tests/data/shogi_tsume.txt``, or
``--tsume FILE``): how many are solved at each mate length, and how fast.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast

from ..core.registry import load_game

if TYPE_CHECKING:
    from ..games.shogi.rules import Shogi, ShogiState

#: The mate problem set of the repository (``tests/benchmarks/shogi_make_tsume.py`` made it).
TSUME_FILE = Path(__file__).resolve().parents[2] / "tests" / "data" / "shogi_tsume.txt"

CASES = (
    ("start", "shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 5, 19_861_490),
    ("midgame", "shogi", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1", 3, 4_809_015),
    ("drops", "shogi", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 2, 105_677),
    ("mini", "shogi(variant=mini)", "rbsgk/4p/5/P4/KGSBR b - 1", 5, 533_203),
)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="gamesuite bench shogi", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=3, help="runs per position; the best is shown (default 3)")
    p.add_argument("--deep", action="store_true", help="one ply deeper everywhere (start: 547,581,517 nodes)")
    p.add_argument("--search-ms", type=int, default=3000,
                   help="milliseconds of each engine search (default 3000; 0: no search)")
    p.add_argument("--no-perft", action="store_true", help="skip the perft figures")
    p.add_argument("--no-mate", action="store_true", help="skip the mate-search figures")
    p.add_argument("--tsume", default=str(TSUME_FILE),
                   help="the mate problem set to solve (default: the repository's tests/data/shogi_tsume.txt; "
                        "'' to skip)")
    p.add_argument("--tsume-nodes", type=int, default=2_000_000, help="df-pn nodes per problem (default 2,000,000)")
    p.add_argument("--tsume-reference", type=int, default=7,
                   help="also solve the set's mates of up to this many plies with the plain-Python reference "
                        "(default 7; 0: none)")
    args = p.parse_args(argv)
    if not args.no_perft:
        _bench_perft(args)
    if args.search_ms > 0:
        _bench_search(args.search_ms)
    if not args.no_mate:
        _bench_mate()
        if args.tsume:
            _bench_tsume(args.tsume, args.tsume_nodes, args.tsume_reference)
    return 0


def _bench_perft(args: argparse.Namespace) -> None:
    print(f"{'position':<10}{'depth':>6}{'nodes':>13}  {'ok':<4}{'best s':>9}{'M nodes/s':>11}{'CPU M/s':>10}")
    for label, spec, sfen, depth, expected in CASES:
        state = cast("ShogiState", load_game(spec).state_from_text(sfen))
        if args.deep:
            depth += 1
            expected = {"start": 547_581_517, "midgame": 516_925_165, "drops": 53_393_368,
                        "mini": None}.get(label)  # type: ignore[assignment]
        state.perft(2)  # compile or load the kernels
        best_wall, best_cpu, count = float("inf"), float("inf"), 0
        for _ in range(max(1, args.repeat)):
            t, c = time.perf_counter(), time.process_time()
            count, _done = state.perft(depth)
            best_wall = min(best_wall, time.perf_counter() - t)
            best_cpu = min(best_cpu, time.process_time() - c)
        ok = "-" if expected is None else ("yes" if count == expected else "NO")
        print(f"{label:<10}{depth:>6}{count:>13}  {ok:<4}{best_wall:>9.3f}{count / best_wall / 1e6:>11.2f}"
              f"{count / max(best_cpu, 1e-9) / 1e6:>10.2f}", flush=True)


def _bench_search(ms: int) -> None:
    from ..core.limits import Limits
    from ..games.shogi.engine import ShogiEngine, warm_up

    warm_up()
    print(f"\n{'search':<19}{'depth':>6}{'nodes':>13}{'s':>9}{'k nodes/s':>11}{'CPU k/s':>10}  best move")
    for (label, _spec, sfen, _d, _n), positional in [(c, p) for p in (True, False) for c in CASES[:2]]:
        game = cast("Shogi", load_game("shogi"))
        state = game.state_from_text(sfen)
        engine = ShogiEngine(game, hash=64, mate=0, positional=positional)
        label = f"{label}{'' if positional else ' (basic)'}"
        t, c = time.perf_counter(), time.process_time()
        r = engine.search(state, Limits(movetime=ms))
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        best = state.format_move(r.best_move) if r.best_move is not None else "-"
        print(f"{label:<19}{r.depth:>6}{r.nodes:>13}{wall:>9.3f}{r.nodes / wall / 1e3:>11.1f}"
              f"{r.nodes / max(cpu, 1e-9) / 1e3:>10.1f}  {best} ({r.score.text()})", flush=True)


#: Tsume problems (Sente to mate with checks) and their shortest mates in plies.
MATES = (
    ("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1),
    ("6+P2/8k/6S2/8+P/9/9/9/9/K8 b 2S 1", 3),
    ("6snk/6p2/9/9/9/9/9/9/4K4 b RBG 1", 5),
    ("5l2k/9/4s4/3+R5/9/9/9/9/K8 b GP 1", 7),
    ("6g1k/5G2p/7P1/9/9/9/9/9/K8 b 2SR 1", 9),
    ("3+B5/8k/8s/5S3/9/9/9/9/K8 b LGN 1", 9),
    ("3+Bgk2G/8n/9/9/9/9/9/9/K8 b PRN 1", 13),
    ("7nk/9/7G1/9/9/9/9/9/4K4 b P 1", None),
)


def _bench_mate() -> None:
    from ..games.shogi.mate import find_mate

    game = load_game("shogi")
    find_mate(game.state_from_text(MATES[0][0]))  # compile or load the kernels
    print(f"\n{'mate search (df-pn)':<40}{'want':>5}{'found':>8}{'nodes':>10}{'s':>8}{'k nodes/s':>11}")
    for sfen, want in MATES:
        state = game.state_from_text(sfen)
        t = time.perf_counter()
        r = find_mate(state, nodes=5_000_000)
        wall = time.perf_counter() - t
        found = str(r.plies) if r.status == "mate" else r.status
        print(f"{sfen:<40}{want if want is not None else '-':>5}{found:>8}{r.nodes:>10}{wall:>8.3f}"
              f"{r.nodes / max(wall, 1e-9) / 1e3:>11.1f}", flush=True)


def read_tsume(path: str | Path) -> list[tuple[str, int, list[str]]]:
    """The problems of a tsume file: ``(SFEN, plies of the shortest mate, a mating line)`` per line."""
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        sfen, plies, moves = (part.strip() for part in line.split("|"))
        out.append((sfen, int(plies), moves.split()))
    return out


def _bench_tsume(path: str, nodes: int, reference: int = 0) -> None:
    """Solve every problem of the set with df-pn (solved: a mate no longer than the set's), by mate length, and
    how fast; then the ones of up
    to ``reference`` plies with the plain-Python reference (``mate_reference``), which must find the same
    length."""
    from collections import defaultdict

    from ..games.shogi.mate import find_mate, mate_reference

    if not Path(path).exists():
        print(f"\n(no mate problem set at {path})")
        return
    game = load_game("shogi")
    find_mate(game.state_from_text(MATES[0][0]))  # compile or load the kernels outside the times
    rows: dict[int, list[tuple[bool, int, float]]] = defaultdict(list)
    for sfen, plies, _line in read_tsume(path):
        state = game.state_from_text(sfen)
        t = time.perf_counter()
        found = find_mate(state, nodes=nodes)
        rows[plies].append((found.status == "mate" and found.plies <= plies, found.nodes, time.perf_counter() - t))
    print(f"\n{'tsume set (df-pn, ' + f'{nodes:,} nodes at most)':<34}{'problems':>9}{'solved':>8}{'mean s':>9}"
          f"{'max s':>8}{'mean nodes':>12}")
    for plies in sorted(rows):
        r = rows[plies]
        print(f"{'mate in ' + str(plies) + ' plies':<34}{len(r):>9}{sum(ok for ok, _, _ in r):>8}"
              f"{sum(t for _, _, t in r) / len(r):>9.3f}{max(t for _, _, t in r):>8.3f}"
              f"{sum(n for _, n, _ in r) // len(r):>12}")
    every = [x for r in rows.values() for x in r]
    print(f"{'all':<34}{len(every):>9}{sum(ok for ok, _, _ in every):>8}"
          f"{sum(t for _, _, t in every) / len(every):>9.3f}{max(t for _, _, t in every):>8.3f}"
          f"{sum(n for _, n, _ in every) // len(every):>12}", flush=True)
    if reference <= 0:
        return
    ref: dict[int, list[tuple[bool, float]]] = defaultdict(list)
    for sfen, plies, _line in read_tsume(path):
        if plies <= reference:
            state = game.state_from_text(sfen)
            t = time.perf_counter()
            length = mate_reference(state, plies)
            ref[plies].append((length == plies, time.perf_counter() - t))
    print(f"\n{'tsume set (plain-Python reference)':<34}{'problems':>9}{'solved':>8}{'mean s':>9}{'max s':>8}")
    for plies in sorted(ref):
        r2 = ref[plies]
        print(f"{'mate in ' + str(plies) + ' plies':<34}{len(r2):>9}{sum(ok for ok, _ in r2):>8}"
              f"{sum(t for _, t in r2) / len(r2):>9.3f}{max(t for _, t in r2):>8.3f}", flush=True)
