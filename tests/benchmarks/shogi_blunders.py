"""A blunder screen for the shogi search: positions of our lost games where a deep referee says our move lost.

    python tests/benchmarks/shogi_blunders.py collect OUT.jsonl DIR [DIR ...] [--scan-nodes 100000]
        [--deep-nodes 1000000] [--shard K/N]
    python tests/benchmarks/shogi_blunders.py score OUT.jsonl [OUT.jsonl ...] --options '' ',lmr_scale=0.3' ...
        [--nodes 100000] [--deep-nodes 1000000] [--cache CACHE.json]

``collect``: for each game of DIR that ours (the ``alphabeta`` player) lost, the referee (YaneuraOu-material by
default, through ``shogi_oracle.Usi``) scans every position from the end of the opening with ``go nodes --scan-
nodes`` (the lost games in a fixed shuffled order, seed 1; stopping once ours is 1500 down); each move of ours
whose scan score falls by 150 or more while the position before it was not yet lost (ours at -500 or better) is
checked deeply: ``--deep-nodes`` on the position before (the referee's best move B), on the position after B and on
the position after our move. A position is kept when the deep loss, value(B) - value(ours), both read from the
positions after the moves, is at least 150 and value(B) is at least -500 and not a mate score. One JSON line per
kept position.

``score``: for each option string, a fresh ``alphabeta`` engine (``mate`` as its default) searches every
position at ``--nodes`` nodes (the game's moves before it played, so repetitions are known); its move
*avoids* the blunder when its deep value (the referee's ``--deep-nodes`` on the position after it, cached) is
within 50 of value(B). Prints the count avoided, the mean loss of the moves chosen (each capped at 1000), how
often it played our original move again, and the mean nodes searched. The option string ``referee`` scores
the referee itself at ``--nodes``.

The referee is only a judge here: nothing of it is copied or imported.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from shogi_oracle import ANCHOR, Usi

from gamesuite.core import Limits, load_game, make_engine

MATE = 3000  # a referee score beyond this is a mate, not a positional value
NOT_LOST = -500
FLAG = 150
AVOID = 50


def _start(r: dict) -> str:
    s = r["start"]
    return "startpos" if s.startswith("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1") else s


def _moves(r: dict) -> list[str]:
    return [m["move"] if isinstance(m, dict) else m for m in r["moves"]]


def _ours(r: dict) -> int:
    return [i for i, p in enumerate(r["players"]) if p["name"].startswith("alphabeta")][0]


def lost_games(dirs: list[str]) -> list[str]:
    """The game records in ``dirs`` that our player lost, in order."""
    out = []
    for d in dirs:
        for f in sorted(glob.glob(d + "/game-*.json")):
            r = json.load(open(f))
            if r["result"]["returns"][_ours(r)] < 0:
                out.append(f)
    return out


def collect(out: str, dirs: list[str], scan: int, deep: int, shard: tuple[int, int], usi: str) -> None:
    games = lost_games(dirs)
    random.Random(1).shuffle(games)  # a part of the screen then spans all the openings
    games = games[shard[0]::shard[1]]
    program = Usi(usi)
    for f in games:
        t0 = time.time()
        r = json.load(open(f))
        start, moves, ours = _start(r), _moves(r), _ours(r)
        first = r["match"].get("opening_plies", 0)
        scores: dict[int, int | None] = {}
        kept = 0
        for i in range(first, len(moves)):
            if i % 2 != ours:
                continue
            if i not in scores:
                scores[i] = program.go(start, moves[:i], scan)[0]
            before = scores[i]
            if before is not None and before <= -1500:
                break
            after_opp = program.go(start, moves[: i + 1], scan)[0]
            scores[i + 1] = after_opp
            if before is None or after_opp is None or before < NOT_LOST or abs(before) >= MATE:
                continue
            if before - (-after_opp) < FLAG:
                continue
            v, best, _ = program.go(start, moves[:i], deep)
            if best == moves[i] or v is None or v < NOT_LOST or abs(v) >= MATE:
                continue
            ab = program.go(start, moves[:i] + [best], deep)[0]
            ao = program.go(start, moves[: i + 1], deep)[0]
            if ab is None or ao is None:
                continue
            vb, vo = -ab, -ao
            if vb < NOT_LOST or abs(vb) >= MATE or vb - vo < FLAG:
                continue
            rec = {"game": f, "ply": i, "start": start, "moves": moves[:i], "ours": moves[i], "best": best,
                   "value_before": v, "value_best": vb, "value_ours": vo, "loss": vb - vo,
                   "scan_before": before, "scan_after": -after_opp}
            with open(out, "a") as fh:
                fh.write(json.dumps(rec) + "\n")
            kept += 1
        print(f"{f}: {kept} kept, {time.time() - t0:.0f} s", flush=True)
    program.close()


def score(paths: list[str], options: list[str], nodes: int, deep: int, cache_path: str, usi: str,
          limit: int) -> None:
    recs = [json.loads(line) for p in paths for line in open(p) if line.strip()][: limit or None]
    cache: dict[str, int] = json.load(open(cache_path)) if cache_path and os.path.exists(cache_path) else {}
    for r in recs:  # the values already known
        cache.setdefault(_key(r, r["best"]), r["value_best"])
        cache.setdefault(_key(r, r["ours"]), r["value_ours"])
    game = load_game("shogi")
    make_engine(game, "alphabeta").search(game.new_state(), Limits(depth=3))  # load the kernels
    program: Usi | None = None
    player: Usi | None = None
    for opts in options:
        t0 = time.time()
        avoided, again, losses, picks = 0, 0, [], []
        nodes_used = 0
        for r in recs:
            s = game.state_from_text(r["start"] if r["start"] != "startpos" else game.new_state().to_text())
            for m in r["moves"]:
                s.play_text(m)
            if opts == "referee":  # the referee itself at --nodes, for comparison
                player = player or Usi(usi)
                player._send("usinewgame")
                mv = player.go(r["start"], r["moves"], nodes)[1]
                nodes_used += nodes
            else:
                e = make_engine(game, "alphabeta" + opts)
                e.new_game()
                res = e.search(s, Limits(nodes=nodes))
                nodes_used += res.nodes
                mv = s.format_move(res.best_move)
            k = _key(r, mv)
            if k not in cache:
                program = program or Usi(usi)
                a = program.go(r["start"], r["moves"] + [mv], deep)[0]
                cache[k] = -a if a is not None else -30000
            loss = r["value_best"] - cache[k]
            losses.append(min(1000, max(0, loss)))  # (a mate walked into counts 1000)
            avoided += loss <= AVOID
            again += mv == r["ours"]
            picks.append(mv)
        n = len(recs)
        print(f"{opts or 'default':40s} avoided {avoided:3d}/{n} ({100 * avoided / n:.1f}%), our move again "
              f"{again:3d}, mean loss {sum(losses) / n:6.1f} cp (capped at 1000), {nodes_used // n} nodes "
              f"({time.time() - t0:.0f} s)", flush=True)
        if cache_path:
            json.dump(cache, open(cache_path, "w"))
            json.dump(picks, open(cache_path + "." + (opts.strip(",") or "default") + ".moves", "w"))
    for p in (program, player):
        if p is not None:
            p.close()


def _key(r: dict, move: str) -> str:
    return r["start"] + "|" + " ".join(r["moves"] + [move])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["collect", "score"])
    ap.add_argument("out", nargs="+", help="collect: OUT.jsonl DIR...; score: the screen files")
    ap.add_argument("--scan-nodes", type=int, default=100_000)
    ap.add_argument("--deep-nodes", type=int, default=1_000_000)
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--shard", default="0/1")
    ap.add_argument("--options", nargs="*", default=[""])
    ap.add_argument("--cache", default="")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--usi", default=ANCHOR)
    args = ap.parse_args()
    if args.what == "collect":
        k, n = (int(x) for x in args.shard.split("/"))
        collect(args.out[0], args.out[1:], args.scan_nodes, args.deep_nodes, (k, n), args.usi)
    else:
        score(args.out, args.options, args.nodes, args.deep_nodes, args.cache, args.usi, args.limit)


if __name__ == "__main__":
    main()
