"""The ``gamesuite`` command: a thin front end over the library.

Each subcommand lives in a module ``gamesuite/cli/cmd_<name>.py`` that defines
``register(subparsers)``; this module finds them by name, so a new command is
added by adding its file. ``gamesuite`` with no command opens the window.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from typing import NoReturn

from ..core.errors import GameSuiteError


class Parser(argparse.ArgumentParser):
    """argparse with gamesuite's error form: one line on standard error, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="gamesuite",
        description="Play and analyse board games against a strong computer opponent. "
        "With no command, opens the main window.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"gamesuite {__version__}")
    parser.add_argument("--open", metavar="FILE", help="open a saved game in the window")
    parser.add_argument("--quit-after", type=int, metavar="MS", help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    import gamesuite.cli as pkg

    for mod in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if mod.name.startswith("cmd_"):
            importlib.import_module(f"{pkg.__name__}.{mod.name}").register(sub)
    from .common import check_int_flags

    check_int_flags(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command is None:
            from ..gui.app import run_app

            return run_app([args.open] if args.open else [], quit_after_ms=args.quit_after)
        return int(args.func(args) or 0)
    except GameSuiteError as e:
        print(f"gamesuite: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def entry_point() -> None:
    """Console-script entry: ``sys.exit(main())``."""
    sys.exit(main())
