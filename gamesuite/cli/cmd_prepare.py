"""``gamesuite prepare``: compile (or load) the engines' kernels now, so that no first move waits for them."""

from __future__ import annotations

import argparse
import sys
import time

from ..core.registry import engines_for, game_classes, load_game, make_engine
from .common import prepare_engine


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "prepare", help="compile the engines' kernels now (once per install)",
        description="Compile (or load from numba's cache) the kernels of the given games' engines, as the "
        "window and the engine protocols do on their first start. With no game: every game. After an "
        "install or an update this is what makes the first move wait; running it ahead (or in a build) "
        "moves the wait here.",
    )
    p.add_argument("games", nargs="*", metavar="GAME", help="game specs (default: every game)")
    p.add_argument("--engine", action="append", default=[], metavar="SPEC",
                   help="an engine spec to prepare (repeatable; default: each game's default engine)")
    p.add_argument("--all-engines", action="store_true", help="every engine of each game, not only the default")
    p.add_argument("--quiet", action="store_true", help="print nothing but errors")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    games = [load_game(g) for g in args.games] or [load_game(name) for name in game_classes()]
    t_all = time.perf_counter()
    for game in games:
        if args.engine:
            specs = list(args.engine)
        elif args.all_engines:
            specs = [e.name for e in engines_for(game)]
        else:
            specs = [""]
        for spec in specs:
            t0 = time.perf_counter()
            engine = make_engine(game, spec)
            prepare_engine(game, engine, quiet=args.quiet)
            if not args.quiet:
                print(f"{game.spec} {spec or 'default engine'}: ready in {time.perf_counter() - t0:.2f} s",
                      flush=True)
    if not args.quiet:
        print(f"all ready in {time.perf_counter() - t_all:.2f} s", file=sys.stderr)
    return 0
