"""One iterative-deepening driver for every alpha-beta engine.

An engine supplies a ``Searcher`` that can search the root to a given depth
(excluding some root moves, for multi-PV); the driver owns the clock, the stop
flag, multi-PV, the reports and the choice of the final move.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np

from ..core.errors import InvalidOptionError
from ..core.info import InfoCallback, SearchInfo, SearchResult
from ..core.limits import Limits
from ..core.score import WIN, WIN_THRESHOLD, Score
from ..core.state import State
from .timeman import TimeBudget, allocate, stability_scale

_search_ids = itertools.count(1)


def next_search_id() -> int:
    """A fresh search id (unique within the process)."""
    return next(_search_ids)


@dataclass
class Iteration:
    """The result of searching the root to one depth.

    ``value`` is the kernel's integer score (see ``gamesuite.core.score.WIN``)
    from the side to move; ``exact`` says every line was seen to its end, so
    the value is the game-theoretic one.
    """

    value: int
    pv: list[int]
    seldepth: int = 0
    exact: bool = False
    complete: bool = True
    #: For an incomplete iteration: its line may be played (its first move was searched to the end and
    #: beat the others searched so far), so the driver prefers it to the last complete iteration's.
    usable: bool = False


class Searcher(Protocol):
    """What an engine gives the driver."""

    @property
    def nodes(self) -> int:
        """Nodes searched so far."""
        ...

    def iterate(self, depth: int, flag: np.ndarray, excluded: Sequence[int]) -> Iteration | None:
        """Search to ``depth``; ``None`` (or ``complete=False``) when ``flag`` cut it short."""
        ...

    def hashfull(self) -> int:
        """How full the hash table is, per mille."""
        ...

    # Optional: ``fallback_move() -> int``, the move to play if not even the
    # first iteration completes (default: the first legal move).


class StopWatch:
    """Sets an internal flag when the caller's flag is set or a deadline passes.

    Kernels poll ``flag``; the caller's own flag is never written.
    """

    def __init__(self, stop: np.ndarray | None, hard_ms: float | None, poll_s: float = 0.002) -> None:
        self.flag = np.zeros(1, dtype=np.uint8)
        self._stop = stop
        self._deadline = None if hard_ms is None else time.perf_counter() + hard_ms / 1000.0
        self._done = threading.Event()
        self._poll = poll_s
        self._thread: threading.Thread | None = None
        if stop is not None and stop[0]:
            self.flag[0] = 1
        if stop is not None or self._deadline is not None:
            self._thread = threading.Thread(target=self._run, name="stopwatch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._done.wait(self._poll):
            if (self._stop is not None and self._stop[0]) or (
                self._deadline is not None and time.perf_counter() >= self._deadline
            ):
                self.flag[0] = 1
                return

    def close(self) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()

    def __enter__(self) -> StopWatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def score_of(value: int, pov: int, exact: bool) -> Score:
    """The ``Score`` of a kernel value from player ``pov``'s view."""
    return Score.from_int(value, pov, exact=exact)


@dataclass
class _Line:
    it: Iteration
    info: SearchInfo


@dataclass
class DriverOptions:
    """Knobs of the driver that an engine may set."""

    max_depth: int = 64
    start_depth: int = 1
    step: int = 1
    search_id: int | None = None
    extra: dict = field(default_factory=dict)
    #: When the time is the move's own (``TimeBudget.per_move``), go on deepening until the hard limit
    #: (worth it for a searcher whose cut-short iterations are ``usable``).
    fill_per_move: bool = False
    #: Scale the soft budget by the stability of the best move (``timeman.stability_scale``).
    stability: bool = False


