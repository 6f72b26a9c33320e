"""Self-play with PUCT and a policy-value network: the training examples (numpy only)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..core.limits import Limits
from ..core.registry import Game
from ..core.state import State
from ..search.mcts import MCTS, MCTSConfig
from ..search.network import NetworkEvaluator, PolicyValueNet, encoder_for
from ..search.reference import solve_all


@dataclass
class Examples:
    """Inputs ``x [N, planes, H, W]``, visit distributions ``pi [N, moves]`` and results ``z [N]``
    (from the side to move)."""

    x: np.ndarray
    pi: np.ndarray
    z: np.ndarray

    def __len__(self) -> int:
        return len(self.z)

    @classmethod
    def concat(cls, parts: "list[Examples]") -> "Examples":
        return cls(np.concatenate([p.x for p in parts]), np.concatenate([p.pi for p in parts]),
                   np.concatenate([p.z for p in parts]))

    def last(self, n: int) -> "Examples":
        return Examples(self.x[-n:], self.pi[-n:], self.z[-n:])


def symmetries(x: np.ndarray, pi: np.ndarray, height: int, width: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The board's symmetric copies of one example (8 on a square board, 4 otherwise)."""
    p = pi.reshape(height, width)
    out = []
    for k in range(4 if height == width else 1):
        xr, pr = np.rot90(x, k, axes=(1, 2)), np.rot90(p, k)
        out.append((xr, pr))
        out.append((xr[:, :, ::-1], pr[:, ::-1]))
    if height != width:
        out.append((x[:, ::-1, :], p[::-1, :]))
        out.append((x[:, ::-1, ::-1], p[::-1, ::-1]))
    return [(a.copy(), b.reshape(-1).copy()) for a, b in out]


def self_play_game(game: Game, net: PolicyValueNet, sims: int, config: MCTSConfig,
                   temperature_plies: int) -> tuple[list[tuple[np.ndarray, np.ndarray, int]], list[float]]:
    """One game of the network against itself: ``(planes, visit distribution, player)`` per move and the returns.

    Moves are sampled by visit counts (temperature 1) for the first
    ``temperature_plies`` plies, then the most visited is played.
    """
    encode = encoder_for(game)
    tree = MCTS(game, NetworkEvaluator(net, encode), config)
    state: State = game.new_state()
    moves = net.meta["moves"]
    records = []
    while not state.is_terminal():
        tree.search(state, Limits(nodes=sims))
        pi = np.zeros(moves, dtype=np.float32)
        for m, share in tree.visit_distribution().items():
            pi[m] = share
        records.append((encode(state), pi, state.current_player))
        move = tree.choose(1.0 if len(state.history) < temperature_plies else 0.0)
        state.play(move)
    return records, state.returns()


def self_play(game: Game, net: PolicyValueNet, games: int, sims: int, config: MCTSConfig,
              temperature_plies: int, augment: bool = True) -> tuple[Examples, list[float]]:
    """Examples from ``games`` self-play games, and the mean returns (a draw-rate check)."""
    xs, pis, zs = [], [], []
    total = np.zeros(game.num_players)
    for g in range(games):
        cfg = replace(config, seed=None if config.seed is None else config.seed + g)
        records, returns = self_play_game(game, net, sims, cfg, temperature_plies)
        total += returns
        for x, pi, player in records:
            pairs = symmetries(x, pi, net.meta["height"], net.meta["width"]) if augment else [(x, pi)]
            for xa, pa in pairs:
                xs.append(xa)
                pis.append(pa)
                zs.append(returns[player])
    ex = Examples(np.stack(xs).astype(np.float32), np.stack(pis).astype(np.float32), np.array(zs, np.float32))
    return ex, list(total / max(games, 1))


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
