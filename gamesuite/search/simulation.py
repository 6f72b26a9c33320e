"""One simulation driver for every Monte Carlo tree search (the counterpart of ``driver.iterative_deepening``).

A tree search supplies a :class:`SimulationTree`: it runs simulations from its
root, keeps the simulations off the root moves it is told to leave alone, and
says what it has seen of each root move. The driver owns the rest, the same
way for every tree:

- **tree reuse**: it asks the tree to make the position its root
  (``set_root``), which keeps the subtree when the position follows from the
  last root;
- **limits**: ``nodes`` counts the simulations of this search; ``movetime`` and
  the clocks go through the time manager (soft and hard deadlines); ``depth``
  ends the search once the principal variation is that long, or reaches the end
  of the game or a chance node; with one move to choose from and no work limit
  the search ends after its first batch (the move is forced);
- **the stop flag**: a ``StopWatch`` sets an internal flag the tree's kernels
  poll; the caller's flag is only read;
- **searchmoves**: the tree is restricted to the allowed root moves for the
  search and released afterwards; an allowed move the tree never grew (a move
  its generator leaves out) is still reported, unsearched;
- **reports**: ``multipv`` lines (the most visited allowed moves) every
  ``info_ms``, and at the end; ``min(multipv, allowed moves)`` lines in the result;
- **the choice**: the most visited allowed move, or one drawn by visits with a
  temperature.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..core.errors import InvalidOptionError
from ..core.info import InfoCallback, SearchInfo, SearchResult
from ..core.limits import Limits
from ..core.score import Score
from ..core.state import State
from .driver import StopWatch, next_search_id
from .timeman import allocate


@dataclass(frozen=True)
class RootMove:
    """What the tree has seen of one root move: its visits and its mean score from the mover's view."""

    move: int
    visits: int
    score: Score


class SimulationTree(Protocol):
    """What a Monte Carlo tree search gives the driver."""

    def set_root(self, state: State) -> bool:
        """Make ``state`` the root, keeping the subtree when it follows from the last root; whether it did."""
        ...

    def restrict(self, allowed: Collection[int] | None) -> None:
        """Keep the next simulations off the root moves not in ``allowed`` (``None``: lift the restriction,
        every statistic as true as if it had never been set)."""
        ...

    def simulate(self, state: State, count: int, flag: np.ndarray) -> int:
        """Run up to ``count`` simulations from the root (whose position is ``state``); how many ran.

        Polls ``flag`` (a long batch ends early when it is set)."""
        ...

    def root_moves(self, pov: int) -> list[RootMove]:
        """The root's moves in the tree (allowed or not), with scores from player ``pov``'s view."""
        ...

    def line(self, state: State, move: int) -> list[int]:
        """The principal variation that starts with root move ``move`` (most visited children after it)."""
        ...

    def unvisited_score(self, pov: int) -> Score:
        """The score of a root move without visits."""
        ...

    def result_score(self, state: State) -> Score:
        """The score of a finished game (``state`` is terminal)."""
        ...

    @property
    def visits(self) -> int:
        """Simulations through the root (those of earlier searches kept by reuse included)."""
        ...

    def seldepth(self) -> int:
        """The deepest simulation of this search, in plies from the root."""
        ...

    def hashfull(self) -> int:
        """How full the tree's memory is, per mille."""
        ...


@dataclass(frozen=True)
class SimulationOptions:
    """Knobs of the driver that an engine sets.

    ``chunk``: the first call's simulations; later calls aim at ``chunk_ms`` each (between
    ``min_chunk`` and ``max_chunk``), so that limits and reports stay timely. ``fixed_chunk``
    keeps every call at ``chunk`` (a tree whose batches have a size of their own).
    """

    chunk: int = 256
    min_chunk: int = 16
    max_chunk: int = 1 << 20
    chunk_ms: float = 20.0
    fixed_chunk: bool = False
    info_ms: int = 500
    temperature: float = 0.0
    #: check ``depth`` every this many calls (reading the principal variation costs a walk of the tree)
    depth_every: int = 1


def run_simulations(
    tree: SimulationTree,
    state: State,
    limits: Limits,
    stop: np.ndarray | None = None,
    on_info: InfoCallback | None = None,
    options: SimulationOptions | None = None,
    rng: np.random.Generator | None = None,
) -> SearchResult:
    """Search ``state`` (left unchanged) with ``tree`` under ``limits`` until a limit or ``stop``.

    ``rng`` draws the move when ``options.temperature`` is above zero.
    """
    opts = options or SimulationOptions()
    sid = next_search_id()
    pov = state.current_player
    legal = state.legal_moves()
    if state.is_terminal() or not legal:
        return SearchResult(None, tree.result_score(state) if state.is_terminal() else tree.unvisited_score(0))
    allowed: list[int] | None = None
    if limits.searchmoves is not None:
        wanted = set(limits.searchmoves)
        allowed = [m for m in legal if m in wanted]
        if not allowed:
            raise InvalidOptionError(f"searchmoves {list(limits.searchmoves)!r}: none of them is legal here")
    choices = allowed if allowed is not None else legal
    forced = len(choices) == 1 and not limits.infinite and limits.nodes is None and limits.depth is None
    tree.set_root(state)
    tree.restrict(allowed)
    try:
        return _run(tree, state, limits, stop, on_info, opts, rng, sid, pov, choices, allowed, forced)
    finally:
        tree.restrict(None)


