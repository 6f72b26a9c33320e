"""``gamesuite compare``: two saved runs of one match schedule, game by game."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare", help="two saved runs of the same match, compared game by game",
        description="Pair the games of two runs saved with 'gamesuite match --save' (or ladder, tournament) "
        "that played the same schedule: the same --games, --openings, --seed and engine order, a different "
        "engine under test (e.g. a candidate and the default, each against the same node-limited opponent, "
        "with --fresh-engines). Prints each run's mean score, the mean paired difference with its 95%% "
        "interval, the games the candidate did better and worse in, and the exact sign test.")
    p.add_argument("baseline", type=Path, metavar="BASELINE_DIR", help="the baseline run's folder")
    p.add_argument("candidate", type=Path, metavar="CANDIDATE_DIR", help="the candidate run's folder")
    p.add_argument("--engine", type=int, default=1, metavar="N",
                   help="which engine of the match is under test, counted from 1 in --engine order (default 1)")
    p.add_argument("--score", choices=("place", "first"), default="place",
                   help="place: a win 1, a draw 1/2, a loss 0 (with more players, linear in the place); "
                        "first: 1 for first place, a tie for first shared (default place; tune's --score)")
    p.add_argument("--games", action="store_true", help="also list every game that came out differently")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..arena.paired import compare_runs, load_run
    from ..core.errors import InvalidOptionError

    if args.engine < 1:
        raise InvalidOptionError(f"--engine counts from 1, got {args.engine}")
    result = compare_runs(load_run(args.baseline), load_run(args.candidate), args.engine - 1, args.score)
    print(result.text())
    if args.games:
        for g in result.games:
            if g.cand != g.base:
                print(f"game {g.round}: opening {g.opening_index + 1}, rotation {g.rotation}: "
                      f"baseline {g.base:g}, candidate {g.cand:g}")
    return 0
