"""Text for the window: scores from a fixed point of view, node counts, times."""

from __future__ import annotations

from ..core.registry import Game
from ..core.score import Score


def score_text(score: Score, game: Game) -> str:
    """``score`` from player 0's view: ``+0.35``, ``X wins in 3``, ``draw``, ``55.0%``."""
    if score.kind == "vector":
        return score.text()
    s = score.for_player(0)
    if s.kind == "mate":
        n = s.mate_moves()
        winner = 0 if n > 0 else 1
        return f"{game.player_name(winner)} wins in {abs(n)}"
    return s.text()


def score_value(score: Score) -> float:
    """``score`` from player 0's view squashed into [-1, 1] for the graph (mates at the ends)."""
    import math

    if score.kind == "vector":
        return max(-1.0, min(1.0, score.values[0] if score.values else 0.0))
    s = score.for_player(0)
    if s.kind == "mate":
        return 1.0 if s.value > 0 else -1.0
    if s.kind == "draw":
        return 0.0
    if s.kind == "winrate":
        return 2.0 * s.value - 1.0
    return math.tanh(s.value / 400.0)


def count_text(n: int) -> str:
    """``1234567`` as ``1.23M``."""
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= div:
            return f"{n / div:.3g}{unit}"
    return str(n)


def time_text(ms: int) -> str:
    return f"{ms / 1000:.2f}s" if ms < 60_000 else f"{ms // 60000}:{(ms // 1000) % 60:02d}"