def iterative_deepening(
    searcher: Searcher,
    state: State,
    limits: Limits,
    stop: np.ndarray | None = None,
    on_info: InfoCallback | None = None,
    options: DriverOptions | None = None,
) -> SearchResult:
    """Deepen ``searcher`` from ``start_depth`` until a limit, the stop flag or the end.

    Always returns a legal move for a non-terminal state (the first legal move
    if even the first iteration was cut short).
    """
    opts = options or DriverOptions()
    sid = opts.search_id if opts.search_id is not None else next_search_id()
    pov = state.current_player
    legal = state.legal_moves()
    if state.is_terminal() or not legal:
        r = state.returns() if state.is_terminal() else [0.0] * state.num_players
        val = r[pov] if 0 <= pov < len(r) else 0.0
        who = max(pov, 0)
        sc = Score.draw(who) if val == 0 else Score.winrate((val + 1) / 2, who)
        return SearchResult(None, sc)
    allowed, left_out = legal, []
    if limits.searchmoves is not None:
        wanted = set(limits.searchmoves)
        allowed = [m for m in legal if m in wanted]
        if not allowed:
            raise InvalidOptionError(f"searchmoves {list(limits.searchmoves)!r}: none of them is legal here")
        # excluded at the root, like the first moves of the lines multi-PV has already found
        left_out = [m for m in legal if m not in wanted]
    budget: TimeBudget = allocate(limits, pov)
    max_depth = opts.max_depth if limits.depth is None else min(opts.max_depth, limits.depth)
    multipv = min(limits.multipv, len(allowed))
    t0 = time.perf_counter()
    best: list[_Line] = []
    best_moves: list[int] = []
    best_values: list[int] = []
    depth_done = 0
    last_iter_ms = 0.0
    with StopWatch(stop, budget.hard_ms) as watch:
        depth = min(opts.start_depth, max_depth)
        while depth <= max_depth:
            t_iter = time.perf_counter()
            lines: list[_Line] = []
            excluded: list[int] = list(left_out)
            aborted = False
            for k in range(multipv):
                it = searcher.iterate(depth, watch.flag, excluded)
                if it is None or not it.complete or not it.pv:
                    aborted = True
                    if it is not None and it.pv and it.pv[0] in allowed and k == 0 and (
                            not best or (it.usable and multipv == 1)):
                        # A partial first iteration still beats a blind move, and a usable partial line
                        # is the deeper knowledge.
                        info = _info(sid, depth, it, pov, searcher, t0, k + 1)
                        best = [_Line(it, info)]
                        if on_info is not None and it.usable:
                            on_info(info)
                    break
                elapsed = time.perf_counter() - t0
                info = _info(sid, depth, it, pov, searcher, t0, k + 1, elapsed)
                lines.append(_Line(it, info))
                excluded.append(it.pv[0])
            if lines and not aborted:
                if len(lines) > 1:
                    # A line searched later (with the earlier first moves excluded) can come out a little
                    # better than an earlier one when values are only bracketed (MTD(f)'s grain): rank them.
                    lines.sort(key=lambda ln: -ln.it.value)
                    # the reports carry the iteration's totals, so that nodes and time never go back
                    nodes, ms = max(ln.info.nodes for ln in lines), max(ln.info.time_ms for ln in lines)
                    lines = [_Line(ln.it, replace(ln.info, multipv=k + 1, nodes=nodes, time_ms=ms))
                             for k, ln in enumerate(lines)]
                best = lines
                depth_done = depth
                best_moves.append(lines[0].it.pv[0])
                best_values.append(lines[0].it.value)
                if on_info is not None:
                    for line in sorted(lines, key=lambda ln: ln.info.multipv):
                        on_info(line.info)
            if aborted:
                break
            elapsed_ms = (time.perf_counter() - t0) * 1000.0
            last_iter_ms = (time.perf_counter() - t_iter) * 1000.0
            top = best[0].it
            if all(ln.it.exact for ln in best) and not limits.infinite:
                break  # the value is proven; deeper search changes nothing
            if abs(top.value) > WIN_THRESHOLD and WIN - abs(top.value) <= depth and not limits.infinite:
                break  # a forced result within the horizon
            if limits.mate is not None and top.value > WIN_THRESHOLD and WIN - top.value <= 2 * limits.mate - 1:
                break
            if limits.nodes is not None and searcher.nodes >= limits.nodes:
                break
            if opts.fill_per_move and budget.per_move:
                pass  # the move's own time: deepen until the hard limit stops the search
            elif not budget.should_start_next(elapsed_ms, last_iter_ms,
                                              stability_scale(best_moves, best_values) if opts.stability else 1.0):
                break
            if watch.flag[0]:
                break
            depth += opts.step
    total_ms = (time.perf_counter() - t0) * 1000.0
    if not best:
        # Not even one iteration: the searcher's static choice if it has one, else the first move.
        fallback = getattr(searcher, "fallback_move", None)
        move = fallback() if fallback is not None else legal[0]
        move = move if move in allowed else allowed[0]
        return SearchResult(move, Score.eval(0, pov), (move,), 0, searcher.nodes, int(total_ms))
    top_line = best[0]
    pv = tuple(top_line.it.pv)
    return SearchResult(
        best_move=pv[0],
        score=top_line.info.score,
        pv=pv,
        depth=depth_done,
        nodes=searcher.nodes,
        time_ms=int(total_ms),
        ponder=pv[1] if len(pv) > 1 else None,
        lines=tuple(ln.info for ln in best),
    )


def _info(
    sid: int,
    depth: int,
    it: Iteration,
    pov: int,
    searcher: Searcher,
    t0: float,
    multipv: int,
    elapsed: float | None = None,
) -> SearchInfo:
    if elapsed is None:
        elapsed = time.perf_counter() - t0
    ms = int(elapsed * 1000)
    nodes = int(searcher.nodes)
    return SearchInfo(
        search_id=sid,
        depth=depth,
        seldepth=max(it.seldepth, len(it.pv)),
        score=score_of(it.value, pov, it.exact),
        pv=tuple(int(m) for m in it.pv),
        nodes=nodes,
        nps=int(nodes / elapsed) if elapsed > 0 else 0,
        time_ms=ms,
        multipv=multipv,
        hashfull=int(searcher.hashfull()),
    )
