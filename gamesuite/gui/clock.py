"""The game clocks now live in ``gamesuite.play.clock`` (one time control for the window and the arena).

This name is kept while other branches still import it; new code imports ``gamesuite.play.clock``.
"""

from ..play.clock import (  # noqa: F401
    ClockRunner,
    ClockValue,
    Reading,
    TimeControl,
    TimeSource,
    after_move,
    available,
    format_ms,
    monotonic_ms,
    reading,
)
