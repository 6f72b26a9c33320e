"""Gomoku positions as network input planes, and the engine ``gomoku:puct`` that plays with a network.

Planes (``PLANES`` = 11, each ``size x size``), from the side to move's view:

==  ==========================================================================
0   own stones
1   the opponent's stones
2   ones (the board; zero padding makes the edge visible to the convolutions)
3   ones when Black is to move, else zeros
4   renju: points forbidden to Black when Black is to move; else zeros
5   own *five windows* with 4 stones: 1 on an empty cell where a stone makes a
    five-cell window full (five or more in a row)
6   own five windows with 3 stones through the cell: their count, at most 3, / 3
7   own five windows with 2 stones through the cell: their count, at most 6, / 6
8   .. 10: the same for the opponent
==  ==========================================================================

A *five window* is five consecutive cells in a line (4 directions) with no
stone of the other side; planes 5-10 count, for each empty cell, the windows
through it holding 4, 3 or 2 stones of one side (the write-up's move-ordering
windows). They are hints a small network would otherwise spend layers on
learning; the network still decides what they mean (under standard and renju a
full window may be an overline). Every plane is turned by a board symmetry as
the board is, so the eight symmetries of the training data stay exact.

``_features`` (numba) computes planes 5-10; ``reference_planes`` is the whole
encoder in plain Python from the definitions above (the tests compare them).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from numba import njit

from ...core.errors import InvalidOptionError
from ...core.info import InfoCallback, SearchInfo, SearchResult
from ...core.limits import Limits
from ...core.options import Option
from ...core.registry import register_engine
from ...core.score import Score
from ...search.driver import StopWatch, next_search_id
from ...search.mcts import PUCT_OPTIONS, make_puct
from ...search.network import register_board_encoder, register_encoder
from ...search.timeman import allocate
from . import renju
from .rules import BLACK, RENJU, Gomoku, GomokuState

PLANES = 11
_DIRS = ((0, 1), (1, 0), (1, 1), (1, -1))
_CAP = (0, 0, 6, 3, 1)  # the count of windows with k stones is clipped at _CAP[k] and scaled to [0, 1]


@njit(cache=True, nogil=True)
def _features(board, size, me, out) -> None:  # pragma: no cover - compiled
    """Planes 5-10 of ``board`` for side ``me`` (1 or 2) into ``out [6, size*size]`` (zeroed here)."""
    opp = 3 - me
    counts = np.zeros((2, 5, size * size), dtype=np.int32)
    for d in range(4):
        dr, dc = (0, 1, 1, 1)[d], (1, 0, 1, -1)[d]
        for r in range(size):
            for c in range(size):
                er, ec = r + 4 * dr, c + 4 * dc
                if er >= size or ec < 0 or ec >= size:
                    continue
                nm = 0
                no = 0
                for i in range(5):
                    v = board[(r + i * dr) * size + c + i * dc]
                    if v == me:
                        nm += 1
                    elif v == opp:
                        no += 1
                for side in range(2):
                    k = nm if side == 0 else no
                    other = no if side == 0 else nm
                    if other == 0 and k >= 2:
                        for i in range(5):
                            q = (r + i * dr) * size + c + i * dc
                            if board[q] == 0:
                                counts[side, k, q] += 1
    for side in range(2):
        for j in range(3):
            k = 4 - j
            cap = (0, 0, 6, 3, 1)[k]
            for q in range(size * size):
                n = counts[side, k, q]
                if n > cap:
                    n = cap
                out[side * 3 + j, q] = n / cap


@njit(cache=True, nogil=True)
def _encode_batch(boards, size, stones, forbidden, out) -> None:  # pragma: no cover - compiled
    """Planes of ``boards [B, cells]`` for the sides ``stones [B]`` into ``out [B, PLANES, cells]``."""
    cells = size * size
    for b in range(boards.shape[0]):
        me = stones[b]
        for q in range(cells):
            v = boards[b, q]
            out[b, 0, q] = 1.0 if v == me else 0.0
            out[b, 1, q] = 1.0 if (v != me and v != 0) else 0.0
            out[b, 2, q] = 1.0
            out[b, 3, q] = 1.0 if me == 1 else 0.0
            out[b, 4, q] = forbidden[b, q]
        _features(boards[b], size, me, out[b, 5:])


def encode_boards(boards: np.ndarray, size: int, stones: np.ndarray, forbidden: np.ndarray | None = None) -> np.ndarray:
    """Planes ``[B, PLANES, size, size]`` of boards ``[B, size*size]`` (0 empty, 1 black, 2 white) for the
    sides to move ``stones [B]`` (1 black, 2 white); ``forbidden [B, size*size]`` marks plane 4 (renju)."""
    boards = np.ascontiguousarray(boards, dtype=np.int8)
    if boards.ndim != 2 or boards.shape[1] != size * size:
        raise ValueError(f"boards of shape {boards.shape} are not [B, {size * size}]")
    stones = np.ascontiguousarray(stones, dtype=np.int8)
    if stones.shape != (len(boards),) or not np.isin(stones, (1, 2)).all():
        raise ValueError("stones must give 1 (black) or 2 (white) for every board")
    if forbidden is None:
        forbidden = np.zeros(boards.shape, dtype=np.float32)
    out = np.empty((len(boards), PLANES, size * size), dtype=np.float32)
    _encode_batch(boards, size, stones, np.ascontiguousarray(forbidden, dtype=np.float32), out)
    return out.reshape(len(boards), PLANES, size, size)


def forbidden_plane(board: np.ndarray, size: int, rule: int, stone: int) -> np.ndarray:
    """Plane 4: Black's forbidden points under renju when Black is to move, else zeros."""
    plane = np.zeros(size * size, dtype=np.float32)
    if rule == RENJU and stone == BLACK:
        plane[renju.forbidden_points(np.asarray(board, dtype=np.int8), size)] = 1.0
    return plane


