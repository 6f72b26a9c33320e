"""One time manager for every engine: how long to think under given limits."""

from __future__ import annotations

from collections import deque
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


class Lateness:
    """How late an engine's searches end past their hard deadline, to keep that much back next time.

    A search that stops at its deadline still has work to do before its answer is out (unwinding,
    building the reply); on a loaded machine the process gets a small share of a core and that work
    takes many times longer in wall time. ``record`` the overrun of each search (answer time minus
    the hard deadline); ``reserve_ms`` is the margin to keep back: the ``rank``-th largest overrun of
    the last ``window`` searches (each at most ``cap_ms``), times ``factor``, never below ``SAFETY_MS``.

    With ``rank = 2`` one late answer alone (a single preemption) changes nothing: under sustained load
    the overruns repeat, and the second largest is then as large as the largest. (Before, 1.5 x the
    largest overrun halving every 20 searches: one answer 170 ms late kept 260 ms back from every
    deadline for dozens of moves.)
    """

    def __init__(self, factor: float = 1.5, window: int = 30, rank: int = 2, cap_ms: float = 400.0) -> None:
        if window < 1 or not 1 <= rank <= window:
            raise ValueError(f"Lateness needs 1 <= rank <= window, got rank {rank}, window {window}")
        self.factor, self.window, self.rank, self.cap_ms = factor, window, rank, cap_ms
        self.recent: deque[float] = deque(maxlen=window)
        self.searches = 0

    def record(self, overrun_ms: float) -> None:
        """One search ended ``overrun_ms`` after its hard deadline (negative: before it)."""
        self.searches += 1
        self.recent.append(min(self.cap_ms, max(0.0, overrun_ms)))

    def reserve_ms(self) -> float:
        late = sorted(self.recent, reverse=True)
        kept = late[self.rank - 1] if len(late) >= self.rank else 0.0
        return max(float(SAFETY_MS), self.factor * kept)


def allocate(limits: Limits, player: int, reserve_ms: float = SAFETY_MS) -> TimeBudget:
    """Decide the time budget of ``player`` under ``limits``, keeping ``reserve_ms`` back from every
    hard deadline (``Lateness.reserve_ms`` where the engine measures its own overruns).

    ``movetime`` alone: think that long (less the reserve, but at least a fifth of it). A clock
    (``time_left``, ``increment``, ``byoyomi``, ``moves_to_go``): a share of what is left (soft) and
    at most a quarter of it or four shares (hard). Both: the clock's budget, never more than
    ``movetime`` (a per-move limit on top of a game clock, as the Gomocup protocol's ``timeout_turn``
    with ``timeout_match``).
    """
    if limits.infinite:
        return TimeBudget(None, None)
    reserve = max(float(SAFETY_MS), reserve_ms)
    cap = None
    if limits.movetime is not None:
        if limits.movetime > 2 * SAFETY_MS:
            cap = max(limits.movetime / 5.0, limits.movetime - reserve, 1.0)
        else:
            cap = float(limits.movetime)
    left = None
    inc = 0
    if limits.time_left is not None and player < len(limits.time_left):
        left = limits.time_left[player]
        if limits.increment is not None and player < len(limits.increment):
            inc = limits.increment[player]
    byo = limits.byoyomi or 0
    if left is None and not byo:
        # a move time alone is spent whole: what is not used is lost
        return TimeBudget(cap, cap, per_move=cap is not None)
    left = max(0, left or 0)
    if left <= 0 and byo and not inc:
        # byoyomi alone: the move's time is lost unless it is used
        hard = max(byo / 5.0, byo - reserve, 1.0) if byo > 2 * SAFETY_MS else float(byo)
        if cap is not None:
            hard = min(hard, cap)
        return TimeBudget(hard, hard, per_move=True)
    mtg = limits.moves_to_go or 30
    soft = left / mtg + 0.75 * inc + 0.9 * byo
    hard = min(left + byo, max(soft * 4, left / 4 + byo)) - reserve
    hard = max(hard, 1.0)
    if cap is not None:
        hard = min(hard, cap)
    soft = min(soft, hard)
    return TimeBudget(soft, hard)
