"""The array tree of the numba MCTS engines of board games, shared by the games that have one.

The tree is one ``int32`` array with a row per node (``N`` visits, ``W`` summed
results of the player who moved into the node counted 2 win / 1 draw / 0 loss,
``FIRST`` child row or -1, ``COUNT`` children, ``MOVE`` into the node); the
children of a node are consecutive rows. Every random number comes from a
xorshift64* state in a ``uint64`` array (:class:`ReferenceRandom` is the same
generator in plain Python), so a game's plain-Python reference reproduces its
kernel exactly. A game provides the kernel of one simulation batch (its win
test, its move generation) and subclasses :class:`ArrayMCTS` for the engine:
reading the tree and tree reuse live here; limits, reports, ``searchmoves`` and
the move choice are the simulation driver's (``search.simulation``).
"""

from __future__ import annotations

import math
from collections.abc import Collection

import numpy as np
from numba import njit

from ..core.errors import InvalidOptionError
from ..core.info import InfoCallback, SearchResult
from ..core.limits import Limits
from ..core.options import Option, memory_option, seed_option
from ..core.registry import Game
from ..core.score import Score
from ..core.state import State
from .simulation import RootMove, SimulationOptions, run_simulations

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
def _below(rng, n) -> np.int64:
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
        cells = getattr(game, "cells", None)
        if not isinstance(cells, int):
            raise InvalidOptionError(f"{game.name} has no cells: the array tree searches games whose moves are cells")
        self.game = game
        self.cells = cells
        self.c = float(c)
        self.expand_at = int(expand_at)
        self.capacity = max(cells + 2, int(memory * 1024 * 1024) // (4 * COLUMNS))
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
                    self.stats[MAXDEPTH] = 0
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
        if self.nodes is None:
            self._held.clear()
            return
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
        pv: list[int] = []
        while node >= 0 and self.nodes[node, COUNT] > 0 and len(pv) < self.cells:
            node = self._best_child(node)
            if self.nodes[node, N] == 0:
                break
            pv.append(int(self.nodes[node, MOVE]))
        return pv

    def root_stats(self) -> list[tuple[int, int, float]]:
        """``(move, visits, mean result in [-1, 1] for the side to move)``, most visited first."""
        assert self.nodes is not None
        out = []
        for row in self._children(self.root):
            n, w = int(self.nodes[row, N]), int(self.nodes[row, W])
            out.append((int(self.nodes[row, MOVE]), n, w / n - 1.0 if n else 0.0))
        return sorted(out, key=lambda t: (-t[1], t[0]))

    # -- the simulation driver's view (search.simulation.SimulationTree) ---------------
    def restrict(self, allowed: Collection[int] | None) -> None:
        """Keep the simulations off the root moves outside ``allowed`` (``None``: every move, true counts)."""
        if allowed is None:
            self._release()
            self._root_allowed = None
        else:
            self._root_allowed = set(allowed)

    def simulate(self, state: State, count: int, flag: np.ndarray) -> int:
        """Up to ``count`` simulations from the root (held back from the moves ``restrict`` left out)."""
        assert self.nodes is not None
        if self._root_allowed is not None:
            if self.nodes[self.root, COUNT] == 0:
                count = 1  # one simulation grows the root's children, which are then held back
            else:
                self._hold_back()
        return self._simulate(state, count, flag)

    def root_moves(self, pov: int) -> list[RootMove]:
        """Every root move in the tree with its true visits and win rate."""
        assert self.nodes is not None
        out = []
        for row in self._rows(self.root):
            n, w = self._held.get(row, (int(self.nodes[row, N]), int(self.nodes[row, W])))
            out.append(RootMove(int(self.nodes[row, MOVE]), n, Score.winrate(w / (2 * n) if n else 0.5, pov)))
        return out

    def line(self, state: State, move: int) -> list[int]:
        row = self.child_row(self.root, move)
        return [move] + (self.principal_variation(row) if row >= 0 else [])

    def unvisited_score(self, pov: int) -> Score:
        return Score.winrate(0.5, pov)

    def result_score(self, state: State) -> Score:
        r = state.returns()
        return Score.draw(0) if r[0] == 0 else Score.winrate((r[0] + 1) / 2, 0)

    @property
    def visits(self) -> int:
        return 0 if self.nodes is None else int(self.nodes[self.root, N])

    def seldepth(self) -> int:
        return int(self.stats[MAXDEPTH])

    def hashfull(self) -> int:
        return int(1000 * self.stats[USED] / self.capacity)

    # -- the search ----------------------------------------------------------------
    def search(self, state: State, limits: Limits, stop: np.ndarray | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        """Search ``state`` until a limit or ``stop`` with the simulation driver (``limits.nodes`` counts
        simulations of this search; ``limits.depth`` ends it once the principal variation is that long or
        ends the game)."""
        return run_simulations(self, state, limits, stop, on_info,
                               SimulationOptions(chunk=256, min_chunk=16, max_chunk=1 << 20, info_ms=self.info_ms,
                                                 temperature=self.temperature), self._pick)
