"""Plain-Python reference searches over the State API: the oracles of the tests.

They are slow on purpose: short, obviously correct, and independent of any
numba kernel. Two-player values follow the kernels' convention
(``gamesuite.core.score.WIN``): a win ``n`` plies from the root scores
``WIN - n``, from the side to move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..core.errors import InvalidOptionError
from ..core.info import InfoCallback, SearchResult
from ..core.limits import Limits
from ..core.registry import Game, register_engine
from ..core.score import WIN
from ..core.state import State
from .driver import DriverOptions, Iteration, iterative_deepening

Evaluate = Callable[[State, int], int]
"""``evaluate(state, pov)``: a leaf's value from player ``pov``'s view."""


def leaf_value(state: State, pov: int, ply: int) -> int:
    """The value of a finished game for ``pov``, ``ply`` plies from the root."""
    r = state.returns()[pov]
    if r > 0:
        return WIN - ply
    if r < 0:
        return -(WIN - ply)
    return 0


def minimax(
    state: State, pov: int | None = None, depth: int | None = None, evaluate: Evaluate | None = None, ply: int = 0
) -> int:
    """The exact minimax value for ``pov`` (default: the side to move) of a two-player game.

    No pruning: every line is played out (to ``depth`` plies, if given).
    """
    if pov is None:
        pov = state.current_player
    if state.is_terminal():
        return leaf_value(state, pov, ply)
    if depth is not None and depth <= 0:
        return evaluate(state, pov) if evaluate else 0
    values = []
    for m in state.legal_moves():
        state.play(m)
        values.append(minimax(state, pov, None if depth is None else depth - 1, evaluate, ply + 1))
        state.undo()
    return max(values) if state.current_player == pov else min(values)


def alphabeta(
    state: State,
    alpha: int,
    beta: int,
    pov: int | None = None,
    depth: int | None = None,
    evaluate: Evaluate | None = None,
    ply: int = 0,
    counter: list[int] | None = None,
) -> int:
    """Fail-soft alpha-beta for ``pov``; equals ``minimax`` when that lies in (alpha, beta)."""
    if pov is None:
        pov = state.current_player
    if counter is not None:
        counter[0] += 1
    if state.is_terminal():
        return leaf_value(state, pov, ply)
    if depth is not None and depth <= 0:
        return evaluate(state, pov) if evaluate else 0
    maximise = state.current_player == pov
    best = -WIN - 1 if maximise else WIN + 1
    for m in state.legal_moves():
        state.play(m)
        v = alphabeta(state, alpha, beta, pov, None if depth is None else depth - 1, evaluate, ply + 1, counter)
        state.undo()
        if maximise:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


def _toward_zero(v: int) -> int:
    return v - 1 if v > 0 else v + 1 if v < 0 else 0


def solve_all(state: State) -> dict[int, int]:
    """Exact values of every position reachable from ``state``, keyed by Zobrist key.

    Values are from player 0's view, a win ``n`` plies away scoring ``WIN - n``
    (distance counted from the position itself, so it does not depend on the path).
    """
    memo: dict[int, int] = {}

    def rec(s: State) -> int:
        k = s.key
        if k in memo:
            return memo[k]
        if s.is_terminal():
            v = leaf_value(s, 0, 0)
        else:
            children = []
            for m in s.legal_moves():
                s.play(m)
                children.append(_toward_zero(rec(s)))
                s.undo()
            v = max(children) if s.current_player == 0 else min(children)
        memo[k] = v
        return v

    rec(state)
    return memo


def optimal_moves(state: State, values: dict[int, int]) -> tuple[int, list[int]]:
    """The exact value of ``state`` for the side to move and every move achieving it."""
    me = state.current_player
    sign = 1 if me == 0 else -1
    best = -WIN - 1
    moves: list[int] = []
    for m in state.legal_moves():
        state.play(m)
        w = sign * _toward_zero(values[state.key])
        state.undo()
        if w > best:
            best, moves = w, [m]
        elif w == best:
            moves.append(m)
    return best, moves


def maxn(
    state: State,
    depth: int,
    evaluate: Callable[[State], Sequence[float]] | None = None,
) -> list[float]:
    """Max^n value vector with expectation at chance nodes (no pruning).

    At a player's node the child maximising that player's component is kept
    (ties: the first in move order). ``evaluate`` values non-terminal leaves
    (default: zeros).
    """
    if state.is_terminal():
        return list(state.returns())
    if depth <= 0:
        return list(evaluate(state)) if evaluate else [0.0] * state.num_players
    if state.is_chance_node():
        total = [0.0] * state.num_players
        for outcome, p in state.chance_outcomes():
            state.play(outcome)
            v = maxn(state, depth, evaluate)
            state.undo()
            total = [a + p * b for a, b in zip(total, v, strict=True)]
        return total
    me = state.current_player
    best: list[float] | None = None
    for m in state.legal_moves():
        state.play(m)
        v = maxn(state, depth - 1, evaluate)
        state.undo()
        if best is None or v[me] > best[me]:
            best = v
    assert best is not None
    return best


class _ReferenceSearcher:
    """Plain alpha-beta at increasing depth, for the driver."""

    def __init__(self, state: State, evaluate: Evaluate | None, node_limit: int = 0) -> None:
        self.state = state.copy()
        self.pov = state.current_player
        self.evaluate = evaluate
        self.node_limit = node_limit  # 0: none
        self.nodes = 0
        self.exact = True
        self._flag: np.ndarray | None = None

    def hashfull(self) -> int:
        return 0

    def _ab(self, depth: int, alpha: int, beta: int, ply: int, pv: list[int]) -> int:
        s, pov = self.state, self.pov
        self.nodes += 1
        if (self._flag is not None and self._flag[0]) or (self.node_limit and self.nodes >= self.node_limit):
            raise _Abort
        if s.is_terminal():
            return leaf_value(s, pov, ply)
        if depth <= 0:
            self.exact = False
            return self.evaluate(s, pov) if self.evaluate else 0
        maximise = s.current_player == pov
        best = -WIN - 1 if maximise else WIN + 1
        for m in s.legal_moves():
            child: list[int] = []
            s.play(m)
            try:
                v = self._ab(depth - 1, alpha, beta, ply + 1, child)
            finally:
                s.undo()
            if (v > best) if maximise else (v < best):
                best = v
                pv[:] = [m] + child
            if maximise:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def iterate(self, depth: int, flag: np.ndarray, excluded: Sequence[int]) -> Iteration | None:
        self._flag = flag
        self.exact = True
        s = self.state
        best, best_pv = -WIN - 1, []
        try:
            for m in s.legal_moves():
                if m in excluded:
                    continue
                child: list[int] = []
                s.play(m)
                try:
                    v = self._ab(depth - 1, best, WIN + 1, 1, child)
                finally:
                    s.undo()
                if v > best:
                    best, best_pv = v, [m] + child
        except _Abort:
            return None
        return Iteration(best, best_pv, exact=self.exact)


class _Abort(Exception):
    pass


class ReferenceEngine:
    """Plain-Python alpha-beta over the State API: slow, for small games and tests."""

    name = "reference"

    def __init__(self, game: Game, evaluate: Evaluate | None = None) -> None:
        if not _supports(game):
            raise InvalidOptionError(
                f"the reference alpha-beta plays two-player zero-sum games without chance, not {game.spec}"
            )
        self.game = game
        self.evaluate = evaluate

    def new_game(self) -> None:
        pass

    def search(self, state: State, limits: Limits, stop: np.ndarray | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        searcher = _ReferenceSearcher(state, self.evaluate, limits.nodes or 0)
        return iterative_deepening(searcher, state, limits, stop, on_info, DriverOptions(max_depth=256))


def _make_reference(game: Game) -> ReferenceEngine:
    return ReferenceEngine(game)


def _supports(game: Game) -> bool:
    return game.num_players == 2 and not game.chance and game.zero_sum


register_engine(
    "*",
    "reference",
    _make_reference,
    help="plain-Python alpha-beta (slow; for small games and tests)",
    supports=_supports,
)
