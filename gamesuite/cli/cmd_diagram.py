"""``gamesuite diagram``: draw a position as a PNG or SVG picture (no window opens)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..core.registry import load_game


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "diagram", help="draw a position as a PNG or SVG file",
        description="Draw a position of a game as a picture, the way the window shows it. "
        "The file type follows the name: .png or .svg.",
    )
    p.add_argument("game", help="game spec, e.g. tictactoe or 'gomoku(size=15,rule=renju)'")
    p.add_argument("--position", metavar="TEXT", help="position text (default: the start position)")
    p.add_argument("-o", "--output", required=True, type=Path, metavar="FILE", help="the .png or .svg to write")
    p.add_argument("--size", type=int, default=600, metavar="PX", help="width and height in pixels (default 600)")
    p.add_argument("--theme", choices=("light", "dark"), default="light", help="colours (default light)")
    p.add_argument("--flip", action="store_true", help="turn the board around")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    state = game.state_from_text(args.position) if args.position is not None else game.new_state()
    from ..gui.diagram import render_diagram  # Qt only now, and offscreen

    path = render_diagram(game, state, args.output, args.size, args.theme, args.flip)
    print(f"wrote {path}")
    return 0
