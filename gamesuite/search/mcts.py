"""Monte Carlo tree search over the State API: UCT and PUCT for 1 to 6 players, with chance.

One tree serves both algorithms:

- **UCT** selects ``Q + c * sqrt(ln N / n)`` (unvisited children first, in random
  order) and values leaves by random playouts;
- **PUCT** selects ``Q + c * P * sqrt(N) / (1 + n)`` with priors ``P`` and leaf
  values from a pluggable :class:`Evaluator` (uniform priors with playouts, a
  game's heuristic, or a policy-value network).

Every edge keeps one summed return *per player*, so a node is chosen by the
player to move there (max^n style); chance nodes are either sampled by their
probabilities or visited in proportion to them ("expanded"). Leaves are
collected in batches under a virtual loss (kept in its own counters, so real
visit counts are never touched by it) and evaluated together. The tree is kept
between moves: a search from a position reached from the last root reuses the
matching subtree.

Values are in [-1, 1] like ``State.returns()``; a two-player win rate is
``(Q + 1) / 2``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import numpy as np

from ..core.errors import InvalidOptionError, quote
from ..core.info import InfoCallback, SearchInfo, SearchResult
from ..core.limits import Limits
from ..core.options import Option, seed_option
from ..core.registry import Game, register_engine
from ..core.score import Score
from ..core.state import CHANCE, State
from .driver import StopWatch, next_search_id
from .network import BACKENDS
from .timeman import allocate

# -- evaluators -------------------------------------------------------------


class Evaluator(Protocol):
    """Priors and values of leaves, a batch at a time."""

    def evaluate(self, states: Sequence[State]) -> Sequence[tuple[np.ndarray, np.ndarray] | None]:
        """For each non-terminal decision state: priors over ``state.legal_moves()`` (summing
        to 1) and one value per player in [-1, 1]; ``None`` for a state it did not value because
        the search was stopped (an evaluator with a ``stop`` attribute polls that flag: the tree sets
        it to its stop flag during a search, so a long playout does not overrun a time limit)."""
        ...


def random_playout(state: State, rng: np.random.Generator, max_plies: int = 10_000,
                   stop: np.ndarray | None = None) -> np.ndarray | None:
    """Play uniformly random moves (chance by its probabilities) from ``state`` (changed) to the end.

    Returns the final returns, zeros when ``max_plies`` is reached first, or ``None`` when ``stop[0]``
    is set on the way (polled every ply).
    """
    for _ in range(max_plies):
        if stop is not None and stop[0]:
            return None
        if state.is_terminal():
            return np.asarray(state.returns(), dtype=np.float64)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            probs = np.fromiter((p for _, p in outcomes), dtype=np.float64, count=len(outcomes))
            j = int(np.searchsorted(np.cumsum(probs), rng.random() * probs.sum(), side="right"))
            state.play(outcomes[min(j, len(outcomes) - 1)][0])
        else:
            moves = state.legal_moves()
            state.play(moves[int(rng.integers(len(moves)))])
    return np.zeros(state.num_players, dtype=np.float64)


class RolloutEvaluator:
    """Uniform priors; the value is the mean of ``playouts`` random playouts."""

    def __init__(self, rng: np.random.Generator, playouts: int = 1, max_plies: int = 10_000) -> None:
        if playouts < 1:
            raise InvalidOptionError(f"playouts must be at least 1, got {playouts!r}")
        self.rng = rng
        self.playouts = playouts
        self.max_plies = max_plies
        self.stop: np.ndarray | None = None  # set by the tree while it searches

    def evaluate(self, states: Sequence[State]) -> list[tuple[np.ndarray, np.ndarray] | None]:
        out: list[tuple[np.ndarray, np.ndarray] | None] = []
        for s in states:
            k = len(s.legal_moves())
            total = np.zeros(s.num_players)
            for _ in range(self.playouts):
                r = random_playout(s.copy(), self.rng, self.max_plies, self.stop)
                if r is None:  # stopped: this state and the rest are not valued
                    return out + [None] * (len(states) - len(out))
                total += r
            out.append((np.full(k, 1.0 / k), total / self.playouts))
        return out


Heuristic = Callable[[State], tuple["np.ndarray | None", "np.ndarray | None"]]
"""``heuristic(state) -> (weights over legal moves or None, values per player or None)``."""

_HEURISTICS: dict[str, Callable[[Game], Heuristic]] = {}


def register_heuristic(game_name: str, factory: Callable[[Game], Heuristic]) -> None:
    """Let PUCT's ``evaluator=heuristic`` use ``factory(game)`` for ``game_name``.

    The heuristic gives non-negative move weights (normalised here) and/or a
    value vector; whatever it leaves out (``None``) is uniform / a random playout.
    """
    _HEURISTICS[game_name] = factory


class HeuristicEvaluator:
    """Priors and values from a game's heuristic, falling back to uniform priors and playouts."""

    def __init__(self, heuristic: Heuristic, rng: np.random.Generator, max_plies: int = 10_000) -> None:
        self.heuristic = heuristic
        self.rollout = RolloutEvaluator(rng, 1, max_plies)

    @property
    def stop(self) -> np.ndarray | None:
        return self.rollout.stop

    @stop.setter
    def stop(self, flag: np.ndarray | None) -> None:
        self.rollout.stop = flag

    def evaluate(self, states: Sequence[State]) -> list[tuple[np.ndarray, np.ndarray] | None]:
        out: list[tuple[np.ndarray, np.ndarray] | None] = []
        for s in states:
            weights, values = self.heuristic(s)
            if values is None:
                valued = self.rollout.evaluate([s])[0]
                if valued is None:  # stopped
                    return out + [None] * (len(states) - len(out))
                priors, values = valued
            k = len(s.legal_moves())
            if weights is None:
                priors = np.full(k, 1.0 / k)
            else:
                w = np.maximum(np.asarray(weights, dtype=np.float64), 0.0)
                if w.shape != (k,):
                    raise ValueError(f"heuristic gave {w.shape[0] if w.ndim else 0} weights for {k} legal moves")
                priors = w / w.sum() if w.sum() > 0 else np.full(k, 1.0 / k)
            out.append((priors, np.asarray(values, dtype=np.float64)))
        return out


