"""MCTS: random-playout simulations per second from the empty 15x15 board (one core).

The gomoku figures are the engine's own kernel (``gomoku:mcts``) under each
rule with random playouts, its default tree moves (cells within 2 of a stone;
the empty board's only one is the centre) and with every empty cell
(``radius=0``); the ``tactics`` row is the engine's ``tactics=true`` (make and
block fives next to the last moves first; a tenth of the simulations).
The m,n,k figures use tic-tac-toe's kernel with m=n=15, k=5 (five or more
wins, every empty cell a tree move). A simulation is one UCT descent,
expansion, random playout to the end of the game and backup. Bare playouts,
3x3 and the generic Python MCTS are shown for scale.
The network rows (``--net`` for another file than the shipped gomoku network; repeated, the networks are
timed in interleaved rounds so that they compare on a loaded machine)
time the policy-value network's inference from random 15x15 positions, on
onnxruntime (the engine's backend when installed) and on numpy, at batch 1
and batch 8, and the simulations per second of ``gomoku:puct`` with it (no threat guard) from
a middle-game position, searching 8 leaves a batch (the default) and one.
The Hare and Hedgehog rows are ``hare:mcts`` (max^n-style UCT, hare cards as
chance nodes) from the start position with its default 200-ply playout
horizon, and with full playouts to the end of the race (``horizon=0``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

import numpy as np

from ..core.limits import Limits
from ..core.registry import load_game
from ..games.gomoku import mcts as gomoku_kernel
from ..games.hare import mcts as hare_kernel
from ..games.hare.rules import HareGame
from ..games.tictactoe import mcts as kernel
from ..search import mcts_kernels as tree
from ..search.mcts import MCTS, MCTSConfig

RULES = ("freestyle", "standard", "renju")


def _load() -> str:
    try:
        one, five, fifteen = os.getloadavg()
        return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"
    except OSError:
        return "load average unknown"


def _tree_rate(width: int, height: int, k: int, sims: int, expand: int, repeat: int, memory_mb: float) -> list[float]:
    board = np.zeros(width * height, dtype=np.int8)
    rng = kernel.new_random(12345)
    capacity = int(memory_mb * 1024 * 1024) // (4 * kernel.COLUMNS)
    nodes, stats = kernel.new_tree(capacity)
    kernel.run_board(board, width, height, k, 1, nodes, stats, 0, 4, 1.4, expand, rng)  # compile / load the cache
    rates = []
    for _ in range(repeat):
        nodes, stats = kernel.new_tree(capacity)
        t = time.perf_counter()
        done = kernel.run_board(board, width, height, k, 1, nodes, stats, 0, sims, 1.4, expand, rng)
        rates.append(done / (time.perf_counter() - t))
    return rates


def _gomoku_rate(rule: int, radius: int, sims: int, expand: int, repeat: int, memory_mb: float,
                 tactics: bool = False) -> list[float]:
    board = np.zeros(225, dtype=np.int8)
    rng = tree.new_random(12345)
    capacity = int(memory_mb * 1024 * 1024) // (4 * tree.COLUMNS)
    nodes, stats = tree.new_tree(capacity)
    gomoku_kernel.run_board(board, 15, rule, 1, nodes, stats, 0, 4, 1.4, expand, radius, rng, None, tactics)
    rates = []
    for _ in range(repeat):
        nodes, stats = tree.new_tree(capacity)
        t = time.perf_counter()
        done = gomoku_kernel.run_board(board, 15, rule, 1, nodes, stats, 0, sims, 1.4, expand, radius, rng, None,
                                       tactics)
        rates.append(done / (time.perf_counter() - t))
    return rates


def _gomoku_playout_rate(rule: int, count: int, repeat: int) -> list[float]:
    board = np.zeros(225, dtype=np.int8)
    rng = tree.new_random(777)
    gomoku_kernel.playouts_board(board, 15, rule, 1, 4, rng)
    rates = []
    for _ in range(repeat):
        t = time.perf_counter()
        gomoku_kernel.playouts_board(board, 15, rule, 1, count, rng)
        rates.append(count / (time.perf_counter() - t))
    return rates


def _playout_rate(width: int, height: int, k: int, count: int, repeat: int) -> list[float]:
    board = np.zeros(width * height, dtype=np.int8)
    rng = kernel.new_random(777)
    kernel.playouts_board(board, width, height, k, 1, 4, rng)
    rates = []
    for _ in range(repeat):
        t = time.perf_counter()
        kernel.playouts_board(board, width, height, k, 1, count, rng)
        rates.append(count / (time.perf_counter() - t))
    return rates


def _hare_rate(players: int, sims: int, horizon: int, repeat: int, memory_mb: float) -> list[float]:
    """UCT simulations per second of ``hare:mcts`` from the start position of ``players`` players."""
    game = load_game(f"hare(players={players})")
    assert isinstance(game, HareGame)
    state = game.new_state()
    capacity = int(memory_mb * 1024 * 1024) // (4 * tree.COLUMNS + 8 * game.n)
    rng = tree.new_random(4242)
    nodes, stats = tree.new_tree(capacity)
    hare_kernel.run(state, nodes, hare_kernel.new_returns(capacity, game.n), stats, 0, 2, 1.0, 1, horizon, rng)
    rates = []
    for _ in range(repeat):
        nodes, stats = tree.new_tree(capacity)
        wsum = hare_kernel.new_returns(capacity, game.n)
        t = time.perf_counter()
        done = hare_kernel.run(state, nodes, wsum, stats, 0, sims, 1.0, 1, horizon, rng)
        rates.append(done / (time.perf_counter() - t))
    return rates


def _stop_latency(repeat: int) -> list[float]:
    """Milliseconds from setting the stop flag to the return of the 15x15 gomoku kernel (renju: the slowest)."""
    board = np.zeros(225, dtype=np.int8)
    out = []
    for i in range(repeat):
        nodes, stats = tree.new_tree(1 << 20)
        stop = np.zeros(1, dtype=np.uint8)
        box: dict[str, float] = {}

        def work(nodes=nodes, stats=stats, i=i, stop=stop, box=box) -> None:  # type: ignore[no-untyped-def]
            gomoku_kernel.run_board(board, 15, 2, 1, nodes, stats, 0, 10**9, 1.4, 4, 2, tree.new_random(i + 1), stop)
            box["end"] = time.perf_counter()

        t = threading.Thread(target=work)
        t.start()
        time.sleep(0.1)
        set_at = time.perf_counter()
        stop[0] = 1
        t.join()
        out.append((box["end"] - set_at) * 1000)
    return out


def _net_rates(paths: list[str] | None, repeat: int, sims: int, cpu: bool = False) -> list[tuple[str, list[float]]]:
    """Positions/s of gomoku networks at batch 1 and 8 per backend, and ``gomoku:puct`` simulations/s.

    With several networks the rounds are interleaved (each repeat times every network once), so the
    networks see the same machine state and their figures compare even on a loaded machine. ``cpu``: per
    second of the process's CPU time rather than of the clock (steadier on a loaded machine; the network
    and the search run in one thread)."""
    clock = time.process_time if cpu else time.perf_counter
    from ..core.registry import make_engine
    from ..games.gomoku.net import encode_boards
    from ..search import network_onnx
    from ..search.network import PolicyValueNet, blas_single_thread, shipped_network

    game = load_game("gomoku")
    if not paths:
        found = shipped_network(game)
        if found is None:
            return []
        paths = [str(found)]
    blas_single_thread()
    rng = np.random.default_rng(5)
    boards = np.zeros((8, 225), dtype=np.int8)
    for b in boards:
        cells = rng.choice(225, size=30, replace=False)
        b[cells[::2]], b[cells[1::2]] = 1, 2
    x = encode_boards(boards, 15, np.ones(8, dtype=np.int8))
    state = game.state_from_text("h8 i9 h9 h10 g8 i8 g9 j10")
    backends = (["onnxruntime"] if network_onnx.available() else []) + ["numpy"]
    nets = {path: PolicyValueNet.load(path) for path in paths}
    names = {path: f"{n.meta['filters']}x{n.meta['blocks']}" for path, n in nets.items()}
    rows: dict[str, list[float]] = {}
    for r in range(repeat):
        for path, net in nets.items():
            for backend in backends:
                net.use_backend(backend)
                for bsz in (1, 8):
                    xb = x[:bsz]
                    net.predict(xb)
                    calls = max(1, 400 // bsz)
                    t = clock()
                    for _ in range(calls):
                        net.predict(xb)
                    rows.setdefault(f"gomoku net {names[path]} on {backend}: positions, batch {bsz}", []).append(
                        calls * bsz / (clock() - t))
            for bsz in (8, 1):
                engine = make_engine(game, f"puct,net={path},batch={bsz},seed={r},vcf=false,guard=0")
                engine.search(state, Limits(nodes=16))
                engine.new_game()
                t = clock()
                engine.search(state, Limits(nodes=sims))
                rows.setdefault(f"gomoku:puct with the net {names[path]}, batch {bsz}: simulations", []).append(
                    sims / (clock() - t))
    return list(rows.items())


def _row(label: str, rates: list[float]) -> None:
    print(f"{label:<58}{statistics.median(rates):>12,.0f}{max(rates):>12,.0f}")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="gamesuite bench mcts", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sims", type=int, default=100_000, help="simulations per 15x15 run (default 100000)")
    p.add_argument("--repeat", type=int, default=5, help="runs per figure (default 5)")
    p.add_argument("--expand", type=int, default=4, help="visits before a 15x15 leaf grows children (default 4)")
    p.add_argument("--hare-sims", type=int, default=None,
                   help="simulations per Hare and Hedgehog run (default: a fifth of --sims; a tenth of that with "
                        "full playouts)")
    p.add_argument("--python", action="store_true", help="also time the generic Python MCTS on 15x15")
    p.add_argument("--net", action="append",
                   help="a gomoku network to time (default: the shipped one); repeat it to compare networks")
    p.add_argument("--net-sims", type=int, default=1000, help="simulations per gomoku:puct run (default 1000)")
    p.add_argument("--only-net", action="store_true", help="only the network rows")
    p.add_argument("--cpu-time", action="store_true",
                   help="time the network rows by the process's CPU time (steadier on a loaded machine)")
    args = p.parse_args(argv)
    if args.hare_sims is None:
        args.hare_sims = max(1, args.sims // 5)
    if args.sims <= 0 or args.repeat <= 0 or args.expand < 0 or args.hare_sims <= 0:
        p.error("--sims, --hare-sims and --repeat must be positive, --expand non-negative")
    print(_load())
    print(f"{'what (simulations per second, one core)':<58}{'median':>12}{'best':>12}")
    for label, rates in _net_rates(args.net, args.repeat, args.net_sims, args.cpu_time):
        _row(label, rates)
    if args.only_net:
        print(_load())
        return 0
    for rule, name in enumerate(RULES):
        _row(f"gomoku 15x15 {name}: UCT simulations (gomoku:mcts)",
             _gomoku_rate(rule, 2, args.sims, args.expand, args.repeat, 256))
    _row("gomoku 15x15 freestyle, radius=0: UCT simulations",
         _gomoku_rate(0, 0, args.sims, args.expand, args.repeat, 256))
    _row("gomoku 15x15 freestyle, tactics: UCT simulations",
         _gomoku_rate(0, 2, max(1, args.sims // 10), args.expand, args.repeat, 256, True))
    for rule, name in enumerate(RULES):
        _row(f"gomoku 15x15 {name}: bare random playouts", _gomoku_playout_rate(rule, args.sims // 2, args.repeat))
    lat = _stop_latency(args.repeat)
    print(f"{'gomoku 15x15 renju: stop latency of the kernel (ms)':<58}{statistics.median(lat):>12.2f}"
          f"{max(lat):>12.2f}  (median, worst)")
    _row("m,n,k 15x15 k=5 (freestyle gomoku rules): UCT simulations",
         _tree_rate(15, 15, 5, args.sims, args.expand, args.repeat, 256))
    _row("m,n,k 15x15 k=5: bare random playouts", _playout_rate(15, 15, 5, args.sims // 2, args.repeat))
    _row("3x3 tic-tac-toe: UCT simulations", _tree_rate(3, 3, 3, args.sims, 1, args.repeat, 16))
    for players in (2, 4):
        _row(f"hare {players} players, start: UCT simulations (hare:mcts)",
             _hare_rate(players, args.hare_sims, 200, args.repeat, 64))
        _row(f"hare {players} players, start: full playouts (horizon=0)",
             _hare_rate(players, max(1, args.hare_sims // 10), 0, args.repeat, 64))
    game = load_game("tictactoe")
    rates = []
    for seed in range(args.repeat):
        tree = MCTS(game, config=MCTSConfig(algorithm="uct", seed=seed))
        t = time.perf_counter()
        tree.search(game.new_state(), Limits(nodes=2000))
        rates.append(2000 / (time.perf_counter() - t))
    _row("3x3 tic-tac-toe: generic Python MCTS (UCT, batch 8)", rates)
    if args.python:
        from ..games.tictactoe.rules import TicTacToe

        class _Big(TicTacToe):  # the registered game stops at 10x10; the rules do not
            params = tuple(type(q)(q.name, q.default, q.help, q.choices, q.min, 15) for q in TicTacToe.params)

        big = _Big(m=15, n=15, k=5)
        tree = MCTS(big, config=MCTSConfig(algorithm="uct", seed=0))
        t = time.perf_counter()
        tree.search(big.new_state(), Limits(nodes=300))
        _row("15x15 k=5: generic Python MCTS (UCT, batch 8)", [300 / (time.perf_counter() - t)])
    print(_load())
    return 0
