"""Max^n-style UCT for Hare and Hedgehog in numba: 2-6 players, hare cards as chance nodes, a stop flag.

The tree uses the shared array layout of :mod:`gamesuite.search.mcts_kernels`
(an ``int32`` row per node: ``N`` visits, ``FIRST`` child row, ``COUNT``
children, ``MOVE`` into the node; the ``W`` column stays 0) plus a ``float64``
array ``wsum`` with one summed return per player and node. At a decision node
the player to move picks the child with the best
``wsum[child, player] / n + c sqrt(ln N / n)`` (unvisited children first, at
random); at a pending hare card (a chance node) the card is drawn at random by
its counted-deck probability (the cards still unknown) and the tree follows it.

A simulation ends with a random playout: uniformly random legal moves, cards
drawn by the counted deck, to the end of the race or for at most ``horizon``
plies (default 200: a full random race from the start takes about 1500-2200
plies and runs at only ~2 k playouts/s, so the default is the cap). At the cap
the racing players are ranked after the finished ones by the evaluation of the
rules' engine (``kernels._evaluate``, ties by player number), and the ranks
become returns exactly as ``HareState.returns`` turns places into returns
(``1 - 2 (place - 1) / (n - 1)``). ``horizon=0`` plays every race out.

Moves and cards are generated and applied by the rules' kernels
(``kernels._gen_moves`` and ``kernels._apply``); :func:`reference_run` is the
same search in plain Python over ``HareState`` and ``naive.evaluate``.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import cast

import numpy as np
from numba import njit

from ...core.errors import InvalidOptionError, quote
from ...core.info import InfoCallback, SearchResult
from ...core.limits import Limits
from ...core.options import Option, memory_option, seed_option
from ...core.registry import register_engine
from ...core.score import Score
from ...search.mcts_kernels import (
    COLUMNS,
    COUNT,
    FIRST,
    MAXDEPTH,
    MOVE,
    SIMS,
    USED,
    N,
    ReferenceRandom,
    _below,
    _random_unvisited,
    new_random,
    new_tree,
)
from ...search.simulation import RootMove, SimulationOptions, SimulationTree, run_simulations
from . import board as B
from . import kernels as K
from . import naive
from .config import Weights
from .engine import tables_for
from .rules import HareGame, HareState

MAXPATH = 4096  # deepest tree path of one simulation


# -- kernels --------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _pick_card(st, cfg, counts, rng) -> int:
    """A card drawn by the counted deck (``counts`` gets the unknown cards)."""
    total = K._unknown_counts(st, cfg, counts)
    r = _below(rng, total)
    c = 0
    while r >= counts[c]:
        r -= counts[c]
        c += 1
    return c


@njit(cache=True, nogil=True)
def _playout(st, cfg, kinds, prevh, moves, counts, rng, horizon, stop) -> int:
    """Random moves and cards on ``st`` (changed) until the race ends or ``horizon`` plies (0: no cap);
    returns the plies played. An uncapped playout stops early when ``stop`` is set."""
    plies = 0
    while st[K.PHASE] != K.OVER:
        if horizon > 0 and plies >= horizon:
            break
        if horizon == 0 and (plies & 1023) == 1023 and stop[0] != 0:
            break
        if st[K.PHASE] == K.DRAW:
            K._apply(st, cfg, kinds, prevh, np.int64(_pick_card(st, cfg, counts, rng)))
        else:
            nm = K._gen_moves(st, cfg, kinds, prevh, moves)
            K._apply(st, cfg, kinds, prevh, moves[_below(rng, nm)])
        plies += 1
    return plies


@njit(cache=True, nogil=True)
def _returns(st, cfg, kinds, btab, w, vals, out) -> None:
    """One return per player into ``out``: places (the racing players ranked by the evaluation) as returns."""
    n = cfg[K.C_N]
    finished = 0
    for p in range(n):
        if st[K.PLACE + p] != 0:
            finished += 1
    if finished < n:
        K._evaluate(st, cfg, kinds, btab, w, vals)
    for p in range(n):
        place = st[K.PLACE + p]
        if place == 0:
            place = finished + 1
            for q in range(n):
                if q != p and st[K.PLACE + q] == 0 and (vals[q] > vals[p] or (vals[q] == vals[p] and q < p)):
                    place += 1
        out[p] = 1.0 - 2.0 * (place - 1) / (n - 1)


@njit(cache=True, nogil=True)
def _select(nodes, wsum, node, player, c, rng) -> int:
    """The child row of decision ``node`` for ``player``: a random unvisited child, else the best UCT score
    on ``player``'s own summed returns."""
    first = nodes[node, FIRST]
    count = nodes[node, COUNT]
    fresh = _random_unvisited(nodes, node, rng)
    if fresh >= 0:
        return fresh
    log_n = math.log(nodes[node, N])
    best = -1
    best_score = -1e300
    for j in range(count):
        ch = first + j
        n = nodes[ch, N]
        score = wsum[ch, player] / n + c * math.sqrt(log_n / n)
        if score > best_score:
            best_score = score
            best = ch
    return best


