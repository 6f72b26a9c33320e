"""``gamesuite tune``: tune an engine's weights.

``gamesuite tune GAME --spsa ...`` tunes numeric engine options by SPSA
through the arena (``gamesuite/cli/tune_spsa.py``): by self-play in any
two-player game, or against fixed opponents (``--opponent``) in any game.

``gamesuite tune hare``: tune the Hare and Hedgehog evaluation weights on
studies. With the shipped studies (or a TOML file of them: positions with the
good moves) the engine's move is judged: weights are tuned one at a time
(``--weights``), keeping the value that solves most studies. With a file of the
original write-up's study lines (the judged winner) every (Ks, Kc, Kp) on a grid
is tried, as the write-up did. ``--selfplay GAMES`` then plays the tuned weights
against the starting ones through the arena (``--concurrency``, ``--cluster``).
"""

from __future__ import annotations

import argparse
import sys

from ..core.errors import InvalidOptionError, InvalidRecordError, quote
from ..core.options import parse_float
from .tune_spsa import add_spsa_arguments, run_spsa_command

GAMES = ("hare",)

#: The weights ``tune hare`` tunes on move studies unless ``--weights`` names others: the carrot terms. The
#: studies are endgames, mostly without lettuces; tuned on them the lettuce weights fall to 0 (which no
#: game would bear out), so those are left to self-play.
DEFAULT_TUNED = ("kc", "c0", "c1", "need_per_square", "excess", "finishable", "percarrot", "due")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tune", help="tune an engine's weights: any engine option by SPSA (--spsa), hare on studies",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", help="the game to tune: any game with --spsa (by self-play: two players), else "
                   + ", ".join(GAMES))
    g = p.add_argument_group("Hare and Hedgehog studies (without --spsa)")
    g.add_argument("--studies", metavar="FILE",
                   help="studies: a TOML file like the shipped one (positions and good moves), or the write-up's "
                        "lines SQUARE;CARROTS;LETTUCES;t|f per player, then the winner (e.g. 45;26;2;f;29;19;0;f;2); "
                        "default: the shipped studies")
    g.add_argument("--weights", metavar="NAMES",
                   help="weights tuned one at a time on move studies, comma-separated (default: "
                        + ",".join(DEFAULT_TUNED) + ")")
    g.add_argument("--rounds", type=int, default=2, help="rounds over the weights (default 2)")
    g.add_argument("--grid", default="0.5:2.0:0.1", metavar="FROM:TO:STEP",
                   help="write-up studies: values tried for each of Ks, Kc, Kp (default 0.5:2.0:0.1, 4,096 triples)")
    g.add_argument("--depth", type=int, metavar="N",
                   help="judge by a search this deep (default 2 for move studies, 0 = the evaluation for the "
                        "write-up's)")
    g.add_argument("--nodes", type=int, metavar="N", help="move studies: judge by a search of N nodes instead")
    g.add_argument("--top", type=int, default=10, help="write-up studies: how many triples to list (default 10)")
    g.add_argument("--selfplay", type=int, default=0, metavar="GAMES",
                   help="then play GAMES games through the arena between the tuned weights and the starting ones "
                        "and print the score with its 95%% confidence interval")
    g.add_argument("--selfplay-depth", type=int, default=2, metavar="N", help="search depth in self-play (default 2)")
    g.add_argument("--selfplay-game", default="hare(players=2,pieces=1)", metavar="SPEC",
                   help="the game of the self-play (default hare(players=2,pieces=1); more players: the starting "
                        "weights take every other seat)")
    p.add_argument("--seed", type=int, default=0, help="seed of the self-play or SPSA card draws and openings")
    add_spsa_arguments(p)
    p.set_defaults(func=run)


def _parse_grid(text: str) -> tuple[float, float, float]:
    parts = text.split(":")
    if len(parts) != 3:
        raise InvalidOptionError(f"--grid must look like 0.5:2.0:0.1, got {quote(text)}")
    a, b, c = (parse_float(x, f"--grid {quote(text)} (FROM:TO:STEP): each", -1000, 1000) for x in parts)
    if c > 0 and (b - a) / c > 10_000:
        raise InvalidOptionError(f"--grid {quote(text)} has more than 10,000 values")
    return a, b, c


