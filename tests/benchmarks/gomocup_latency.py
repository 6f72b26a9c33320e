"""How long the Gomocup brain takes to answer, against its ``timeout_turn`` (run by hand, not a test).

    python tests/benchmarks/gomocup_latency.py [--turns 100,300,1000] [--engine SPEC]

Starts ``gamesuite engine gomocup`` as a tournament manager would, lets it warm up,
then for every even prefix of the bench's middle games (6 stones and more) sends the
position with ``BOARD`` and times the reply from ``DONE`` to the move. Prints the
median and the worst reply per ``timeout_turn``; the brain must stay under the turn.
The first position of each run also pays for building the engine (its table).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from gamesuite.bench.gomoku import MIDDLE_GAMES
from gamesuite.core.registry import load_game


def _run(turn: int, engine: str) -> list[tuple[float, int]]:
    game = load_game("gomoku")
    cmd = [sys.executable, "-m", "gamesuite", "engine", "gomocup"] + (["--engine", engine] if engine else [])
    brain = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert brain.stdin is not None and brain.stdout is not None

    def send(line: str) -> None:
        brain.stdin.write(line + "\n")  # type: ignore[union-attr]
        brain.stdin.flush()  # type: ignore[union-attr]

    def reply() -> str:
        while True:
            line = brain.stdout.readline().strip()  # type: ignore[union-attr]
            if line and not line.startswith("MESSAGE"):
                return line

    send("START 15")
    reply()
    time.sleep(8)  # the brain compiles (or loads) its kernels in the background
    send(f"INFO timeout_turn {turn}")
    out = []
    for text in MIDDLE_GAMES:
        moves = text.split()
        for n in range(6, len(moves) + 1, 2):
            send("BOARD")
            for i, m in enumerate(moves[:n]):
                cell = game.parse_cell(m)
                send(f"{cell % 15},{cell // 15},{1 if (n - i) % 2 == 0 else 2}")
            t = time.perf_counter()
            send("DONE")
            answer = reply()
            out.append(((time.perf_counter() - t) * 1000, n))
            if "," not in answer:
                print(f"  unexpected reply to {n} stones: {answer}")
    send("END")
    brain.wait(timeout=10)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--turns", default="100,300,1000", help="timeout_turn values in ms, comma-separated")
    p.add_argument("--engine", default="", help="engine spec for the brain (default: its own)")
    args = p.parse_args()
    for turn in (int(t) for t in args.turns.split(",")):
        times = _run(turn, args.engine)
        worst, stones = max(times)
        print(f"timeout_turn {turn:5d} ms: {len(times)} moves, median {statistics.median(t for t, _ in times):.0f} ms,"
              f" worst {worst:.0f} ms ({stones} stones){'  OVER THE TURN' if worst > turn else ''}")


if __name__ == "__main__":
    main()
