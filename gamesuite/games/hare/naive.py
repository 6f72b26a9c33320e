"""Plain-Python references of the engine's kernels: the evaluation, max^n and paranoid search.

Slow on purpose and built only on the rules (``rules.HareState``), so that the
tests can compare the numba kernels with them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from . import board as B
from .config import EARLY, FINISHED, N_WEIGHTS, PLACE_STEP, RACING_CAP, RULES, Weights
from .rules import DRAW, OVER, HareState


def _lettuce_ahead(kind: Sequence[int], s: int) -> int:
    return sum(1 for t in range(s + 1, len(kind)) if kind[t] == B.LETTUCE)


def due(state: HareState, p: int) -> int:
    """Carrots ``p`` receives at the start of its next turn: a lettuce about to be eaten, a matching
    position square reached on the last turn."""
    g = state.game
    out = 0
    for j in state.pieces_of(p):
        if state.sq[j] >= B.LAST:
            continue
        if state.eat[j] == 1:
            out += 10 * state.race_position(j)
        elif state.fresh[j]:
            out += B.position_bonus(g.kind[state.sq[j]], state.race_position(j))
    return out


def place_value(place: int, n: int) -> float:
    """A finished player's value (``kernels._place_value``)."""
    return -FINISHED if place >= n else FINISHED + PLACE_STEP * (n - place)


#: Weights, or with an opponent model (``config.model_array``): (the weights of player ``me``, the others', ``me``,
#: whether the others judge their own cards by the worst outcome).
Valuation = Weights | tuple[Weights, Weights, int, bool]


def own(w: Valuation) -> Weights:
    """The weights of the player the search is for."""
    return w if isinstance(w, Weights) else w[0]


def evaluate(state: HareState, w: Valuation) -> list[float]:
    """One value per player: ``Ks*S + Kc*C + Kp*P`` while racing, by place when finished (see ``config``)."""
    if not isinstance(w, Weights):
        mine, others, me, _ = w
        a, b = evaluate(state, mine), evaluate(state, others)
        return [a[p] if p == me else b[p] for p in range(state.game.n)]
    g = state.game
    out: list[float] = []
    # the race term: each racer's solo turns and its finish by them, ties to the one who moves first
    solo = {p: turns(state, p) for p in range(g.n) if not state.place[p]} if w.race else {}
    finish = {p: t + ((p - state.turn) % g.n) / g.n for p, t in solo.items()}
    for p in range(g.n):
        if state.place[p]:
            out.append(place_value(state.place[p], g.n))
            continue
        c = state.car[p] + w.due * due(state, p)
        let = state.let[p] - sum(1 for j in state.pieces_of(p) if state.eat[j] == 1)  # about to eat: eaten
        limit = state.finish_limit(p)
        lim = limit if limit >= 0 else 20
        squares = [state.sq[j] for j in state.pieces_of(p)]
        racing = [s for s in squares if s < B.LAST]
        prog = sum(squares)
        togo = sum(B.LAST - s for s in squares)
        ahead = max([_lettuce_ahead(g.kind, s) for s in racing] + [0])
        second_half = any(s >= 32 for s in racing)
        within = [B.cost(B.LAST - s) for s in racing if let == 0 and B.cost(B.LAST - s) <= c]
        can_finish = any(limit < 0 or c - d <= limit for d in within)
        S = -w.lettuce * let - w.behind * max(0, let - ahead)
        if let > 0:
            S -= w.tight * let / (1.0 + max(0, ahead - let))
        need = w.need_per_square * togo
        excess = max(0.0, c - need - lim)
        curve = w.c1 if second_half else w.c0
        C = curve * math.sqrt(max(0.0, min(c, need))) - w.excess * excess
        if can_finish:
            C += w.finishable
        if within:
            over = min(c - d - lim for d in within)
            if over > 0:
                C -= w.percarrot * over
        P = 3.0 * prog
        v = w.ks * S + w.kc * C + w.kp * P - w.skip * state.skip[p]
        if w.race:
            ahead_by = min([f for q, f in finish.items() if q != p] + [1e300]) - finish[p]
            v -= w.turns * solo[p]
            v += w.race * (math.tanh(ahead_by / w.racescale) - 2.0 * state.finished_players())
        elif w.turns:
            v -= w.turns * turns(state, p)
        out.append(min(RACING_CAP, max(-RACING_CAP, v)))
    return out


