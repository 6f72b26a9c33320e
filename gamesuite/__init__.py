"""gamesuite: play and analyse board games against a strong computer opponent."""

__version__ = "0.1.0"

from . import numba_cache as _numba_cache
from . import numba_typing as _numba_typing

_numba_cache.install()  # before any module with kernels is imported
_numba_typing.install()  # faster compiles: each call's typing worked out once