def encode(state: GomokuState) -> np.ndarray:
    """The planes ``[PLANES, size, size]`` of a position for the side to move."""
    g = state.game
    stone = state.to_move_stone
    forb = np.zeros((1, g.cells), dtype=np.float32)
    if g.rule_id == RENJU and stone == BLACK:
        forb[0, state.forbidden_moves()] = 1.0
    out = np.empty((1, PLANES, g.cells), dtype=np.float32)
    _encode_batch(state.board[None, :], g.size, np.array([stone], dtype=np.int8), forb, out)
    return out.reshape(PLANES, g.size, g.size)


def reference_planes(board: Sequence[int], size: int, stone: int, forbidden: Sequence[int] = ()) -> np.ndarray:
    """The encoder from the definitions in the module docstring, in plain Python (the test oracle)."""
    cells = size * size
    me, opp = stone, 3 - stone
    planes = [[0.0] * cells for _ in range(PLANES)]
    for q in range(cells):
        planes[0][q] = float(board[q] == me)
        planes[1][q] = float(board[q] == opp)
        planes[2][q] = 1.0
        planes[3][q] = float(stone == BLACK)
    for q in forbidden:
        planes[4][q] = 1.0
    for q in range(cells):
        if board[q] != 0:
            continue
        r0, c0 = divmod(q, size)
        for side, who, other in ((0, me, opp), (1, opp, me)):
            count = {2: 0, 3: 0, 4: 0}
            for dr, dc in _DIRS:
                for start in range(-4, 1):  # the five windows through q in this line
                    cells5 = [(r0 + (start + i) * dr, c0 + (start + i) * dc) for i in range(5)]
                    if not all(0 <= r < size and 0 <= c < size for r, c in cells5):
                        continue
                    values = [board[r * size + c] for r, c in cells5]
                    k = values.count(who)
                    if other not in values and k in count:
                        count[k] += 1
            for j, k in enumerate((4, 3, 2)):
                planes[5 + 3 * side + j][q] = min(count[k], _CAP[k]) / _CAP[k]
    return np.array(planes, dtype=np.float32).reshape(PLANES, size, size)


def _encoder(game: Gomoku) -> Callable[[GomokuState], np.ndarray]:
    return encode  # type: ignore[return-value]


def _board_encoder(game: Gomoku) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def encode_many(boards: np.ndarray, stones: np.ndarray) -> np.ndarray:
        forb = None
        if game.rule_id == RENJU:
            forb = np.stack([forbidden_plane(b, game.size, game.rule_id, int(st)) for b, st in zip(boards, stones)])
        return encode_boards(boards, game.size, stones, forb)

    return encode_many


register_encoder("gomoku", _encoder)  # type: ignore[arg-type]
register_board_encoder("gomoku", _board_encoder)  # type: ignore[arg-type]


# -- the engine -------------------------------------------------------------------


