"""``gamesuite play``: play against the engine in a terminal."""

from __future__ import annotations

import argparse
import random
import sys

from ..core.errors import GameSuiteError, InvalidOptionError
from ..core.limits import Limits
from ..core.registry import load_game, make_engine
from ..core.state import State
from .common import prepare_engine, search_interruptibly

HELP = "moves in the game's notation; commands: undo, hint, board, moves, help, quit"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play against the engine in the terminal",
                       description="Play against the engine in the terminal. " + HELP + ".")
    p.add_argument("game", help="game spec, e.g. tictactoe")
    p.add_argument("--position", metavar="TEXT", help="start from this position")
    p.add_argument("--engine", default="", metavar="SPEC", help="engine and options")
    p.add_argument("--movetime", type=int, default=1000, metavar="MS", help="engine time per move (default 1000)")
    p.add_argument("--seat", type=int, default=1, metavar="N",
                   help="which player you are (1 = first to move; default 1)")
    p.set_defaults(func=run)


def _show(state: State) -> None:
    diagram = getattr(state, "diagram", None)
    print(diagram() if callable(diagram) else state.to_text())


def run(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    if not 1 <= args.seat <= game.num_players:
        raise InvalidOptionError(f"--seat must be 1..{game.num_players}, got {args.seat}")
    if args.movetime <= 0:
        raise InvalidOptionError(f"--movetime must be positive, got {args.movetime}")
    state = game.state_from_text(args.position) if args.position else game.new_state()
    engine = make_engine(game, args.engine)
    prepare_engine(game, engine)
    human = args.seat - 1
    limits = Limits(movetime=args.movetime)
    rng = random.Random()
    print(f"{game.spec}: you are {game.player_name(human)}. {HELP}.")
    _show(state)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
            print(f"chance: {state.format_move(move)}")
            state.play(move)
            continue
        if state.current_player != human:
            result = search_interruptibly(engine, state, limits)
            assert result.best_move is not None
            print(f"{game.player_name(state.current_player)} plays {state.format_move(result.best_move)} "
                  f"({result.score.text()})")
            state.play(result.best_move)
            _show(state)
            continue
        try:
            line = input(f"{game.player_name(human)} to move> ")
        except EOFError:
            print()
            return 0
        cmd = line.strip()
        if not cmd:
            continue
        if cmd in ("quit", "exit", "q"):
            return 0
        if cmd == "help":
            print(HELP)
        elif cmd == "board":
            _show(state)
        elif cmd == "moves":
            print(" ".join(state.format_move(m) for m in state.legal_moves()))
        elif cmd == "hint":
            r = search_interruptibly(engine, state, limits)
            if r.best_move is not None:
                print(f"hint: {state.format_move(r.best_move)} ({r.score.text()})")
        elif cmd == "undo":
            # take back to the human's previous turn
            taken = 0
            while state.history:
                state.undo()
                taken += 1
                if state.current_player == human and not state.is_chance_node():
                    break
            print("taken back" if taken else "nothing to take back")
            _show(state)
        else:
            try:
                state.play_text(cmd)
            except GameSuiteError as e:
                print(f"error: {e}")
                continue
            _show(state)
    print(f"game over: {state.result_text()}")
    sys.stdout.flush()
    return 0
