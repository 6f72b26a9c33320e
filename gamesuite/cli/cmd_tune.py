"""``gamesuite tune``: tune an engine's weights.

``gamesuite tune GAME --spsa ...`` tunes numeric engine options of any
two-player game by SPSA through the arena (``gamesuite/cli/tune_spsa.py``).

``gamesuite tune hare``: tune the Hare and Hedgehog evaluation weights.

Against judged studies (the original method: every (Ks, Kc, Kp) on a grid,
counting the studies whose judged winner the evaluation picks), then optionally
by self-play: the best triple against the default weights, with the score and
its confidence interval.
"""

from __future__ import annotations

import argparse
import sys

from ..core.errors import InvalidOptionError, InvalidRecordError, quote
from .tune_spsa import add_spsa_arguments, run_spsa_command

GAMES = ("hare",)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tune", help="tune an engine's weights: any engine option by SPSA (--spsa), hare on studies",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", help="the game to tune: any two-player game with --spsa, else " + ", ".join(GAMES))
    p.add_argument("--studies", metavar="FILE",
                   help="judged studies, one per line: SQUARE;CARROTS;LETTUCES;t|f per player, then the winner "
                        "(e.g. 45;26;2;f;29;19;0;f;2); # starts a comment")
    p.add_argument("--grid", default="0.5:2.0:0.1", metavar="FROM:TO:STEP",
                   help="values tried for each of Ks, Kc, Kp (default 0.5:2.0:0.1, 4,096 triples)")
    p.add_argument("--depth", type=int, default=0, help="judge by a search this deep (default 0: the evaluation)")
    p.add_argument("--top", type=int, default=10, help="how many triples to list (default 10)")
    p.add_argument("--selfplay", type=int, default=0, metavar="GAMES",
                   help="then play GAMES games (two players, one piece each) between the best triple and the "
                        "defaults, and print the score with its 95%% confidence interval")
    p.add_argument("--selfplay-depth", type=int, default=2, metavar="N", help="search depth in self-play (default 2)")
    p.add_argument("--seed", type=int, default=0, help="seed of the self-play card draws")
    add_spsa_arguments(p)
    p.set_defaults(func=run)


def _parse_grid(text: str) -> tuple[float, float, float]:
    try:
        a, b, c = (float(x) for x in text.split(":"))
    except ValueError:
        raise InvalidOptionError(f"--grid must look like 0.5:2.0:0.1, got {quote(text)}") from None
    return a, b, c


def run(args: argparse.Namespace) -> int:
    if args.spsa:
        return run_spsa_command(args)
    if args.studies is None:
        raise InvalidOptionError("tune hare needs --studies FILE (or --spsa to tune engine options by SPSA)")
    if args.game not in GAMES:
        raise InvalidOptionError(f"cannot tune {quote(args.game)}; tunable: {', '.join(GAMES)}")
    if args.depth < 0 or args.selfplay < 0 or args.selfplay_depth < 1 or args.top < 1:
        raise InvalidOptionError("--depth, --selfplay must be >= 0; --selfplay-depth and --top >= 1")
    from ..games.hare.config import Weights
    from ..games.hare.tuning import grid, play_match, read_studies, tune_on_studies

    try:
        with open(args.studies, encoding="utf-8") as f:
            studies = read_studies(f)
    except OSError as e:
        raise InvalidRecordError(f"cannot read studies {quote(args.studies)}: {e.strerror}") from None
    values = grid(*_parse_grid(args.grid))
    print(f"{len(studies)} studies, {len(values) ** 3} weight triples (Ks, Kc, Kp in {values[0]}..{values[-1]}), "
          f"judged by {'the evaluation' if args.depth == 0 else f'a {args.depth}-ply search'}")
    results = tune_on_studies(studies, values, args.depth)
    default_hits = next((h for h, w in results if (w.ks, w.kc, w.kp) == (1.0, 1.0, 1.0)), None)
    print(f"{'hits':>6}  {'Ks':>5} {'Kc':>5} {'Kp':>5}")
    for hits, w in results[: args.top]:
        print(f"{hits:>3}/{len(studies):<2}  {w.ks:>5.2f} {w.kc:>5.2f} {w.kp:>5.2f}")
    best_hits = results[0][0]
    ties = sum(1 for h, _ in results if h == best_hits)
    print(f"best: {best_hits} of {len(studies)} ({ties} triples tie)"
          + (f"; the defaults (1, 1, 1) get {default_hits}" if default_hits is not None else ""))
    if args.selfplay:
        best = results[0][1]
        print(f"self-play: ({best.ks}, {best.kc}, {best.kp}) against the defaults (1, 1, 1), "
              f"{args.selfplay} games at depth {args.selfplay_depth}")

        def progress(k: int, r) -> None:  # type: ignore[no-untyped-def]
            print(f"  game {k}: +{r.wins} -{r.losses} ={r.draws}", file=sys.stderr)

        r = play_match(best, Weights(), args.selfplay, args.selfplay_depth, seed=args.seed, progress=progress)
        lo, hi = r.interval()
        print(f"result: +{r.wins} -{r.losses} ={r.draws}  score {r.score:.3f}  95% interval {lo:.3f}..{hi:.3f}  "
              f"Elo {r.elo():+.0f}")
        verdict = ("better" if lo > 0.5 else "worse" if hi < 0.5 else "not distinguishable at this number of games")
        print(f"the tuned weights are {verdict}")
    return 0
