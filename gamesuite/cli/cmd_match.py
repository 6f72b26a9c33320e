"""``gamesuite match``: a match between engines, with score, Elo and SPRT."""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import InvalidOptionError

if TYPE_CHECKING:
    from ..arena.game import MatchLimits
    from ..arena.match import Tally
    from ..arena.openings import Opening
    from ..arena.record import GameRecord
    from ..arena.session import Outcome, Session
    from ..arena.stats import Sprt
    from ..core.registry import Game


def add_arena_arguments(p: argparse.ArgumentParser, games_help: str) -> None:
    """The options ``match`` and ``tournament`` share."""
    p.add_argument("game", help="game spec, e.g. tictactoe, 'gomoku(size=15)', shogi")
    p.add_argument("--engine", action="append", default=[], metavar="SPEC", required=True,
                   help="an engine (repeat): GAME:NAME[,opt=val...] for ours (e.g. gomoku:mtdf,top=10,hash=64), "
                        "usi:COMMAND, gomocup:COMMAND, py:MODULE:ATTR; label=NAME renames it")
    p.add_argument("--games", type=int, default=10, metavar="N", help=games_help)
    tc = p.add_mutually_exclusive_group()
    tc.add_argument("--movetime", type=int, metavar="MS", help="time per move in milliseconds")
    tc.add_argument("--clock", metavar="BASE+INC",
                    help="a clock in seconds: 60+0.5 (an increment), 300+0 (sudden death), 600+10b (byoyomi)")
    tc.add_argument("--depth", type=int, metavar="N", help="fixed depth per move (no clock; reproducible)")
    tc.add_argument("--nodes", type=int, metavar="N", help="fixed nodes per move (no clock)")
    p.epilog = ("Every engine needs a limit: the match's (--movetime, --clock, --depth or --nodes) or its own, "
                "given in its spec: @nodes=N, @depth=N, @movetime=MS, @clock=BASE+INC "
                "(e.g. gomoku:mtdf,@nodes=300000 or usi:PATH,NodesLimit=10000,@movetime=1000).")
    p.add_argument("--time-margin", type=int, default=500, metavar="MS",
                   help="lateness tolerated before a time loss (default 500)")
    p.add_argument("--hang-timeout", type=int, default=5000, metavar="MS",
                   help="how long past that to wait before calling it a hang (default 5000)")
    p.add_argument("--work-timeout", type=int, default=600_000, metavar="MS",
                   help="how long a move limited by nodes or depth alone may take before it is a hang "
                        "(default 600000: such a move is never cut short by a loaded machine)")
    p.add_argument("--startup-timeout", type=int, default=30_000, metavar="MS",
                   help="how long an external program may take to start and say it is ready (default 30000)")
    p.add_argument("--openings", type=Path, metavar="FILE",
                   help="one opening per line: position text or 'startpos', optionally 'moves m1 m2 ...'")
    p.add_argument("--first-opening", type=int, default=1, metavar="N",
                   help="with --openings: start at the file's N-th opening (they wrap). A match takes a file's "
                        "openings in order whatever --seed, so this is how to play a new sample of the file")
    p.add_argument("--opening-rule", choices=("swap1", "swap2"), default="",
                   help="the engines negotiate every opening (gomoku freestyle or standard): the proposer places "
                        "three stones, the other swaps or plays on (swap2: or adds two and hands the choice back)")
    p.add_argument("--seed", type=int, metavar="N", help="seed of the openings and dice (default: random, printed)")
    add_where_arguments(p)
    p.add_argument("--max-plies", type=int, default=0, metavar="N",
                   help="adjudicate a draw after N plies (default: no limit)")
    p.add_argument("--save", "--pgn-dir", dest="save", type=Path, metavar="DIR",
                   help="save every game as a JSON record (and a summary) in DIR")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.add_argument("--fresh-engines", action="store_true",
                   help="start every engine afresh for every game (external programs too: nothing, such as a "
                        "hash table, carries from one game to the next, so node-limited games replay the same "
                        "at any --concurrency)")


