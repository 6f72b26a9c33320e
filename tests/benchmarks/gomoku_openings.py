"""Write the balanced gomoku openings that the engine's matches use (run by hand, not a test).

    python tests/benchmarks/gomoku_openings.py [--count 100] [--candidates 3] [--depth 8] [--seed 15]
                                               [--engine mtdf] [--out tests/data/gomoku_openings.txt]
                                               [--exclude FILE ...]

An opening is three stones (black, white, black; white to move) on the 7x7
cells around the centre of the 15x15 freestyle board, drawn at random with a
fixed seed; openings equal under the board's eight symmetries are drawn once.
Our engine searches each candidate to ``--depth`` plies; candidates with a
forced result are dropped and, of the rest, the ``--count`` whose values are
nearest to even are kept (in the order drawn). The value of each kept opening
is written above it as a comment. Matches play every opening with colours
swapped (``gamesuite match gomoku ... --openings tests/data/gomoku_openings.txt``).
``--exclude`` skips the openings equal (by symmetry) to one of those files, so that a
fresh set for a new comparison shares no opening with the sets earlier ones were chosen on.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from gamesuite.core.limits import Limits
from gamesuite.core.registry import load_game, make_engine

SIZE = 15


def _canonical(cells: list[tuple[int, int]]) -> tuple:
    """The smallest of the eight symmetric images of a position (the stones of each colour as a set: two
    orders of the same stones are one opening)."""
    c = SIZE - 1
    images = []
    for t in range(8):
        out = []
        for r, q in cells:
            if t & 1:
                r, q = q, r
            if t & 2:
                r = c - r
            if t & 4:
                q = c - q
            out.append((r, q))
        images.append((tuple(sorted(out[0::2])), tuple(sorted(out[1::2]))))
    return min(images)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--candidates", type=int, default=3)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--engine", default="mtdf")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "data" / "gomoku_openings.txt"))
    ap.add_argument("--exclude", nargs="*", default=[], help="openings files whose openings are not drawn again")
    args = ap.parse_args()
    game = load_game("gomoku")
    engine = make_engine(game, args.engine)
    rng = random.Random(args.seed)
    seen: set[tuple] = set()
    for path in args.exclude:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                seen.add(_canonical([divmod(game.parse_cell(t), SIZE) for t in line.split()]))
    excluded = len(seen)
    kept: list[tuple[float, int, str, str]] = []
    drawn = 0
    while len(kept) < args.count * args.candidates and drawn < 100 * args.count:
        drawn += 1
        cells: list[tuple[int, int]] = []
        while len(cells) < 3:
            rc = (rng.randint(4, 10), rng.randint(4, 10))
            if rc not in cells:
                cells.append(rc)
        key = _canonical(cells)
        if key in seen:
            continue
        seen.add(key)
        state = game.new_state()
        for r, q in cells:
            state.play(r * SIZE + q)
        text = state.to_text()
        engine.new_game()
        score = engine.search(state, Limits(depth=args.depth)).score
        if score.kind == "mate":
            continue
        kept.append((abs(score.sort_key()), len(kept), text, score.text()))
    best = sorted(sorted(kept)[: args.count], key=lambda k: k[1])
    lines = [f"# {len(best)} balanced 15x15 freestyle openings (white to move), tests/benchmarks/gomoku_openings.py "
             f"--seed {args.seed} --depth {args.depth} --engine {args.engine} --count {args.count}"
             + (f" --exclude {' '.join(Path(e).name for e in args.exclude)} ({excluded} openings)" if excluded else ""),
             "# (one opening a line, each after a comment with its value for white; matches swap colours)"]
    for _, _, text, value in best:
        lines.append(f"# {value}")
        lines.append(text)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(best)} openings of {len(kept)} undecided candidates ({drawn} drawn) written to {args.out}")
    for _, _, text, value in best:
        print(f"  {text:<12} {value}")


if __name__ == "__main__":
    main()
