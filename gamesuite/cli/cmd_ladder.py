"""``gamesuite ladder``: one engine against a node-limited ladder of an anchor engine."""

from __future__ import annotations

import argparse
import random
import sys

from ..core.errors import InvalidOptionError
from .cmd_match import Progress, add_arena_arguments, openings_arg, time_control


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ladder", help="an engine against a node-limited ladder of an anchor: where it stands",
        description="Play --engine against --anchor limited to each of --steps nodes a move (MAX_NODE for a "
        "Gomocup brain, NodesLimit for a USI engine, @nodes for one of ours; 'none' is no node limit), "
        "--games games a step on the same openings with colours swapped, and print a row per step: W/D/L, "
        "score and Elo with 95%% intervals, the pentanomial pair interval, and a fit of where the engine "
        "scores 50%%. The engine plays by its own limits (e.g. gomoku:mtdf,@nodes=300000) or the ones given "
        "here, which the anchor also gets (with its node step).")
    add_arena_arguments(p, "games a step (default 10)")
    p.add_argument("--anchor", required=True, metavar="SPEC",
                   help="the anchor, e.g. gomocup:PATH/pbrain-rapfi or usi:PATH,Threads=1,BookFile=no_book")
    p.add_argument("--steps", required=True, metavar="N,N,...",
                   help="the anchor's node counts, e.g. 10000,30000,100k,300k,none")
    p.add_argument("--step-option", default="", metavar="NAME",
                   help="the anchor option that takes the node count (default MAX_NODE for gomocup:, NodesLimit "
                        "for usi:, the per-engine @nodes limit for the others)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..arena.ladder import Ladder, fit_text, ladder_table, parse_steps, progress_text, run_ladder
    from ..arena.report import adjudication_text
    from ..arena.spec import parse_engine_spec
    from ..core.registry import load_game

    if len(args.engine) != 1:
        raise InvalidOptionError(f"a ladder tests one --engine against the --anchor, got {len(args.engine)}")
    tc = time_control(args)
    game = load_game(args.game)
    engine = parse_engine_spec(args.engine[0], game.name)
    anchor = parse_engine_spec(args.anchor, game.name)
    steps = parse_steps(args.steps)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    ladder = Ladder(game, engine, anchor, steps, args.games, tc, option=args.step_option, seed=seed,
                    concurrency=args.concurrency, cluster=args.cluster, save_dir=args.save, max_plies=args.max_plies,
                    swap_rule=args.opening_rule, fresh_engines=args.fresh_engines)
    openings = openings_arg(args, game)
    if openings is not None:
        ladder.openings = openings
    print(ladder.describe(), flush=True)
    progress = Progress(quiet=args.quiet, text=lambda t, rec, done, total: progress_text(ladder, t, rec, done, total))
    try:
        result = run_ladder(ladder, progress)
    finally:
        progress.finish()
    print()
    print(ladder_table(result.rows))
    print(fit_text(result.fit, ladder.option))
    print(adjudication_text(result.outcome.tally))
    if result.outcome.tally.errors:
        print(f"{result.outcome.tally.errors} games failed in the arena itself (see the records)", file=sys.stderr)
    if ladder.save_dir is not None:
        print(f"records and ladder.json saved in {ladder.save_dir}")
    return 0
