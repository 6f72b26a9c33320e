"""``gamesuite tournament``: a round robin between several engines, the table printed and saved."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..core.errors import InvalidOptionError, quote
from ..core.files import write_atomic
from .cmd_match import add_arena_arguments, build_session, play_session


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "tournament", help="a round robin between several engines, with a table",
        description="A round robin: every pair of engines (every group of as many as the game has players) "
        "plays --games games, each opening once per seat rotation. Prints the standings (W/D/L, score with "
        "95%% confidence interval, Elo against the field ± error) and the cross table; --table saves them.")
    add_arena_arguments(p, "games per pairing (default 10)")
    p.add_argument("--table", type=Path, metavar="FILE",
                   help="save the standings as CSV (FILE.csv) or JSON (FILE.json); with --save, both go "
                        "into DIR as standings.csv and tournament.json anyway")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..arena.report import (
        adjudication_text,
        cross_table_text,
        limits_text,
        standings_csv,
        standings_text,
        tally_json,
    )
    if args.table is not None and args.table.suffix.lower() not in (".csv", ".json"):
        raise InvalidOptionError(f"--table must end in .csv or .json, got {quote(str(args.table))}")
    session = build_session(args, "tournament")
    print(f"{session.game.spec}: round robin of {', '.join(e.label for e in session.engines)}, "
          f"{session.games} games per pairing, {limits_text(session.tc, session.engines)}, seed {session.seed}",
          flush=True)
    out = play_session(session, args.quiet)
    t = out.tally
    print()
    print(standings_text(t, session.game.num_players))
    print()
    print(cross_table_text(t))
    print(adjudication_text(t))
    if session.save_dir is not None:
        write_atomic(session.save_dir / "standings.csv", standings_csv(t))
        print(f"records, standings.csv and tournament.json saved in {session.save_dir}")
    if args.table is not None:
        args.table.parent.mkdir(parents=True, exist_ok=True)
        if args.table.suffix.lower() == ".csv":
            write_atomic(args.table, standings_csv(t))
        else:
            d = {"game": session.game.spec, "time_control": session.tc.describe(),
                 "limits": {e.label: session.tc.for_engine(e).describe() for e in session.engines}, **tally_json(t)}
            write_atomic(args.table, json.dumps(d, indent=1) + "\n")
        print(f"table saved to {args.table}")
    return 0