# -- the tree ----------------------------------------------------------------


class Node:
    """A position in the tree; the statistics of its children's edges live in arrays here.

    ``n[i]``: visits of child ``i``; ``w[i, p]``: summed returns of player ``p``
    through it; ``vn[i]``: virtual visits of the batch in flight; ``priors[i]``:
    the prior (PUCT) or the outcome probability (chance).
    """

    __slots__ = ("player", "terminal", "expanded", "moves", "priors", "n", "w", "vn", "children")

    def __init__(self, player: int, terminal: np.ndarray | None = None) -> None:
        self.player = player
        self.terminal = terminal
        self.expanded = False
        self.moves: list[int] = []
        self.priors = np.zeros(0)
        self.n = np.zeros(0, dtype=np.int64)
        self.w = np.zeros((0, 0))
        self.vn = np.zeros(0, dtype=np.int64)
        self.children: list[Node | None] = []

    def expand(self, moves: Sequence[int], priors: np.ndarray, players: int) -> None:
        k = len(moves)
        self.moves = list(moves)
        self.priors = np.asarray(priors, dtype=np.float64)
        self.n = np.zeros(k, dtype=np.int64)
        self.w = np.zeros((k, players))
        self.vn = np.zeros(k, dtype=np.int64)
        self.children = [None] * k
        self.expanded = True

    def index(self, move: int) -> int:
        """The child index of ``move`` (``-1`` when absent)."""
        try:
            return self.moves.index(move)
        except ValueError:
            return -1

    def walk(self) -> list[Node]:
        """This node and every node below it."""
        out, todo = [], [self]
        while todo:
            node = todo.pop()
            out.append(node)
            todo.extend(c for c in node.children if c is not None)
        return out


