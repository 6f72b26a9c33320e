"""Fuzzed sessions of the engine protocols, with the counts of everything that went wrong.

    python tests/benchmarks/fuzz_protocols.py [--sessions 100] [--steps 14] [--seed 21] [usi gomocup json]

Each session is a real ``gamesuite engine PROTOCOL`` process under
``PYTHONIOENCODING=utf-8:strict`` talking with a seeded random client that mixes
games and searches with garbage (see ``tests/protocol_fuzz.py``). Prints, per
protocol, the sessions, lines, garbage lines, search answers and the deaths,
tracebacks, internal errors, commands refused after an answer, unanswered
commands and illegal moves (all must be 0). ``FUZZ_VERBOSE=1`` prints the end of a
bad session's conversation. Exits 1 if anything went wrong.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import protocol_fuzz


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("protocols", nargs="*", default=sorted(protocol_fuzz.SESSIONS))
    p.add_argument("--sessions", type=int, default=100)
    p.add_argument("--steps", type=int, default=14)
    p.add_argument("--seed", type=int, default=21)
    args = p.parse_args(argv)
    bad = 0
    for proto in args.protocols:
        t0 = time.perf_counter()
        t = protocol_fuzz.run_sessions(proto, args.sessions, args.seed, args.steps)
        print(f"{t.text(proto)} ({time.perf_counter() - t0:.0f} s)", flush=True)
        bad += t.bad()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
