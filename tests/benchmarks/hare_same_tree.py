"""Fixed-depth searches of the Hare engine: best move, nodes, value and line per position (the same-tree check).

    python tests/benchmarks/hare_same_tree.py [--games 12] [--save FILE | --compare FILE]

A change meant only to make the search faster must leave every count unchanged: run it before the change
with ``--save``, after it with ``--compare`` (exit status 1 on any difference). Positions: the first
``--games`` openings of ``tests/data/hare_openings_{2,3,4}p.txt``, each played on to the end by the default
engine at 5,000 nodes a move (the cards drawn by a seeded generator), every fourth position with a choice
kept. Settings: the three-player default (depth 4), the ``writeup`` preset (5), paranoid (4), ``classic``
(3), ``modelchance=worst`` (4), two players (6), four players (4). Prints the process CPU time and the
nodes per CPU second of each setting too.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from gamesuite.arena.openings import load_openings
from gamesuite.core import Limits, load_game
from gamesuite.games.hare.engine import HareEngine
from gamesuite.games.hare.rules import HareGame, HareState

DATA = Path(__file__).resolve().parents[1] / "data"
SPECS = {2: "hare(players=2,pieces=1)", 3: "hare(players=3)", 4: "hare(players=4)"}
#: (label, players, engine options, depth)
SETTINGS: tuple[tuple[str, int, dict[str, Any], int], ...] = (
    ("3p default", 3, {}, 4),
    ("3p writeup", 3, {"preset": "writeup"}, 5),
    ("3p paranoid", 3, {"algorithm": "paranoid"}, 4),
    ("3p classic", 3, {"preset": "classic"}, 3),
    ("3p modelchance=worst", 3, {"modelchance": "worst"}, 4),
    ("2p default", 2, {}, 6),
    ("4p default", 4, {}, 4),
)


def _game(players: int) -> HareGame:
    game = load_game(SPECS[players])
    assert isinstance(game, HareGame)
    return game


def positions(players: int, games: int) -> list[str]:
    game = _game(players)
    openings = load_openings(DATA / f"hare_openings_{players}p.txt", game)
    engine = HareEngine(game)
    rng = random.Random(players)
    out = []
    for opening in openings[:games]:
        start, moves = opening.build(game)
        s = start.copy()
        assert isinstance(s, HareState)
        for m in moves:
            s.play(m)
        ply = 0
        while not s.is_terminal() and ply < 300:
            outcomes = s.chance_outcomes()
            if outcomes:
                cards, weights = zip(*outcomes)
                s.play(rng.choices(cards, weights)[0])
                continue
            if ply % 4 == 0 and len(s.legal_moves()) > 1:
                out.append(s.to_text())
            move = engine.search(s, Limits(nodes=5000)).best_move
            assert move is not None
            s.play(move)
            ply += 1
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=12)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--save")
    g.add_argument("--compare")
    args = p.parse_args()
    texts = {n: positions(n, args.games) for n in SPECS}
    results: dict[str, list] = {}
    for label, players, options, depth in SETTINGS:
        game = _game(players)
        engine = HareEngine(game, **options)
        states = [s for s in (game.state_from_text(t) for t in texts[players]) if isinstance(s, HareState)]
        engine.search(states[0], Limits(depth=2))  # compile or load the kernels
        rows, nodes, c0 = [], 0, time.process_time()
        for s in states:
            r = engine.search(s, Limits(depth=depth))
            nodes += r.nodes
            rows.append([s.to_text(), r.best_move, r.nodes, repr(r.score), list(r.pv)])
        cpu = time.process_time() - c0
        results[label] = rows
        print(f"{label:<22} depth {depth}  {len(states):4} positions {nodes:10} nodes {cpu:6.2f} CPU s "
              f"{nodes / max(cpu, 1e-9) / 1e6:6.2f} M nodes/CPU s", flush=True)
    if args.save:
        Path(args.save).write_text(json.dumps(results))
    if args.compare:
        before = json.loads(Path(args.compare).read_text())
        diffs = [(label, a, b) for label in before for a, b in zip(before[label], results.get(label, []))
                 if a != b]
        diffs += [(label, None, None) for label in before if len(before[label]) != len(results.get(label, []))]
        for label, a, b in diffs[:10]:
            print(f"DIFFERENT {label}: {a} -> {b}")
        print(f"{len(diffs)} differences in {sum(len(v) for v in before.values())} searches")
        return 1 if diffs else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
