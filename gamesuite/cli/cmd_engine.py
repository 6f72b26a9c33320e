"""``gamesuite engine PROTOCOL``: speak an engine protocol on stdin/stdout.

Each protocol is a module ``gamesuite/protocols/<name>.py`` that defines
``main(argv) -> int``.
"""

from __future__ import annotations

import argparse

from .common import plugin_names, run_plugin

PACKAGE = "gamesuite.protocols"


def register(sub: argparse._SubParsersAction) -> None:
    names = ", ".join(plugin_names(PACKAGE)) or "none yet"
    p = sub.add_parser("engine", help=f"run as an engine over a protocol ({names})",
                       description="Speak an engine protocol on standard input and output.")
    p.add_argument("protocol", help=f"one of: {names}")
    p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return run_plugin(PACKAGE, args.protocol, args.rest, "protocol")