@njit(cache=True, nogil=True)
def _run(st0, cfg, kinds, prevh, btab, w, nodes, wsum, root, stats, sims, c, expand_at, horizon, rng,
         stop) -> int:
    """Run up to ``sims`` simulations from tree row ``root`` (position ``st0``); how many ran.

    Polls ``stop`` every 16 simulations (and inside uncapped playouts).
    """
    n = cfg[K.C_N]
    capacity = nodes.shape[0]
    st = np.empty_like(st0)
    moves = np.empty(K.MAXMOVES, dtype=np.int64)
    counts = np.empty(B.N_CARDS, dtype=np.int64)
    path = np.empty(MAXPATH, dtype=np.int64)
    vals = np.zeros(K.MAXP, dtype=np.float64)
    ret = np.zeros(K.MAXP, dtype=np.float64)
    done = 0
    for s in range(sims):
        if (s & 15) == 0 and stop[0] != 0:
            break
        st[:] = st0
        node = root
        depth = 0
        path[0] = root
        while st[K.PHASE] != K.OVER and depth < MAXPATH - 1:
            chance = st[K.PHASE] == K.DRAW
            if nodes[node, COUNT] == 0:
                if node != root and nodes[node, N] < expand_at:
                    break
                if chance:
                    K._unknown_counts(st, cfg, counts)
                    nm = 0
                    for card in range(B.N_CARDS):
                        if counts[card] > 0:
                            moves[nm] = card
                            nm += 1
                else:
                    nm = K._gen_moves(st, cfg, kinds, prevh, moves)
                if stats[USED] + nm > capacity:
                    break
                first = stats[USED]
                for j in range(nm):
                    row = first + j
                    nodes[row, N] = 0
                    nodes[row, 1] = 0
                    nodes[row, FIRST] = -1
                    nodes[row, COUNT] = 0
                    nodes[row, MOVE] = moves[j]
                    for p in range(n):
                        wsum[row, p] = 0.0
                nodes[node, FIRST] = first
                nodes[node, COUNT] = nm
                stats[USED] = first + nm
            if chance:
                total = K._unknown_counts(st, cfg, counts)
                r = _below(rng, total)
                first = nodes[node, FIRST]
                child = first
                for j in range(nodes[node, COUNT]):
                    child = first + j
                    k = counts[nodes[child, MOVE]]
                    if r < k:
                        break
                    r -= k
            else:
                child = _select(nodes, wsum, node, st[K.TURN], c, rng)
            K._apply(st, cfg, kinds, prevh, np.int64(nodes[child, MOVE]))
            depth += 1
            path[depth] = child
            node = child
        if st[K.PHASE] != K.OVER:
            _playout(st, cfg, kinds, prevh, moves, counts, rng, horizon, stop)
        _returns(st, cfg, kinds, btab, w, vals, ret)
        if depth > stats[MAXDEPTH]:
            stats[MAXDEPTH] = depth
        for d in range(depth + 1):
            row = path[d]
            nodes[row, N] += 1
            for p in range(n):
                wsum[row, p] += ret[p]
        done += 1
    stats[SIMS] += done
    return done


# -- checked wrappers ------------------------------------------------------------


