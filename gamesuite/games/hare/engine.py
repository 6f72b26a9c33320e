"""The Hare and Hedgehog engine: max^n, paranoid or alpha-beta over numba kernels, hare cards as chance nodes.

The common driver (``search.driver``) is built for two-player integer scores; this
module has its own small deepening loop that reports a ``SearchInfo`` per completed
depth (a ``Score.vector`` for max^n, a scalar from the mover's view otherwise),
honours ``Limits`` and the stop flag.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ...core.errors import InvalidOptionError, quote
from ...core.info import InfoCallback, SearchInfo, SearchResult
from ...core.limits import Limits
from ...core.options import Option
from ...core.registry import register_engine
from ...core.score import Score
from ...search.driver import StopWatch, next_search_id
from ...search.timeman import allocate
from . import kernels as K
from .config import DEFAULT_WIDTHS, RULES, Weights, parse_widths
from .rules import HareGame, HareState

MAX_DEPTH = 40
_RULE_CODES = {"absolute": K.ABSOLUTE, "relative": K.RELATIVE, "sum": K.SUM}


@dataclass
class RootResult:
    """One completed search of the root to a depth."""

    move: int
    values: list[float]  # the backed-up vector (max^n) or [scalar] (paranoid / alpha-beta)
    pv: list[int]
    nodes: int
    seldepth: int
    aborted: bool


class Workspace:
    """The kernels' scratch arrays for searches up to ``max_depth`` plies."""

    def __init__(self, max_depth: int = MAX_DEPTH) -> None:
        levels = 2 * max_depth + 4
        self.stack = np.zeros((levels, K.SIZE), dtype=np.int64)
        self.moves = np.zeros((levels, K.MAXMOVES), dtype=np.int64)
        self.scores = np.zeros((levels, K.MAXMOVES), dtype=np.float64)
        self.order = np.zeros((levels, K.MAXMOVES), dtype=np.int64)
        self.vals = np.zeros((levels, K.MAXP), dtype=np.float64)
        self.cvals = np.zeros((levels, K.MAXMOVES, K.MAXP), dtype=np.float64)
        self.cphase = np.zeros((levels, K.MAXMOVES), dtype=np.int64)
        self.cst = np.zeros((levels, 16, K.SIZE), dtype=np.int64)
        self.gvals = np.zeros((levels, 16, K.MAXP), dtype=np.float64)
        self.pv = np.zeros((levels, levels), dtype=np.int64)
        self.pvlen = np.zeros(levels, dtype=np.int64)
        self.stats = np.zeros(4, dtype=np.int64)
        self.max_depth = max_depth