@dataclass(frozen=True)
class MCTSConfig:
    """The knobs of a search. ``c=None`` means 1.4 for UCT and 1.5 for PUCT."""

    algorithm: str = "puct"  # "uct" or "puct"
    c: float | None = None
    batch: int = 8
    virtual_loss: float = 1.0
    dirichlet_alpha: float = 0.03
    noise: float = 0.25  # weight of the Dirichlet noise at the root (0: none; PUCT only)
    temperature: float = 0.0  # 0: the most visited move
    chance: str = "sample"  # "sample" or "expand"
    fpu: float = 0.0  # PUCT: an unvisited child's Q is the parent's Q minus this
    reuse: bool = True
    seed: int | None = None
    info_ms: int = 500

    def __post_init__(self) -> None:
        if self.algorithm not in ("uct", "puct"):
            raise InvalidOptionError(f"algorithm must be uct or puct, got {quote(self.algorithm)}")
        if self.chance not in ("sample", "expand"):
            raise InvalidOptionError(f"chance must be sample or expand, got {quote(self.chance)}")
        if not isinstance(self.batch, int) or not 1 <= self.batch <= 4096:
            raise InvalidOptionError(f"batch must be an integer in 1..4096, got {self.batch!r}")
        for name in ("virtual_loss", "temperature", "fpu"):
            if not isinstance(getattr(self, name), (int, float)) or getattr(self, name) < 0:
                raise InvalidOptionError(f"{name} must be a non-negative number, got {getattr(self, name)!r}")
        if self.c is not None and (not isinstance(self.c, (int, float)) or self.c < 0):
            raise InvalidOptionError(f"c must be a non-negative number, got {self.c!r}")
        if not isinstance(self.noise, (int, float)) or not 0 <= self.noise <= 1:
            raise InvalidOptionError(f"noise must be a weight in [0, 1], got {self.noise!r}")
        if not isinstance(self.dirichlet_alpha, (int, float)) or self.dirichlet_alpha <= 0:
            raise InvalidOptionError(f"dirichlet_alpha must be positive, got {self.dirichlet_alpha!r}")
        if not isinstance(self.info_ms, int) or self.info_ms < 1:
            raise InvalidOptionError(f"info_ms must be a positive integer, got {self.info_ms!r}")

    @property
    def c_value(self) -> float:
        if self.c is not None:
            return float(self.c)
        return 1.4 if self.algorithm == "uct" else 1.5


_Path = list[tuple[Node, int]]


