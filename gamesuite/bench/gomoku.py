"""Gomoku: per algorithm, nodes, nodes/s and time to each depth on fixed middle-game positions;
VCF and VCT solve times; stop latency.

Figures are wall-clock (and process CPU time, which is what one core really
spent when the machine is shared); the machine's load average is printed first.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

from ..core.info import SearchInfo, new_stop_flag
from ..core.limits import Limits
from ..core.registry import load_game, make_engine
from ..games.gomoku.engine import GomokuEngine, warm_up

#: 15x15 freestyle middle games (30, 30 and 31 stones).
MIDDLE_GAMES = [
    "h8 g10 f8 f9 h11 g8 h7 h9 g9 i10 j11 f10 h10 i11 f7 e7 j7 i7 i8 i13 i12 h12 g11 j10 g13 k10 k9 f12 g6 f5",
    "h8 f6 f8 g8 e6 e7 g5 f5 f4 h6 i6 g7 h7 g10 g9 f10 h10 h9 f11 i11 i10 c7 d7 h11 i8 i12 i7 i9 i5 i4",
    "h8 g10 j7 h10 j10 i9 j8 j9 k9 f10 e10 i7 i8 k8 g8 f8 f9 d11 i10 i11 g9 e9 h6 h7 k6 l5 j6 l6 g6 i6 e8",
]

#: Positions with a victory by continuous fours for the side to move.
VCF_POSITIONS = [
    "h8 f7 e10 f5 e5 h9 g8 i8 f9 h7 e4 g7 i7 j9 g6 f4 f6 e6 d7 j6 g10 e8 f10 k10 l11 h10",
    "h8 i11 g9 e9 j11 f7 f10 e11 i7 j6 h6 e10 e8 e12 e13 g8 g5 j8 h7 h9 h4 h5 e6 f11 g10 g12 h13",
    "h8 e6 f7 j6 h5 j5 g6 i4 e8 d9 h7 h4 h6 h9 j7 i7 g4 k8 i5 g7 f3 i6 f5 i8",
]

#: Positions won by continuous threats (fours and open threes) but not by fours alone.
VCT_POSITIONS = [
    "h8 j8 e9 i11 h5 k7 h6 h7 g7 i5",
    "h8 i11 f9 g8 e10 i6 f11 g9",
    "h8 j8 j10 j11 f10 e9 g9 e11",
    "h8 e11 f10 k6 h7 e10 h9 h6 h11 h10 e9 g11",
]

ALGORITHMS = ["mtdf,top=10", "mtdf,top=10,threads=2", "pvs,top=10", "negamax,top=10", "pvs", "negamax"]


def _deepen(game, spec: str, text: str, depth: int, movetime: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    state = game.state_from_text(text)
    warm_up()  # every kernel compiled or loaded before anything is timed
    engine = make_engine(game, spec)
    engine.search(state, Limits(depth=2))
    engine.new_game()
    rows: list[SearchInfo] = []
    t0 = time.perf_counter()
    c0 = time.process_time()
    result = engine.search(state, Limits(depth=depth, movetime=movetime), on_info=rows.append)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    print(f"  {spec}")
    passes = getattr(engine, "last_passes", {})
    for i in rows:
        np_ = f"  passes {passes[i.depth]:>2}" if i.depth in passes else ""
        print(f"    depth {i.depth:>2} nodes {i.nodes:>10} time {i.time_ms:>7} ms  knodes/s {i.nps / 1000:>7.0f}"
              f"{np_}  {i.score.text():>10}  {' '.join(state.format_line(i.pv)[:6])}")
    print(f"    reached depth {result.depth} in {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU: "
          f"{result.nodes / max(cpu, 1e-9) / 1000:.0f} knodes per CPU second")
    return wall, cpu


def _vcf(game, repeat: int) -> None:  # type: ignore[no-untyped-def]
    engine = make_engine(game, "mtdf")
    assert isinstance(engine, GomokuEngine)
    print("VCF (victory by continuous fours) from the root")
    for text in VCF_POSITIONS:
        state = game.state_from_text(text)
        engine.solve_vcf(state)
        times = []
        line = None
        for _ in range(repeat):
            t = time.perf_counter()
            line = engine.solve_vcf(state)
            times.append((time.perf_counter() - t) * 1000)
        plies = len(line) if line else 0
        print(f"  {len(state.history)} stones: win in {plies} plies, median {statistics.median(times):.2f} ms, "
              f"best {min(times):.2f} ms  {' '.join(state.format_line(line or [])[:9])}")
    print("VCT (victory by continuous threats: fours and open threes) from the root")
    for text in VCT_POSITIONS:
        state = game.state_from_text(text)
        engine.solve_vct(state)
        times = []
        line = None
        for _ in range(repeat):
            t = time.perf_counter()
            line = engine.solve_vct(state)
            times.append((time.perf_counter() - t) * 1000)
        plies = len(line) if line else 0
        print(f"  {len(state.history)} stones: line of {plies} plies, median {statistics.median(times):.2f} ms, "
              f"best {min(times):.2f} ms  {' '.join(state.format_line(line or [])[:9])}")
    # the full search (default options) reporting them as mates, within 1 s
    for label, text in (("second VCF position", VCF_POSITIONS[1]), ("VCT of 15 plies", VCT_POSITIONS[1]),
                        ("VCT of 21 plies", VCT_POSITIONS[3])):
        state = game.state_from_text(text)
        engine.new_game()
        infos: list = []
        t = time.perf_counter()
        r = engine.search(state, Limits(movetime=1000), on_info=infos.append)
        first = next((i for i in infos if i.score.is_mate and i.score.value > 0), None)
        when = f"first reported at depth {first.depth} after {first.time_ms} ms" if first else "not found"
        print(f"  engine search, {label}: {r.score.text()} ({when}; search ended after "
              f"{(time.perf_counter() - t) * 1000:.0f} ms)")


def _stop_latency(game, trials: int) -> None:  # type: ignore[no-untyped-def]
    state = game.state_from_text(MIDDLE_GAMES[0])
    lat = []
    for spec in ("mtdf,top=10", "pvs", "mtdf,top=10,threads=2"):
        engine = make_engine(game, spec)
        engine.search(state, Limits(depth=2))
        for _ in range(trials):
            stop = new_stop_flag()
            done = threading.Event()

            def work(engine=engine, stop=stop, done=done) -> None:  # type: ignore[no-untyped-def]
                engine.search(state, Limits(infinite=True), stop)
                done.set()

            th = threading.Thread(target=work)
            th.start()
            time.sleep(0.3)
            t = time.perf_counter()
            stop[0] = 1
            done.wait(10)
            lat.append((time.perf_counter() - t) * 1000)
            th.join()
    print(f"stop latency (flag set -> search returned), {len(lat)} trials: median {statistics.median(lat):.1f} ms, "
          f"max {max(lat):.1f} ms")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="gamesuite bench gomoku", description=__doc__)
    p.add_argument("--depth", type=int, default=10, help="deepest iteration (default 10)")
    p.add_argument("--movetime", type=int, default=10000, help="cap per search in ms (default 10000)")
    p.add_argument("--algos", default=",".join(a.replace(",", ":") for a in ALGORITHMS),
                   help="engine specs separated by commas, options after ':' (default: all)")
    p.add_argument("--positions", type=int, default=len(MIDDLE_GAMES), help="how many middle games")
    p.add_argument("--repeat", type=int, default=5, help="VCF solves per position")
    args = p.parse_args(argv)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    game = load_game("gomoku")
    algos = [a.replace(":", ",") for a in args.algos.split(",") if a]
    spent: dict[str, list[tuple[float, float]]] = {spec: [] for spec in algos}
    for n, text in enumerate(MIDDLE_GAMES[: args.positions], 1):
        print(f"middle game {n} ({len(text.split())} stones)")
        for spec in algos:
            spent[spec].append(_deepen(game, spec, text, args.depth, args.movetime))
    print(f"to depth {args.depth} (or the end of the search), per middle game")
    for spec, times in spent.items():
        print(f"  {spec:<16} wall ms {' '.join(f'{w * 1000:.0f}' for w, _ in times):<20} "
              f"CPU ms {' '.join(f'{c * 1000:.0f}' for _, c in times)}")
    _vcf(game, args.repeat)
    _stop_latency(game, 5)
    return 0
