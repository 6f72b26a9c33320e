"""The array tree of the numba MCTS engines of board games, shared by the games that have one.

The tree is one ``int32`` array with a row per node (``N`` visits, ``W`` summed
results of the player who moved into the node counted 2 win / 1 draw / 0 loss,
``FIRST`` child row or -1, ``COUNT`` children, ``MOVE`` into the node); the
children of a node are consecutive rows. Every random number comes from a
xorshift64* state in a ``uint64`` array (:class:`ReferenceRandom` is the same
generator in plain Python), so a game's plain-Python reference reproduces its
kernel exactly. A game provides the kernel of one simulation batch (its win
test, its move generation) and subclasses :class:`ArrayMCTS` for the engine:
reading the tree, tree reuse, move choice, reports and limits live here.
"""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit

from ..core.errors import InvalidOptionError
from ..core.info import InfoCallback, SearchInfo, SearchResult
from ..core.limits import Limits
from ..core.options import Option, memory_option, seed_option
from ..core.registry import Game
from ..core.score import Score
from ..core.state import State
from .driver import StopWatch, next_search_id
from .timeman import allocate

# node columns
N, W, FIRST, COUNT, MOVE = range(5)
COLUMNS = 5
# stats slots
USED, SIMS, MAXDEPTH = range(3)
STATS = 3

_MASK = (1 << 64) - 1
_MULT = 0x2545F4914F6CDD1D


# -- random numbers -------------------------------------------------------------


@njit(cache=True, nogil=True)
def _next_random(rng) -> np.uint64:
    """xorshift64*: advance ``rng[0]`` and return the next 64-bit number."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True, nogil=True)
def _below(rng, n) -> int:
    """A random integer in ``0 .. n-1``."""
    return np.int64((_next_random(rng) >> np.uint64(33)) % np.uint64(n))


class ReferenceRandom:
    """The xorshift64* generator of the kernels, in plain Python."""

    def __init__(self, seed: int) -> None:
        self.x = seed & _MASK

    def next(self) -> int:
        x = self.x
        x ^= x >> 12
        x ^= (x << 25) & _MASK
        x ^= x >> 27
        self.x = x
        return (x * _MULT) & _MASK

    def below(self, n: int) -> int:
        return (self.next() >> 33) % n


def new_random(seed: int) -> np.ndarray:
    """A generator state for the kernels (a zero seed is replaced: xorshift needs a non-zero state)."""
    return np.array([seed & _MASK or 0x9E3779B97F4A7C15], dtype=np.uint64)


# -- kernels --------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _random_unvisited(nodes, node, rng) -> int:
    """A child row of ``node`` never visited, drawn uniformly; -1 when every child has been visited."""
    first = nodes[node, FIRST]
    count = nodes[node, COUNT]
    unvisited = 0
    for j in range(count):
        if nodes[first + j, N] == 0:
            unvisited += 1
    if unvisited == 0:
        return -1
    r = _below(rng, unvisited)
    for j in range(count):
        if nodes[first + j, N] == 0:
            if r == 0:
                return first + j
            r -= 1
    return -1


@njit(cache=True, nogil=True)
def _select(nodes, node, c, rng) -> int:
    """The UCT child row of ``node``: a random unvisited child, else the best ``Q + c sqrt(ln N / n)``."""
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
        score = nodes[ch, W] / n - 1.0 + c * math.sqrt(log_n / n)
        if score > best_score:
            best_score = score
            best = ch
    return best



def new_tree(capacity: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty tree of ``capacity`` rows with a root (row 0) and its stats array."""
    if capacity < 2:
        raise InvalidOptionError(f"the tree needs room for at least 2 nodes, not {capacity}")
    nodes = np.zeros((capacity, COLUMNS), dtype=np.int32)
    nodes[0, FIRST] = -1
    nodes[0, MOVE] = -1
    stats = np.zeros(STATS, dtype=np.int64)
    stats[USED] = 1
    return nodes, stats


