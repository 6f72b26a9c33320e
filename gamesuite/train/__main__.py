"""``python -m gamesuite.train``: AlphaZero-style self-play training of a small policy-value network.

Each generation plays self-play games with PUCT guided by the current network,
adds the positions (and their board symmetries) to a replay window, and fits
the network to the visit shares and the results. Small games can be checked
against their exact values after every generation (``--check``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ..core.errors import GameSuiteError
from ..core.registry import load_game
from ..search.mcts import MCTSConfig
from ..search.network import PolicyValueNet, default_net_name, encoder_for, resource_dirs
from .selfplay import Examples, exact_check, self_play


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m gamesuite.train", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", nargs="?", default="tictactoe", help="game spec (default tictactoe)")
    p.add_argument("--out", type=Path, help="where to write the .npz (default: gamesuite/resources/nets/<game>.npz)")
    p.add_argument("--resume", type=Path, help="start from this network instead of random weights")
    p.add_argument("--generations", type=int, default=8)
    p.add_argument("--games", type=int, default=100, help="self-play games per generation")
    p.add_argument("--sims", type=int, default=64, help="PUCT simulations per move")
    p.add_argument("--temperature-plies", type=int, default=3, help="plies played by visit-count sampling")
    p.add_argument("--alpha", type=float, default=1.0, help="Dirichlet alpha at the root (default 1.0)")
    p.add_argument("--noise", type=float, default=0.25, help="weight of the root noise (default 0.25)")
    p.add_argument("--window", type=int, default=40_000, help="examples kept for training")
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--filters", type=int, default=32)
    p.add_argument("--blocks", type=int, default=2)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--check", action="store_true", help="compare with the exact values after each generation")
    args = p.parse_args(argv)
    try:
        game = load_game(args.game)
        encoder_for(game)
        if game.num_players != 2:
            raise GameSuiteError(f"self-play training needs a two-player game, not {game.spec}")
    except GameSuiteError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    from .torch_trainer import _torch, train

    try:
        _torch()  # before any self-play: fitting needs the optional extra
    except GameSuiteError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    out = args.out or resource_dirs()[0] / default_net_name(game)
    planes, height, width = encoder_for(game)(game.new_state()).shape  # the policy has one logit per cell
    if args.resume:
        try:
            net = PolicyValueNet.load(args.resume)
            if net.meta["game"] != game.spec:
                raise GameSuiteError(f"{args.resume} was trained for {net.meta['game']}, not {game.spec}")
        except GameSuiteError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    else:
        net = PolicyValueNet.random(game.spec, height, width, planes, args.filters, args.blocks, args.hidden,
                                    seed=args.seed)
    config = MCTSConfig(algorithm="puct", batch=8, dirichlet_alpha=args.alpha, noise=args.noise, seed=args.seed)
    window: list[Examples] = []
    for gen in range(1, args.generations + 1):
        t0 = time.perf_counter()
        data, mean = self_play(game, net, args.games, args.sims, config, args.temperature_plies)
        config = MCTSConfig(**{**config.__dict__, "seed": args.seed + 1000 * gen})
        window.append(data)
        pool = Examples.concat(window).last(args.window)
        t1 = time.perf_counter()
        net, losses = train(net, pool, epochs=args.epochs, seed=args.seed + gen)
        t2 = time.perf_counter()
        line = (f"generation {gen}: {len(data)} new examples ({len(pool)} in window), mean returns "
                f"{mean[0]:+.2f}/{mean[1]:+.2f}, self-play {t1 - t0:.0f} s, training {t2 - t1:.0f} s, "
                f"value loss {losses['value_loss']:.3f}, policy loss {losses['policy_loss']:.3f}")
        if args.check:
            c = exact_check(game, net)
            line += (f"; over {c['positions']} positions the top move keeps the result "
                     f"{100 * c['policy_keeps_result']:.1f}%, the value is right {100 * c['value_right']:.1f}%")
        print(line, flush=True)
        out.parent.mkdir(parents=True, exist_ok=True)
        net.save(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
