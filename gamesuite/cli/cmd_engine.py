"""``gamesuite engine PROTOCOL``: speak an engine protocol on stdin/stdout.

Each protocol is a module ``gamesuite/protocols/<name>.py`` that defines
``main(argv) -> int`` and sets ``PROTOCOL = True``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil

from ..core.errors import InvalidOptionError, quote


def available() -> list[str]:
    import gamesuite.protocols as pkg

    return sorted(m.name for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_"))


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("engine", help="run as an engine over a protocol (" + ", ".join(available()) + ")",
                       description="Speak an engine protocol on standard input and output.")
    p.add_argument("protocol", help="one of: " + ", ".join(available()))
    p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.protocol not in available():
        raise InvalidOptionError(f"unknown protocol {quote(args.protocol)}; known: {', '.join(available())}")
    mod = importlib.import_module(f"gamesuite.protocols.{args.protocol}")
    return int(mod.main(args.rest) or 0)
