"""Nodes and depth of Hare engines on the same positions: at a move time or a node limit.

    python tests/benchmarks/hare_depth_probe.py 'hare(players=2,pieces=1)' 100 30 maxn writeup
    python tests/benchmarks/hare_depth_probe.py 'hare(players=3)' n290000 20 maxn maxn,chanceplies=1

The positions: every sixth ply (from the third) of games played on from the shipped openings
(``tests/data/hare_openings_{N}p.txt``) by the default engine at 20,000 nodes a move, cards drawn at
random (seed 1), while every player is still racing and the mover has a choice. Each engine spec
searches each position in turn (``MS``: a move time in milliseconds; ``nNODES``: a node limit); the
median nodes and mean depth completed are printed per spec (docs/hare.md, seventh session), and the nodes
per CPU second of the process (``time.process_time``: what a loaded machine does not distort; ninth session).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from gamesuite.core.limits import Limits
from gamesuite.core.registry import load_game, make_engine
from gamesuite.games.hare.engine import HareEngine
from gamesuite.games.hare.rules import HareGame, HareState


def positions(game: HareGame, count: int, seed: int = 1) -> list[HareState]:
    rng = random.Random(seed)
    with open(f"tests/data/hare_openings_{game.num_players}p.txt") as f:
        opens = [line.split() for line in f if line.startswith("startpos")]
    quick = HareEngine(game)
    out: list[HareState] = []
    k = 0
    while len(out) < count:
        st = game.new_state()
        for m in opens[k * 7 % len(opens)][2:]:
            st.play(st.parse_move(m))
        k += 1
        ply = 0
        while not st.is_terminal() and ply < 80 and len(out) < count:
            outs = st.chance_outcomes()
            if outs:
                st.play(rng.choices([c for c, _ in outs], [p for _, p in outs])[0])
                continue
            if ply % 6 == 3 and all(not p for p in st.place) and len(st.legal_moves()) > 1:
                out.append(st.copy())
            move = quick.search(st, Limits(nodes=20000)).best_move
            assert move is not None
            st.play(move)
            ply += 1
    return out


def main(argv: list[str]) -> None:
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        raise SystemExit(2)
    spec, mode, count, specs = argv[0], argv[1], int(argv[2]), argv[3:]
    game = load_game(spec)
    assert isinstance(game, HareGame)
    states = positions(game, count)
    engines = [make_engine(game, s) for s in specs]
    limits = Limits(nodes=int(mode[1:])) if mode.startswith("n") else Limits(movetime=int(mode))
    nodes: dict[str, list[int]] = {s: [] for s in specs}
    depth: dict[str, list[int]] = {s: [] for s in specs}
    cpu: dict[str, float] = {s: 0.0 for s in specs}
    for st in states:
        for s, e in zip(specs, engines, strict=True):
            c0 = time.process_time()
            r = e.search(st, limits)
            cpu[s] += time.process_time() - c0
            nodes[s].append(r.nodes)
            depth[s].append(r.depth)
    print(f"{len(states)} positions of {spec}, {mode}")
    for s in specs:
        print(f"{s:50s} median nodes {statistics.median(nodes[s]):9.0f}  mean depth {statistics.mean(depth[s]):.2f}"
              f"  {sum(nodes[s]) / max(cpu[s], 1e-9) / 1e6:.2f} M nodes per CPU s")


if __name__ == "__main__":
    main(sys.argv[1:])