class GomokuPUCT:
    """PUCT with the network, and a threat guard around it from the alpha-beta engine's solvers.

    - ``vcf``: before searching, a victory by continuous fours (or, within ``vctnodes`` nodes, by
      fours and open threes) for the side to move is played at once, with its line as the PV;
    - ``guard``: after searching, the ``guard`` most visited root moves (then the unvisited ones by the
      network's prior) are tried in order and the first after which the opponent has no such victory
      (within ``vctnodes``) is played (0: off); if every one loses, the search's move stays. The search
      keeps a tenth of a time limit for it.

    ``vcf=false,guard=0`` is the plain PUCT.
    """

    def __init__(self, game: Gomoku, inner: Any, vcf: bool = True, guard: int = 8, vctnodes: int = 20_000) -> None:
        if not isinstance(vcf, bool):
            raise InvalidOptionError(f"vcf must be true or false, got {vcf!r}")
        for name, v in (("guard", guard), ("vctnodes", vctnodes)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InvalidOptionError(f"{name} must be a non-negative integer, got {v!r}")
        self.game = game
        self.inner = inner
        self.tree = inner.tree
        self.name = "puct"
        self.vcf, self.guard, self.vctnodes = vcf, guard, vctnodes
        self._solver: Any = None

    def _solve(self, state: GomokuState, flag: np.ndarray) -> list[int] | None:
        """A victory for the side to move by continuous fours, or by threats within ``vctnodes`` nodes."""
        if self._solver is None:
            from .engine import GomokuEngine

            self._solver = GomokuEngine(self.game, hash=8)
        line = self._solver.solve_vcf(state, stop=flag)
        if not line and self.vctnodes:
            line = self._solver.solve_vct(state, budget=self.vctnodes, stop=flag)
        return line or None

    def new_game(self) -> None:
        self.inner.new_game()
        if self._solver is not None:
            self._solver.new_game()

    def search(self, state: GomokuState, limits: Limits, stop: np.ndarray | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        t0 = time.perf_counter()
        pov = state.current_player
        budget = allocate(limits, max(pov, 0))
        hard = None if limits.infinite or budget.hard_ms is None else 0.95 * budget.hard_ms
        with StopWatch(stop, hard) as watch:  # the solvers stop at the deadline or on the caller's flag
            if self.vcf and not state.is_terminal() and state.stones > 0:
                line = self._solve(state, watch.flag)
                if line:
                    info = SearchInfo(next_search_id(), len(line), len(line), Score.mate(len(line), pov),
                                      tuple(line), 0, 0, int((time.perf_counter() - t0) * 1000),
                                      text="threat sequence")
                    if on_info is not None:
                        on_info(info)
                    return SearchResult(line[0], info.score, tuple(line), len(line), 0, info.time_ms,
                                        line[1] if len(line) > 1 else None, (info,))
            inner_limits = limits
            if self.guard and limits.movetime is not None:  # a tenth of the move's time is the guard's
                used = (time.perf_counter() - t0) * 1000
                inner_limits = replace(limits, movetime=max(1, int(0.9 * limits.movetime - used)))
            result = self.inner.search(state, inner_limits, stop, on_info)
            if not self.guard or result.best_move is None or watch.flag[0] or limits.infinite:
                return result
            root = self.tree.root
            ranked = sorted(range(len(root.moves)), key=lambda i: (-int(root.n[i]), -float(root.priors[i])))
            order = [root.moves[i] for i in ranked[: self.guard]]  # most visited, then by the network's prior
            if result.best_move in order:
                order.remove(result.best_move)
            for m in [result.best_move, *order]:
                after = state.copy()
                after.play(m)
                lost = not after.is_terminal() and self._solve(after, watch.flag) is not None
                if watch.flag[0]:
                    break  # out of time: an unfinished check proves nothing; the search's move stays
                if lost:
                    continue
                if m == result.best_move:
                    return result
                i = root.index(m)
                mean = root.w[i] / max(root.n[i], 1)
                return replace(result, best_move=m, score=self.tree.score_of(mean, pov), pv=(m,), depth=1,
                               ponder=None)
            return result


def make_gomoku_puct(game: Gomoku, evaluator: str = "net", preset: str = "", vcf: bool = True, guard: int = 8,
                     vctnodes: int = 20_000, **options: Any) -> Any:
    """``gomoku:puct``: the generic PUCT with the network shipped for the game (``net=PATH`` for another),
    no root noise unless a preset says otherwise (noise is for self-play), and the threat guard
    (:class:`GomokuPUCT`; ``vcf=false,guard=0`` turns it off)."""
    if not preset:
        options.setdefault("noise", 0.0)
    inner = make_puct(game, evaluator=evaluator, preset=preset, **options)
    if not vcf and not guard:
        return inner
    return GomokuPUCT(game, inner, vcf, guard, vctnodes)


register_engine("gomoku", "puct", make_gomoku_puct,
                help="PUCT guided by the policy-value network, with a VCF/VCT guard (net=PATH; preset=writeup)",
                options={**PUCT_OPTIONS, "evaluator": Option("net", choices=("uniform", "heuristic", "net")),
                         "noise": Option(0.0, 0, 1), "vcf": Option(True),
                         "guard": Option(8, 0, 400, help="most visited root moves the threat guard checks (0: none)"),
                         "vctnodes": Option(20_000, 0, 10**9, help="nodes of the guard's VCT")})


def warm_up() -> None:
    """Compile the encoder and the threat solvers (from the cache when it is warm)."""
    from . import engine

    engine.warm_up()
    g = Gomoku(size=9)
    s = g.state_from_text("e5 d4 f6")
    encode(s)
    solver = engine.GomokuEngine(g, hash=1)
    solver.solve_vcf(s)
    solver.solve_vct(s, budget=100)
