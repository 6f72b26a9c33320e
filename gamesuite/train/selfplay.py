"""Self-play with PUCT and a policy-value network: the training positions (numpy only).

Each move is searched with a fixed number of simulations under root noise;
the position is kept with the share of the root's visits per move (the policy
target) and, once the game is over, its result for the side to move (the value
target). The first plies after the opening are drawn by visit counts so games
differ, the rest are the most visited move.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..core.limits import Limits
from ..core.registry import Game, load_game
from ..core.state import State
from ..search.mcts import MCTS, MCTSConfig
from ..search.network import NetworkEvaluator, PolicyValueNet, encoder_for
from ..search.reference import solve_all
from .data import Positions, symmetries, transform

__all__ = ["SelfPlaySettings", "Positions", "random_opening", "self_play_game", "self_play", "selfplay_chunk",
           "exact_check", "symmetries", "transform"]


@dataclass(frozen=True)
class SelfPlaySettings:
    """How self-play games are played."""

    sims: int = 200  # PUCT simulations per move
    c: float = 1.5
    batch: int = 8
    noise: float = 0.25
    alpha: float = 0.03  # Dirichlet alpha at the root
    temperature_plies: int = 8  # plies after the opening drawn by visit counts
    opening_min: int = 0  # random stones near the centre before the game (0: from the start)
    opening_max: int = 0
    opening_radius: int = 3
    max_plies: int = 10_000


def random_opening(game: Game, rng: np.random.Generator, low: int, high: int, radius: int) -> State:
    """The start position with ``low .. high`` random stones within ``radius`` of the centre (any legal
    move when the game's cells are not a square board)."""
    state = game.new_state()
    k = int(rng.integers(low, high + 1)) if high > 0 else 0
    cells = len(state.legal_moves())
    size = math.isqrt(cells)
    near: set[int] | None = None
    if size * size == cells:
        c = size // 2
        near = {r * size + q for r in range(size) for q in range(size) if max(abs(r - c), abs(q - c)) <= radius}
    for _ in range(k):
        if state.is_terminal():
            break
        legal = state.legal_moves()
        choices = [m for m in legal if near is None or m in near] or legal
        state.play(int(choices[int(rng.integers(len(choices)))]))
    return state


def self_play_game(game: Game, net: PolicyValueNet, settings: SelfPlaySettings, seed: int | None = None,
                   start: State | None = None) -> tuple[Positions, list[float]]:
    """One game of the network against itself from ``start`` (default: a random opening by the settings):
    its positions with visit shares and results, and the game's returns."""
    rng = np.random.default_rng(seed)
    config = MCTSConfig(algorithm="puct", c=settings.c, batch=settings.batch, noise=settings.noise,
                        dirichlet_alpha=settings.alpha, seed=seed)
    tree = MCTS(game, NetworkEvaluator(net, encoder_for(game)), config)
    state = start.copy() if start is not None else random_opening(
        game, rng, settings.opening_min, settings.opening_max, settings.opening_radius)
    opening = len(state.history)
    cells = int(state.board.size)  # type: ignore[attr-defined]
    boards, stones, pis, movers = [], [], [], []
    while not state.is_terminal() and len(state.history) < settings.max_plies:
        tree.search(state, Limits(nodes=settings.sims))
        pi = np.zeros(cells, dtype=np.float32)
        for m, share in tree.visit_distribution().items():
            pi[m] = share
        boards.append(state.board.copy())  # type: ignore[attr-defined]
        stones.append(state.to_move_stone)  # type: ignore[attr-defined]
        pis.append(pi)
        movers.append(state.current_player)
        temperature = 1.0 if len(state.history) - opening < settings.temperature_plies else 0.0
        state.play(tree.choose(temperature))
    returns = state.returns() if state.is_terminal() else [0.0] * game.num_players
    z = np.array([returns[p] for p in movers], dtype=np.float32)
    if not boards:
        return Positions.empty(cells), list(returns)
    return Positions(np.stack(boards).astype(np.int8), np.array(stones, np.int8), np.stack(pis), z), list(returns)


def self_play(game: Game, net: PolicyValueNet, games: int, settings: SelfPlaySettings,
              seed: int = 0) -> tuple[Positions, list[float]]:
    """Positions of ``games`` self-play games (seeds ``seed``, ``seed + 1``, ...) and the mean returns."""
    parts, total = [], np.zeros(game.num_players)
    for g in range(games):
        pos, returns = self_play_game(game, net, settings, seed + g)
        parts.append(pos)
        total += returns
    return Positions.concat(parts), list(total / max(games, 1))


def selfplay_chunk(game_spec: str, net_path: str, settings: dict[str, Any], games: int, seed: int,
                   out: str) -> str:
    """Play ``games`` self-play games and write their positions to ``out`` (kept if already there).

    A module-level function of plain arguments: the unit of work that processes and Dask workers run.
    """
    if Path(out).exists():
        return out
    game = load_game(game_spec)
    net = PolicyValueNet.load(net_path)
    pos, mean = self_play(game, net, games, replace(SelfPlaySettings(), **settings), seed)
    pos.save(out, mean_returns=np.array(mean, dtype=np.float32))
    return out


def exact_check(game: Game, net: PolicyValueNet) -> dict[str, float]:
    """Against the exact values of every reachable position (small games only):
    how often the network's top move keeps the game-theoretic result, and how
    often its value rounds to that result."""
    start = game.new_state()
    values = solve_all(start)
    encode = encoder_for(game)
    seen, todo, states = set(), [start], []
    while todo:
        s = todo.pop()
        if s.key in seen or s.is_terminal():
            continue
        seen.add(s.key)
        states.append(s)
        for m in s.legal_moves():
            c = s.copy()
            c.play(m)
            todo.append(c)
    logits, v = net.forward(np.stack([encode(s) for s in states]))

    def result(key: int, me: int) -> int:
        val = values[key]
        sign = 0 if val == 0 else (1 if val > 0 else -1)
        return sign if me == 0 else -sign

    good_move = good_value = 0
    for s, lg, val in zip(states, logits, v):
        me = s.current_player
        legal = s.legal_moves()
        best = legal[int(np.argmax(lg[legal]))]
        truth = result(s.key, me)
        c = s.copy()
        c.play(best)
        good_move += result(c.key, me) == truth
        good_value += (1 if val > 0.5 else (-1 if val < -0.5 else 0)) == truth
    n = len(states)
    return {"positions": n, "policy_keeps_result": good_move / n, "value_right": good_value / n}
