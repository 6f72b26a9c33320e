"""The shogi engine: numba PVS alpha-beta (``search.py``) behind the common iterative-deepening driver."""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Sequence

import numpy as np

from ...core.errors import InvalidOptionError
from ...core.info import InfoCallback, SearchInfo, SearchResult
from ...core.limits import Limits
from ...core.options import Option, memory_option
from ...core.registry import register_engine
from ...core.score import WIN, WIN_THRESHOLD, Score
from ...search.driver import DriverOptions, Iteration, StopWatch, iterative_deepening, next_search_id
from ...search.timeman import allocate
from ...search.tt import clear_table, hashfull, new_table
from . import search as S
from .board import SLIDE_MASK, STEP_MASK
from .evaluation import hand_values, load_weights, piece_values, with_hand_bonus
from .kernels import MAX_MOVES, SCRATCH
from .mate import MateResult, MateTable, find_mate
from .rules import Shogi, ShogiState

_HISTORY_BEFORE_ROOT = 32
#: Half-width of the aspiration window around the previous iteration's value (a pawn is 90).
ASPIRATION = 60
#: Selective deepening: every root move is searched to at least the target depth minus this.
SELECTIVE_GAP = 2
#: The root mate search may use at most this share of the move's hard time limit.
MATE_TIME_SHARE = 0.1
#: After the root mate search found a mate of n plies, the alpha-beta search goes to n + this many plies
#: at most, looking for a shorter mate with quiet moves.
MATE_EXTRA_DEPTH = 4


