"""Plain-Python references of the engine's kernels: the evaluation, max^n and paranoid search.

Slow on purpose and built only on the rules (``rules.HareState``), so that the
tests can compare the numba kernels with them.
"""

from __future__ import annotations

import math
from typing import Sequence

from . import board as B
from .config import RULES, Weights
from .rules import DRAW, OVER, HareState


def _lettuce_ahead(kind: Sequence[int], s: int) -> int:
    return sum(1 for t in range(s + 1, len(kind)) if kind[t] == B.LETTUCE)


def evaluate(state: HareState, w: Weights) -> list[float]:
    """One value per player: ``Ks*S + Kc*C + Kp*P`` while racing, by place when finished (see ``config``)."""
    g = state.game
    out: list[float] = []
    for p in range(g.n):
        if state.place[p]:
            out.append(w.finished + w.place_step * (g.n - state.place[p]))
            continue
        c = state.car[p]
        let = state.let[p] - sum(1 for j in state.pieces_of(p) if state.eat[j] == 1)  # about to eat: eaten
        limit = state.finish_limit(p)
        squares = [state.sq[j] for j in state.pieces_of(p)]
        racing = [s for s in squares if s < B.LAST]
        prog = sum(squares)
        togo = sum(B.LAST - s for s in squares)
        ahead = max([_lettuce_ahead(g.kind, s) for s in racing] + [0])
        second_half = any(s >= 32 for s in racing)
        can_finish = any(let == 0 and B.cost(B.LAST - s) <= c and (limit < 0 or c - B.cost(B.LAST - s) <= limit)
                         for s in racing)
        S = -w.lettuce * let - w.behind * max(0, let - ahead)
        need = w.need_per_square * togo
        lim = limit if limit >= 0 else 20
        excess = max(0.0, c - need - lim)
        curve = w.c1 if second_half else w.c0
        C = curve * math.sqrt(min(c, need)) - w.excess * excess
        if can_finish:
            C += w.finishable
        P = 3.0 * prog
        out.append(w.ks * S + w.kc * C + w.kp * P - w.skip * state.skip[p])
    return out


def decision(v: Sequence[float], p: int, rule: str, other: int = -1) -> float:
    """How player ``p`` values ``v``: own ("absolute"), own minus the best other ("relative"),
    own minus the sum of the others ("sum"), or own minus player ``other`` ("versus")."""
    if rule == "absolute":
        return v[p]
    if rule == "versus":
        return v[p] - v[other]
    others = [x for q, x in enumerate(v) if q != p]
    if rule == "relative":
        return v[p] - max(others)
    if rule == "sum":
        return v[p] - sum(others)
    raise ValueError(f"unknown rule {rule!r}; known: {', '.join(RULES)}")


def _ordered(state: HareState, moves: list[int], w: Weights, pov: int, rule: str, other: int, sign: float) -> list[int]:
    scored = []
    for m in moves:
        state.play(m)
        scored.append(sign * decision(evaluate(state, w), pov, rule, other))
        state.undo()
    idx = sorted(range(len(moves)), key=lambda i: -scored[i])  # stable: ties keep the generation order
    return [moves[i] for i in idx]


def _worst_card(state: HareState, w: Weights, value) -> int:  # type: ignore[no-untyped-def]
    """The card whose outcome ``value`` judges lowest at a glance (the first such card)."""
    best, best_card = None, -1
    for card, _ in state.chance_outcomes():
        state.play(card)
        d = value(evaluate(state, w))
        state.undo()
        if best is None or d < best:
            best, best_card = d, card
    return best_card


def _width(widths: Sequence[int], ply: int) -> int:
    return widths[min(ply, len(widths) - 1)]


def maxn(state: HareState, depth: int, w: Weights, rule: str = "absolute", widths: Sequence[int] = (0,),
         ordering: bool = False, worst: bool = False, ply: int = 0) -> tuple[list[float], list[int]]:
    """Max^n value vector and principal variation (moves only; it stops at a chance node)."""
    if state.phase == OVER or (depth <= 0 and state.phase != DRAW):
        return evaluate(state, w), []
    if state.phase == DRAW:
        if worst:
            drawer = state.owner(state.pp)
            card = _worst_card(state, w, lambda v: decision(v, drawer, rule))
            state.play(card)
            v, _ = maxn(state, depth, w, rule, widths, ordering, worst, ply)
            state.undo()
            return v, []
        total = [0.0] * state.game.n
        for card, pr in state.chance_outcomes():
            state.play(card)
            v, _ = maxn(state, depth, w, rule, widths, ordering, worst, ply)
            state.undo()
            total = [a + pr * b for a, b in zip(total, v)]
        return total, []
    p = state.current_player
    moves = state.legal_moves()
    if ordering:
        moves = _ordered(state, moves, w, p, rule, -1, 1.0)
    k = _width(widths, ply)
    if k:
        moves = moves[:k]
    best: tuple[list[float], list[int]] | None = None
    for m in moves:
        state.play(m)
        v, line = maxn(state, depth - 1, w, rule, widths, ordering, worst, ply + 1)
        state.undo()
        if best is None or decision(v, p, rule) > decision(best[0], p, rule):
            best = (v, [m] + line)
    assert best is not None
    return best


def paranoid(state: HareState, depth: int, root: int, w: Weights, rule: str = "absolute", other: int = -1,
             widths: Sequence[int] = (0,), ordering: bool = False, worst: bool = False,
             ply: int = 0) -> tuple[float, list[int]]:
    """Paranoid minimax without pruning: ``root`` maximises its decision value, the others minimise it."""
    if state.phase == OVER or (depth <= 0 and state.phase != DRAW):
        return decision(evaluate(state, w), root, rule, other), []
    if state.phase == DRAW:
        if worst:
            sign = 1.0 if state.owner(state.pp) == root else -1.0
            card = _worst_card(state, w, lambda v: sign * decision(v, root, rule, other))
            state.play(card)
            v, _ = paranoid(state, depth, root, w, rule, other, widths, ordering, worst, ply)
            state.undo()
            return v, []
        acc = 0.0
        for card, pr in state.chance_outcomes():
            state.play(card)
            v, _ = paranoid(state, depth, root, w, rule, other, widths, ordering, worst, ply)
            state.undo()
            acc += pr * v
        return acc, []
    p = state.current_player
    moves = state.legal_moves()
    if ordering:
        moves = _ordered(state, moves, w, root, rule, other, 1.0 if p == root else -1.0)
    k = _width(widths, ply)
    if k:
        moves = moves[:k]
    best: tuple[float, list[int]] | None = None
    for m in moves:
        state.play(m)
        v, line = paranoid(state, depth - 1, root, w, rule, other, widths, ordering, worst, ply + 1)
        state.undo()
        if best is None or (v > best[0] if p == root else v < best[0]):
            best = (v, [m] + line)
    assert best is not None
    return best