def new_returns(capacity: int, players: int) -> np.ndarray:
    """The per-player summed returns of a tree of ``capacity`` rows."""
    return np.zeros((capacity, players), dtype=np.float64)


def run(state: HareState, nodes: np.ndarray, wsum: np.ndarray, stats: np.ndarray, root: int, sims: int, c: float,
        expand_at: int, horizon: int, rng: np.ndarray, stop: np.ndarray | None = None,
        weights: Weights | None = None) -> int:
    """Run ``sims`` simulations of ``state`` from tree row ``root``; return how many ran."""
    if not isinstance(state, HareState):
        raise ValueError(f"not a Hare and Hedgehog position: {state!r:.80}")
    if state.is_terminal():
        raise ValueError(f"cannot search the finished position {quote(state.to_text())}")
    g = state.game
    if nodes.dtype != np.int32 or nodes.ndim != 2 or nodes.shape[1] != COLUMNS:
        raise ValueError("nodes must be an int32 array with 5 columns")
    if wsum.dtype != np.float64 or wsum.shape != (nodes.shape[0], g.n):
        raise ValueError(f"wsum must be a float64 array of {nodes.shape[0]} x {g.n}")
    if not 0 <= root < stats[USED] or sims < 0 or c < 0 or expand_at < 0 or horizon < 0:
        raise ValueError(f"bad arguments: root={root}, sims={sims}, c={c}, expand_at={expand_at}, horizon={horizon}")
    if rng.dtype != np.uint64 or rng.shape != (1,):
        raise ValueError("rng must be a one-element uint64 array")
    t = tables_for(g)
    w = (weights or Weights()).array()
    stop = np.zeros(1, dtype=np.uint8) if stop is None else stop
    return int(_run(K.pack(state), t.cfg, t.kinds, t.prevh, t.board(w), w, nodes, wsum, np.int64(root), stats,
                    np.int64(sims), float(c), np.int64(expand_at), np.int64(horizon), rng, stop))


def playout(state: HareState, rng: np.ndarray, horizon: int = 0, weights: Weights | None = None
            ) -> tuple[list[float], int]:
    """One random playout of ``state`` by the kernel: (the returns, plies played)."""
    if not isinstance(state, HareState):
        raise ValueError(f"not a Hare and Hedgehog position: {state!r:.80}")
    if horizon < 0:
        raise ValueError(f"horizon must be non-negative, got {horizon}")
    t = tables_for(state.game)
    st = K.pack(state)
    moves = np.empty(K.MAXMOVES, dtype=np.int64)
    counts = np.empty(B.N_CARDS, dtype=np.int64)
    plies = _playout(st, t.cfg, t.kinds, t.prevh, moves, counts, rng, np.int64(horizon), np.zeros(1, np.uint8))
    vals = np.zeros(K.MAXP)
    out = np.zeros(K.MAXP)
    w = (weights or Weights()).array()
    _returns(st, t.cfg, t.kinds, t.board(w), w, vals, out)
    return [float(x) for x in out[:state.game.n]], int(plies)


# -- the plain-Python reference ----------------------------------------------------------


def reference_returns(state: HareState, w: Weights) -> list[float]:
    """``_returns`` in plain Python."""
    n = state.game.n
    finished = sum(1 for p in state.place if p)
    vals = naive.evaluate(state, w) if finished < n else [0.0] * n
    out = []
    for p in range(n):
        place = state.place[p]
        if place == 0:
            place = finished + 1 + sum(1 for q in range(n) if q != p and state.place[q] == 0
                                       and (vals[q] > vals[p] or (vals[q] == vals[p] and q < p)))
        out.append(1.0 - 2.0 * (place - 1) / (n - 1))
    return out


def _reference_card(state: HareState, rnd: ReferenceRandom) -> int:
    left = state.unknown_cards()
    r = rnd.below(sum(left))
    c = 0
    while r >= left[c]:
        r -= left[c]
        c += 1
    return c


def reference_playout(state: HareState, rnd: ReferenceRandom, horizon: int) -> int:
    """``_playout`` in plain Python (``state`` is changed); the plies played."""
    plies = 0
    while not state.is_terminal() and not (horizon > 0 and plies >= horizon):
        if state.is_chance_node():
            state.play(_reference_card(state, rnd))
        else:
            moves = state.legal_moves()
            state.play(moves[rnd.below(len(moves))])
        plies += 1
    return plies


