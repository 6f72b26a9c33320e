"""Make the shogi mate problem set (``tests/data/shogi_tsume.txt``) from game records. Run by hand.

    python tests/benchmarks/shogi_make_tsume.py DIR [DIR ...] [--count 120] [--nodes 300000] [--verify 9]

Every position of the last plies of each arena game record (``game-*.json``)
where the side to move mates by checks (df-pn, ``find_mate``, within
``--nodes``) is a candidate; the mates of length up to ``--verify`` plies are
checked by the plain-Python reference (``is_forced_mate``: the line is legal,
every attacker move checks, it ends in mate, and the reference finds no
shorter mate, nor one two plies shorter), longer ones by df-pn alone (the line read back from its table is
forced, and the depth-limited runs found no shorter one). Problems are kept
so that every length is represented (at most ``count / 8`` of any length),
at most two per game. Each line of the file: ``SFEN | plies | the mating line``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from pathlib import Path

from gamesuite.arena.record import load_record
from gamesuite.games.shogi.mate import find_mate, is_forced_mate, mate_reference


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--count", type=int, default=120)
    ap.add_argument("--nodes", type=int, default=300_000)
    ap.add_argument("--verify", type=int, default=9, help="check mates up to this many plies with the reference")
    ap.add_argument("--last", type=int, default=24, help="plies from the end of each game to try")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-seconds", type=float, default=0, help="stop reading games after this long (0: never)")
    ap.add_argument("--out", default=str(Path(__file__).parents[1] / "data" / "shogi_tsume.txt"))
    args = ap.parse_args()
    files = sorted(f for d in args.dirs for f in Path(d).glob("game-*.json"))
    random.Random(args.seed).shuffle(files)
    by_len: dict[int, list[tuple[str, int, str]]] = defaultdict(list)
    seen: set[str] = set()
    cap = max(1, args.count // 8)
    t0 = time.time()
    for f in files:
        if sum(len(v) for v in by_len.values()) >= args.count:
            break
        if args.max_seconds and time.time() - t0 > args.max_seconds:
            print(f"stopped after {args.max_seconds:.0f} s")
            break
        _rec, _game, start, moves = load_record(f)
        s = start.copy()
        states = []
        for m in moves:
            states.append(s.copy())
            s.play(m)
        kept = 0
        for st in states[-args.last:]:
            if kept >= 2:
                break
            key = st.sfen(with_number=False)
            if key in seen or st.is_terminal():
                continue
            seen.add(key)
            r = find_mate(st, nodes=args.nodes)
            n = len(r.pv)
            if r.status != "mate" or len(by_len[n]) >= cap:
                continue
            if n <= args.verify and not (is_forced_mate(st, list(r.pv), n)
                                         and (n < 3 or mate_reference(st, n - 2) is None)):
                print(f"rejected by the reference: {key} {n}")
                continue
            by_len[n].append((st.sfen(), n, " ".join(st.format_line(r.pv))))
            kept += 1
        print(f"{f.name}: {sum(len(v) for v in by_len.values())} problems, "
              f"{ {k: len(v) for k, v in sorted(by_len.items())} }, {time.time() - t0:.0f} s", flush=True)
    rows = [row for n in sorted(by_len) for row in by_len[n]]
    head = ("# Shogi mate problems (checks only: tsume) from our own games, made by\n"
            "# tests/benchmarks/shogi_make_tsume.py; each line: SFEN | plies of the shortest mate | a mating line.\n"
            f"# Mates of up to {args.verify} plies are checked by the plain-Python reference (mate.is_forced_mate).\n")
    Path(args.out).write_text(head + "".join(f"{a} | {b} | {c}\n" for a, b, c in rows), encoding="utf-8")
    print(f"wrote {len(rows)} problems to {args.out}")


if __name__ == "__main__":
    main()
