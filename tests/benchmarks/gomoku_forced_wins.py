"""Forced wins: does our engine find a winning move within 1 s? (run by hand, not a test)

    python tests/benchmarks/gomoku_forced_wins.py [--engine mtdf] [--movetime 1000 | --nodes N] [--verify]
    python tests/benchmarks/gomoku_forced_wins.py collect RUN_DIR... [--rapfi PATH] [--count 120]

The positions are in ``tests/data/gomoku_forced_wins.txt``: one a line, the
15x15 freestyle move list, then ``# M n``, the length in plies of the forced
win that Rapfi announced for the side to move (``Eval +M n`` in its
``MESSAGE`` lines, n <= 15).

The default command searches each position with a fresh engine for
``--movetime`` ms and counts the positions where the engine's move is a proven
win (its score is a mate for the side to move). ``--verify`` also asks a fresh
Rapfi process (1 s) whether the position after our move is lost for the
defender (``Eval -M``), for the moves our engine plays without proving the win.

``collect`` builds the set from the game records of matches against Rapfi
(``gamesuite match ... --save RUN_DIR``): positions 3 to 16 plies before the
end of each decided game, the winner to move, judged by a fresh Rapfi process
per position (it ponders after answering) with 2 s each; the positions it
announces as won within 15 plies are kept, at most two per game.
"""

from __future__ import annotations

import argparse
import glob
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from gamesuite.core.limits import Limits
from gamesuite.core.registry import load_game, make_engine

DATA = Path(__file__).resolve().parents[1] / "data" / "gomoku_forced_wins.txt"
RAPFI = "/work/shared/anchors/pbrain-rapfi"
_EVAL = re.compile(r"Eval ([+-])M(\d+)")


def ask_rapfi(rapfi: str, moves: list[int], size: int, infos: list[str]) -> subprocess.Popen[str]:
    """A fresh Rapfi process (path ``rapfi``) asked, after the ``INFO`` lines ``infos``, for its move in the
    position of the cells ``moves`` (played in order); the caller reads its answer and kills it."""
    lines = [f"START {size}", *infos, "BOARD"]
    me = len(moves) % 2
    for i, m in enumerate(moves):
        lines.append(f"{m % size},{m // size},{1 if i % 2 == me else 2}")
    lines.append("DONE")
    p = subprocess.Popen([rapfi], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True)
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write("\n".join(lines) + "\n")
    p.stdin.flush()
    return p


def rapfi_mate(moves: list[int], size: int, rapfi: str, ms: int) -> int | None:
    """Rapfi's announced result for the side to move: +n (wins in n plies), -n (loses), or None."""
    p = ask_rapfi(rapfi, moves, size, [f"INFO timeout_turn {ms}", "INFO timeout_match 0", "INFO rule 0"])
    assert p.stdout is not None
    last = None
    deadline = time.time() + ms / 1000 + 5
    try:
        while time.time() < deadline:
            line = p.stdout.readline()
            if not line:
                break
            mt = _EVAL.search(line)
            if mt:
                last = int(mt.group(2)) * (1 if mt.group(1) == "+" else -1)
            elif re.fullmatch(r"\d+,\d+\s*", line):
                break
    finally:
        p.kill()
        p.wait()
    return last


def load_positions(path: Path = DATA) -> list[tuple[str, int]]:
    out = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        text, _, mate = raw.partition("# M")
        out.append((text.strip(), int(mate)))
    return out


def collect(dirs: list[str], rapfi: str, count: int, ms: int) -> None:
    game = load_game("gomoku")
    found: list[tuple[str, int]] = []
    files = sorted(f for d in dirs for f in glob.glob(str(Path(d) / "game-*.json")))
    for f in files:
        rec = json.loads(Path(f).read_text())
        if rec.get("game") != "gomoku(size=15,rule=freestyle)" or rec["result"] not in ("1-0", "0-1"):
            continue
        state = game.state_from_text(rec["start"])
        moves = list(state.history) + [state.parse_move(m) for m in rec["moves"]]  # the start's stones first
        first = len(state.history) + rec["opening_plies"]
        winner = 0 if rec["result"] == "1-0" else 1
        kept = 0
        for back in range(16, 2, -1):
            n = len(moves) - back
            if n < first or n % 2 != winner or kept >= 2:
                continue
            mate = rapfi_mate(moves[:n], 15, rapfi, ms)
            if mate is not None and 0 < mate <= 15:
                found.append((" ".join(state.format_move(m) for m in moves[:n]), mate))
                kept += 1
                print(f"{len(found):>4} {Path(f).parent.name}/{Path(f).name} ply {n}: M{mate}", flush=True)
                break  # the earliest announced win of this game (the longest); then the next game
        if len(found) >= count:
            break
    head = ("# Positions (15x15 freestyle, move lists) where Rapfi announces a win within 15 plies for the side to "
            "move,\n# from tests/benchmarks/gomoku_forced_wins.py collect; '# M n' is the announced length in plies.\n")
    DATA.write_text(head + "".join(f"{t}  # M{m}\n" for t, m in found), encoding="utf-8")
    print(f"{len(found)} positions written to {DATA}")


def run(spec: str, movetime: int, verify: bool, rapfi: str, nodes: int = 0) -> None:
    game = load_game("gomoku")
    positions = load_positions()
    proved = verified = 0
    t_total = 0.0
    for i, (text, mate) in enumerate(positions):
        state = game.state_from_text(text)
        engine = make_engine(game, spec)
        engine.search(game.state_from_text("h8"), Limits(depth=2))  # loaded before the clock starts
        engine.new_game()
        t = time.perf_counter()
        r = engine.search(state, Limits(nodes=nodes) if nodes else Limits(movetime=movetime))
        t_total += time.perf_counter() - t
        won = r.score.kind == "mate" and r.score.value > 0
        proved += won
        mark = "proved" if won else r.score.text()
        if verify and not won:
            after = [m for m in state.history] + [r.best_move]
            v = rapfi_mate(after, 15, rapfi, 1000)
            if v is not None and v < 0:
                verified += 1
                mark += ", winning (Rapfi)"
        print(f"{i + 1:>4} M{mate:<3} {state.format_move(r.best_move):>4} {r.depth:>3} {r.time_ms:>5} ms  {mark}",
              flush=True)
    n = len(positions)
    print(f"{spec}: a proven win in {proved} of {n} ({100 * proved / max(n, 1):.1f}%)"
          + (f"; with Rapfi's verdict on the others: {proved + verified} of {n}" if verify else "")
          + f"; {t_total:.1f} s in all")


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "collect":
        ap = argparse.ArgumentParser(description="collect forced-win positions judged by Rapfi")
        ap.add_argument("dirs", nargs="+")
        ap.add_argument("--rapfi", default=RAPFI)
        ap.add_argument("--count", type=int, default=120)
        ap.add_argument("--movetime", type=int, default=2000)
        a = ap.parse_args(argv[1:])
        collect(a.dirs, a.rapfi, a.count, a.movetime)
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="mtdf")
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--nodes", type=int, default=0, help="a node limit instead of the time (load-independent)")
    ap.add_argument("--verify", action="store_true")
    ap.add_argument("--rapfi", default=RAPFI)
    a = ap.parse_args(argv)
    run(a.engine, a.movetime, a.verify, a.rapfi, a.nodes)


if __name__ == "__main__":
    main()
