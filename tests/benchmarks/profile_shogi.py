"""Where the shogi search spends its time, by numba kernel, with Linux ``perf`` (run by hand, not a test).

    python tests/benchmarks/profile_shogi.py [--spec alphabeta,mate=0] [--nodes 300000] [--reps 3]

The recipe of ``profile_gomoku.py`` (see there), on the bench's start and middle-game positions.

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

CHILD = r"""
import os, sys, time
from gamesuite.core.registry import load_game, make_engine
from gamesuite.core.limits import Limits
from gamesuite.bench.shogi import CASES
from gamesuite.games.shogi import search as K

spec, nodes, reps, ready = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
game = load_game("shogi")
engine = make_engine(game, spec)
states = [game.state_from_text(c[2]) for c in CASES[:2]]
for s in states:
    engine.new_game()
    engine.search(s, Limits(nodes=nodes))
rows = []
for cres in K._negamax.overloads.values():
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
    for i, (address, name) in enumerate(found):
        size = found[i + 1][0] - address if i + 1 < len(found) else 4096
        rows.append(f"{address:x} {size:x} {name}\n")
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
        engine.search(s, Limits(nodes=nodes))
print(f"searched in {time.process_time() - c:.2f} s of CPU")
"""


def _kernel(symbol: str) -> str:
    """``_lines`` from a mangled name such as ``_ZN9gamesuite5games6gomoku7kernels6_linesB3v16...``."""
    for module in ("kernels", "search", "evaluation", "tt"):
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
    p.add_argument("--spec", default="alphabeta,mate=0,hash=64")
    p.add_argument("--nodes", type=int, default=300000)
    p.add_argument("--reps", type=int, default=3)
    args = p.parse_args()
    if shutil.which("perf") is None:
        sys.exit("perf is not on the PATH")
    work = tempfile.mkdtemp(prefix="shogi-profile-")
    ready = os.path.join(work, "ready")
    data = os.path.join(work, "perf.data")
    env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(work, "numba"))
    child = subprocess.Popen([sys.executable, "-c", CHILD, args.spec, str(args.nodes), str(args.reps), ready], env=env)
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
            rows.append((int(parts[1]), _kernel(parts[3])))
    total = sum(n for n, _ in rows) or 1
    print(f"{args.spec}, {args.nodes} nodes, {args.reps} x (start, middle game); samples at 4 kHz")
    for n, name in rows[:25]:
        print(f"  {100 * n / total:5.1f}%  {n:7d}  {name}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
