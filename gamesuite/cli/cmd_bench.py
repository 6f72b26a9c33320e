"""``gamesuite bench NAME``: speed figures a user can reproduce.

Each benchmark is a module ``gamesuite/bench/<name>.py`` with a docstring and
``main(argv) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil

from ..core.errors import InvalidOptionError, quote


def available() -> list[str]:
    import gamesuite.bench as pkg

    return sorted(m.name for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_"))


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="run a speed benchmark and print its figures",
                       description="Run a benchmark: " + ", ".join(available()) + ". "
                       "Arguments after NAME go to the benchmark (try NAME --help).")
    p.add_argument("name", help="which benchmark: " + ", ".join(available()))
    p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.name not in available():
        raise InvalidOptionError(f"unknown benchmark {quote(args.name)}; known: {', '.join(available())}")
    mod = importlib.import_module(f"gamesuite.bench.{args.name}")
    return int(mod.main(args.rest) or 0)
