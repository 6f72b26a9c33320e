"""The game record now lives in ``gamesuite.play.record`` (one model for the window, the arena and the CLI).

This name is kept while other branches still import it; new code imports ``gamesuite.play.record``.
"""

from ..play.record import *  # noqa: F403
from ..play.record import _clocks_from_json, _read_line, _timeout_from_json  # noqa: F401
