"""The Hare and Hedgehog engine: max^n, paranoid or alpha-beta over numba kernels, hare cards as chance nodes.

The common driver (``search.driver``) is built for two-player integer scores; this
module has its own small deepening loop that reports a ``SearchInfo`` per completed
depth (a ``Score.vector`` for max^n, a scalar from the mover's view otherwise),
honours ``Limits`` and the stop flag.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from ...core.errors import InvalidOptionError, quote
from ...core.info import InfoCallback, SearchInfo, SearchResult
from ...core.limits import Limits
from ...core.options import Option
from ...core.registry import register_engine
from ...core.score import Score
from ...search.driver import StopWatch, next_search_id
from ...search.timeman import Lateness, allocate
from . import kernels as K
from .config import (
    CLASSIC_WEIGHTS,
    DEFAULT_WIDTHS,
    EARLY,
    FINISHED,
    PLACE_STEP,
    RULES,
    THREE_WEIGHTS,
    WRITEUP_WEIGHTS,
    Weights,
    model_array,
    parse_widths,
)
from .rules import HareGame, HareState

MAX_DEPTH = 40
_RULE_CODES = {"absolute": K.ABSOLUTE, "relative": K.RELATIVE, "sum": K.SUM}


@dataclass
class RootResult:
    """One search of the root to a depth (``aborted``: cut short; then ``move`` is the best of the root moves
    searched to the end, ``-1`` when none was)."""

    move: int
    values: list[float]  # the backed-up vector (max^n) or [scalar] (paranoid / alpha-beta)
    pv: list[int]
    nodes: int
    seldepth: int
    aborted: bool
    searched: int = 0  # root moves searched to the end (max^n, or each root move apart)
    first_searched: bool = False  # whether the move asked to be searched first was
    #: every root move searched to the end, best first: (move, values as in ``values``, principal variation)
    lines: list[tuple[int, list[float], list[int]]] = field(default_factory=list)


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
        self.stats = np.zeros(K.STATS_SIZE, dtype=np.int64)
        self.max_depth = max_depth


_NO_HINT = np.zeros(1, dtype=np.int64)

#: ``chanceplies`` meaning "one round": as many plies as players, at most 3; with two players 1 (every card drawn
#: below the root taken as the worst for its drawer, the write-up's shortcut: the same tree as ``chance=worst``).
ROUND = -1

#: ``chance_plies`` meaning "branch on every hare card at any depth".
ALL_PLIES = 1 << 20


def search_root(state: HareState, depth: int, *, algorithm: str = "maxn", rule: str = "absolute",
                widths: tuple[int, ...] = DEFAULT_WIDTHS, ordering: bool = True, worst: bool = False,
                chance_plies: int = ALL_PLIES, prune: bool = True, weights: Weights | None = None,
                stop: np.ndarray | None = None, node_limit: int = 0, ws: Workspace | None = None,
                first: int | None = None, robust: bool = True, hint: list[int] | None = None,
                deadline_ns: int = 0, only: Sequence[int] | None = None, multipv: int = 1,
                model: Weights | None = None, model_cards: bool = False) -> RootResult:
    """Search ``state`` to ``depth`` plies with one algorithm ("maxn", "paranoid" or "alphabeta").

    "alphabeta" needs exactly two players still racing and scores own minus the other's value. Hare
    cards drawn ``chance_plies`` or more plies below the root (everywhere with ``worst``) are replaced by
    the one that looks worst for the drawer. Max^n searches the root moves one by one (``first``, a root
    move, before the others), so that a search cut short still says which of the moves it finished is
    best; with ``robust``, root moves that tie on a certain finish are told apart by a paranoid search
    (the move that finishes whatever the others do). Paranoid and alpha-beta search the moves of ``hint``
    (the last iteration's principal variation) first along it. ``deadline_ns`` (``time.monotonic_ns``;
    0: none) stops the search like ``stop`` where the kernels read the clock (``K.KERNEL_CLOCK``).
    ``only`` restricts the root to those moves (``searchmoves``); with it or with ``multipv`` > 1,
    paranoid and alpha-beta also search each root move apart with a full window, so that every root
    move's value is exact and ``lines`` ranks them (max^n always does). A root width below ``multipv``
    is raised to it. ``model``: the weights the other players are valued with (an opponent model; the
    mover's own are ``weights``; ``model_cards``: they judge their own hare cards by the worst outcome).
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
    w = (weights or Weights()).array() if model is None else model_array(weights or Weights(), model,
                                                                          state.current_player, model_cards)
    wid = np.array(widths, dtype=np.int64)
    stop = stop if stop is not None else np.zeros(1, dtype=np.uint8)
    cfull = np.int64(0 if worst else max(0, chance_plies))
    ws.stack[0, :] = K.pack(state)
    ws.stats[:] = 0
    ws.stats[K.NODE_LIMIT] = node_limit
    ws.stats[K.DEADLINE] = deadline_ns
    me = state.current_player
    if only is not None:
        legal = state.legal_moves()
        only = [m for m in legal if m in set(only)]
        if not only:
            raise InvalidOptionError(f"no legal move among the moves to search in position {quote(state.to_text())}")
        if len(only) == len(legal):
            only = None
    if algorithm == "maxn":
        return _maxn_root(state, depth, tables, w, wid, np.int64(_RULE_CODES[rule]), ordering, cfull, stop, ws,
                          first, robust, only, multipv)
    code, other = np.int64(_RULE_CODES[rule]), np.int64(-1)
    if algorithm == "alphabeta":
        racing = [p for p in range(g.n) if not state.place[p]]
        if len(racing) != 2:
            raise InvalidOptionError(f"alpha-beta needs two players racing, not {len(racing)}")
        code, other = np.int64(K.VERSUS), np.int64(racing[0] if racing[1] == me else racing[1])
    if only is not None or multipv > 1:
        return _split_root(state, depth, tables, w, wid, code, other, ordering, cfull, stop, ws, first, robust,
                           only, multipv, hint)
    hints = np.array(hint or [0], dtype=np.int64)
    v = K._paranoid(ws.stack, np.int64(0), np.int64(depth), np.int64(0), -1e300, 1e300, np.int64(me), other,
                    tables.cfg, tables.kinds, tables.prevh, tables.board(w), w, wid, code, ordering, cfull,
                    prune, ws.moves, ws.scores, ws.order, ws.cvals, ws.cphase, ws.cst, ws.gvals, ws.stats, stop,
                    ws.pv, ws.pvlen, hints, np.int64(len(hint or [])), np.int64(1))
    pv = [int(m) for m in ws.pv[0, : ws.pvlen[0]]]
    aborted = bool(ws.stats[K.ABORTED])
    if robust and not aborted and pv and v >= FINISHED:
        # a certain finish, but only as far as the worst-card shortcut sees: the root moves are told apart
        # by a paranoid search that counts every card (an opponent's card can still spoil a finish)
        root = ws.stack[0].copy()
        nm = int(K._gen_moves(root, tables.cfg, tables.kinds, tables.prevh, ws.moves[0]))
        cands = [pv[0]] + [int(m) for m in ws.moves[0, :nm] if int(m) != pv[0]]  # ties: the move found
        done = [(m, np.full(g.n, float(v)), [m]) for m in cands]
        pick = _robust_choice(state, depth, tables, w, wid, np.int64(K.ABSOLUTE), ordering, np.int64(ALL_PLIES),
                              stop, ws, done, 0, tied=list(range(len(cands))))
        ws.stats[K.ABORTED] = 0
        if done[pick][0] != pv[0]:
            pv = [done[pick][0]]
    return RootResult(pv[0] if pv else -1, [float(v)], pv, int(ws.stats[K.NODES]), int(ws.stats[K.SELDEPTH]),
                      aborted, lines=[(pv[0], [float(v)], pv)] if pv and not aborted else [])


def _root_order(ws: Workspace, t: K.Tables, w: np.ndarray, wid: np.ndarray, depth: int, me: int, rule: np.int64,
                other: np.int64, ordering: bool, first: int | None, only: Sequence[int] | None,
                multipv: int) -> list[int]:
    """The root moves to search (indices into ``ws.moves[0]``), in the kernels' order: best first by the
    evaluation (with ``ordering``), only those of ``only``, at most the root width (at least ``multipv``),
    ``first`` first; none when the node limit was reached while they were ordered (the search is aborted)."""
    nm = int(K._gen_moves(ws.stack[0], t.cfg, t.kinds, t.prevh, ws.moves[0]))
    if ordering:
        K._order(ws.stack, np.int64(0), np.int64(nm), np.int64(depth), np.int64(me), rule, other, 1.0,
                 t.cfg, t.kinds, t.prevh, t.board(w), w, ws.moves, ws.scores, ws.order, ws.cvals, ws.cphase,
                 ws.stats)
        if ws.stats[K.ABORTED]:
            return []
        idxs = [int(i) for i in ws.order[0, :nm]]
    else:
        idxs = list(range(nm))
    if only is not None:
        keep = set(only)
        idxs = [i for i in idxs if int(ws.moves[0, i]) in keep]
    if wid[0] != 0:
        idxs = idxs[:max(int(wid[0]), multipv)]
    if first is not None:
        hit = [i for i in idxs if int(ws.moves[0, i]) == first]
        if hit:
            idxs = hit + [i for i in idxs if i != hit[0]]
    return idxs


def _ranked(done: list[tuple[int, np.ndarray, list[int]]], decide: list[float],
            best: int) -> list[tuple[int, list[float], list[int]]]:
    """``done`` best first: ``done[best]``, then by ``decide`` (ties: the first searched)."""
    rest = sorted((i for i in range(len(done)) if i != best), key=lambda i: (-decide[i], i))
    return [(done[i][0], [float(x) for x in done[i][1]], done[i][2]) for i in [best, *rest]]


#: What ``_root_child`` found of a root move: scored by the root's ordering (its values in ``ws.scores`` /
#: ``ws.cvals``), finished the mover (its leaf values in ``ws.vals[1]``), or to be searched (``ws.stack[1]``).
_SCORED, _FINISHED, _SEARCH = 0, 1, 2


def _root_child(ws: Workspace, t: K.Tables, w: np.ndarray, idx: int, depth: int, me: int,
                ordering: bool) -> tuple[int, int]:
    """Root move ``idx`` of ``ws``'s ordered list and what is to be done with it (``_SCORED``, ``_FINISHED``,
    ``_SEARCH``); unless scored by the ordering, its position is built in ``ws.stack[1]`` (and, when the move
    finishes the mover, the leaf's values in ``ws.vals[1]``, counted as a node)."""
    m = int(ws.moves[0, idx])
    ph = int(ws.cphase[0, idx])
    if ordering and (depth == 1 or ph == K.LEAF) and ph != K.DRAW:
        return m, _SCORED
    ws.stack[1, :] = ws.stack[0, :]
    K._apply(ws.stack[1], t.cfg, t.kinds, t.prevh, np.int64(m))
    if ws.stack[1, K.PLACE + me] != 0:
        ws.stats[K.NODES] += 1
        K._leaf(ws.stack[1], t.cfg, t.kinds, t.board(w), w, np.int64(me), np.int64(depth - 1), ws.vals[1])
        return m, _FINISHED
    return m, _SEARCH


def _split_root(state: HareState, depth: int, t: K.Tables, w: np.ndarray, wid: np.ndarray, code: np.int64,
                other: np.int64, ordering: bool, cfull: np.int64, stop: np.ndarray, ws: Workspace,
                first: int | None, robust: bool, only: Sequence[int] | None, multipv: int,
                hint: list[int] | None) -> RootResult:
    """Paranoid (or alpha-beta) with the root in Python: each root move searched apart with a full window,
    so that each has its exact value (``searchmoves``, multi-PV); below the root, ``K._paranoid``."""
    n = state.game.n
    me = np.int64(state.current_player)
    one = np.int64(1)
    ws.stats[K.NODES] += 1
    idxs = _root_order(ws, t, w, wid, depth, int(me), code, other, ordering, first, only, multipv)
    hints = np.array(hint or [0], dtype=np.int64)
    hintlen = np.int64(len(hint or []))
    done: list[tuple[int, np.ndarray, list[int]]] = []
    aborted = False
    for idx in idxs:
        m, child = _root_child(ws, t, w, int(idx), depth, int(me), ordering)
        if child == _SCORED:
            done.append((m, np.full(n, float(ws.scores[0, idx])), [m]))  # built and scored by the ordering
            continue
        if child == _FINISHED:
            leaf = float(K._decision(ws.vals[1], me, code, other, np.int64(n)))
            done.append((m, np.full(n, leaf), [m]))
            continue
        on = np.int64(1 if hintlen and m == hints[0] else 0)
        value = float(K._paranoid(ws.stack, one, np.int64(depth - 1), one, -1e300, 1e300, me, other, t.cfg,
                                  t.kinds, t.prevh, t.board(w), w, wid, code, ordering, cfull, True, ws.moves,
                                  ws.scores, ws.order, ws.cvals, ws.cphase, ws.cst, ws.gvals, ws.stats, stop, ws.pv,
                                  ws.pvlen, hints, hintlen, on))
        if ws.stats[K.ABORTED]:
            aborted = True
            break
        done.append((m, np.full(n, value), [m] + [int(x) for x in ws.pv[1, : ws.pvlen[1]]]))
    seldepth = int(ws.stats[K.SELDEPTH])
    if not done:
        return RootResult(-1, [0.0], [], int(ws.stats[K.NODES]), seldepth, True)
    decide = [float(v[0]) for _, v, _ in done]
    best = max(range(len(done)), key=lambda i: (decide[i], -i))
    if robust and not aborted and decide[best] >= FINISHED:
        best = _robust_choice(state, depth, t, w, wid, np.int64(K.ABSOLUTE), ordering, np.int64(ALL_PLIES), stop,
                              ws, done, best)
        ws.stats[K.ABORTED] = 0
    m, v, pv = done[best]
    lines = [(mv, vals[:1], line) for mv, vals, line in _ranked(done, decide, best)]  # one value, as ``values``
    return RootResult(m, [float(v[0])], pv, int(ws.stats[K.NODES]), seldepth, aborted, len(done),
                      first is not None and any(d[0] == first for d in done), lines)


def _maxn_root(state: HareState, depth: int, t: K.Tables, w: np.ndarray, wid: np.ndarray, rule: np.int64,
               ordering: bool, cfull: np.int64, stop: np.ndarray, ws: Workspace, first: int | None,
               robust: bool, only: Sequence[int] | None = None, multipv: int = 1) -> RootResult:
    """The root of ``K._maxn`` in Python, one root move at a time (the kernel's order and widths)."""
    n = state.game.n
    me = state.current_player
    one = np.int64(1)
    ws.stats[K.NODES] += 1
    idxs = _root_order(ws, t, w, wid, depth, me, rule, np.int64(-1), ordering, first, only, multipv)
    done: list[tuple[int, np.ndarray, list[int]]] = []
    aborted = False
    for idx in idxs:
        m, child = _root_child(ws, t, w, int(idx), depth, me, ordering)
        if child == _SCORED:
            done.append((m, ws.cvals[0, idx, :n].copy(), [m]))
            continue
        if child == _FINISHED:
            done.append((m, ws.vals[1, :n].copy(), [m]))
            continue
        K._maxn(ws.stack, one, np.int64(depth - 1), one, t.cfg, t.kinds, t.prevh, t.board(w), w, wid, rule,
                ordering, cfull, ws.moves, ws.scores, ws.order, ws.cvals, ws.cphase, ws.cst, ws.gvals, ws.vals,
                ws.stats, stop, ws.pv, ws.pvlen)
        if ws.stats[K.ABORTED]:
            aborted = True
            break
        done.append((m, ws.vals[1, :n].copy(), [m] + [int(x) for x in ws.pv[1, : ws.pvlen[1]]]))
    seldepth = int(ws.stats[K.SELDEPTH])
    if not done:
        return RootResult(-1, [0.0] * n, [], int(ws.stats[K.NODES]), seldepth, True)
    decide = [float(K._decision(v, np.int64(me), rule, np.int64(-1), np.int64(n))) for _, v, _ in done]
    best = max(range(len(done)), key=lambda i: (decide[i], -i))  # ties: the first searched
    if robust and not aborted and done[best][1][me] >= FINISHED:
        best = _robust_choice(state, depth, t, w, wid, rule, ordering, cfull, stop, ws, done, best)
    m, v, pv = done[best]
    return RootResult(m, [float(x) for x in v], pv, int(ws.stats[K.NODES]), seldepth, aborted, len(done),
                      first is not None and any(d[0] == first for d in done), _ranked(done, decide, best))


def _robust_choice(state: HareState, depth: int, t: K.Tables, w: np.ndarray, wid: np.ndarray, rule: np.int64,
                   ordering: bool, cfull: np.int64, stop: np.ndarray, ws: Workspace,
                   done: list[tuple[int, np.ndarray, list[int]]], best: int, tied: list[int] | None = None) -> int:
    """Among root moves whose own value ties with ``done[best]``'s certain finish (or the moves ``tied``),
    the one whose finish holds best when every other player plays against it (a paranoid search of each,
    cards drawn ``cfull`` or more plies down taken as the worst); ``best`` if none or if cut short."""
    me = state.current_player
    top = done[best][1][me]
    if tied is None:
        tied = [i for i, (_, v, _) in enumerate(done) if abs(v[me] - top) <= 1e-9 * abs(top)]
    if len(tied) < 2:
        return best
    root = ws.stack[0].copy()
    scores = []
    for i in tied:
        m = done[i][0]
        ws.stack[1, :] = root
        K._apply(ws.stack[1], t.cfg, t.kinds, t.prevh, np.int64(m))
        if ws.stack[1, K.PLACE + me] != 0:
            scores.append(float("inf"))
            continue
        v = K._paranoid(ws.stack, np.int64(1), np.int64(depth - 1), np.int64(1), -1e300, 1e300, np.int64(me),
                        np.int64(-1), t.cfg, t.kinds, t.prevh, t.board(w), w, wid, np.int64(K.ABSOLUTE),
                        ordering, cfull, True, ws.moves, ws.scores, ws.order, ws.cvals, ws.cphase, ws.cst,
                        ws.gvals, ws.stats, stop, ws.pv, ws.pvlen, _NO_HINT, np.int64(0), np.int64(0))
        if ws.stats[K.ABORTED]:
            ws.stack[0, :] = root
            return best
        scores.append(float(v))
    ws.stack[0, :] = root
    return max(tied, key=lambda i: (scores[tied.index(i)], -i))


_TABLES: dict[str, K.Tables] = {}


def tables_for(game: HareGame) -> K.Tables:
    """The kernels' tables of ``game`` (built once per game spec)."""
    t = _TABLES.get(game.spec)
    if t is None:
        t = _TABLES[game.spec] = K.Tables(game)
    return t


#: Named option sets (``preset=NAME``; options given beside it override it).
PRESETS: dict[str, dict[str, object]] = {
    # the original write-up's engine: max^n with the "absolute" rule, the width vector [0, 0, 8, 8, 4],
    # "assume the worst card", and its evaluation terms (carrots due next turn, a per-carrot penalty
    # beyond what finishing allows, four lettuce curves)
    "writeup": {"algorithm": "maxn", "rule": "absolute", "chance": "worst", "widths": "0/0/8/8/4",
                "robust": False, **{k: v for k, v in asdict(WRITEUP_WEIGHTS).items()}},
    # the defaults, by name (with three players the default is "three")
    "default": {},
    # the default with three players: the weights tuned in three-player games, the other players valued
    # as the write-up's engine values them (an opponent model); measured against two writeup bots
    # and every card below the root the worst for its drawer (chanceplies 1: a ply deeper at equal nodes; 538
    # paired games at the equal-time node ratio, docs/hare.md, eighth session)
    "three": {**{k: v for k, v in asdict(THREE_WEIGHTS).items()}, "model": "writeup", "chanceplies": 1},
    # our first engine (before issue 22's tuning): its evaluation, expectimax at every depth
    "classic": {"chance": "expect", "chanceplies": MAX_DEPTH, "robust": False,
                **{k: v for k, v in asdict(CLASSIC_WEIGHTS).items()}},
}

#: Opponent models (``model=NAME``): the weights the search values the other players with (``self``: the
#: engine's own), so that max^n expects them to choose as an engine with those weights would.
MODELS: dict[str, Weights | None] = {"self": None, "writeup": WRITEUP_WEIGHTS, "classic": CLASSIC_WEIGHTS,
                                     "default": Weights()}

_ENGINE_DEFAULTS: dict[str, object] = {"algorithm": "maxn", "rule": "absolute", "chance": "expect",
                                       "chanceplies": ROUND, "widths": "0/0/8/8/4", "ordering": True,
                                       "twoplayer": "alphabeta", "robust": True, "maxdepth": 30, "model": "self",
                                       "modelchance": "expect",
                                       **asdict(Weights())}


class HareEngine:
    """Max^n (or paranoid) with expectimax over the counted hare deck; alpha-beta when two players remain.

    Options: ``preset`` (default | three | writeup | classic: a named set of the options below, which override
    it; ``default`` means ``three`` in a three-player game),
    ``algorithm`` (maxn | paranoid), ``rule`` (absolute | relative | sum: how a max^n player turns the
    value vector into a choice), ``chance`` (expect | worst: expectimax over the counted deck, or the
    original's "assume the worst card"), ``chanceplies`` (with expect: cards drawn this many plies or
    more below the root get the worst-card shortcut; -1, the default: one round, as many plies as
    players but at most 3; with two players 1; preset three: 1), ``widths`` (moves kept per ply, 0 = all,
    e.g. ``0/0/8/8/4``), ``ordering`` (order moves by evaluation), ``twoplayer`` (alphabeta | same: plain
    alpha-beta once two players remain), ``robust`` (root moves tied on a certain finish are told apart
    by a paranoid search), ``maxdepth``, ``model`` (self | writeup | classic | default: the weights max^n
    values the other players with, an opponent model, in games of three or more players), ``modelchance``
    (expect | worst: with a model, whether the others judge their own hare cards by the outcome worst for
    them, as the write-up's engine does), and every
    evaluation weight of ``config.Weights`` (``ks``,
    ``kc``, ``kp``, ``due``, ``percarrot``, ``tight``...), all numbers (the tuners' handles).
    """

    name = "maxn"

    def __init__(self, game: HareGame, preset: str = "default", **options: object) -> None:
        if preset not in PRESETS:
            raise InvalidOptionError(f"preset must be one of {', '.join(PRESETS)}, got {quote(preset)}")
        unknown = [k for k in options if k not in _ENGINE_DEFAULTS]
        if unknown:
            raise InvalidOptionError(f"engine maxn has no option {quote(unknown[0])}; it has: preset, "
                                     + ", ".join(_ENGINE_DEFAULTS))
        self.preset = preset
        if preset == "default" and game.num_players == 3:
            preset = "three"  # the default's own settings for three players (PRESETS)
        o = {**_ENGINE_DEFAULTS, **PRESETS[preset], **options}
        algorithm, rule, chance, twoplayer, maxdepth = (o["algorithm"], o["rule"], o["chance"], o["twoplayer"],
                                                        o["maxdepth"])
        if algorithm not in ("maxn", "paranoid"):
            raise InvalidOptionError(f"algorithm must be maxn or paranoid, got {quote(algorithm)}")
        if rule not in RULES:
            raise InvalidOptionError(f"rule must be one of {', '.join(RULES)}, got {quote(rule)}")
        if chance not in ("expect", "worst"):
            raise InvalidOptionError(f"chance must be expect or worst, got {quote(chance)}")
        if twoplayer not in ("alphabeta", "same"):
            raise InvalidOptionError(f"twoplayer must be alphabeta or same, got {quote(twoplayer)}")
        if isinstance(maxdepth, bool) or not isinstance(maxdepth, int) or not 1 <= maxdepth <= MAX_DEPTH:
            raise InvalidOptionError(f"maxdepth must be in 1..{MAX_DEPTH}, got {quote(maxdepth)}")
        for flag in ("ordering", "robust"):
            if not isinstance(o[flag], bool):
                raise InvalidOptionError(f"{flag} must be true or false, got {quote(o[flag])}")
        cp = o["chanceplies"]
        if isinstance(cp, bool) or not isinstance(cp, int) or not ROUND <= cp <= MAX_DEPTH:
            raise InvalidOptionError(f"chanceplies must be in {ROUND}..{MAX_DEPTH}, got {quote(cp)}")
        if cp == ROUND:
            # three or more players: one round of play, at most 3 plies (measured with three); two players: 1,
            # every card below the root the worst for its drawer (alpha-beta does not prune through a chance
            # node, and branching on each root move's card cost two plies of depth at equal nodes: docs/hare.md)
            cp = 1 if game.num_players == 2 else min(3, game.num_players)
        self.game = game
        self.algorithm, self.rule, self.worst = str(algorithm), str(rule), chance == "worst"
        self.widths = parse_widths(str(o["widths"]))
        self.ordering = bool(o["ordering"])
        self.robust = bool(o["robust"])
        self.chance_plies = int(cp)
        self.twoplayer = twoplayer
        self.weights = Weights().replace(**{k: o[k] for k in Weights.names()})  # type: ignore[arg-type]
        self.max_depth = int(maxdepth)
        if o["model"] not in MODELS:
            raise InvalidOptionError(f"model must be one of {', '.join(MODELS)}, got {quote(o['model'])}")
        self.model = MODELS[str(o["model"])]
        if o["modelchance"] not in ("expect", "worst"):
            raise InvalidOptionError(f"modelchance must be expect or worst, got {quote(o['modelchance'])}")
        self.model_cards = o["modelchance"] == "worst" and self.model is not None
        self.ws = Workspace(self.max_depth)
        self.lateness = Lateness()

    def new_game(self) -> None:
        pass

    def _algorithm(self, state: HareState) -> str:
        racing = sum(1 for p in state.place if not p)
        if racing == 2 and self.twoplayer == "alphabeta":
            return "alphabeta"
        return self.algorithm

    def search(self, state: HareState, limits: Limits, stop: np.ndarray | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        t0, t0_ns = time.perf_counter(), time.monotonic_ns()
        sid = next_search_id()
        legal = state.legal_moves()
        if not legal:
            return SearchResult(None, Score.vector(state.returns()))
        me = state.current_player
        algorithm = self._algorithm(state)
        only: list[int] | None = None
        if limits.searchmoves is not None:
            wanted = set(limits.searchmoves)
            only = [m for m in legal if m in wanted]
            if not only:
                shown = ", ".join(quote(state.format_move(m)) if m in legal else quote(m) for m in limits.searchmoves)
                raise InvalidOptionError(f"searchmoves {shown}: none is legal in position {quote(state.to_text())}")
            legal = only
        multipv = min(limits.multipv, len(legal))
        budget = allocate(limits, me, self.lateness.reserve_ms())
        max_depth = self.max_depth if limits.depth is None else max(1, min(self.max_depth, limits.depth))
        best: RootResult | None = None
        depth_done = 0
        total_nodes = 0
        # the deadline: read by the kernels themselves where they have a clock (no thread to wake up
        # first), else turned into the stop flag by a watcher thread
        deadline_ns = 0
        watch: StopWatch | None = None
        if budget.hard_ms is not None and K.KERNEL_CLOCK:
            deadline_ns = t0_ns + int(budget.hard_ms * 1e6)
        elif budget.hard_ms is not None:
            watch = StopWatch(stop, budget.hard_ms)
        flag = watch.flag if watch is not None else stop if stop is not None else np.zeros(1, dtype=np.uint8)
        try:
            for depth in range(1, max_depth + 1):
                t_iter = time.perf_counter()
                left = 0 if limits.nodes is None else max(1, limits.nodes - total_nodes)
                r = search_root(state, depth, algorithm=algorithm, rule=self.rule, widths=self.widths,
                                ordering=self.ordering, worst=self.worst, chance_plies=self.chance_plies,
                                weights=self.weights, stop=flag, node_limit=left, ws=self.ws,
                                first=best.move if best is not None else None, robust=self.robust,
                                hint=best.pv if best is not None else None, deadline_ns=deadline_ns,
                                only=only, multipv=multipv,
                                model=self.model if self.game.num_players > 2 else None,
                                model_cards=self.model_cards)
                total_nodes += r.nodes
                if r.aborted or r.move < 0:
                    if (r.move >= 0 and r.first_searched and best is not None and r.move != best.move
                            and multipv == 1):
                        # cut short, but the moves searched deeper include the last best and one beats it
                        best = r
                    break
                best, depth_done = r, depth
                elapsed = time.perf_counter() - t0
                lines = self._lines(sid, r, me, algorithm, depth, multipv, total_nodes, elapsed)
                if on_info is not None:
                    for info in lines:
                        on_info(info)
                if len(legal) == 1 and not limits.infinite:
                    break
                if limits.nodes is not None and total_nodes >= limits.nodes:
                    break
                if self._decided(state, r, algorithm) and not limits.infinite and limits.depth is None:
                    break
                ms = (time.perf_counter() - t0) * 1000
                if flag[0] or (deadline_ns and time.monotonic_ns() >= deadline_ns):
                    break
                if limits.movetime is None and not budget.should_start_next(ms, (time.perf_counter() - t_iter) * 1000):
                    break  # on a clock, time not spent is banked; with a move time it is lost
        finally:
            if watch is not None:
                watch.close()
        total_ms = (time.perf_counter() - t0) * 1000
        pv: tuple[int, ...]
        if best is None:
            move, score, pv = legal[0], Score.eval(0, me), (legal[0],)
            lines = [SearchInfo(search_id=sid, depth=0, seldepth=0, score=score, pv=pv, nodes=total_nodes, nps=0,
                                time_ms=int(total_ms), text=algorithm)]
        else:
            move, score, pv = best.move, self._score(best, me, algorithm, depth_done), tuple(best.pv)
            lines = self._lines(sid, best, me, algorithm, depth_done, multipv, total_nodes, total_ms / 1000)
        if budget.hard_ms is not None:
            self.lateness.record(total_ms - budget.hard_ms)
        return SearchResult(move, score, pv, depth_done, total_nodes, int(total_ms),
                            ponder=pv[1] if len(pv) > 1 else None, lines=tuple(lines))

    def _lines(self, sid: int, r: RootResult, me: int, algorithm: str, depth: int, multipv: int, nodes: int,
               elapsed_s: float) -> list[SearchInfo]:
        """The reports of one search of the root: its ``multipv`` best lines (the best alone when the root
        was searched as a whole)."""
        ranked = r.lines or [(r.move, r.values, r.pv)]
        nps = int(nodes / elapsed_s) if elapsed_s > 0 else 0
        return [SearchInfo(search_id=sid, depth=depth, seldepth=r.seldepth,
                           score=self._value_score(values, me, algorithm, depth), pv=tuple(pv), nodes=nodes,
                           nps=nps, time_ms=int(elapsed_s * 1000), multipv=i + 1, text=algorithm)
                for i, (_, values, pv) in enumerate(ranked[:multipv])]

    @staticmethod
    def _decided(state: HareState, r: RootResult, algorithm: str) -> bool:
        """Whether searching deeper cannot change the move: it finishes the player at once, or (two
        players) a finish is certain whatever the other does and the cards bring."""
        if algorithm == "alphabeta" and r.values[0] >= 2 * FINISHED:
            return True
        me = state.current_player
        s = state.copy()
        s.play(r.move)
        return s.place[me] != 0

    def _score(self, r: RootResult, me: int, algorithm: str, depth: int) -> Score:
        return self._value_score(r.values, me, algorithm, depth)

    @staticmethod
    def _value_score(values: list[float], me: int, algorithm: str, depth: int) -> Score:
        if algorithm == "maxn":
            return Score.vector(values)
        v = values[0]
        if abs(v) >= 2 * FINISHED:
            # a certain finish (the other is then placed last): EARLY per ply left when it happened
            left = int(round((abs(v) - 2 * FINISHED - PLACE_STEP) / EARLY))
            plies = max(1, depth - left)
            return Score.mate(plies if v > 0 else -plies, me)
        return Score.eval(int(round(v)), me)


def warm_up(engine: HareEngine | None = None) -> None:
    """Compile the kernels (from the cache when it is warm): what ``engine`` needs (alpha-beta alone for
    two players), or what any engine needs."""
    two = engine is not None and engine.game.num_players == 2 and engine.twoplayer == "alphabeta"
    for spec in ("hare",) if two else ("hare(players=3)", "hare"):
        from ...core.registry import load_game

        g = load_game(spec)
        assert isinstance(g, HareGame)
        HareEngine(g).search(g.new_state(), Limits(depth=2))


def _writeup(game: HareGame, preset: str = "writeup", **options: object) -> HareEngine:
    return HareEngine(game, preset=preset, **options)


def _declare(name: str, default: object, three: bool = False) -> Option:
    """The typed declaration of one engine option (``make_engine`` checks a spec against it); ``three``: its help
    says the default of a three-player game where preset ``three`` changes it (the window shows one default)."""
    fixed = {"preset": Option(default, choices=tuple(PRESETS)),
             "algorithm": Option(default, choices=("maxn", "paranoid")),
             "rule": Option(default, choices=RULES),
             "chance": Option(default, choices=("expect", "worst")),
             "chanceplies": Option(default, ROUND, MAX_DEPTH,
                                   help="plies below which a card is the worst one "
                                        "(-1: a round, at most 3; 1 with two players)"
                                        + (" (with three players the default is 1: preset three)" if three else "")),
             "widths": Option(default, max_len=100, help="moves searched per ply (0: all)"),
             "twoplayer": Option(default, choices=("alphabeta", "same")),
             "model": Option(default, choices=("self", "writeup", "classic", "default"),
                             help="weights the other players are valued with"
                                  + (" (with three players the default is writeup: preset three)" if three else "")),
             "modelchance": Option(default, choices=("expect", "worst"),
                                   help="with a model: the others judge their own hare cards by the worst outcome"),
             "maxdepth": Option(default, 1, MAX_DEPTH)}
    if name in fixed:
        return fixed[name]
    if isinstance(default, bool):
        return Option(default)
    value = getattr(THREE_WEIGHTS, name, None) if three else None
    note = f" (with three players the default is {value:g}: preset three)" if value not in (None, default) else ""
    return Option(float(default), -1e6, 1e6, kind=float,  # type: ignore[arg-type]
                  help="evaluation weight" + note)


def _options(overrides: dict[str, object], three: bool = False) -> dict[str, Option]:
    return {k: _declare(k, v, three) for k, v in {"preset": "default", **_ENGINE_DEFAULTS, **overrides}.items()}


_OPTIONS = _options({}, three=True)
register_engine("hare", "maxn", HareEngine, default=True,
                help="numba max^n / paranoid / alpha-beta with hare cards as chance nodes",
                options=_OPTIONS)
register_engine("hare", "writeup", _writeup,
                help="the original write-up's engine: maxn,preset=writeup (absolute rule, widths 0/0/8/8/4, "
                     "the worst card, its evaluation terms)",
                options=_options({**PRESETS["writeup"], "preset": "writeup"}))
