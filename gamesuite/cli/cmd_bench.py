"""``gamesuite bench NAME``: speed figures a user can reproduce.

Each benchmark is a module ``gamesuite/bench/<name>.py`` with a docstring and
``main(argv) -> int``.
"""

from __future__ import annotations

import argparse

from .common import plugin_names, run_plugin

PACKAGE = "gamesuite.bench"


def register(sub: argparse._SubParsersAction) -> None:
    names = ", ".join(plugin_names(PACKAGE))
    p = sub.add_parser("bench", help="run a speed benchmark and print its figures",
                       description=f"Run a benchmark: {names}. Arguments after NAME go to the benchmark "
                       "(try NAME --help).")
    p.add_argument("name", help=f"which benchmark: {names}")
    p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return run_plugin(PACKAGE, args.name, args.rest, "benchmark")
