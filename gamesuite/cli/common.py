"""Helpers shared by the CLI commands: limits from flags, engine building, info lines."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from ..core.errors import InvalidOptionError
from ..core.info import Engine, InfoCallback, SearchInfo, SearchResult
from ..core.limits import MAX_DEPTH, MAX_MULTIPV, MAX_NODES, MAX_TIME_MS, Limits
from ..core.options import int_arg
from ..core.registry import Game
from ..core.state import State

T = TypeVar("T")


def check_int_flags(parser: argparse.ArgumentParser) -> None:
    """Give every ``type=int`` flag of ``parser`` and its subcommands the checked parser of ``int_arg``
    (so that ``--games ١٠`` or a 30-digit number is refused at the flag, with exit status 2)."""
    for action in parser._actions:  # argparse has no public walk over its actions
        if action.type is int:
            action.type = int_arg()
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                check_int_flags(sub)


def add_limit_arguments(p: argparse.ArgumentParser, default_movetime: int | None = None) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--depth", type=int_arg(1, MAX_DEPTH), metavar="N", help="search to depth N")
    g.add_argument("--movetime", type=int_arg(1, MAX_TIME_MS), metavar="MS", help="think for MS milliseconds")
    g.add_argument("--nodes", type=int_arg(1, MAX_NODES), metavar="N", help="search about N nodes")
    g.add_argument("--infinite", action="store_true", help="think until interrupted (Ctrl+C)")
    p.add_argument("--multipv", type=int_arg(1, MAX_MULTIPV), default=1, metavar="K", help="show the K best lines")
    p.set_defaults(default_movetime=default_movetime)


def limits_from_args(args: argparse.Namespace) -> Limits:
    for name in ("depth", "movetime", "nodes"):
        v = getattr(args, name, None)
        if v is not None and v <= 0:
            raise InvalidOptionError(f"--{name} must be positive, got {v}")
    if getattr(args, "multipv", 1) < 1:
        raise InvalidOptionError(f"--multipv must be positive, got {args.multipv}")
    movetime = args.movetime
    if args.depth is None and args.nodes is None and movetime is None and not args.infinite:
        movetime = args.default_movetime
    return Limits(depth=args.depth, nodes=args.nodes, movetime=movetime, infinite=args.infinite,
                  multipv=args.multipv)


def info_line(info: SearchInfo, state: State) -> str:
    """A human-readable line for one report."""
    pv = " ".join(state.format_line(info.pv))
    mpv = f" multipv {info.multipv}" if info.multipv > 1 else ""
    return (f"depth {info.depth}/{info.seldepth}{mpv} score {info.score.text()} nodes {info.nodes} "
            f"nps {info.nps} time {info.time_ms} ms pv {pv}")


def info_json(info: SearchInfo, state: State) -> str:
    d = info.to_json()
    d["pv"] = state.format_line(info.pv)
    d = {"type": "info", **d}
    return json.dumps(d)


def result_json(result: SearchResult, state: State) -> str:
    return json.dumps({
        "type": "bestmove",
        "bestmove": state.format_move(result.best_move) if result.best_move is not None else None,
        "score": result.score.to_json(),
        "pv": state.format_line(result.pv),
        "depth": result.depth,
        "nodes": result.nodes,
        "time_ms": result.time_ms,
        "position": state.to_text(),
    })


def run_interruptibly(work: Callable[[], T], stop: np.ndarray) -> T:
    """Run ``work()`` in a thread; Ctrl+C sets ``stop[0]`` so it ends early, and its result still comes back."""
    import threading

    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = work()
        except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
            box["error"] = e

    t = threading.Thread(target=target, name="interruptible", daemon=True)
    t.start()
    try:
        while t.is_alive():
            t.join(0.1)
    except KeyboardInterrupt:
        stop[0] = 1
        t.join()
    if "error" in box:
        raise box["error"]
    return box["result"]


def prepare_engine(game: Game, engine: Engine, quiet: bool = False) -> None:
    """Load (or compile) ``engine``'s kernels before any clock starts; while it compiles, say so on
    standard error (at most once a second) unless ``quiet``."""
    import time

    from ..warmup import prepare

    last = [time.monotonic()]

    def progress(done: int, total: int, what: str) -> None:
        now = time.monotonic()
        if not quiet and now - last[0] >= 1.0 and (done < total or not total):
            last[0] = now
            of = f" of {total}" if total else ""
            print(f"compiling {what}: {done}{of} kernels (once per install)", file=sys.stderr, flush=True)

    prepare(game, engine, progress)


def search_interruptibly(engine: Engine, state: State, limits: Limits,
                         on_info: InfoCallback | None = None) -> SearchResult:
    """Run ``engine.search`` so that Ctrl+C stops it and still prints a move."""
    from ..core.info import new_stop_flag

    stop = new_stop_flag()
    return run_interruptibly(lambda: engine.search(state, limits, stop, on_info), stop)


def plugin_names(package: str) -> list[str]:
    """Names of the public modules of ``package`` (a folder of plug-ins such as benchmarks)."""
    import importlib
    import pkgutil

    pkg = importlib.import_module(package)
    return sorted(m.name for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_"))


def run_plugin(package: str, name: str, argv: list[str], what: str) -> int:
    """Run ``main(argv)`` of the plug-in ``package.name``; a clear error if there is none."""
    import importlib

    from ..core.errors import InvalidOptionError, quote

    known = plugin_names(package)
    if name not in known:
        raise InvalidOptionError(f"unknown {what} {quote(name)}; known: {', '.join(known)}")
    return int(importlib.import_module(f"{package}.{name}").main(argv) or 0)