def reference_run(state: HareState, sims: int, c: float, expand_at: int, horizon: int, seed: int,
                  capacity: int = 1 << 20, weights: Weights | None = None
                  ) -> tuple[list[list[int]], list[list[float]]]:
    """``_run`` from a fresh tree in plain Python: the rows ``[N, 0, FIRST, COUNT, MOVE]`` and ``wsum`` rows."""
    w = weights or Weights()
    n = state.game.n
    rnd = ReferenceRandom(int(new_random(seed)[0]))
    rows: list[list[int]] = [[0, 0, -1, 0, -1]]
    wsum: list[list[float]] = [[0.0] * n]

    def select(node: int, player: int) -> int:
        first, count = rows[node][FIRST], rows[node][COUNT]
        kids = range(first, first + count)
        unvisited = [ch for ch in kids if rows[ch][N] == 0]
        if unvisited:
            return unvisited[rnd.below(len(unvisited))]
        log_n = math.log(rows[node][N])
        best, best_score = -1, -1e300
        for ch in kids:
            k = rows[ch][N]
            score = wsum[ch][player] / k + c * math.sqrt(log_n / k)
            if score > best_score:
                best, best_score = ch, score
        return best

    for _ in range(sims):
        s = state.copy()
        node, path = 0, [0]
        while not s.is_terminal() and len(path) < MAXPATH:
            chance = s.is_chance_node()
            if rows[node][COUNT] == 0:
                if node != 0 and rows[node][N] < expand_at:
                    break
                moves = [m for m, _ in s.chance_outcomes()] if chance else s.legal_moves()
                if len(rows) + len(moves) > capacity:
                    break
                rows[node][FIRST], rows[node][COUNT] = len(rows), len(moves)
                rows.extend([0, 0, -1, 0, m] for m in moves)
                wsum.extend([0.0] * n for _ in moves)
            first, count = rows[node][FIRST], rows[node][COUNT]
            if chance:
                left = s.unknown_cards()
                r = rnd.below(sum(left))
                child = first
                for child in range(first, first + count):
                    if r < left[rows[child][MOVE]]:
                        break
                    r -= left[rows[child][MOVE]]
            else:
                child = select(node, s.current_player)
            s.play(rows[child][MOVE])
            path.append(child)
            node = child
        if not s.is_terminal():
            reference_playout(s, rnd, horizon)
        ret = reference_returns(s, w)
        for row in path:
            rows[row][N] += 1
            for p in range(n):
                wsum[row][p] += ret[p]
    return rows, wsum


# -- the engine ------------------------------------------------------------------


