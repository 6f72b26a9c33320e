"""``python -m gamesuite.train``: train a small policy-value network for a stone game.

A supervised bootstrap from the game's alpha-beta engine (its moves and multi-PV
scores as policy targets, game results as value targets), then AlphaZero-style
self-play generations with PUCT, each gated by an arena match against the best
network so far. Everything goes to ``--dir``; the same command resumes a run
that was stopped, and ``--generations N`` with a larger N goes on with it.
Settings come from ``--settings FILE.json`` (a ``TrainSettings`` as JSON; by
default the one committed beside the shipped network, ``<name>.train.json``,
when there is one) and the options below.

Examples::

    python -m gamesuite.train gomoku --settings gamesuite/resources/nets/gomoku_size_15_rule_freestyle.train.json \\
        --dir runs/gomoku-train --workers 2
    python -m gamesuite.train tictactoe --head dense --filters 32 --blocks 2 --generations 12 --games 200 \\
        --sims 100 --check
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..core.errors import GameSuiteError, InvalidOptionError
from ..core.registry import load_game
from ..search.network import PolicyValueNet, board_encoder_for, default_net_name, encoder_for, plays, resource_dirs


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m gamesuite.train", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", nargs="?", default="tictactoe", help="game spec (default tictactoe)")
    p.add_argument("--dir", type=Path, help="the run's directory (default runs/train-<network name>)")
    p.add_argument("--settings", type=Path,
                   help="training settings as JSON (TrainSettings fields; default: resources/nets/<name>.train.json)")
    p.add_argument("--out", type=Path, help="where to copy the best network (default: gamesuite/resources/nets/...)")
    p.add_argument("--resume", type=Path, help="generation 0 is this network (no bootstrap fit)")
    p.add_argument("--workers", type=int, default=1, help="processes for self-play, bootstrap and gate games")
    p.add_argument("--cluster", help="Dask scheduler address: self-play, bootstrap and gates run there")
    g = p.add_argument_group("settings (override --settings)")
    for name, kind, what in (
            ("generations", int, "self-play generations"), ("games", int, "self-play games per generation"),
            ("sims", int, "PUCT simulations per self-play move"), ("epochs", int, "epochs per generation's fit"),
            ("window", int, "newest self-play positions fitted"), ("filters", int, "filters of the trunk"),
            ("blocks", int, "residual blocks"), ("hidden", int, "units of the value head"),
            ("head", str, "dense or conv (fully convolutional)"), ("bootstrap-chunks", int, "alpha-beta chunks"),
            ("bootstrap-epochs", int, "epochs of the bootstrap fit"), ("gate-games", int, "games of each gate"),
            ("gate-nodes", int, "simulations a move in the gate"), ("alpha", float, "Dirichlet alpha"),
            ("noise", float, "weight of the root noise"), ("temperature-plies", int, "plies drawn by visits"),
            ("seed", int, "seed of everything")):
        g.add_argument("--" + name, type=kind, help=what)
    g.add_argument("--check", action="store_true", default=None, help="exact check after each step (small games)")
    return p


_SELFPLAY = {"sims": "sims", "alpha": "alpha", "noise": "noise", "temperature_plies": "temperature_plies"}


def settings_from(args: argparse.Namespace, spec: str) -> Any:
    from .pipeline import TrainSettings

    data: dict[str, Any] = {"game": spec}
    if args.settings:
        try:
            data = json.loads(args.settings.read_text())
        except (OSError, ValueError) as e:
            raise InvalidOptionError(f"cannot read settings {args.settings}: {e}") from None
        if not isinstance(data, dict):
            raise InvalidOptionError(f"{args.settings} does not hold a JSON object")
        data.setdefault("game", spec)
        if load_game(str(data["game"])).spec != spec:
            raise InvalidOptionError(f"{args.settings} is for {data['game']}, not {spec}")
        data["game"] = spec
    s = TrainSettings.from_dict(data)
    over: dict[str, Any] = {}
    for name in ("generations", "games", "epochs", "window", "filters", "blocks", "hidden", "head",
                 "bootstrap_chunks", "bootstrap_epochs", "gate_games", "gate_nodes", "seed", "check"):
        if getattr(args, name) is not None:
            over[name] = getattr(args, name)
    sp = {v: getattr(args, k) for k, v in _SELFPLAY.items() if getattr(args, k) is not None}
    if sp:
        over["selfplay"] = {**s.selfplay, **sp}
    return TrainSettings.from_dict({**asdict(s), **over})


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        game = load_game(args.game)
        encoder_for(game)
        board_encoder_for(game)
        if game.num_players != 2:
            raise GameSuiteError(f"self-play training needs a two-player game, not {game.spec}")
        if args.settings is None:  # the settings committed beside the shipped network, if any
            committed = resource_dirs()[0] / default_net_name(game).replace(".npz", ".train.json")
            if committed.is_file():
                args.settings = committed
        settings = settings_from(args, game.spec)
    except GameSuiteError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    from .torch_trainer import _torch

    try:
        _torch()  # before any work: fitting needs the optional extra
    except GameSuiteError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    from .pipeline import Run, export

    name = default_net_name(game)
    out = args.out or resource_dirs()[0] / name
    directory = args.dir or Path("runs") / ("train-" + name.removesuffix(".npz"))
    try:
        explicit = args.settings is not None or any(
            getattr(args, k) is not None for k in ("games", "sims", "epochs", "window", "filters", "blocks", "hidden",
                                                   "head", "bootstrap_chunks", "bootstrap_epochs", "gate_games",
                                                   "gate_nodes", "alpha", "noise", "temperature_plies", "seed",
                                                   "check"))
        run = Run.open(directory, settings if explicit or not (directory / "settings.json").exists() else None,
                       args.workers, args.cluster, generations=args.generations)
        if args.resume and not run.net_path(0).exists():
            net = PolicyValueNet.load(args.resume)
            if not plays(net, game):
                raise GameSuiteError(f"{args.resume} was trained for {net.meta['game']}, not {game.spec}")
            net.save(run.net_path(0))
        run.run()
        export(run, out)
    except GameSuiteError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {out} (generation {run.best()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