def turns(state: HareState, p: int) -> int:
    """Player ``p``'s turns to finish alone (``kernels._turns``), read from the solo table the kernels build
    (``solo_turns``, a breadth-first search, is that table's reference)."""
    from . import kernels as K

    g = state.game
    racing = [j for j in state.pieces_of(p) if state.sq[j] < B.LAST]
    if not racing:
        return 0
    let = state.let[p] - sum(1 for j in racing if state.eat[j] == 1)
    extra = state.skip[p] + sum(1 for j in racing if state.eat[j] == 1)
    c = state.car[p] + due(state, p)
    _, lk_count, cdim, hdim = K.solo_layout(g)
    btab = K.Tables(g).board(np.array([1.0] * N_WEIGHTS))

    def solo(j: int, lk: int, carrots: int, lettuces: int) -> int:
        carrots = min(max(carrots, 0), cdim - 1)
        i = (((state.race_position(j) - 1) * lk_count + lk) * 64 + state.sq[j]) * cdim * hdim
        return int(btab[K.B_SOLO + i + carrots * hdim + min(lettuces, hdim - 1)])

    if len(racing) == 1:
        return extra + solo(racing[0], 0 if g.ppp == 2 else state.finished_players(), c, let)
    front, rear = sorted(racing, key=lambda j: -state.sq[j]) if state.sq[racing[0]] != state.sq[racing[1]] \
        else (racing[0], racing[1])
    df, dr = B.LAST - state.sq[front], B.LAST - state.sq[rear]
    cf = c * df // (df + dr)
    hr = min(let, _lettuce_ahead(g.kind, state.sq[rear]))
    return extra + solo(front, 1, cf, let - hr) + solo(rear, 0, c - cf, hr)


def solo_turns(game, pos: int, limit: int, square: int, carrots: int, lettuces: int,  # type: ignore[no-untyped-def]
               cap: int = 16, cmax: int = 250) -> int:
    """The fewest turns a lone piece needs to finish (``kernels._solo_fill``'s model), by a breadth-first
    search over its positions, turn by turn: race position ``pos`` kept, ``limit`` carrots allowed at the
    finish, no hare squares, a lettuce square's eating turn included; ``cap`` if not within ``cap`` turns."""
    kind = game.kind
    prevh = game.prev_hedgehog
    start = (square, min(carrots, cmax), lettuces)
    dist = {start: 0}
    buckets: dict[int, list] = {0: [start]}
    for t in range(cap):
        for st in buckets.pop(t, []):
            if dist[st] != t:
                continue
            s, c, h = st
            succ = []
            n = 1
            while s + n <= B.LAST and B.cost(n) <= c:
                g, cost = s + n, B.cost(n)
                if g == B.LAST:
                    if h == 0 and c - cost <= limit:
                        return t + 1
                elif kind[g] == B.LETTUCE:
                    if h > 0:
                        succ.append((2, (g, min(cmax, c - cost + 10 * pos), h - 1)))
                elif kind[g] not in (B.HEDGEHOG, B.HARE):
                    succ.append((1, (g, min(cmax, c - cost + B.position_bonus(kind[g], pos)), h)))
                n += 1
            if prevh[s] >= 0:
                succ.append((1, (prevh[s], min(cmax, c + 10 * (s - prevh[s])), h)))
            if kind[s] == B.CARROT:
                succ.append((1, (s, min(cmax, c + 10), h)))
                if c >= 10:
                    succ.append((1, (s, c - 10, h)))
            for used, nst in succ:
                d = t + used
                if d < cap and d < dist.get(nst, cap):
                    dist[nst] = d
                    buckets.setdefault(d, []).append(nst)
    return cap


def leaf(state: HareState, w: Valuation, mover: int, left: int) -> tuple[list[float], bool]:
    """The static values; ``mover`` gets ``EARLY`` per ply ``left`` when it has just finished
    (``kernels._leaf``). Also whether it has."""
    v = evaluate(state, w)
    if mover >= 0 and state.place[mover]:
        v[mover] += EARLY * left
        return v, True
    return v, False


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


def _ordered(state: HareState, moves: list[int], w: Valuation, pov: int, rule: str, other: int, sign: float,
             left: int) -> list[int]:
    mover = state.current_player
    scored = []
    for m in moves:
        state.play(m)
        scored.append(sign * decision(leaf(state, w, mover, left)[0], pov, rule, other))
        state.undo()
    idx = sorted(range(len(moves)), key=lambda i: -scored[i])  # stable: ties keep the generation order
    return [moves[i] for i in idx]


def _worst_card(state: HareState, w: Valuation, value) -> int:  # type: ignore[no-untyped-def]
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