class MCTS:
    """A search tree for one game, kept between searches.

    ``search`` runs it under ``Limits``; ``set_root`` and ``run_batch`` give finer
    control (tests, self-play). ``trace``, when a list, receives every backed-up
    simulation as ``(edges, value)`` (for tests).
    """

    def __init__(self, game: Game, evaluator: Evaluator | None = None, config: MCTSConfig | None = None) -> None:
        if not 1 <= game.num_players <= 6:
            raise InvalidOptionError(f"MCTS plays games of 1 to 6 players, not {game.spec}")
        self.game = game
        self.config = config or MCTSConfig()
        self.rng = np.random.default_rng(self.config.seed)
        self.evaluator: Evaluator = evaluator if evaluator is not None else RolloutEvaluator(self.rng)
        self.players = game.num_players
        self.trace: list[tuple[list[tuple[Node, int]], np.ndarray]] | None = None
        self.root: Node | None = None
        self.root_state: State | None = None
        self.root_n = 0
        self.root_w = np.zeros(self.players)
        self._noise: np.ndarray | None = None
        self._noise_wanted = False
        self.max_depth = 0
        #: the root moves a search may choose (``Limits.searchmoves``); None: every one
        self._allowed: frozenset[int] | None = None
        self._allowed_mask: tuple[Node, np.ndarray] | None = None

    # -- the root -----------------------------------------------------------
    def clear(self) -> None:
        """Forget the tree."""
        self.root = None
        self.root_state = None
        self.root_n = 0
        self.root_w = np.zeros(self.players)
        self._noise = None

    def set_root(self, state: State) -> bool:
        """Make ``state`` the root, reusing the subtree if it follows from the last root.

        Returns whether statistics were kept.
        """
        reused = self.config.reuse and self._descend_to(state)
        if not reused:
            self.root = self._new_node(state)
            self.root_n = 0
            self.root_w = np.zeros(self.players)
        self.root_state = state.copy()
        self._noise = None
        self._noise_wanted = self.config.algorithm == "puct" and self.config.noise > 0
        if self.root is not None and self.root.expanded and self._noise_wanted:
            self._make_noise()
        return reused

    def _descend_to(self, state: State) -> bool:
        if self.root is None or self.root_state is None:
            return False
        old, new = list(self.root_state.history), list(state.history)
        if len(new) < len(old) or new[: len(old)] != old:
            return False
        probe = self.root_state.copy()
        node, n, w = self.root, self.root_n, self.root_w
        for m in new[len(old):]:
            i = node.index(m) if node.expanded else -1
            if i < 0 or node.children[i] is None:
                return False
            n, w = int(node.n[i]), node.w[i].copy()
            node = node.children[i]  # type: ignore[assignment]
            probe.play(m)
        if probe.key != state.key or node.terminal is not None or node.player != state.current_player:
            return False
        self.root, self.root_n, self.root_w = node, n, w
        return True

    def advance(self, move: int) -> None:
        """Play ``move`` at the root, keeping its subtree."""
        if self.root_state is None:
            raise ValueError("the tree has no root")
        s = self.root_state.copy()
        s.play(move)
        self.set_root(s)

    def _new_node(self, state: State) -> Node:
        if state.is_terminal():
            return Node(state.current_player, np.asarray(state.returns(), dtype=np.float64))
        node = Node(state.current_player)
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            probs = np.array([p for _, p in outcomes], dtype=np.float64)
            node.expand([m for m, _ in outcomes], probs / probs.sum(), self.players)
        return node

    def _make_noise(self) -> None:
        assert self.root is not None
        k = len(self.root.moves)
        if k > 1:
            self._noise = self.rng.dirichlet(np.full(k, self.config.dirichlet_alpha))

    # -- selection ----------------------------------------------------------
    def restrict(self, allowed: Sequence[int] | None) -> None:
        """Keep the next simulations (and the choice, and the reports) to the root moves in ``allowed``
        (``None``: every move again; the statistics are those the tree gathered either way)."""
        self._allowed = None if allowed is None else frozenset(allowed)
        self._allowed_mask = None

    def _root_mask(self, node: Node) -> np.ndarray | None:
        """Which of ``node``'s moves are allowed, when ``node`` is the root of a restricted search."""
        if self._allowed is None or node is not self.root or not node.expanded:
            return None
        if self._allowed_mask is None or self._allowed_mask[0] is not node:
            self._allowed_mask = (node, np.array([m in self._allowed for m in node.moves], dtype=bool))
        return self._allowed_mask[1]

    def _select(self, node: Node, n_self: int, w_self: np.ndarray, is_root: bool) -> int:
        cfg = self.config
        k = len(node.moves)
        mask = self._root_mask(node) if is_root else None
        if mask is not None:
            if not mask.any():
                mask = None
            elif int(mask.sum()) == 1:
                return int(np.flatnonzero(mask)[0])
        if k == 1:
            return 0
        n_eff = node.n + node.vn
        if node.player == CHANCE:
            if cfg.chance == "sample":
                j = int(np.searchsorted(np.cumsum(node.priors), self.rng.random(), side="right"))
                return min(j, k - 1)
            return int(np.argmax(node.priors * (n_eff.sum() + 1) - n_eff))
        p = node.player
        vl = cfg.virtual_loss
        wp = node.w[:, p] - vl * node.vn
        if cfg.algorithm == "uct":
            unvisited = np.flatnonzero((n_eff == 0) if mask is None else (n_eff == 0) & mask)
            if len(unvisited):
                return int(unvisited[int(self.rng.integers(len(unvisited)))])
            total = max(int(n_eff.sum()), 1)
            score = wp / np.maximum(n_eff, 1) + cfg.c_value * np.sqrt(math.log(total) / np.maximum(n_eff, 1))
            return int(np.argmax(score if mask is None else np.where(mask, score, -np.inf)))
        priors = node.priors
        if is_root and self._noise is not None:
            priors = (1.0 - cfg.noise) * priors + cfg.noise * self._noise
        fpu = (w_self[p] / n_self if n_self > 0 else 0.0) - cfg.fpu
        q = np.where(n_eff > 0, wp / np.maximum(n_eff, 1), fpu)
        u = cfg.c_value * priors * math.sqrt(max(n_self, 1)) / (1.0 + n_eff)
        return int(np.argmax(q + u if mask is None else np.where(mask, q + u, -np.inf)))

    # -- simulation ----------------------------------------------------------
    def run_batch(self, size: int | None = None) -> int:
        """Run up to ``size`` simulations (default: the configured batch) under virtual loss.

        The batch ends early when a simulation reaches a leaf already waiting for
        evaluation (that one is dropped). Returns how many were backed up.
        """
        if self.root is None or self.root_state is None:
            raise ValueError("set_root() first")
        if self.root.terminal is not None:
            return 0
        size = self.config.batch if size is None else size
        state = self.root_state.copy()
        pending: dict[int, tuple[Node, State, _Path]] = {}
        finished: list[tuple[_Path, np.ndarray]] = []
        vl_root = 0
        for _ in range(size):
            path: _Path = []
            node = self.root
            n_self, w_self = self.root_n + vl_root, self.root_w
            while node.terminal is None and node.expanded:
                i = self._select(node, n_self, w_self, not path)
                path.append((node, i))
                node.vn[i] += 1
                state.play(node.moves[i])
                child = node.children[i]
                if child is None:
                    child = node.children[i] = self._new_node(state)
                n_self, w_self = int(node.n[i] + node.vn[i]), node.w[i]
                node = child
            if node.terminal is None and id(node) in pending:
                for parent, i in path:  # collision: drop this one and end the batch
                    parent.vn[i] -= 1
                for _ in path:
                    state.undo()
                break
            vl_root += 1
            self.max_depth = max(self.max_depth, len(path))
            if node.terminal is not None:
                finished.append((path, node.terminal))
            else:
                pending[id(node)] = (node, state.copy(), path)
            for _ in path:
                state.undo()
        if pending:
            items = list(pending.values())
            results = self.evaluator.evaluate([s for _, s, _ in items])
            for (node, s, path), result in zip(items, results):
                if result is None:  # the search was stopped before this leaf was valued: drop it
                    for parent, i in path:
                        parent.vn[i] -= 1
                    continue
                priors, value = result
                if not node.expanded:
                    node.expand(s.legal_moves(), priors, self.players)
                    if node is self.root and self._noise_wanted:
                        self._make_noise()
                finished.append((path, np.asarray(value, dtype=np.float64)))
        for path, value in finished:
            self._backup(path, value)
        return len(finished)

    def _backup(self, path: _Path, value: np.ndarray) -> None:
        for parent, i in path:
            parent.vn[i] -= 1
            parent.n[i] += 1
            parent.w[i] += value
        self.root_n += 1
        self.root_w = self.root_w + value
        if self.trace is not None:
            self.trace.append((list(path), value.copy()))

    # -- reading the tree ------------------------------------------------------
    def best_index(self, node: Node, p: int) -> int:
        """The most visited child (ties: the better mean for ``p``, then the lower move); at the root of a
        restricted search, the most visited allowed one."""
        best, key = -1, None
        mask = self._root_mask(node)
        for i in range(len(node.moves)):
            if mask is not None and not mask[i]:
                continue
            n = int(node.n[i])
            k = (n, node.w[i, p] / n if n else -math.inf)
            if key is None or k > key:
                best, key = i, k
        return best

    def principal_variation(self, node: Node | None = None, max_len: int = 64) -> list[int]:
        """Most-visited children from ``node`` (default: the root) while they have visits."""
        node = self.root if node is None else node
        pv: list[int] = []
        while node is not None and node.expanded and node.terminal is None and len(pv) < max_len:
            if node.player == CHANCE or not len(node.moves):
                break
            i = self.best_index(node, node.player)
            if node.n[i] == 0:
                break
            pv.append(node.moves[i])
            node = node.children[i]
        return pv

    def root_stats(self) -> list[tuple[int, int, np.ndarray]]:
        """``(move, visits, mean returns)`` of every root move, most visited first."""
        r = self.root
        if r is None or not r.expanded:
            return []
        out = [(r.moves[i], int(r.n[i]), r.w[i] / r.n[i] if r.n[i] else np.zeros(self.players))
               for i in range(len(r.moves))]
        return sorted(out, key=lambda t: (-t[1], t[0]))

    def choose(self, temperature: float | None = None) -> int:
        """A root move by visit counts: the most visited at temperature 0, else ``n ** (1/T)``."""
        r = self.root
        assert r is not None and r.expanded and len(r.moves)
        t = self.config.temperature if temperature is None else temperature
        mask = self._root_mask(r)
        n = r.n if mask is None else np.where(mask, r.n, 0)
        if t <= 1e-6 or n.sum() == 0:
            return r.moves[self.best_index(r, r.player)]
        logits = np.log(np.maximum(n, 1e-12)) / t
        p = np.exp(logits - logits.max())
        p[n == 0] = 0.0
        return r.moves[int(self.rng.choice(len(r.moves), p=p / p.sum()))]

    def visit_distribution(self) -> dict[int, float]:
        """The share of the root's visits that went to each move (the training target)."""
        r = self.root
        if r is None or not r.expanded or r.n.sum() == 0:
            return {}
        total = r.n.sum()
        return {m: float(r.n[i] / total) for i, m in enumerate(r.moves)}

    def score_of(self, mean: np.ndarray, pov: int) -> Score:
        """A ``Score`` of mean returns: a win rate for two players, else a vector."""
        if self.players == 2:
            return Score.winrate(float(np.clip((mean[pov] + 1.0) / 2.0, 0.0, 1.0)), pov)
        return Score.vector(tuple(float(v) for v in mean))

    # -- the search ------------------------------------------------------------
    def search(
        self,
        state: State,
        limits: Limits,
        stop: np.ndarray | None = None,
        on_info: InfoCallback | None = None,
    ) -> SearchResult:
        """Search from ``state`` (left unchanged) until a limit or ``stop``; report to ``on_info``.

        ``limits.nodes`` counts simulations of this search; ``limits.depth`` ends it once
        the principal variation is that long (or reaches the end of the game).
        """
        sid = next_search_id()
        pov = state.current_player
        if state.is_terminal() or state.is_chance_node():
            r = state.returns() if state.is_terminal() else [0.0] * self.players
            return SearchResult(None, self.score_of(np.asarray(r, dtype=np.float64), max(pov, 0)))
        allowed = None
        if limits.searchmoves is not None:
            wanted = set(limits.searchmoves)
            allowed = [m for m in state.legal_moves() if m in wanted]
            if not allowed:
                raise InvalidOptionError(f"searchmoves {list(limits.searchmoves)!r}: none of them is legal here")
        self.set_root(state)
        self.restrict(allowed)
        try:
            return self._search(state, limits, stop, on_info, sid, pov)
        finally:
            self.restrict(None)

    def _search(self, state: State, limits: Limits, stop: np.ndarray | None, on_info: InfoCallback | None,
                sid: int, pov: int) -> SearchResult:
        budget = allocate(limits, pov)
        target = limits.nodes
        t0 = time.perf_counter()
        last_info = t0
        done = batches = 0
        self.max_depth = 0
        with StopWatch(stop, None if limits.infinite else budget.hard_ms) as watch:
            if hasattr(self.evaluator, "stop"):
                self.evaluator.stop = watch.flag  # a playout in flight ends at the deadline too
            try:
                while True:
                    if target is not None and done >= target:
                        break
                    if watch.flag[0]:
                        break
                    if budget.soft_ms is not None and not limits.infinite and (
                            time.perf_counter() - t0) * 1000 >= budget.soft_ms:
                        break
                    size = self.config.batch if target is None else min(self.config.batch, target - done)
                    done += self.run_batch(size)
                    batches += 1
                    if limits.depth is not None and batches % 8 == 0 and self._pv_reaches(limits.depth):
                        break
                    now = time.perf_counter()
                    if on_info is not None and (now - last_info) * 1000 >= self.config.info_ms:
                        last_info = now
                        for info in self._infos(sid, pov, limits.multipv, t0, done):
                            on_info(info)
            finally:
                if hasattr(self.evaluator, "stop"):
                    self.evaluator.stop = None
        if not self.root.expanded:  # type: ignore[union-attr]  # stopped (or nodes=0) before the first batch
            if hasattr(self.evaluator, "stop") and watch.flag[0]:  # out of time: uniform priors, no playout
                moves = state.legal_moves()
                self.root.expand(moves, np.full(len(moves), 1.0 / len(moves)), self.players)  # type: ignore[union-attr]
            else:
                done += self.run_batch(1)
        lines = self._infos(sid, pov, limits.multipv, t0, done, final=True)
        if on_info is not None:
            for info in lines:
                on_info(info)
        elapsed_ms = int((time.perf_counter() - t0) * 1000)
        move = self.choose()
        top = lines[0] if lines else None
        pv = top.pv if top and top.pv and top.pv[0] == move else (move,)
        i = self.root.index(move)  # type: ignore[union-attr]
        mean = self.root.w[i] / max(self.root.n[i], 1)  # type: ignore[union-attr]
        return SearchResult(
            best_move=move,
            score=self.score_of(mean, pov),
            pv=tuple(pv),
            depth=len(pv),
            nodes=self.root_n,
            time_ms=elapsed_ms,
            ponder=pv[1] if len(pv) > 1 else None,
            lines=tuple(lines),
        )

    def _pv_reaches(self, depth: int) -> bool:
        """Whether the principal variation is ``depth`` plies long, or ends the game or at a chance node
        (as ``search.simulation`` reads a depth limit: the line cannot be read further)."""
        node, length = self.root, 0
        while length < depth:
            if node is None or node.terminal is not None:
                return node is not None
            if node.player == CHANCE:
                return length > 0
            if not node.expanded:
                return False
            i = self.best_index(node, node.player)
            if node.n[i] == 0:
                return False
            node, length = node.children[i], length + 1
        return True

    def _infos(self, sid: int, pov: int, multipv: int, t0: float, done: int, final: bool = False) -> list[SearchInfo]:
        """The ``multipv`` most visited (allowed) root moves as reports; the final ones list every line asked
        for, moves without visits last."""
        r = self.root
        if r is None or not r.expanded:
            return []
        elapsed = time.perf_counter() - t0
        mask = self._root_mask(r)
        p = r.player

        def rank_key(i: int) -> tuple[int, float, int]:  # the order of best_index: visits, then the mean
            n = int(r.n[i])
            return -n, -(r.w[i, p] / n) if n else math.inf, i

        order = sorted((i for i in range(len(r.moves)) if mask is None or mask[i]), key=rank_key)
        out: list[SearchInfo] = []
        for rank, i in enumerate(order[: max(1, multipv)]):
            if r.n[i] == 0 and rank > 0 and not final:
                break
            pv = [r.moves[i]] + self.principal_variation(r.children[i]) if r.children[i] is not None else [r.moves[i]]
            mean = r.w[i] / max(r.n[i], 1)
            out.append(SearchInfo(
                search_id=sid, depth=len(pv), seldepth=max(self.max_depth, len(pv)),
                score=self.score_of(mean, pov), pv=tuple(pv), nodes=int(self.root_n),
                nps=int(done / elapsed) if elapsed > 0 else 0, time_ms=int(elapsed * 1000),
                multipv=rank + 1, text=f"visits {int(r.n[i])}",
            ))
        return out


