"""``gamesuite analyse``: analyse positions and stream the engine's reports."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..arena.external import UsiEngine, open_engine
from ..core.files import read_text_file
from ..core.info import Engine, SearchInfo
from ..core.limits import Limits
from ..core.registry import Game, load_game
from ..core.state import State
from .common import (
    add_limit_arguments,
    info_json,
    info_line,
    limits_from_args,
    prepare_engine,
    result_json,
    search_interruptibly,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "analyse", aliases=["analyze"], help="analyse a position and print the engine's lines",
        description="Analyse a position: one line per completed depth, then the best move. "
        "Without a limit the engine thinks for 5 seconds. The engine is loaded before the clock starts "
        "(compiled on a first run, with progress on standard error).",
    )
    p.add_argument("game", help="game spec, e.g. tictactoe or 'gomoku(size=15,rule=renju)'")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--position", metavar="TEXT", help="position text (default: the start position)")
    src.add_argument("--positions", metavar="FILE", type=Path, help="analyse every non-empty line of FILE")
    p.add_argument("--engine", default="", metavar="SPEC",
                   help="engine and options, e.g. 'mtdf,top=10', or a program: 'usi:PATH[,opt=val...]', 'gomocup:PATH'")
    p.add_argument("--json", action="store_true", help="print JSON objects, one per line")
    add_limit_arguments(p, default_movetime=5000)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    limits = limits_from_args(args)
    engine = open_engine(game, args.engine)
    try:
        return _analyse(args, game, limits, engine)
    finally:
        close = getattr(engine, "close", None)
        if callable(close):
            close()


def _analyse(args: argparse.Namespace, game: Game, limits: Limits, engine: Engine) -> int:
    if args.positions is not None:
        texts: list[str | None] = [ln.strip() for ln in read_text_file(args.positions).splitlines()]
        texts = [t for t in texts if t and not t.startswith("#")]
    elif args.position is not None:
        texts = [args.position]
    else:
        texts = [None]
    states = [game.new_state() if t is None else game.state_from_text(t) for t in texts]
    if not isinstance(engine, UsiEngine):  # (an external program is ready once it has answered readyok)
        prepare_engine(game, engine)  # the clock of the first search starts after the engine is loaded
    status = 0
    for state in states:
        if len(states) > 1 and not args.json:
            print(f"position {state.to_text()}")
        if state.is_terminal():
            msg = f"the game is over: {state.result_text()}"
            print(f'{{"type": "bestmove", "bestmove": null, "result": "{state.result_text()}"}}' if args.json
                  else msg)
            continue

        def on_info(info: SearchInfo, state: State = state) -> None:
            print(info_json(info, state) if args.json else info_line(info, state), flush=True)

        result = search_interruptibly(engine, state, limits, on_info)
        if args.json:
            print(result_json(result, state), flush=True)
        else:
            best = state.format_move(result.best_move) if result.best_move is not None else "(none)"
            print(f"bestmove {best} score {result.score.text()}", flush=True)
    sys.stdout.flush()
    return status