class HareMCTS:
    """Max^n-style UCT in numba for Hare and Hedgehog (2-6 players); the tree is kept between moves.

    Options: ``c`` (exploration, on the [-1, 1] return scale), ``expand`` (visits
    before a leaf grows children), ``horizon`` (playout plies before the
    evaluation ranks the racers; 0: play the race out), ``memory`` (MB of tree),
    ``temperature`` (move choice by visits), ``reuse``, ``seed``, ``info_ms``.
    """

    name = "mcts"

    def __init__(self, game: HareGame, c: float = 1.0, expand: int = 1, horizon: int = 200, memory: float = 64,
                 temperature: float = 0.0, reuse: bool = True, seed: int | None = None, info_ms: int = 500) -> None:
        for label, v, lo in (("c", c, 0), ("memory", memory, 0.001), ("temperature", temperature, 0)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < lo:
                raise InvalidOptionError(f"{label} must be a number >= {lo}, got {quote(v)}")
        for label, v in (("expand", expand), ("horizon", horizon), ("info_ms", info_ms)):
            if isinstance(v, bool) or not isinstance(v, int) or v < (1 if label == "info_ms" else 0):
                raise InvalidOptionError(f"{label} must be a non-negative integer, got {quote(v)}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise InvalidOptionError(f"seed must be an integer, got {quote(seed)}")
        self.game = game
        self.c = float(c)
        self.expand_at = int(expand)
        self.horizon = int(horizon)
        self.capacity = max(256, int(memory * 1024 * 1024) // (4 * COLUMNS + 8 * game.n))
        self.temperature = float(temperature)
        self.reuse = bool(reuse)
        self.info_ms = info_ms
        self.rng = new_random(int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]) if seed is None
                              else int(seed))
        self._pick = np.random.default_rng(seed)
        self.nodes: np.ndarray | None = None
        self.wsum: np.ndarray | None = None
        self.stats = np.zeros(3, dtype=np.int64)
        self.root = 0
        self.root_state: HareState | None = None
        #: the root moves this search may choose (``Limits.searchmoves``), or None for all of them
        self._root_allowed: set[int] | None = None
        self._held: dict[int, tuple[int, np.ndarray]] = {}  # rows kept from selection: their true N and wsum

    def new_game(self) -> None:
        self.nodes = self.wsum = None
        self.root_state = None

    # -- the root --------------------------------------------------------------
    def child_row(self, node: int, move: int) -> int:
        """The row of ``move``'s child of ``node`` (-1 when not expanded)."""
        assert self.nodes is not None
        first, count = int(self.nodes[node, FIRST]), int(self.nodes[node, COUNT])
        for row in range(first, first + count):
            if self.nodes[row, MOVE] == move:
                return row
        return -1

    def set_root(self, state: HareState) -> bool:
        """Make ``state`` the root, keeping the subtree (moves and cards) when it follows from the last root."""
        if self.reuse and self.nodes is not None and self.root_state is not None:
            old, new = self.root_state.history, state.history
            if len(new) >= len(old) and new[: len(old)] == old:
                node = self.root
                for m in new[len(old):]:
                    node = self.child_row(node, m)
                    if node < 0:
                        break
                if node >= 0 and self.stats[USED] + K.MAXMOVES < 0.9 * self.capacity:  # room for the root's moves
                    self.root = node
                    self.root_state = state.copy()
                    self.stats[MAXDEPTH] = 0
                    return True
        if self.nodes is None:
            self.nodes, self.stats = new_tree(self.capacity)
            self.wsum = new_returns(self.capacity, self.game.n)
        else:
            assert self.wsum is not None
            self.nodes[0] = (0, 0, -1, 0, -1)
            self.wsum[0] = 0.0
            self.stats[:] = 0
            self.stats[USED] = 1
        self.root = 0
        self.root_state = state.copy()
        return False

    # -- reading the tree --------------------------------------------------------
    def _children(self, node: int) -> range:
        assert self.nodes is not None
        first = int(self.nodes[node, FIRST])
        return range(first, first + int(self.nodes[node, COUNT])) if first >= 0 else range(0)

    def _mean(self, row: int) -> list[float]:
        assert self.nodes is not None and self.wsum is not None
        n, wsum = self._held.get(row, (int(self.nodes[row, N]), self.wsum[row]))
        return [float(x) / n if n else 0.0 for x in wsum]

    def principal_variation(self, node: int, state: HareState) -> list[int]:
        """Most-visited children from ``node`` (whose position is ``state``), stopping at chance nodes."""
        nodes = self.nodes
        assert nodes is not None
        pv: list[int] = []
        s = state.copy()
        while node >= 0 and nodes[node, COUNT] > 0 and not s.is_chance_node() and len(pv) < 64:
            node = max(self._children(node), key=lambda r: (int(nodes[r, N]), -int(nodes[r, MOVE])))
            if nodes[node, N] == 0:
                break
            pv.append(int(nodes[node, MOVE]))
            s.play(pv[-1])
        return pv

    def root_stats(self) -> list[tuple[int, int, list[float]]]:
        """``(move, visits, mean return per player)`` of the root's moves, most visited first."""
        assert self.nodes is not None
        out = [(int(self.nodes[r, MOVE]), self._held.get(r, (int(self.nodes[r, N]),))[0], self._mean(r))
               for r in self._children(self.root)]
        return sorted(out, key=lambda t: (-t[1], t[0]))

    # -- the simulation driver's view (search.simulation.SimulationTree) ---------------
    def restrict(self, allowed: Collection[int] | None) -> None:
        """Keep the simulations off the root moves outside ``allowed`` (``None``: every move, true counts)."""
        if allowed is None:
            if self.nodes is not None and self.wsum is not None:
                for row, (n, wsum) in self._held.items():
                    self.nodes[row, N] = n
                    self.wsum[row] = wsum
            self._held.clear()
            self._root_allowed = None
        else:
            self._root_allowed = set(allowed)

    def _hold_back(self) -> None:
        """Give every root move that ``restrict`` left out a huge visit count of the worst returns for
        every player, so that UCT never selects it (``restrict(None)`` restores it)."""
        assert self.nodes is not None and self.wsum is not None and self._root_allowed is not None
        for row in self._children(self.root):
            if row not in self._held and int(self.nodes[row, MOVE]) not in self._root_allowed:
                self._held[row] = (int(self.nodes[row, N]), self.wsum[row].copy())
                self.nodes[row, N] = 1 << 29
                self.wsum[row] = -float(1 << 29)

    def simulate(self, state: HareState, count: int, flag: np.ndarray) -> int:
        """Up to ``count`` simulations from the root (held back from the moves ``restrict`` left out)."""
        assert self.nodes is not None
        if self._root_allowed is not None:
            if self.nodes[self.root, COUNT] == 0:
                count = 1  # one simulation grows the root's children, which are then held back
            else:
                self._hold_back()
        return self._simulate(state, count, flag)

    def root_moves(self, pov: int) -> list[RootMove]:
        """Every root move in the tree with its true visits and mean returns (a score vector)."""
        return [RootMove(m, n, Score.vector(mean)) for m, n, mean in self.root_stats()]

    def line(self, state: HareState, move: int) -> list[int]:
        s = state.copy()
        s.play(move)
        row = self.child_row(self.root, move)
        return [move] + (self.principal_variation(row, s) if row >= 0 else [])

    def unvisited_score(self, pov: int) -> Score:
        return Score.vector([0.0] * self.game.n)

    def result_score(self, state: HareState) -> Score:
        return Score.vector(state.returns())

    @property
    def visits(self) -> int:
        return 0 if self.nodes is None else int(self.nodes[self.root, N])

    def seldepth(self) -> int:
        return int(self.stats[MAXDEPTH])

    def hashfull(self) -> int:
        return int(1000 * self.stats[USED] / self.capacity)

    # -- the search ----------------------------------------------------------------
    def _simulate(self, state: HareState, sims: int, stop: np.ndarray | None = None) -> int:
        assert self.nodes is not None and self.wsum is not None
        return run(state, self.nodes, self.wsum, self.stats, self.root, sims, self.c, self.expand_at, self.horizon,
                   self.rng, stop)

    def search(self, state: HareState, limits: Limits, stop: np.ndarray | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        """Search ``state`` until a limit or ``stop`` with the simulation driver (``limits.nodes`` counts
        simulations of this search)."""
        tree = cast("SimulationTree", self)  # the protocol names any State; this tree takes Hare states
        return run_simulations(tree, state, limits, stop, on_info,
                               SimulationOptions(chunk=64, min_chunk=8, max_chunk=1 << 18, info_ms=self.info_ms,
                                                 temperature=self.temperature), self._pick)


def warm_up() -> None:
    """Compile the kernels (from the cache when it is warm)."""
    from ...core.registry import load_game

    g = load_game("hare")
    assert isinstance(g, HareGame)
    HareMCTS(g, memory=0.5, seed=1).search(g.new_state(), Limits(nodes=20))
    playout(g.new_state(), new_random(1), 50)


register_engine("hare", "mcts", HareMCTS,
                help="max^n-style UCT in numba: one return per player, hare cards as chance nodes, random playouts",
                options={"c": Option(1.0, 0, 100), "expand": Option(1, 0, 10**6),
                         "horizon": Option(200, 0, 10**5, help="playout plies before the evaluation (0: to the end)"),
                         "memory": memory_option(64, "MB of tree"), "temperature": Option(0.0, 0, 100),
                         "reuse": Option(True), "seed": seed_option(), "info_ms": Option(500, 1, 10**7)})