def add_where_arguments(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """Where games run: ``--concurrency`` and ``--cluster`` (match, tournament, ladder, tune --spsa)."""
    p.add_argument("--concurrency", type=int, default=1, metavar="K",
                   help="games at once, in worker processes (default 1: in this process)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play the games on a Dask cluster (tcp://host:8786); needs gamesuite[cluster]")


def time_control(args: argparse.Namespace) -> MatchLimits:
    from ..arena.game import MatchLimits

    for name in ("movetime", "depth", "nodes", "games", "concurrency"):
        v = getattr(args, name, None)
        if v is not None and v <= 0:
            raise InvalidOptionError(f"--{name} must be positive, got {v}")
    if min(args.time_margin, args.hang_timeout, args.max_plies, args.startup_timeout, args.work_timeout) < 0:
        raise InvalidOptionError(
            "--time-margin, --hang-timeout, --work-timeout, --startup-timeout and --max-plies must not be negative")
    kw = {"margin": args.time_margin, "hang": args.hang_timeout, "startup": args.startup_timeout,
          "work_hang": args.work_timeout}
    if args.clock is not None:
        return MatchLimits.with_clock(args.clock, **kw)
    return MatchLimits(movetime=args.movetime, depth=args.depth, nodes=args.nodes, **kw)


def openings_arg(args: argparse.Namespace, game: Game) -> list[Opening] | None:
    """The openings of ``--openings`` from ``--first-opening`` on (match, tournament, ladder); None without a file."""
    from ..arena.openings import load_openings

    if args.openings is not None:
        return load_openings(args.openings, game, args.first_opening)
    if args.first_opening != 1:
        raise InvalidOptionError("--first-opening needs --openings FILE")
    return None


def build_session(args: argparse.Namespace, mode: str) -> Session:
    from ..arena.session import Session

    tc = time_control(args)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    session = Session.from_texts(args.game, args.engine, games=args.games, tc=tc, mode=mode, seed=seed,
                                 concurrency=args.concurrency, cluster=args.cluster, save_dir=args.save,
                                 max_plies=args.max_plies, swap_rule=args.opening_rule,
                                 fresh_engines=args.fresh_engines)
    openings = openings_arg(args, session.game)
    if openings is not None:
        session.openings = openings
    return session


class Progress:
    """The live progress line on standard error (redrawn on a terminal, every ~10% otherwise)."""

    def __init__(self, sprt: Sprt | None = None, quiet: bool = False,
                 text: Callable[[Tally, GameRecord, int, int], str] | None = None) -> None:
        self.sprt = sprt
        self.text = text  # (tally, record, done, total) -> the line; default: report.progress_text
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.t0 = time.perf_counter()
        self.last_step = -1

    def __call__(self, tally: Tally, rec: GameRecord, done: int, total: int) -> None:
        from ..arena.report import progress_text

        if self.quiet:
            return
        line = (self.text(tally, rec, done, total) if self.text is not None
                else progress_text(tally, done, total, self.sprt)) + f"  {time.perf_counter() - self.t0:.0f} s"
        if self.tty:
            print("\r" + line + "\033[K", end="", file=sys.stderr, flush=True)
            return
        step = done * 10 // max(total, 1)
        if step != self.last_step or done == total:
            self.last_step = step
            print(line, file=sys.stderr, flush=True)

    def finish(self) -> None:
        if self.tty and not self.quiet:
            print(file=sys.stderr)


def play_session(session: Session, quiet: bool) -> Outcome:
    """Play ``session`` with a progress line on the terminal; its outcome."""
    from ..arena.session import run_session

    progress = Progress(session.sprt, quiet)
    try:
        return run_session(session, progress)
    finally:
        progress.finish()


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "match", help="play a match between engines: score, Elo, SPRT",
        description="Play games between engines (two, or as many as the game has players), each opening "
        "once per seat rotation (colours swapped), then print the cross table, W/D/L, the score with its "
        "95%% confidence interval and the Elo difference. Illegal moves, crashes, hangs and time losses "
        "lose the game; the reason is recorded.")
    add_arena_arguments(p, "games to play in all (default 10)")
    p.add_argument("--sprt", metavar="ELO0,ELO1,ALPHA,BETA",
                   help="stop early when the SPRT (trinomial GSPRT, logistic Elo) decides, e.g. 0,10,0.05,0.05")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..arena.report import adjudication_text, cross_table_text, limits_text, pair_summary, standings_text
    from ..arena.stats import Sprt

    session = build_session(args, "match")
    if args.sprt is not None:
        session.sprt = Sprt.parse(args.sprt)
    print(f"{session.game.spec}: {' vs '.join(e.label for e in session.engines)}, {session.games} games, "
          f"{limits_text(session.tc, session.engines)}"
          + (f", {session.swap_rule} openings" if session.swap_rule else "") + f", seed {session.seed}", flush=True)
    out = play_session(session, args.quiet)
    t = out.tally
    print()
    print(cross_table_text(t))
    print()
    if len(t.labels) == 2:
        print(pair_summary(t, 0, 1, session.sprt))
    else:
        print(standings_text(t, session.game.num_players))
    print(adjudication_text(t))
    if out.stopped_early:
        print(f"stopped after {len(out.records)} of {out.planned} games" +
              (f": SPRT {out.sprt_decision} accepted" if out.sprt_decision else ""))
    if t.errors:
        print(f"{t.errors} games failed in the arena itself (see the records)", file=sys.stderr)
    if session.save_dir is not None:
        print(f"records saved in {session.save_dir}")
    return 0