def search_root(state: HareState, depth: int, *, algorithm: str = "maxn", rule: str = "absolute",
                widths: tuple[int, ...] = DEFAULT_WIDTHS, ordering: bool = True, worst: bool = False,
                prune: bool = True, weights: Weights | None = None, stop: np.ndarray | None = None,
                node_limit: int = 0, ws: Workspace | None = None) -> RootResult:
    """Search ``state`` to ``depth`` plies with one algorithm ("maxn", "paranoid" or "alphabeta").

    "alphabeta" needs exactly two players still racing and scores own minus the other's value.
    """
    if algorithm not in ("maxn", "paranoid", "alphabeta"):
        raise InvalidOptionError(f"unknown algorithm {quote(algorithm)}; known: maxn, paranoid, alphabeta")
    if rule not in _RULE_CODES:
        raise InvalidOptionError(f"unknown rule {quote(rule)}; known: {', '.join(RULES)}")
    if not 1 <= depth <= MAX_DEPTH:
        raise InvalidOptionError(f"depth must be in 1..{MAX_DEPTH}, got {depth}")
    if not state.legal_moves():
        raise InvalidOptionError(f"no move to search in position {quote(state.to_text())}")
    g = state.game
    tables = tables_for(g)
    ws = ws if ws is not None and ws.max_depth >= depth else Workspace(max(depth, MAX_DEPTH // 2))
    w = (weights or Weights()).array()
    wid = np.array(widths, dtype=np.int64)
    stop = stop if stop is not None else np.zeros(1, dtype=np.uint8)
    ws.stack[0, :] = K.pack(state)
    ws.stats[:] = 0
    ws.stats[K.NODE_LIMIT] = node_limit
    me = state.current_player
    if algorithm == "maxn":
        K._maxn(ws.stack, np.int64(0), np.int64(depth), np.int64(0), tables.cfg, tables.kinds, tables.prevh,
                tables.lettuce_ahead, w, wid, np.int64(_RULE_CODES[rule]), ordering, worst, ws.moves, ws.scores,
                ws.order, ws.cvals, ws.cphase, ws.cst, ws.gvals, ws.vals, ws.stats, stop, ws.pv, ws.pvlen)
        values = [float(x) for x in ws.vals[0, :g.n]]
    else:
        code, other = np.int64(_RULE_CODES[rule]), np.int64(-1)
        if algorithm == "alphabeta":
            racing = [p for p in range(g.n) if not state.place[p]]
            if len(racing) != 2:
                raise InvalidOptionError(f"alpha-beta needs two players racing, not {len(racing)}")
            code, other = np.int64(K.VERSUS), np.int64(racing[0] if racing[1] == me else racing[1])
        v = K._paranoid(ws.stack, np.int64(0), np.int64(depth), np.int64(0), -1e300, 1e300, np.int64(me), other,
                        tables.cfg, tables.kinds, tables.prevh, tables.lettuce_ahead, w, wid, code, ordering, worst,
                        prune, ws.moves, ws.scores, ws.order, ws.cvals, ws.cphase, ws.cst, ws.gvals, ws.stats, stop,
                        ws.pv, ws.pvlen)
        values = [float(v)]
    pv = [int(m) for m in ws.pv[0, : ws.pvlen[0]]]
    aborted = bool(ws.stats[K.ABORTED])
    return RootResult(pv[0] if pv else -1, values, pv, int(ws.stats[K.NODES]), int(ws.stats[K.SELDEPTH]), aborted)


_TABLES: dict[str, K.Tables] = {}


def tables_for(game: HareGame) -> K.Tables:
    """The kernels' tables of ``game`` (built once per game spec)."""
    t = _TABLES.get(game.spec)
    if t is None:
        t = _TABLES[game.spec] = K.Tables(game)
    return t


class HareEngine:
    """Max^n (or paranoid) with expectimax over the counted hare deck; alpha-beta when two players remain.

    Options: ``algorithm`` (maxn | paranoid), ``rule`` (absolute | relative | sum: how a
    max^n player turns the value vector into a choice), ``chance`` (expect | worst: expectimax
    over the counted deck, or the original's "assume the worst card"), ``widths`` (moves kept
    per ply, 0 = all, e.g. ``0/0/8/8/4``), ``ordering`` (order moves by evaluation),
    ``twoplayer`` (alphabeta | same: plain alpha-beta once two players remain), ``ks``, ``kc``,
    ``kp`` (evaluation weights), ``maxdepth``.
    """

    name = "maxn"

    def __init__(self, game: HareGame, algorithm: str = "maxn", rule: str = "absolute", chance: str = "expect",
                 widths: str = "0/0/8/8/4", ordering: bool = True, twoplayer: str = "alphabeta", ks: float = 1.0,
                 kc: float = 1.0, kp: float = 1.0, maxdepth: int = 30) -> None:
        if algorithm not in ("maxn", "paranoid"):
            raise InvalidOptionError(f"algorithm must be maxn or paranoid, got {quote(algorithm)}")
        if rule not in RULES:
            raise InvalidOptionError(f"rule must be one of {', '.join(RULES)}, got {quote(rule)}")
        if chance not in ("expect", "worst"):
            raise InvalidOptionError(f"chance must be expect or worst, got {quote(chance)}")
        if twoplayer not in ("alphabeta", "same"):
            raise InvalidOptionError(f"twoplayer must be alphabeta or same, got {quote(twoplayer)}")
        if not isinstance(maxdepth, int) or not 1 <= maxdepth <= MAX_DEPTH:
            raise InvalidOptionError(f"maxdepth must be in 1..{MAX_DEPTH}, got {quote(maxdepth)}")
        self.game = game
        self.algorithm, self.rule, self.worst = algorithm, rule, chance == "worst"
        self.widths = parse_widths(str(widths))
        self.ordering = bool(ordering)
        self.twoplayer = twoplayer
        self.weights = Weights().replace(ks=ks, kc=kc, kp=kp)
        self.max_depth = maxdepth
        self.ws = Workspace(maxdepth)

    def new_game(self) -> None:
        pass

    def _algorithm(self, state: HareState) -> str:
        racing = sum(1 for p in state.place if not p)
        if racing == 2 and self.twoplayer == "alphabeta":
            return "alphabeta"
        return self.algorithm

    def search(self, state: HareState, limits: Limits, stop: np.ndarray | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        sid = next_search_id()
        legal = state.legal_moves()
        if not legal:
            r = state.returns()
            return SearchResult(None, Score.vector(r))
        me = state.current_player
        algorithm = self._algorithm(state)
        budget = allocate(limits, me)
        max_depth = self.max_depth if limits.depth is None else max(1, min(self.max_depth, limits.depth))
        t0 = time.perf_counter()
        best: RootResult | None = None
        depth_done = 0
        total_nodes = 0
        with StopWatch(stop, budget.hard_ms) as watch:
            for depth in range(1, max_depth + 1):
                t_iter = time.perf_counter()
                left = 0 if limits.nodes is None else max(1, limits.nodes - total_nodes)
                r = search_root(state, depth, algorithm=algorithm, rule=self.rule, widths=self.widths,
                                ordering=self.ordering, worst=self.worst, weights=self.weights, stop=watch.flag,
                                node_limit=left, ws=self.ws)
                total_nodes += r.nodes
                if r.aborted or r.move < 0:
                    break
                best, depth_done = r, depth
                elapsed = time.perf_counter() - t0
                if on_info is not None:
                    on_info(SearchInfo(search_id=sid, depth=depth, seldepth=r.seldepth,
                                       score=self._score(r, me, algorithm), pv=tuple(r.pv), nodes=total_nodes,
                                       nps=int(total_nodes / elapsed) if elapsed > 0 else 0,
                                       time_ms=int(elapsed * 1000), text=algorithm))
                if len(legal) == 1 and not limits.infinite:
                    break
                if limits.nodes is not None and total_nodes >= limits.nodes:
                    break
                ms = (time.perf_counter() - t0) * 1000
                if not budget.should_start_next(ms, (time.perf_counter() - t_iter) * 1000) or watch.flag[0]:
                    break
        total_ms = int((time.perf_counter() - t0) * 1000)
        if best is None:
            return SearchResult(legal[0], Score.eval(0, me), (legal[0],), 0, total_nodes, total_ms)
        return SearchResult(best.move, self._score(best, me, algorithm), tuple(best.pv), depth_done, total_nodes,
                            total_ms, ponder=best.pv[1] if len(best.pv) > 1 else None)

    def _score(self, r: RootResult, me: int, algorithm: str) -> Score:
        if algorithm == "maxn":
            return Score.vector(r.values)
        return Score.eval(int(round(r.values[0])), me)


def warm_up(engine: HareEngine | None = None) -> None:
    """Compile the kernels (from the cache when it is warm): what ``engine`` needs (alpha-beta alone for
    two players), or what any engine needs."""
    two = engine is not None and engine.game.num_players == 2 and engine.twoplayer == "alphabeta"
    for spec in ("hare",) if two else ("hare(players=3)", "hare"):
        from ...core.registry import load_game

        g = load_game(spec)
        HareEngine(g).search(g.new_state(), Limits(depth=2))


register_engine("hare", "maxn", HareEngine, default=True,
                help="numba max^n / paranoid / alpha-beta with hare cards as chance nodes",
                options={"algorithm": Option("maxn", choices=("maxn", "paranoid")),
                         "rule": Option("absolute", choices=RULES),
                         "chance": Option("expect", choices=("expect", "worst")),
                         "widths": Option("0/0/8/8/4", max_len=100, help="moves searched per ply (0: all)"),
                         "ordering": Option(True), "twoplayer": Option("alphabeta", choices=("alphabeta", "same")),
                         "ks": Option(1.0, 0, 1000), "kc": Option(1.0, 0, 1000), "kp": Option(1.0, 0, 1000),
                         "maxdepth": Option(30, 1, MAX_DEPTH)})