#: The options every :class:`ArrayMCTS` engine declares (a game adds its own, e.g. ``expand``).
ARRAY_MCTS_OPTIONS = {
    "c": Option(1.4, 0, 100, help="exploration constant"),
    "memory": memory_option(64, "MB of tree"),
    "temperature": Option(0.0, 0, 100, help="move choice by visits (0: the most visited)"),
    "reuse": Option(True, help="keep the tree between moves"),
    "seed": seed_option(),
    "info_ms": Option(500, 1, 10**7, help="ms between reports"),
}


class ArrayMCTS:
    """UCT in numba on an array tree, kept between moves; a game supplies ``_simulate`` (its kernel).

    ``game`` must have ``cells`` (moves are cells). Options: ``c`` (exploration,
    on the [-1, 1] value scale), ``expand_at`` (visits before a leaf grows
    children), ``memory`` (MB of tree), ``temperature``, ``reuse``, ``seed``,
    ``info_ms``.
    """

    name = "mcts"

    def __init__(self, game: Game, c: float = 1.4, expand_at: int = 1, memory: float = 64,
                 temperature: float = 0.0, reuse: bool = True, seed: int | None = None, info_ms: int = 500) -> None:
        for label, v, lo in (("c", c, 0), ("memory", memory, 0.001), ("temperature", temperature, 0)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < lo:
                raise InvalidOptionError(f"{label} must be a number >= {lo}, got {v!r}")
        if not isinstance(info_ms, int) or info_ms < 1:
            raise InvalidOptionError(f"info_ms must be a positive integer, got {info_ms!r}")
        if seed is not None and not isinstance(seed, int):
            raise InvalidOptionError(f"seed must be an integer, got {seed!r}")
        self.game = game
        self.c = float(c)
        self.expand_at = int(expand_at)
        self.capacity = max(game.cells + 2, int(memory * 1024 * 1024) // (4 * COLUMNS))
        self.temperature = float(temperature)
        self.reuse = bool(reuse)
        self.info_ms = info_ms
        self.rng = new_random(int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]) if seed is None
                              else int(seed))
        self._pick = np.random.default_rng(seed)
        self.nodes: np.ndarray | None = None
        self.stats = np.zeros(STATS, dtype=np.int64)
        self.root = 0
        self.root_state: State | None = None
        #: the root moves this search may choose (``Limits.searchmoves``), or None for all of them
        self._root_allowed: set[int] | None = None
        self._held: dict[int, tuple[int, int]] = {}  # rows kept from selection: their true N and W

    def _simulate(self, state: State, sims: int, stop: np.ndarray | None = None) -> int:
        """Run up to ``sims`` simulations of ``state`` from ``self.root``; how many ran."""
        raise NotImplementedError

    def new_game(self) -> None:
        self.nodes = None
        self.root_state = None

    # -- the root --------------------------------------------------------------
    def child_row(self, node: int, move: int) -> int:
        """The row of ``move``'s child of ``node`` (-1 when not expanded)."""
        assert self.nodes is not None
        first, count = self.nodes[node, FIRST], self.nodes[node, COUNT]
        for row in range(first, first + count):
            if self.nodes[row, MOVE] == move:
                return row
        return -1

    def set_root(self, state: State) -> bool:
        """Make ``state`` the root, keeping the subtree when it follows from the last root."""
        if self.reuse and self.nodes is not None and self.root_state is not None:
            old, new = self.root_state.history, state.history
            if len(new) >= len(old) and new[: len(old)] == old:
                probe = self.root_state.copy()
                node = self.root
                for m in new[len(old):]:
                    node = self.child_row(node, m)
                    if node < 0:
                        break
                    probe.play(m)
                if node >= 0 and probe.key == state.key and self.stats[USED] < 0.9 * self.capacity:
                    self.root = node
                    self.root_state = state.copy()
                    return True
        if self.nodes is None:
            self.nodes, self.stats = new_tree(self.capacity)
        else:
            self.nodes[0] = (0, 0, -1, 0, -1)
            self.stats[:] = 0
            self.stats[USED] = 1
        self.root = 0
        self.root_state = state.copy()
        return False

    # -- reading the tree --------------------------------------------------------
    def _rows(self, node: int) -> range:
        """The rows of ``node``'s children in the tree."""
        assert self.nodes is not None
        first = int(self.nodes[node, FIRST])
        return range(first, first + int(self.nodes[node, COUNT])) if first >= 0 else range(0)

    def _children(self, node: int) -> list[int] | range:
        """The rows of ``node``'s children this search may report (at the root: the allowed moves')."""
        assert self.nodes is not None
        if node == self.root and self._root_allowed is not None:
            return [r for r in self._rows(node) if int(self.nodes[r, MOVE]) in self._root_allowed]
        return self._rows(node)

    def _hold_back(self) -> None:
        """Keep the simulations off the root children that ``searchmoves`` leaves out: each gets a
        huge visit count of losses, so that UCT never selects it (``_release`` restores it)."""
        assert self.nodes is not None and self._root_allowed is not None
        for row in self._rows(self.root):
            if row not in self._held and int(self.nodes[row, MOVE]) not in self._root_allowed:
                self._held[row] = (int(self.nodes[row, N]), int(self.nodes[row, W]))
                self.nodes[row, N] = 1 << 29
                self.nodes[row, W] = -(1 << 29)

    def _release(self) -> None:
        assert self.nodes is not None
        for row, (n, w) in self._held.items():
            self.nodes[row, N] = n
            self.nodes[row, W] = w
        self._held.clear()

    def _best_child(self, node: int) -> int:
        assert self.nodes is not None
        best, key = -1, None
        for row in self._children(node):
            n, w = int(self.nodes[row, N]), int(self.nodes[row, W])
            kk = (n, w / n if n else -1.0, -int(self.nodes[row, MOVE]))
            if key is None or kk > key:
                best, key = row, kk
        return best

    def principal_variation(self, node: int) -> list[int]:
        assert self.nodes is not None
        pv = []
        while node >= 0 and self.nodes[node, COUNT] > 0 and len(pv) < self.game.cells:
            node = self._best_child(node)
            if self.nodes[node, N] == 0:
                break
            pv.append(int(self.nodes[node, MOVE]))
        return pv

    def _pv_reaches(self, state: State, depth: int) -> bool:
        """Whether the principal variation is ``depth`` plies long or ends the game."""
        pv = self.principal_variation(self.root)
        if len(pv) >= depth:
            return True
        s = state.copy()
        for m in pv:
            s.play(m)
        return s.is_terminal()

    def root_stats(self) -> list[tuple[int, int, float]]:
        """``(move, visits, mean result in [-1, 1] for the side to move)``, most visited first."""
        assert self.nodes is not None
        out = []
        for row in self._children(self.root):
            n, w = int(self.nodes[row, N]), int(self.nodes[row, W])
            out.append((int(self.nodes[row, MOVE]), n, w / n - 1.0 if n else 0.0))
        return sorted(out, key=lambda t: (-t[1], t[0]))

    def _choose(self) -> int:
        stats = self.root_stats()
        if self.temperature <= 1e-6:
            return stats[0][0]
        visits = np.array([n for _, n, _ in stats], dtype=np.float64)
        logits = np.log(np.maximum(visits, 1e-12)) / self.temperature
        p = np.exp(logits - logits.max())
        p[visits == 0] = 0
        return stats[int(self._pick.choice(len(stats), p=p / p.sum()))][0]

    def _infos(self, sid: int, pov: int, multipv: int, t0: float, done: int) -> list[SearchInfo]:
        assert self.nodes is not None
        elapsed = time.perf_counter() - t0
        rows = sorted(self._children(self.root), key=lambda r: (-int(self.nodes[r, N]), int(self.nodes[r, MOVE])))
        out = []
        for rank, row in enumerate(rows[: max(1, multipv)]):
            n = int(self.nodes[row, N])
            if n == 0 and rank > 0:
                break
            pv = [int(self.nodes[row, MOVE])] + self.principal_variation(row)
            rate = int(self.nodes[row, W]) / (2 * n) if n else 0.5
            out.append(SearchInfo(
                search_id=sid, depth=len(pv), seldepth=max(int(self.stats[MAXDEPTH]), len(pv)),
                score=Score.winrate(rate, pov), pv=tuple(pv), nodes=int(self.nodes[self.root, N]),
                nps=int(done / elapsed) if elapsed > 0 else 0, time_ms=int(elapsed * 1000), multipv=rank + 1,
                hashfull=int(1000 * self.stats[USED] / self.capacity), text=f"visits {n}"))
        return out

    # -- the search ----------------------------------------------------------------
    def search(self, state: State, limits: Limits, stop: np.ndarray | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        """Search ``state`` until a limit or ``stop`` (``limits.nodes`` counts simulations of this
        search; ``limits.depth`` ends it once the principal variation is that long or ends the game)."""
        sid = next_search_id()
        pov = state.current_player
        if state.is_terminal():
            r = state.returns()
            return SearchResult(None, Score.draw(0) if r[0] == 0 else Score.winrate((r[0] + 1) / 2, 0))
        allowed = None
        if limits.searchmoves is not None:
            legal = set(state.legal_moves())
            allowed = {m for m in limits.searchmoves if m in legal}
            if not allowed:
                raise InvalidOptionError(f"searchmoves {list(limits.searchmoves)!r}: none of them is legal here")
        self.set_root(state)
        assert self.nodes is not None
        self._root_allowed = allowed
        try:
            return self._search(state, limits, stop, on_info, sid, pov)
        finally:
            self._release()
            self._root_allowed = None

    def _search(self, state: State, limits: Limits, stop: np.ndarray | None, on_info: InfoCallback | None,
                sid: int, pov: int) -> SearchResult:
        assert self.nodes is not None
        budget = allocate(limits, pov)
        t0 = time.perf_counter()
        last_info = t0
        done = 0
        chunk = 256
        self.stats[MAXDEPTH] = 0
        with StopWatch(stop, None if limits.infinite else budget.hard_ms) as watch:
            while not watch.flag[0]:
                want = chunk if limits.nodes is None else min(chunk, limits.nodes - done)
                if want <= 0:
                    break
                if self._root_allowed is not None:
                    if self.nodes[self.root, COUNT] == 0:
                        want = 1  # one simulation grows the root's children, which are then held back
                    else:
                        self._hold_back()
                t1 = time.perf_counter()
                done += self._simulate(state, want, watch.flag)
                now = time.perf_counter()
                # aim at chunks of about 20 ms, so that soft limits and reports stay timely
                chunk = int(min(max(chunk * 0.02 / max(now - t1, 1e-6), 16), 1 << 20))
                if budget.soft_ms is not None and not limits.infinite and (now - t0) * 1000 >= budget.soft_ms:
                    break
                if limits.depth is not None and self._pv_reaches(state, limits.depth):
                    break
                if on_info is not None and (now - last_info) * 1000 >= self.info_ms:
                    last_info = now
                    for info in self._infos(sid, pov, limits.multipv, t0, done):
                        on_info(info)
        if self.nodes[self.root, COUNT] == 0:  # stopped before the first simulation
            self._simulate(state, 1)
            done += 1
        self._release()
        if self._root_allowed is not None and not self._children(self.root):
            # no allowed move among the tree's root moves (a tree grows only near the stones, say):
            # the first one asked for, unsearched
            move = next(m for m in limits.searchmoves or () if m in self._root_allowed)
            return SearchResult(best_move=move, score=Score.winrate(0.5, pov), pv=(move,), depth=1,
                                nodes=int(self.nodes[self.root, N]),
                                time_ms=int((time.perf_counter() - t0) * 1000))
        lines = self._infos(sid, pov, limits.multipv, t0, done)
        if on_info is not None:
            for info in lines:
                on_info(info)
        move = self._choose()
        row = self.child_row(self.root, move)
        n = int(self.nodes[row, N])
        pv = tuple([move] + self.principal_variation(row))
        return SearchResult(
            best_move=move, score=Score.winrate(int(self.nodes[row, W]) / (2 * n) if n else 0.5, pov), pv=pv,
            depth=len(pv), nodes=int(self.nodes[self.root, N]), time_ms=int((time.perf_counter() - t0) * 1000),
            ponder=pv[1] if len(pv) > 1 else None, lines=tuple(lines))