def run(args: argparse.Namespace) -> int:
    if args.spsa:
        return run_spsa_command(args)
    spsa_only = [flag for flag, given in (("--opponent", args.opponent), ("--score", args.score),
                                          ("--param", args.param), ("--params", args.params),
                                          ("--state", args.state)) if given]
    if spsa_only:
        raise InvalidOptionError(f"{', '.join(spsa_only)} only apply to an SPSA run: add --spsa "
                                 "(without it, tune fits Hare weights to the studies)")
    if args.game not in GAMES:
        raise InvalidOptionError(f"cannot tune {quote(args.game)} on studies; tunable: {', '.join(GAMES)} "
                                 "(or --spsa for engine options of any two-player game)")
    if (args.depth is not None and args.depth < 0) or args.selfplay < 0 or args.selfplay_depth < 1 or args.top < 1 \
            or args.rounds < 1 or (args.nodes is not None and args.nodes < 1):
        raise InvalidOptionError("--depth and --selfplay must be >= 0; --selfplay-depth, --top, --rounds and "
                                 "--nodes >= 1")
    text = None
    if args.studies is not None:
        try:
            with open(args.studies, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise InvalidRecordError(f"cannot read studies {quote(args.studies)}: {e.strerror}") from None
    if text is not None and "[[study]]" not in text:
        return _tune_writeup(args, text)
    return _tune_moves(args, text)


def _selfplay(args: argparse.Namespace, a: str, b: str) -> None:
    from ..games.hare.tuning import selfplay

    print(f"self-play through the arena: {a} against {b}, {args.selfplay} games of {args.selfplay_game} at depth "
          f"{args.selfplay_depth}", flush=True)

    def progress(done: int, total: int) -> None:
        print(f"  game {done}/{total}", file=sys.stderr, flush=True)

    r = selfplay(a, b, args.selfplay, args.selfplay_game, depth=args.selfplay_depth, seed=args.seed,
                 concurrency=args.concurrency, cluster=args.cluster, progress=progress)
    lo, hi = r.interval()
    print(f"result: +{r.wins} ={r.draws} -{r.losses}  score {r.score:.3f}  95% interval {lo:.3f}..{hi:.3f}  "
          f"Elo {r.elo():+.0f}; first place in {r.first} of {r.games_played} games")
    verdict = ("better" if lo > 0.5 else "worse" if hi < 0.5 else "not distinguishable at this number of games")
    print(f"the tuned weights are {verdict}")


def _tune_moves(args: argparse.Namespace, text: str | None) -> int:
    from ..core.limits import Limits
    from ..games.hare.config import Weights
    from ..games.hare.studies import load_studies, parse_studies
    from ..games.hare.tuning import coordinate_search, solved, weights_spec

    studies = load_studies() if text is None else parse_studies(text, args.studies)
    base = args.engine or "maxn"
    if base.startswith("hare:"):
        base = base[5:]
    names = DEFAULT_TUNED if not args.weights else tuple(n.strip() for n in args.weights.split(",") if n.strip())
    limits = Limits(nodes=args.nodes) if args.nodes else Limits(depth=2 if args.depth is None else max(1, args.depth))
    judge = f"{args.nodes} nodes" if args.nodes else f"{limits.depth} plies"
    start_hits = solved(studies, base, limits)
    print(f"{len(studies)} studies ({'shipped' if text is None else args.studies}), engine {base} at {judge}: "
          f"{sum(start_hits)} solved", flush=True)

    def progress(name: str, value: float, hits: int) -> None:
        print(f"  {name}={value:g}: {hits}", file=sys.stderr, flush=True)

    from ..core.registry import load_game, make_engine
    from ..games.hare.engine import HareEngine

    engine = make_engine(load_game("hare"), base)
    if not isinstance(engine, HareEngine):
        from ..core.errors import InvalidOptionError, quote

        raise InvalidOptionError(f"tune hare moves tunes the weights of maxn or writeup, not {quote(base)}")
    start = engine.weights
    w, hits = coordinate_search(studies, names, base, start, limits, args.rounds, progress=progress)
    changed = {n: getattr(w, n) for n in Weights.names() if getattr(w, n) != getattr(start, n)}
    print(f"tuned: {hits} of {len(studies)} solved (was {sum(start_hits)})"
          + ("; " + ", ".join(f"{k}={v:g}" for k, v in changed.items()) if changed else "; no change"))
    missed = [st.name for st, ok in zip(studies, solved(studies, weights_spec(base, w), limits)) if not ok]
    if missed:
        print("not solved: " + ", ".join(missed))
    print(f"engine: hare:{weights_spec(base, w)}")
    if args.selfplay:
        _selfplay(args, weights_spec(base, w), base)
    return 0


def _tune_writeup(args: argparse.Namespace, text: str) -> int:
    from ..games.hare.config import Weights
    from ..games.hare.tuning import grid, read_studies, tune_on_studies, weights_spec

    studies = read_studies(text.splitlines())
    values = grid(*_parse_grid(args.grid))
    depth = args.depth or 0
    print(f"{len(studies)} studies, {len(values) ** 3} weight triples (Ks, Kc, Kp in {values[0]}..{values[-1]}), "
          f"judged by {'the evaluation' if depth == 0 else f'a {depth}-ply search'}")
    results = tune_on_studies(studies, values, depth)
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
        _selfplay(args, weights_spec("maxn", best), weights_spec("maxn", Weights()))
    return 0
