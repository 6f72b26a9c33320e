"""One time manager for every engine: how long to think under given limits."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from ..core.limits import Limits

#: Milliseconds kept back from every hard deadline for the reply to go out.
SAFETY_MS = 15


@dataclass(frozen=True)
class TimeBudget:
    """Soft budget (do not start a new iteration after it) and hard deadline, in ms.

    ``None`` means no limit of that kind. ``per_move`` says the time is the move's own and cannot be saved
    for later moves (a fixed move time, or byoyomi with no main time left): a search may as well use all
    of it.
    """

    soft_ms: float | None
    hard_ms: float | None
    per_move: bool = False

    def should_start_next(self, elapsed_ms: float, last_iteration_ms: float, scale: float = 1.0) -> bool:
        """Whether a new iteration is worth starting after ``elapsed_ms``, with the soft budget times
        ``scale`` (more when the best move is unstable, less when it is obvious; never past the hard limit)."""
        if self.soft_ms is None:
            return True
        soft = self.soft_ms * scale
        if self.hard_ms is not None:
            soft = min(soft, self.hard_ms)
        # The next iteration usually costs a few times the last one.
        return elapsed_ms + 2.0 * last_iteration_ms <= soft or elapsed_ms < 0.3 * soft


def stability_scale(best_moves: list[int], values: list[int] | None = None) -> float:
    """How much of the soft budget to use, from the best moves of the completed iterations (oldest first).

    Each change of the best move counts, halved for every iteration since: no change for a while gives
    0.5 (the move is obvious: stop early), a change in the last iteration about 1.5, changes in the last
    two or three up to 2.0. A value that fell by ``VALUE_DROP`` or more since the iteration before adds 0.5.
    """
    instability = 0.0
    for a, b in pairwise(best_moves):
        instability = instability / 2 + (1.0 if a != b else 0.0)
    scale = 0.5 + instability
    if values is not None and len(values) >= 2 and values[-1] <= values[-2] - VALUE_DROP:
        scale += 0.5
    return max(0.5, min(2.0, scale))


#: A fall of the search's value (in the engine's units: centi-pawns for shogi) that calls for more time.
VALUE_DROP = 60


def allocate(limits: Limits, player: int) -> TimeBudget:
    """Decide the time budget of ``player`` under ``limits``."""
    if limits.infinite:
        return TimeBudget(None, None)
    if limits.movetime is not None:
        hard = max(1.0, limits.movetime - SAFETY_MS) if limits.movetime > 2 * SAFETY_MS else float(limits.movetime)
        return TimeBudget(hard, hard, per_move=True)
    left = None
    inc = 0
    if limits.time_left is not None and player < len(limits.time_left):
        left = limits.time_left[player]
        if limits.increment is not None and player < len(limits.increment):
            inc = limits.increment[player]
    byo = limits.byoyomi or 0
    if left is None and not byo:
        return TimeBudget(None, None)
    left = left or 0
    if left <= 0 and byo and not inc:
        # byoyomi alone: the move's time is lost unless it is used
        hard = max(1.0, byo - SAFETY_MS) if byo > 2 * SAFETY_MS else float(byo)
        return TimeBudget(hard, hard, per_move=True)
    mtg = limits.moves_to_go or 30
    soft = left / mtg + 0.75 * inc + 0.9 * byo
    hard = min(left + byo, max(soft * 4, left / 4 + byo)) - SAFETY_MS
    hard = max(hard, 1.0)
    soft = min(soft, hard)
    return TimeBudget(soft, hard)
