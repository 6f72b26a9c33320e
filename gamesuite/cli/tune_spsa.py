"""``gamesuite tune GAME --spsa``: SPSA over numeric engine options, through the arena.

By self-play (any two-player game), or against fixed opponents (``--opponent``, one fewer than the game's
players: any game).

The options and the run live in ``gamesuite.arena.spsa``; this module adds
them to the ``tune`` command and runs them.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..core.errors import InvalidOptionError


def add_spsa_arguments(p: argparse.ArgumentParser) -> None:
    from .cmd_match import add_where_arguments

    g = p.add_argument_group(
        "SPSA through the arena",
        "--spsa tunes numeric engine options by self-play: each batch, the engine with theta+c*delta plays the "
        "engine with theta-c*delta (paired openings, colours swapped) and theta moves toward the winner. With "
        "--opponent, theta+ and theta- each play the opponents instead (same opening, seat and chance seed; the "
        "tuned engine's seat rotates) and theta moves toward the one that scored more. The "
        "state goes to --state after every batch; run the same command again to continue a stopped run.")
    g.add_argument("--spsa", action="store_true", help="tune by SPSA (instead of the Hare studies)")
    g.add_argument("--engine", metavar="SPEC",
                   help="the engine, with its own limits and without the tuned options, "
                        "e.g. gomoku:mtdf,@nodes=20000 or usi:PATH,Threads=1,@nodes=10000")
    g.add_argument("--opponent", action="append", default=[], metavar="SPEC",
                   help="a fixed opponent, with its own limits (repeat: the game's players less one; none: "
                        "self-play), e.g. gomocup:PATH,MAX_NODE=30000 or hare:writeup,@nodes=150000")
    g.add_argument("--score", choices=("first", "place"),
                   help="with --opponent, a game's score: first (1 for first place, ties split, else 0) or place "
                        "(1 for first to 0 for last); default first with more than two players, else place "
                        "(win/draw/loss 1/0.5/0)")
    g.add_argument("--param", action="append", default=[], metavar="NAME,START,MIN,MAX,C_END,R_END",
                   help="a tuned option, fishtest's way (repeat); c_end: the last perturbation, r_end: the last "
                        "learning rate; integer START/MIN/MAX make an integer option")
    g.add_argument("--params", type=Path, metavar="FILE",
                   help="tuned options, one NAME,START,MIN,MAX,C_END,R_END a line")
    g.add_argument("--pairs", type=int, default=1000, metavar="N",
                   help="game pairs in all (fishtest's iterations; default 1000)")
    g.add_argument("--batch", type=int, default=0, metavar="P",
                   help="game pairs per update (default: half the workers, at least 1)")
    g.add_argument("--state", type=Path, metavar="FILE", help="the state file (required with --spsa)")
    g.add_argument("--openings", type=Path, metavar="FILE", help="openings (as for match); default the built-in set")
    add_where_arguments(g)
    g.add_argument("--max-plies", type=int, default=0, metavar="N", help="adjudicate a draw after N plies")
    g.add_argument("--hang-timeout", type=int, default=5000, metavar="MS",
                   help="how long past the allowed time to wait for a move (default 5000)")
    g.add_argument("--alpha", type=float, default=0.602, help="the decay of a_k (default 0.602)")
    g.add_argument("--gamma", type=float, default=0.101, help="the decay of c_k (default 0.101)")
    g.add_argument("--A", dest="big_a", type=float, metavar="A", help="the stability constant (default pairs/10)")
    g.add_argument("--save", type=Path, metavar="DIR", help="save every game's record in DIR")


def run_spsa_command(args: argparse.Namespace) -> int:
    from ..arena.game import MatchLimits
    from ..arena.openings import load_openings
    from ..arena.spec import parse_engine_spec
    from ..arena.spsa import Spsa, final_spec, parse_param, read_params, run_spsa, theta_text
    from ..core.registry import load_game

    if not args.engine:
        raise InvalidOptionError("--spsa needs --engine SPEC (with its own limits, e.g. @nodes=20000)")
    if args.state is None:
        raise InvalidOptionError("--spsa needs --state FILE (where the run is kept, and continued from)")
    if args.concurrency < 1 or args.max_plies < 0 or args.hang_timeout < 0 or args.batch < 0:
        raise InvalidOptionError("--concurrency must be positive; --batch, --max-plies and --hang-timeout not negative")
    params = [parse_param(t) for t in args.param] + (read_params(args.params) if args.params else [])
    game = load_game(args.game)
    spsa = Spsa(game, parse_engine_spec(args.engine, game.name), params, args.pairs, args.batch,
                MatchLimits(hang=args.hang_timeout), seed=args.seed, concurrency=args.concurrency,
                cluster=args.cluster, max_plies=args.max_plies, alpha=args.alpha, gamma=args.gamma,
                A=args.big_a, state_path=args.state, save_dir=args.save,
                opponents=tuple(parse_engine_spec(o, game.name) for o in args.opponent), score=args.score or "")
    if args.openings is not None:
        spsa.openings = load_openings(args.openings, game)
    resumed = args.state.exists()
    print(f"{game.spec}: SPSA of {', '.join(p.name for p in params)} in {spsa.engine.text}, {spsa.pairs} pairs, "
          f"seed {spsa.seed}, state {args.state}" + (" (continued)" if resumed else ""), flush=True)
    if spsa.opponents:
        print(f"against {', '.join(o.text for o in spsa.opponents)}; score: {spsa.score}", flush=True)

    def on_batch(entry: dict, state: dict) -> None:
        w, d, l = entry["result"]
        line = f"pairs {state['k']}/{spsa.pairs}  plus +{w} ={d} -{l}  {theta_text(spsa, state['theta'])}"
        vs = state.get("vs")
        if spsa.opponents and vs and vs["pairs"]:
            m = vs["pairs"]
            line += (f"  mean score {(vs['plus'] + vs['minus']) / (2 * m):.3f} (plus {vs['plus'] / m:.3f}, "
                     f"minus {vs['minus'] / m:.3f}, {m} pairs)")
        print(line, flush=True)

    state = run_spsa(spsa, on_batch)
    print(f"theta after {state['k']} pairs: {theta_text(spsa, state['theta'])}")
    print(f"engine: {final_spec(spsa, state['theta'])}")
    return 0