# -- engines -----------------------------------------------------------------


class MCTSEngine:
    """An engine around :class:`MCTS` for any game (``new_game`` forgets the tree)."""

    def __init__(self, game: Game, name: str, evaluator_factory: Callable[[np.random.Generator], Evaluator],
                 config: MCTSConfig) -> None:
        self.name = name
        self.game = game
        self.tree = MCTS(game, None, config)
        self.tree.evaluator = evaluator_factory(self.tree.rng)

    def new_game(self) -> None:
        self.tree.clear()

    def search(self, state: State, limits: Limits, stop: np.ndarray | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        return self.tree.search(state, limits, stop, on_info)


_COMMON = {"c": Option(None, 0, 100, kind=float, help="exploration constant (none: 1.4 UCT, 1.5 PUCT)"),
           "batch": Option(8, 1, 4096, help="leaves evaluated together"),
           "virtual_loss": Option(1.0, 0, 1000), "temperature": Option(0.0, 0, 100),
           "chance": Option("sample", choices=("sample", "expand")), "reuse": Option(True),
           "seed": seed_option(), "info_ms": Option(500, 1, 10**7)}


def _config(algorithm: str, options: dict[str, Any]) -> MCTSConfig:
    cfg = MCTSConfig(algorithm=algorithm)
    if "seed" in options and options["seed"] is not None:
        options["seed"] = int(options["seed"])
    return replace(cfg, **options)


def make_uct(game: Game, playouts: int = 1, **options: Any) -> MCTSEngine:
    """UCT with random playouts (``c``, ``batch``, ``playouts``, ``temperature``, ``chance``, ``seed``...)."""
    cfg = _config("uct", options)
    return MCTSEngine(game, "mcts", lambda rng: RolloutEvaluator(rng, int(playouts)), cfg)


#: Named settings of PUCT (``preset=NAME``; options given beside it win). ``writeup``: the MCTS
#: write-up's selection ``q + c·p/(n+1)`` with ``c = 5·√N`` (PUCT with ``c=5``), root noise
#: ``0.75·p + 0.25·Dir(0.03)``, batches of 8 under virtual loss, moves by visits with ``τ = 0.001``.
PRESETS: dict[str, dict[str, Any]] = {
    "writeup": {"c": 5.0, "noise": 0.25, "dirichlet_alpha": 0.03, "batch": 8, "virtual_loss": 1.0,
                "temperature": 0.001},
}


def make_puct(game: Game, evaluator: str = "uniform", net: str = "", playouts: int = 1, preset: str = "",
              backend: str = "auto", **options: Any) -> MCTSEngine:
    """PUCT with priors from ``evaluator`` = ``uniform`` (playouts), ``heuristic`` or ``net`` (``backend``:
    how the network runs); ``preset=NAME`` starts from named settings (:data:`PRESETS`)."""
    if preset:
        if preset not in PRESETS:
            raise InvalidOptionError(f"preset must be one of {', '.join(PRESETS)}, got {quote(str(preset))}")
        options = {**PRESETS[preset], **options}
    cfg = _config("puct", options)
    if evaluator == "uniform":
        return MCTSEngine(game, "puct", lambda rng: RolloutEvaluator(rng, int(playouts)), cfg)
    if evaluator == "heuristic":
        if game.name not in _HEURISTICS:
            raise InvalidOptionError(
                f"{game.name} has no MCTS heuristic; those that do: {', '.join(sorted(_HEURISTICS)) or 'none'}")
        h = _HEURISTICS[game.name](game)
        return MCTSEngine(game, "puct", lambda rng: HeuristicEvaluator(h, rng), cfg)
    if evaluator == "net":
        from .network import network_evaluator

        ev = network_evaluator(game, str(net) if net else None, str(backend))
        return MCTSEngine(game, "puct", lambda rng: ev, cfg)
    raise InvalidOptionError(f"evaluator must be uniform, heuristic or net, got {quote(evaluator)}")


#: The options of ``puct``, declared (a game's own PUCT starts from these).
PUCT_OPTIONS = {**_COMMON, "evaluator": Option("uniform", choices=("uniform", "heuristic", "net")),
                "net": Option("", max_len=4096, help="network file (empty: the game's own)"),
                "playouts": Option(1, 1, 1000, help="random playouts per leaf"), "noise": Option(0.25, 0, 1),
                "dirichlet_alpha": Option(0.03, 1e-6, 1000), "fpu": Option(0.0, 0, 100),
                "preset": Option("", choices=("", *PRESETS)),
                "backend": Option("auto", choices=BACKENDS, help="how a network runs")}

register_engine("*", "mcts", make_uct, help="Monte Carlo tree search: UCT with random playouts",
                options={**_COMMON, "playouts": Option(1, 1, 1000, help="random playouts per leaf")})
register_engine("*", "puct", make_puct,
                help="Monte Carlo tree search: PUCT with priors (evaluator=uniform|heuristic|net)",
                options=PUCT_OPTIONS)