class _Searcher:
    """One search of one position: the arrays the kernels work on."""

    def __init__(self, engine: ShogiEngine, state: ShogiState, node_limit: int) -> None:
        self.engine = engine
        self.g = state.g
        self.board = state.board.copy()
        self.hands = state.hands.copy()
        self.kings = state.kings.copy()
        self.us = np.int64(state.color)
        self.key = np.uint64(state.key)
        self.stats = np.zeros(S.STATS, dtype=np.int64)
        self.stats[S.NODE_LIMIT] = node_limit
        before = state._keys[-1 - _HISTORY_BEFORE_ROOT:-1]
        # the keys of the positions before the root and on the search path, then (from the middle on)
        # whether the side to move was in check in each of them (for perpetual check)
        self.keys = np.zeros(2 * (len(before) + S.MAX_PLY + 2), dtype=np.uint64)
        self.keys[: len(before)] = np.array(before, dtype=np.uint64) if before else self.keys[:0]
        self.keys[len(before)] = self.key
        half = len(self.keys) // 2
        self.keys[half: half + len(before) + 1] = [int(c) for c in state._checks[-1 - len(before):]]
        self.stats[S.HIST] = len(before)
        size = S.MAX_PLY + 1
        self.pv = np.zeros((size, size), dtype=np.int64)
        self.pvlen = np.zeros(size, dtype=np.int64)
        self.buf = np.zeros((size, MAX_MOVES), dtype=np.int32)
        self.scores = np.zeros((size, MAX_MOVES), dtype=np.int64)
        self.scratch = np.zeros((size, SCRATCH), dtype=np.int64)
        self.ss = np.zeros((size + 4, S.SS_FIELDS), dtype=np.int64)
        self.ss[:, S.SS_EXCL] = -1
        self.ss[:, S.SS_PT] = -1
        self.ss[:, S.SS_EVAL] = S.NO_EVAL
        engine.heur[S.H_KILLERS:S.H_CORR] = -1  # (the correction history carries over)
        self.last_value: int | None = None
        # selective deepening: each root move's (depth, value, line)
        self.root_moves = state.legal_moves()
        # the root moves in the order of the move generator (the PVS root searches them from that order);
        # with ``unpromoted=false``, without the pawn, bishop and rook moves that could promote and do not
        g = self.g
        n = S._search_moves(self.board, self.hands, self.kings, self.us, g.geo, g.sq2p, g.p2sq, g.rel, g.pfile,
                            g.dirs, STEP_MASK, SLIDE_MASK, g.tab, self.buf[0], self.scratch[0],
                            engine.opts[S.PROMOTE_ONLY])
        if engine.opts[S.PROMOTE_ONLY]:
            kept = set(int(m) for m in self.buf[0, :n])
            self.root_moves = [m for m in self.root_moves if m in kept]
        self.gen = self.buf[0, :n].copy()
        self.sel: dict[int, tuple[int, int, list[int]]] = {m: (0, 0, [m]) for m in self.root_moves}

    @property
    def nodes(self) -> int:
        return int(self.stats[S.NODES])

    @nodes.setter
    def nodes(self, value: int) -> None:
        self.stats[S.NODES] = value

    def hashfull(self) -> int:
        return hashfull(self.engine.tt, self.engine.age)

    def iterate(self, depth: int, flag: np.ndarray, excluded: Sequence[int]) -> Iteration | None:
        e = self.engine
        if e.root == "selective":
            return self._selective(depth, flag, excluded)
        self.stats[S.SELDEPTH] = 0
        ex = np.array(list(excluded), dtype=np.int64)
        full = (-WIN - 1, WIN + 1)
        window = full
        prev = self.last_value
        if e.aspiration and not excluded and depth >= 4 and prev is not None and abs(prev) < WIN_THRESHOLD:
            window = (prev - ASPIRATION, prev + ASPIRATION)
        v = self._root(depth, flag, ex, window)
        high: list[int] = []
        if v is not None and window != full and not window[0] < v < window[1]:
            if v >= window[1] and self.pvlen[0] > 0:
                high = [int(self.pv[0, 0])]  # a move that beat the window: better than the last best
            v = self._root(depth, flag, ex, full)  # outside the window: search again with a full one
        if v is None:
            # cut short: the best move searched to the end so far, if any, is worth playing
            if self.pvlen[0] > 0 and self.stats[S.PARTIAL] != -WIN - 1:
                pv = [int(m) for m in self.pv[0, : self.pvlen[0]]]
                return Iteration(int(self.stats[S.PARTIAL]), pv, int(self.stats[S.SELDEPTH]), complete=False,
                                 usable=True)
            if high:
                return Iteration(window[1], high, int(self.stats[S.SELDEPTH]), complete=False, usable=True)
            return None
        if not excluded:
            self.last_value = v
        pv = [int(m) for m in self.pv[0, : self.pvlen[0]]]
        return Iteration(int(v), pv, int(self.stats[S.SELDEPTH]))

    def _selective(self, depth: int, flag: np.ndarray, excluded: Sequence[int]) -> Iteration | None:
        """Selective deepening (the original write-up's root strategy), to ``depth`` plies at most.

        Every root move is searched to depth 1; then the best move (by its last value) is deepened one
        ply at a time, each move keeping its own depth, value and line, until the best move has
        reached ``depth`` (it is settled) and every move has reached ``depth - SELECTIVE_GAP``.
        The transposition table carries the shallow results into the deeper searches' move order.
        """
        e = self.engine
        moves = [m for m in self.root_moves if m not in excluded]
        if not moves:
            return None
        lowest = max(1, depth - SELECTIVE_GAP)
        while True:
            fresh = [m for m in moves if self.sel[m][0] == 0]
            if fresh:
                target = fresh[0]
            else:
                best = max(moves, key=lambda m: (self.sel[m][1], self.sel[m][0]))
                if self.sel[best][0] < depth:
                    target = best
                else:
                    lagging = [m for m in moves if self.sel[m][0] < lowest]
                    if not lagging:
                        break
                    target = max(lagging, key=lambda m: (self.sel[m][1], -self.sel[m][0]))
            d, prev = self.sel[target][0] + 1, self.sel[target][1]
            window = (-WIN - 1, WIN + 1)
            if e.aspiration and d >= 3 and abs(prev) < WIN_THRESHOLD:
                window = (prev - ASPIRATION, prev + ASPIRATION)
            v = self._search_move(target, d, window, flag)
            if v is not None and not window[0] < v < window[1] and window[0] > -WIN - 1:
                v = self._search_move(target, d, (-WIN - 1, WIN + 1), flag)  # outside: again, full window
            if v is None:
                return None
            self.sel[target] = (d, v, [int(x) for x in self.pv[0, : self.pvlen[0]]])
        best = max(moves, key=lambda m: (self.sel[m][1], self.sel[m][0]))
        d, v, pv = self.sel[best]
        return Iteration(int(v), pv, int(self.stats[S.SELDEPTH]))

    def _search_move(self, move: int, depth: int, window: tuple[int, int], flag: np.ndarray) -> int | None:
        e, g = self.engine, self.g
        self.stats[S.SELDEPTH] = max(self.stats[S.SELDEPTH], 0)
        v = S._search_move(self.board, self.hands, self.kings, self.us, np.int64(move), np.int64(depth), self.key,
                           np.int64(window[0]), np.int64(window[1]), g.geo, g.sq2p, g.p2sq, g.rel, g.pfile,
                           g.dirs, STEP_MASK, SLIDE_MASK, g.tab, g.zob_board, g.zob_hand, e.zs, e.ew,
                           e.ec, e.tt, np.int64(e.age), flag, self.stats,
                           self.pv, self.pvlen, self.buf, self.scratch, self.keys, self.scores, e.prm, e.heur,
                           e.cont, self.ss, e.opts)
        return None if self.stats[S.ABORTED] else int(v)

    def _root(self, depth: int, flag: np.ndarray, ex: np.ndarray, window: tuple[int, int]) -> int | None:
        e, g = self.engine, self.g
        moves = self.gen if len(ex) == 0 else self.gen[~np.isin(self.gen, ex)]
        if len(moves) == 0:
            self.pvlen[0] = 0
            self.stats[S.PARTIAL] = -WIN - 1
            return -WIN - 1
        self.buf[0, : len(moves)] = moves  # the root part of _negamax searches these, in this order
        self.stats[S.ROOT_MOVES] = len(moves)
        v = S._negamax(self.board, self.hands, self.kings, self.us, np.int64(depth), np.int64(0),
                       np.int64(window[0]), np.int64(window[1]), self.key, np.int64(0), g.geo, g.sq2p, g.p2sq,
                       g.rel, g.pfile, g.dirs, STEP_MASK, SLIDE_MASK, g.tab, g.zob_board, g.zob_hand, e.zs, e.ew,
                       e.ec, e.tt, np.int64(e.age), flag, self.stats, self.pv, self.pvlen, self.buf, self.scratch,
                       self.keys, self.scores, e.prm, e.heur, e.cont, self.ss, e.opts)
        self.stats[S.PARTIAL] = v
        return None if self.stats[S.ABORTED] else int(v)


