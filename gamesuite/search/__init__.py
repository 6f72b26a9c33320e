"""Game-independent search: the iterative-deepening driver, the time manager,
transposition tables for kernels and the plain-Python reference searches.

Nothing here imports a game or Qt.
"""

from .driver import DriverOptions, Iteration, StopWatch, iterative_deepening, next_search_id
from .timeman import TimeBudget, allocate

__all__ = ["DriverOptions", "Iteration", "StopWatch", "TimeBudget", "allocate", "iterative_deepening", "next_search_id"]
