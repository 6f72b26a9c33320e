"""Where numba keeps compiled kernels when gamesuite runs as a frozen program.

numba's own locators fail a frozen (PyInstaller) build: the kernels' source
files are not on disk, so numba falls back to a user-wide folder named after
the absolute path of a file that does not exist, which depends on the working
directory, and it ignores ``NUMBA_CACHE_DIR`` for the same reason. Every
launch from a new folder then recompiles everything.

``install()`` puts ``FrozenCacheLocator`` first: in a frozen program it keeps
the cache under the user's cache folder, keyed by the build (a hash of the
executable), so launches from any folder share it and a new build never loads
a stale one. Outside a frozen program it does nothing and numba's usual
locators apply. Call ``install()`` before importing any module with kernels.
"""

from __future__ import annotations

import hashlib
import os
import sys
from functools import lru_cache


def is_frozen() -> bool:
    """True inside a PyInstaller (or similar) frozen program."""
    return bool(getattr(sys, "frozen", False))


@lru_cache(maxsize=1)
def build_id() -> str:
    """A short hash of the running executable: one per build."""
    h = hashlib.sha256()
    with open(sys.executable, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    from . import __version__

    return f"{__version__}-{h.hexdigest()[:16]}"


def cache_root() -> str:
    """The folder for this build's compiled kernels."""
    from platformdirs import user_cache_dir

    return os.path.join(user_cache_dir("gamesuite", appauthor=False), "numba", build_id())


def _locator_class() -> type:
    from numba.core.caching import _CacheLocator

    class FrozenCacheLocator(_CacheLocator):
        """Cache kernels of a frozen build under ``cache_root()/<module>``."""

        def __init__(self, py_func, py_file: str) -> None:  # type: ignore[no-untyped-def]
            self._lineno = py_func.__code__.co_firstlineno
            self._path = os.path.join(cache_root(), py_func.__module__)

        def get_cache_path(self) -> str:
            return self._path

        def get_source_stamp(self) -> str:
            return build_id()

        def get_disambiguator(self) -> str:
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):  # type: ignore[no-untyped-def]
            if not is_frozen():
                return None
            self = cls(py_func, py_file)
            try:
                self.ensure_cache_path()
            except OSError:
                return None
            return self

    return FrozenCacheLocator


_installed: type | None = None


def install() -> type:
    """Put the frozen-build locator first in numba's list (idempotent); returns its class."""
    global _installed
    if _installed is None:
        from numba.core import caching

        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # renamed in numba 0.62
        _installed = _locator_class()
        impl._locator_classes.insert(0, _installed)
    return _installed