class ShogiEngine:
    """Alpha-beta for shogi and minishogi.

    PVS with a transposition table, iterative deepening (the common driver),
    quiescence on captures, null-move pruning, late-move reductions, check
    extension, killer and history ordering. Evaluation: material with hand
    pieces worth 30% more (option ``hand_bonus``), piece-square tables (weights in ``evaluation.py``).

    Before the alpha-beta search, a df-pn mate search (``mate.py``) of at
    most ``mate`` nodes (0: none) looks for a mate by checks at the root; a
    mate found is reported as a mate score with its line, unless the
    alpha-beta search (then limited to fewer plies) finds a shorter one.

    Options: ``hash`` (MB), ``mate`` (root mate-search nodes), ``positional``
    (king safety and mobility in the evaluation; off: material and
    piece-square tables only), ``root`` (``pvs``: every root move to the
    iteration's depth; ``selective``: the original write-up's selective
    deepening, see ``_Searcher._selective``), and
    ``quiesce``, ``nullmove``, ``lmr``, ``extensions``, ``aspiration`` (on by
    default; all off gives plain fixed-depth alpha-beta). The defaults since the
    thirteenth session (``docs/shogi.md``): ``unpromoted=false`` (skip the pawn,
    bishop and rook moves that could promote and do not; ``true`` searches them),
    ``mate=5000`` and ``corr_weight=100`` (below). Off by default, each
    measured in ``docs/shogi.md``: ``qpromote`` (the
    quiescence search also plays the pawn promotions that capture nothing),
    ``quiet_promotions`` (the promotions other than a pawn's ordered, pruned
    and reduced as quiet moves), ``escape`` (a quiet move of a piece en prise,
    by SEE, is spared late-move, futility and SEE pruning and reduced
    ``spare_r`` plies less) and ``threat`` (the same for a quiet move of the
    piece that the refutation of the null move captures; eleventh session),
    ``escape_order`` (a quiet move of a piece en prise, other than a pawn or
    the king, is ordered after the killers and before the other quiet moves;
    eighteenth session), ``see_promotions`` (a promotion that loses
    material by SEE is ordered with the bad captures, after the quiet moves,
    rather than before the killers; eighteenth session),
    ``qchecks`` (the first quiescence ply also plays the moves and drops that
    capture nothing and give check, SEE non-negative) and ``qrecapture``
    (N > 0: from the (N+1)th quiescence ply on, only recaptures on the square
    of the last move; twelfth session).
    Two search parameters of the twelfth session: ``probcut_margin`` (0, off: ProbCut, a capture that beats
    beta plus this margin by quiescence and by a search 4 plies shallower cuts the node, from depth
    ``probcut_depth``) and ``corr_weight`` (100 since the thirteenth session, 0: off; this percent of a
    correction history, the running mean of search result less static evaluation per side and pawns-and-hands
    key, is added to the evaluation the pruning uses).
    """

    name = "alphabeta"

    def __init__(self, game: Shogi, hash: float = 16, quiesce: bool = True, nullmove: bool = True,
                 lmr: bool = True, extensions: bool = True, aspiration: bool = True, mate: int = 5000,
                 positional: bool = True, root: str = "pvs", prune: bool = True, mate1: bool = True,
                 singular: bool = True, params: str = "", book: bool | str = False, weights: str = "",
                 hand_bonus: int | None = None, unpromoted: bool = False, qpromote: bool = False,
                 quiet_promotions: bool = False, escape: bool = False, threat: bool = False, qchecks: bool = False,
                 qrecapture: int = 0, escape_order: bool = False, see_promotions: bool = False,
                 **tuning: float) -> None:
        self.game = game
        from .book import BOOK_FILE, Book  # here, so that ``python -m gamesuite.games.shogi.book`` runs it fresh

        self.book: Book | None = None
        if book is True or (isinstance(book, str) and book.lower() in ("true", "default")):
            self.book = Book.load(BOOK_FILE) if game.geometry.variant == "standard" else None
        elif book not in (False, "", None) and str(book).lower() not in ("false", "none"):
            self.book = Book.load(str(book))
        self.rng = random.Random()
        g = game.geometry
        if int(mate) < 0:
            raise InvalidOptionError(f"option mate must be a node count >= 0, got {mate!r}")
        self.mate_nodes = int(mate)
        if root not in ("pvs", "selective"):
            raise InvalidOptionError(f"option root must be pvs or selective, got {root!r}")
        self.root = root
        self.mate_table = MateTable(max(1.0, hash / 4))
        self.last_mate: MateResult | None = None
        self.tt = new_table(hash)
        self.age = 0
        self.ew = load_weights(g, bool(positional), str(weights) if weights else None)
        if hand_bonus not in (None, ""):
            try:
                self.ew = with_hand_bonus(self.ew, int(hand_bonus))
            except ValueError:
                raise InvalidOptionError(
                    f"option hand_bonus must be a percentage in (-100, 200], got {hand_bonus!r}") from None
        self.zs = np.array([g.zob_side], dtype=np.uint64)
        self.aspiration = bool(aspiration)
        self.opts = np.zeros(S.OPTS, dtype=np.int64)
        for i, on in ((S.QUIESCE, quiesce), (S.NULLMOVE, nullmove), (S.LMR, lmr), (S.EXTEND, extensions),
                      (S.PRUNE, prune), (S.MATE1, mate1), (S.SINGULAR, singular), (S.PROMOTE_ONLY, not unpromoted),
                      (S.Q_PAWN_PROMOTE, qpromote), (S.QUIET_PROMOTE, quiet_promotions),
                      (S.ESCAPE, escape), (S.THREAT, threat), (S.Q_CHECKS, qchecks), (S.ESCAPE_ORDER, escape_order),
                      (S.SEE_PROMOTIONS, see_promotions)):
            self.opts[i] = bool(on)
        if not 0 <= int(qrecapture) <= S.MAX_PLY:
            raise InvalidOptionError(f"option qrecapture must be a ply count in 0..{S.MAX_PLY}, got {qrecapture!r}")
        self.opts[S.Q_RECAPTURE] = int(qrecapture)
        override = parse_params(params)
        for k, v in tuning.items():  # the search parameters one by one (``rfp_margin=120``), for SPSA
            if k.upper() not in SEARCH_PARAMS and k.upper() not in ("LMR_BASE", "LMR_SCALE"):
                raise InvalidOptionError(f"engine alphabeta has no option {k!r}")
            override[k.upper()] = float(v)
        self.prm = search_params(piece_values(self.ew), hand_values(self.ew), **override)
        self.heur = np.zeros(S.HEUR_SIZE, dtype=np.int32)
        self.cont = np.zeros(2 * S.PTS * S.PTS, dtype=np.int16)
        self.ec = np.zeros((S.EVAL_CACHE, 2), dtype=np.int64)  # the evaluation cache (``S._static_eval``)

    def new_game(self) -> None:
        clear_table(self.tt)
        self.mate_table.clear()
        self.heur[:] = 0
        self.cont[:] = 0
        self.age = 0

    def search(
        self,
        state: ShogiState,
        limits: Limits,
        stop: np.ndarray | None = None,
        on_info: InfoCallback | None = None,
    ) -> SearchResult:
        self.age = (self.age + 1) % 256
        self.heur[: S.H_COUNTER] //= 2
        t0 = time.perf_counter()
        if self.book is not None and limits.multipv == 1 and limits.searchmoves is None and not limits.infinite:
            move = self.book.choose(state, self.rng)
            if move is not None:
                return self._book_result(state, move, t0, on_info)
        hard = allocate(limits, state.color).hard_ms
        budget = self.mate_nodes if limits.nodes is None else min(self.mate_nodes, limits.nodes // 4)
        self.last_mate = None
        with StopWatch(stop, None if hard is None else MATE_TIME_SHARE * hard) as watch:
            mate = self.root_mate(state, watch.flag, budget)
        limits = _less_time(limits, state.color, (time.perf_counter() - t0) * 1000)
        if limits.nodes is not None and self.last_mate is not None:  # the mate search's nodes count too
            limits = dataclasses.replace(limits, nodes=max(1, limits.nodes - self.last_mate.nodes))
        max_depth = S.MAX_PLY // 2 - 2
        if mate is not None:
            # only a shorter mate (by any moves) could do better; the pruned search may need a few plies more
            # than the mate's length to see one
            if len(mate.pv) <= 1 or (limits.multipv <= 1 and len(mate.pv) <= 3):
                return self._mate_result(state, mate, 0, t0, on_info)
            max_depth = min(max_depth, len(mate.pv) + MATE_EXTRA_DEPTH)
        searcher = _Searcher(self, state, limits.nodes or 0)
        r = iterative_deepening(searcher, state, limits, stop, on_info,
                                DriverOptions(max_depth=max_depth, fill_per_move=True, stability=True))
        if mate is None or (r.score.kind == "mate" and 0 < r.score.for_player(state.color).value < len(mate.pv)):
            return r
        return self._mate_result(state, mate, searcher.nodes, t0, on_info, r)

    def root_mate(self, state: ShogiState, stop: np.ndarray | None = None,
                  nodes: int | None = None) -> MateResult | None:
        """A mate by checks for the side to move found within ``nodes`` (default: the ``mate`` option), else None."""
        nodes = self.mate_nodes if nodes is None else nodes
        if nodes <= 0 or state.is_terminal():
            return None
        r = find_mate(state, nodes=nodes, stop=stop, table=self.mate_table)
        self.last_mate = r
        return r if r.status == "mate" and r.pv else None

    def _book_result(self, state: ShogiState, move: int, t0: float,
                     on_info: InfoCallback | None) -> SearchResult:
        score = Score.eval(0, state.color)
        ms = int((time.perf_counter() - t0) * 1000)
        info = SearchInfo(next_search_id(), 0, 0, score, (move,), 0, 0, ms, 1, 0, "book")
        if on_info is not None:
            on_info(info)
        return SearchResult(move, score, (move,), 0, 0, ms, None, (info,))

    def _mate_result(self, state: ShogiState, mate: MateResult, nodes: int, t0: float,
                     on_info: InfoCallback | None, searched: SearchResult | None = None) -> SearchResult:
        pov = state.color
        ms = int((time.perf_counter() - t0) * 1000)
        total = nodes + mate.nodes
        score = Score.mate(len(mate.pv), pov)
        info = SearchInfo(next_search_id(), len(mate.pv), len(mate.pv), score, mate.pv, total,
                          int(total * 1000 / ms) if ms > 0 else 0, ms, 1, 0, "mate found")
        if on_info is not None:
            on_info(info)
        lines = (info,) + (searched.lines[1:] if searched is not None else ())
        return SearchResult(mate.pv[0], score, mate.pv, len(mate.pv), total, ms,
                            mate.pv[1] if len(mate.pv) > 1 else None, lines)


#: The search's tunable scalars (see ``search.P_*``); ``search_params`` turns them into the ``prm`` array.
SEARCH_PARAMS = {
    "RFP_DEPTH": 7, "RFP_MARGIN": 100, "RFP_IMPROVING": 100,
    "RAZOR_DEPTH": 2, "RAZOR_MARGIN": 250,
    "NULL_DEPTH": 2, "NULL_BASE": 2, "NULL_DIV": 3, "NULL_EVAL": 200,  # NULL_BASE 3 -> 2: eleventh session
    "LMP_DEPTH": 8, "LMP_BASE": 5,
    "FUT_DEPTH": 8, "FUT_BASE": 100, "FUT_MUL": 80,
    "SEE_QUIET": 25, "SEE_CAPTURE": 90,
    "HIST_DIV": 6000, "HIST_PRUNE": 3000,
    "SE_DEPTH": 8, "SE_MARGIN": 16,
    "Q_DELTA": 100,
    "BONUS_MUL": 32, "BONUS_MAX": 1200,
    "MATE1_DEPTH": 0,  # 0: also at the first ply of the quiescence search
    "IIR_DEPTH": 0,  # internal iterative reduction from this depth (0: none)
    "SPARE_R": 1,  # plies less reduction for a move spared by ``escape`` or ``threat``
    "PROBCUT_MARGIN": 0,  # ProbCut at beta + this margin (0: off; twelfth session)
    "PROBCUT_DEPTH": 5,  # ProbCut from this depth
    "CORR_WEIGHT": 100,  # percent of the correction history added to the static evaluation (0: off)
    "Q_MAX": 0,  # the quiescence search tries at most this many moves at a node not in check (0: all)
    "TTCAP_R": 0,  # plies more reduction for a quiet move when the TT move is a capture (0: off)
    "SE_NEG": 0,  # plies less for a TT move that is not singular, where its value beats beta or at a cut node
}
#: Late-move reductions: ``LMR_BASE + log(depth) * log(move number) * LMR_SCALE`` plies (rounded down).
LMR_BASE, LMR_SCALE = 0.4, 0.45


def parse_params(text: str) -> dict[str, float]:
    """``"RFP_MARGIN:120+LMP_BASE:4"`` -> ``{"RFP_MARGIN": 120.0, "LMP_BASE": 4.0}`` (the ``params`` option)."""
    out: dict[str, float] = {}
    for part in str(text).split("+"):
        if not part.strip():
            continue
        name, sep, value = part.partition(":")
        try:
            out[name.strip().upper()] = float(value)
        except ValueError:
            sep = ""
        if not sep:
            raise InvalidOptionError(f"option params wants NAME:VALUE+NAME:VALUE..., got {text!r}")
    return out


def search_params(values: np.ndarray, handv: np.ndarray, **override: float) -> np.ndarray:
    """The ``prm`` array of the search kernels: ``SEARCH_PARAMS`` (with ``override``), the SEE values (the
    material swing of losing a piece: its board value plus its value in the captor's hand) and the
    reduction table."""
    import math

    prm = np.zeros(S.PRM_SIZE, dtype=np.int64)
    params: dict[str, float] = dict(SEARCH_PARAMS)
    for k, v in override.items():
        if k in params:
            params[k] = v
        elif k not in ("LMR_BASE", "LMR_SCALE"):
            known = ", ".join(list(SEARCH_PARAMS) + ["LMR_BASE", "LMR_SCALE"])
            raise InvalidOptionError(f"unknown search parameter {k!r}; known: {known}")
    for k, v in params.items():
        prm[getattr(S, "P_" + k)] = int(v)
    for t in range(1, 15):
        base = t - 8 if t > 8 else t
        prm[S.P_SEEV + t] = int(values[t]) + (int(handv[base]) if base != 8 else 0)
    prm[S.P_SEEV + 8] = 1 << 20  # the king
    lb = float(override.get("LMR_BASE", LMR_BASE))
    ls = float(override.get("LMR_SCALE", LMR_SCALE))
    for d in range(1, S.LMR_N):
        for m in range(1, S.LMR_N):
            prm[S.P_LMR + d * S.LMR_N + m] = int(lb + math.log(d) * math.log(m) * ls)
    return prm


def _less_time(limits: Limits, pov: int, spent_ms: float) -> Limits:
    """``limits`` with ``spent_ms`` taken off the move time, the clock of ``pov``, or (when that clock is
    empty) the byoyomi."""
    spent = int(spent_ms)
    if spent <= 0:
        return limits
    if limits.movetime is not None:
        return dataclasses.replace(limits, movetime=max(1, limits.movetime - spent))
    if limits.time_left is not None and 0 <= pov < len(limits.time_left) and limits.time_left[pov] > 0:
        left = list(limits.time_left)
        left[pov] = max(1, left[pov] - spent)
        return dataclasses.replace(limits, time_left=tuple(left))
    if limits.byoyomi:
        return dataclasses.replace(limits, byoyomi=max(1, limits.byoyomi - spent))
    return limits


def warm_up(engine: ShogiEngine | None = None) -> None:
    """Compile the kernels (from the cache when it is warm): those of ``engine``'s root search, or of both."""
    game = Shogi(variant="mini")
    for root in ("pvs", "selective") if engine is None else (engine.root,):
        ShogiEngine(game, hash=0.1, root=root).search(game.new_state(), Limits(depth=2))


register_engine("shogi", "alphabeta", ShogiEngine,
                help="numba PVS alpha-beta: TT, quiescence, null move, LMR, killers/history, root df-pn mate "
                     "search; material, PST, king safety, mobility",
                default=True, options={"hash": memory_option(16),
                                       "mate": Option(5000, 0, 10**9, help="root mate search nodes"),
                                       "positional": Option(True), "root": Option("pvs", choices=("pvs", "selective")),
                                       "quiesce": Option(True), "nullmove": Option(True), "lmr": Option(True),
                                       "extensions": Option(True), "aspiration": Option(True),
                                       "prune": Option(True, help="futility, razoring, late-move and SEE pruning"),
                                       "mate1": Option(True, help="mate-in-one test at the nodes"),
                                       "singular": Option(True, help="singular extensions"),
                                       "unpromoted": Option(False, help="search the pawn, bishop and rook moves "
                                                            "that could promote and do not (false: skip them)"),
                                       "qpromote": Option(False, help="the quiescence search also plays the pawn "
                                                          "promotions that capture nothing"),
                                       "quiet_promotions": Option(False, help="order, prune and reduce the "
                                                                  "promotions other than a pawn's as quiet moves"),
                                       "escape": Option(False, help="a quiet move of a piece en prise is not "
                                                        "pruned and is reduced less"),
                                       "threat": Option(False, help="a quiet move of the piece the null move's "
                                                        "refutation captures is not pruned and is reduced less"),
                                       "see_promotions": Option(False, help="a promotion that loses material by "
                                                                "SEE is ordered after the quiet moves"),
                                       "escape_order": Option(False, help="the quiet moves of a piece en prise "
                                                              "come first among the quiet moves"),
                                       "qchecks": Option(False, help="the first quiescence ply also plays the "
                                                         "moves and drops that give check"),
                                       "qrecapture": Option(0, 0, 64, help="after this many quiescence plies (0: "
                                                            "never), only recaptures on the last move's square"),
                                       "params": Option("", kind=str, max_len=2000,
                                                        help="search parameters NAME:VALUE+NAME:VALUE..."),
                                       "book": Option("false", kind=str, max_len=1000,
                                                      help="opening book: false, true (the package's) or a file"),
                                       "weights": Option("", kind=str, max_len=1000,
                                                         help="evaluation weights (.npz; default: the package's)"),
                                       "hand_bonus": Option(30, 0, 200, help="a piece in hand's worth over its board "
                                                            "value, percent (given: replaces the weights')"),
                                       **{k.lower(): Option(v, -10**6, 10**6, kind=float)
                                          for k, v in SEARCH_PARAMS.items()},
                                       "lmr_base": Option(LMR_BASE, 0.0, 10.0),
                                       "lmr_scale": Option(LMR_SCALE, 0.0, 10.0)})