def _run(tree: SimulationTree, state: State, limits: Limits, stop: np.ndarray | None, on_info: InfoCallback | None,
         opts: SimulationOptions, rng: np.random.Generator | None, sid: int, pov: int, choices: list[int],
         allowed: list[int] | None, forced: bool) -> SearchResult:
    budget = allocate(limits, pov)
    t0 = time.perf_counter()
    last_info = t0
    done = calls = 0
    chunk = opts.chunk
    with StopWatch(stop, None if limits.infinite else budget.hard_ms) as watch:
        while not watch.flag[0]:
            want = chunk if limits.nodes is None else min(chunk, limits.nodes - done)
            if want <= 0:
                break
            t1 = time.perf_counter()
            done += tree.simulate(state, want, watch.flag)
            calls += 1
            now = time.perf_counter()
            if not opts.fixed_chunk:
                chunk = int(min(max(chunk * opts.chunk_ms / 1000 / max(now - t1, 1e-6), opts.min_chunk),
                                opts.max_chunk))
            if budget.soft_ms is not None and not limits.infinite and (now - t0) * 1000 >= budget.soft_ms:
                break
            if forced:
                break
            if limits.depth is not None and calls % opts.depth_every == 0 and _reaches(
                    tree, state, pov, choices, limits.depth):
                break
            if on_info is not None and (now - last_info) * 1000 >= opts.info_ms:
                last_info = now
                for info in _infos(tree, state, pov, choices, limits.multipv, sid, t0, done, final=False):
                    on_info(info)
    if not any(r.visits for r in _ranked(tree, pov, choices)):
        # stopped (or nodes=0) before the first simulation: one, so that the answer is not blind
        done += tree.simulate(state, 1, np.zeros(1, dtype=np.uint8))
    lines = _infos(tree, state, pov, choices, limits.multipv, sid, t0, done, final=True)
    if on_info is not None:
        for info in lines:
            on_info(info)
    move = _choose(tree, pov, choices, opts.temperature, rng, limits.searchmoves)
    top = next((ln for ln in lines if ln.pv[0] == move), None)
    pv = top.pv if top is not None else tuple(tree.line(state, move))
    score = top.score if top is not None else _score_of(tree, pov, move)
    return SearchResult(best_move=move, score=score, pv=pv, depth=len(pv), nodes=tree.visits,
                        time_ms=int((time.perf_counter() - t0) * 1000), ponder=pv[1] if len(pv) > 1 else None,
                        lines=tuple(lines))


def _ranked(tree: SimulationTree, pov: int, choices: list[int]) -> list[RootMove]:
    """The allowed root moves in the tree, most visited first (ties: the lower move)."""
    ok = set(choices)
    return sorted((r for r in tree.root_moves(pov) if r.move in ok), key=lambda r: (-r.visits, r.move))


def _score_of(tree: SimulationTree, pov: int, move: int) -> Score:
    r = next((r for r in tree.root_moves(pov) if r.move == move), None)
    return r.score if r is not None and r.visits else tree.unvisited_score(pov)


def _reaches(tree: SimulationTree, state: State, pov: int, choices: list[int], depth: int) -> bool:
    """Whether the principal variation is ``depth`` plies long, or ends the game or at a chance node."""
    ranked = _ranked(tree, pov, choices)
    if not ranked or ranked[0].visits == 0:
        return False
    pv = tree.line(state, ranked[0].move)
    if len(pv) >= depth:
        return True
    s = state.copy()
    for m in pv:
        s.play(m)
    return s.is_terminal() or s.is_chance_node()


def _infos(tree: SimulationTree, state: State, pov: int, choices: list[int], multipv: int, sid: int, t0: float,
           done: int, final: bool) -> list[SearchInfo]:
    """The ``multipv`` most visited allowed moves as reports; in the final ones every line asked for
    (allowed moves without visits, or that the tree never grew, come last, unsearched)."""
    elapsed = time.perf_counter() - t0
    ranked = _ranked(tree, pov, choices)
    want = max(1, multipv)
    rows: list[tuple[int, int, Score]] = [(r.move, r.visits, r.score) for r in ranked if r.visits][:want]
    if final and len(rows) < want:
        seen = {m for m, _, _ in rows}
        rows += [(m, 0, tree.unvisited_score(pov)) for m in choices if m not in seen][: want - len(rows)]
    out = []
    for rank, (move, visits, score) in enumerate(rows):
        pv = tree.line(state, move) if visits else [move]
        out.append(SearchInfo(
            search_id=sid, depth=len(pv), seldepth=max(tree.seldepth(), len(pv)), score=score, pv=tuple(pv),
            nodes=int(tree.visits), nps=int(done / elapsed) if elapsed > 0 else 0, time_ms=int(elapsed * 1000),
            multipv=rank + 1, hashfull=int(tree.hashfull()), text=f"visits {visits}"))
    return out


def _choose(tree: SimulationTree, pov: int, choices: list[int], temperature: float,
            rng: np.random.Generator | None, searchmoves: tuple[int, ...] | None) -> int:
    """The most visited allowed move (at temperature 0), else one drawn by ``visits ** (1 / T)``;
    with no visits at all the first allowed move (as ``searchmoves`` lists them)."""
    ranked = [r for r in _ranked(tree, pov, choices) if r.visits]
    if not ranked:
        order = [m for m in (searchmoves or ()) if m in choices] or choices
        return order[0]
    if temperature <= 1e-6 or len(ranked) == 1:
        return ranked[0].move
    visits = np.array([r.visits for r in ranked], dtype=np.float64)
    logits = np.log(visits) / temperature
    p = np.exp(logits - logits.max())
    gen = rng if rng is not None else np.random.default_rng()
    return ranked[int(gen.choice(len(ranked), p=p / p.sum()))].move
