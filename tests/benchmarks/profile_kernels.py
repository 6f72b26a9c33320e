"""Where a search spends its time, by numba kernel, with Linux ``perf`` (run by hand, not a test).

    python tests/benchmarks/profile_kernels.py gomoku [--spec mtdf,top=10] [--depth 10] [--reps 15]
    python tests/benchmarks/profile_kernels.py shogi [--spec alphabeta,mate=0,hash=64] [--nodes 300000] [--reps 3]

perf cannot name numba's machine code by itself. This script compiles the kernels
afresh in a temporary numba cache directory (a kernel loaded from the cache has no
module to read the symbols from), runs the game's two bench positions once (gomoku:
the first two middle games; shogi: the start and the middle game), writes
``/tmp/perf-PID.map`` from the compiled library of the search's outer kernel (which
holds its own copy of every kernel it calls), then searches the positions ``--reps``
times under ``perf record -p PID`` and prints the samples per kernel. Kernels that
LLVM inlined (gomoku's ``_gen``, ``_evaluate``, ...) count in their caller; clearing
the transposition table between searches shows as numpy's ``strided`` copies.

Needs ``perf`` on the PATH and permission to attach to the process.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    """What to profile in one game: its positions, the outer kernel and the modules to name."""

    setup: str  # Python that sets ``states`` and ``K`` (the module holding ``kernel``)
    kernel: str
    modules: tuple[str, ...]
    spec: str
    limit: str  # "depth" or "nodes"
    amount: int
    reps: int
    rows: int


TARGETS = {
    "gomoku": Target(
        "from gamesuite.bench.gomoku import MIDDLE_GAMES\n"
        "from gamesuite.games.gomoku import kernels as K\n"
        "states = [game.state_from_text(t) for t in MIDDLE_GAMES[:2]]\n",
        "_root", ("kernels", "renju", "tt"), "mtdf,top=10", "depth", 10, 15, 15),
    "shogi": Target(
        "from gamesuite.bench.shogi import CASES\n"
        "from gamesuite.games.shogi import search as K\n"
        "states = [game.state_from_text(c[2]) for c in CASES[:2]]\n",
        "_negamax", ("kernels", "search", "evaluation", "tt"), "alphabeta,mate=0,hash=64", "nodes", 300000, 3, 25),
}

CHILD = r"""
import os, sys, time
from gamesuite.core.registry import load_game, make_engine
from gamesuite.core.limits import Limits

name, spec, limit, amount, reps, ready, setup, kernel = sys.argv[1:9]
amount, reps = int(amount), int(reps)
game = load_game(name)
engine = make_engine(game, spec)
exec(setup)
limits = Limits(**{limit: amount})
for s in states:
    engine.new_game()
    engine.search(s, limits)
rows = []
for cres in getattr(K, kernel).overloads.values():
    lib = cres.library
    found = []
    for f in lib._final_module.functions:
        if f.is_declaration:
            continue
        try:
            address = lib.get_pointer_to_function(f.name)
        except Exception:
            continue
        if address:
            found.append((address, f.name))
    found.sort()
    for i, (address, fname) in enumerate(found):
        size = found[i + 1][0] - address if i + 1 < len(found) else 4096
        rows.append(f"{address:x} {size:x} {fname}\n")
with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
    fh.writelines(rows)
import gc
gc.collect()
gc.freeze()  # compiling left many objects behind: keep collections of them out of the profile
open(ready, "w").close()
time.sleep(0.3)  # perf attaches
c = time.process_time()
for _ in range(reps):
    for s in states:
        engine.new_game()
        engine.search(s, limits)
print(f"searched in {time.process_time() - c:.2f} s of CPU")
"""


def kernel_name(symbol: str, modules: tuple[str, ...]) -> str:
    """``kernels._lines`` from a mangled name such as ``_ZN9gamesuite5games6gomoku7kernels6_linesB3v16...``."""
    for module in modules:
        key = f"{len(module)}{module}"
        if key in symbol:
            rest = symbol.split(key, 1)[1]
            digits = ""
            while rest and rest[0].isdigit():
                digits, rest = digits + rest[0], rest[1:]
            return f"{module}.{rest[: int(digits)]}" if digits else symbol[:60]
    return symbol[:60]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=sorted(TARGETS))
    p.add_argument("--spec", help="the engine (default: gomoku mtdf,top=10; shogi alphabeta,mate=0,hash=64)")
    p.add_argument("--depth", type=int, help="gomoku: the depth of each search (default 10)")
    p.add_argument("--nodes", type=int, help="shogi: the nodes of each search (default 300000)")
    p.add_argument("--reps", type=int, help="searches of each position under perf (default: gomoku 15, shogi 3)")
    args = p.parse_args()
    t = TARGETS[args.game]
    spec = args.spec or t.spec
    given = args.depth if t.limit == "depth" else args.nodes
    other = args.nodes if t.limit == "depth" else args.depth
    if other is not None:
        p.error(f"{args.game} searches are limited by --{t.limit}")
    amount = given if given is not None else t.amount
    reps = args.reps if args.reps is not None else t.reps
    if shutil.which("perf") is None:
        sys.exit("perf is not on the PATH")
    work = tempfile.mkdtemp(prefix=f"{args.game}-profile-")
    ready = os.path.join(work, "ready")
    data = os.path.join(work, "perf.data")
    env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(work, "numba"))
    child = subprocess.Popen([sys.executable, "-c", CHILD, args.game, spec, t.limit, str(amount), str(reps), ready,
                              t.setup, t.kernel], env=env)
    while not os.path.exists(ready):
        if child.poll() is not None:
            sys.exit("the search process ended early")
        time.sleep(0.1)
    perf = subprocess.Popen(["perf", "record", "-F", "4000", "-p", str(child.pid), "-o", data],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    child.wait()
    perf.wait()
    out = subprocess.run(["perf", "report", "-n", "-i", data, "--no-children", "--sort", "symbol", "--stdio"],
                         capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[0].endswith("%") and parts[2] == "[.]":
            rows.append((int(parts[1]), kernel_name(parts[3], t.modules)))
    total = sum(n for n, _ in rows) or 1
    print(f"{args.game} {spec}, {t.limit} {amount}, {reps} x 2 positions; samples at 4 kHz")
    for n, name in rows[: t.rows]:
        print(f"  {100 * n / total:5.1f}%  {n:7d}  {name}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