def maxn(state: HareState, depth: int, w: Valuation, rule: str = "absolute", widths: Sequence[int] = (0,),
         ordering: bool = False, worst: bool = False, ply: int = 0, cfull: int = 1 << 30
         ) -> tuple[list[float], list[int]]:
    """Max^n value vector and principal variation (moves only; it stops at a chance node). A card drawn
    ``cfull`` or more plies below the root (or anywhere with ``worst``) is replaced by the worst-looking one."""
    if state.phase == OVER or (depth <= 0 and state.phase != DRAW):
        return evaluate(state, w), []
    if state.phase == DRAW:
        if worst or ply >= cfull:
            drawer = state.owner(state.pp)
            card = _worst_card(state, w, lambda v: decision(v, drawer, rule))
            state.play(card)
            v, _ = maxn(state, depth, w, rule, widths, ordering, worst, ply, cfull)
            state.undo()
            return v, []
        total = [0.0] * state.game.n
        worst_v: list[float] | None = None
        drawer = state.owner(state.pp)
        for card, pr in state.chance_outcomes():
            state.play(card)
            v, _ = maxn(state, depth, w, rule, widths, ordering, worst, ply, cfull)
            state.undo()
            total = [a + pr * b for a, b in zip(total, v)]
            if worst_v is None or decision(v, drawer, rule) < decision(worst_v, drawer, rule):
                worst_v = v
        risk = own(w).risk
        if risk and worst_v is not None:  # mixed with the outcome worst for the drawer
            total = [(1.0 - risk) * a + risk * b for a, b in zip(total, worst_v)]
        if not isinstance(w, Weights) and w[3] and drawer != w[2] and worst_v is not None:
            total[drawer] = worst_v[drawer]  # another player judges its own card by the worst outcome
        return total, []
    p = state.current_player
    moves = state.legal_moves()
    if ordering:
        moves = _ordered(state, moves, w, p, rule, -1, 1.0, depth - 1)
    k = _width(widths, ply)
    if k:
        moves = moves[:k]
    best: tuple[list[float], list[int]] | None = None
    line: list[int]
    for m in moves:
        state.play(m)
        if state.place[p]:  # the move finished its mover: the search stops here
            v, line = leaf(state, w, p, depth - 1)[0], []
        else:
            v, line = maxn(state, depth - 1, w, rule, widths, ordering, worst, ply + 1, cfull)
        state.undo()
        if best is None or decision(v, p, rule) > decision(best[0], p, rule):
            best = (v, [m] + line)
    assert best is not None
    return best


def paranoid(state: HareState, depth: int, root: int, w: Weights, rule: str = "absolute", other: int = -1,
             widths: Sequence[int] = (0,), ordering: bool = False, worst: bool = False,
             ply: int = 0, cfull: int = 1 << 30) -> tuple[float, list[int]]:
    """Paranoid minimax without pruning: ``root`` maximises its decision value, the others minimise it."""
    if state.phase == OVER or (depth <= 0 and state.phase != DRAW):
        return decision(evaluate(state, w), root, rule, other), []
    if state.phase == DRAW:
        if worst or ply >= cfull:
            sign = 1.0 if state.owner(state.pp) == root else -1.0
            card = _worst_card(state, w, lambda v: sign * decision(v, root, rule, other))
            state.play(card)
            v, _ = paranoid(state, depth, root, w, rule, other, widths, ordering, worst, ply, cfull)
            state.undo()
            return v, []
        acc = 0.0
        for card, pr in state.chance_outcomes():
            state.play(card)
            v, _ = paranoid(state, depth, root, w, rule, other, widths, ordering, worst, ply, cfull)
            state.undo()
            acc += pr * v
        return acc, []
    p = state.current_player
    moves = state.legal_moves()
    if ordering:
        moves = _ordered(state, moves, w, root, rule, other, 1.0 if p == root else -1.0, depth - 1)
    k = _width(widths, ply)
    if k:
        moves = moves[:k]
    best: tuple[float, list[int]] | None = None
    line: list[int]
    for m in moves:
        state.play(m)
        if state.place[p]:  # the move finished its mover: the search stops here
            v, line = decision(leaf(state, w, p, depth - 1)[0], root, rule, other), []
        else:
            v, line = paranoid(state, depth - 1, root, w, rule, other, widths, ordering, worst, ply + 1, cfull)
        state.undo()
        if best is None or (v > best[0] if p == root else v < best[0]):
            best = (v, [m] + line)
    assert best is not None
    return best
