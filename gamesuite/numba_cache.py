"""Where numba keeps compiled kernels when gamesuite runs as a frozen program.

numba's own locators fail a frozen (PyInstaller) build: the kernels' source
files are not on disk, so numba falls back to a user-wide folder named after
the absolute path of a file that does not exist, which depends on the working
directory, and it ignores ``NUMBA_CACHE_DIR`` for the same reason. Every
launch from a new folder then recompiles everything.

``install()`` puts ``FrozenCacheLocator`` first: in a frozen program it keeps
the cache under the user's cache folder, keyed by the build (a hash of the
executable), so launches from any folder share it and a new build never loads
a stale one.

Outside a frozen program numba's own places are used (``__pycache__`` beside
the source, else a user-wide folder), but a gamesuite kernel's cache is
stamped with *every* gamesuite kernel file (``package_stamp()``), not only its
own. numba's stamp is the kernel's own file alone, so a kernel that calls
another module's kernel kept the old callee compiled into it after that
module changed (a ``git pull`` that touched only ``kernels.py`` left
``search.py`` running stale code). Now a change to any kernel file makes every
kernel compile again once.

``gamesuite/__init__.py`` calls ``install()``, so it runs before any module
with kernels is imported. A frozen build also ships compiled kernels;
``seed_cache()`` copies them into the user's folder on the first launch (see
``packaging/entry.py`` and docs/packaging.md).
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


def seed_cache(shipped: str) -> bool:
    """Copy a frozen build's shipped kernels (compiled when the program was built, for the CPU family
    ``packaging/entry.py`` selected) into this user's cache folder, once: then the first launch loads
    them instead of compiling. True if it copied anything."""
    dest = cache_root()
    marker = os.path.join(dest, ".seeded")
    if not os.path.isdir(shipped) or os.path.exists(marker):
        return False
    import shutil

    try:
        os.makedirs(dest, exist_ok=True)
        for name in os.listdir(shipped):
            src = os.path.join(shipped, name)
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(dest, name), dirs_exist_ok=True)
        from .core.files import write_atomic  # here: this module is imported before the package's others

        write_atomic(marker, shipped + "\n")
    except OSError:
        return False
    return True


PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _kernel_files() -> list[str]:
    """The package's source files that define numba kernels."""
    out = []
    for folder, _dirs, files in os.walk(PACKAGE_DIR):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                try:
                    with open(path, "rb") as f:
                        if b"@njit" in f.read():
                            out.append(path)
                except OSError:
                    continue
    return sorted(out)


def compute_package_stamp() -> str:
    """A hash of the name, modification time and size of every kernel file of the package."""
    h = hashlib.sha256()
    for path in _kernel_files():
        try:
            st = os.stat(path)
        except OSError:
            continue
        h.update(f"{os.path.relpath(path, PACKAGE_DIR)}:{st.st_mtime_ns}:{st.st_size}\n".encode())
    return h.hexdigest()[:16]


@lru_cache(maxsize=1)
def package_stamp() -> str:
    """``compute_package_stamp()`` once per process: the source stamp of every gamesuite kernel."""
    return compute_package_stamp()


def in_package(py_file: str) -> bool:
    """Whether ``py_file`` is a source file of gamesuite."""
    try:
        return os.path.commonpath([os.path.abspath(py_file), PACKAGE_DIR]) == PACKAGE_DIR
    except ValueError:  # another drive on Windows
        return False


def _package_locator_classes() -> list[type]:
    from numba.core import caching

    def stamped(base: type) -> type:
        class PackageStamped(base):  # type: ignore[misc, valid-type]
            """numba's locator, with the whole package's kernel files as the source stamp."""

            def get_source_stamp(self) -> str:
                return package_stamp()

            @classmethod
            def from_function(cls, py_func, py_file):  # type: ignore[no-untyped-def]
                if is_frozen() or not in_package(py_file):
                    return None
                return super().from_function(py_func, py_file)

        PackageStamped.__name__ = PackageStamped.__qualname__ = f"PackageStamped{base.__name__}"
        return PackageStamped

    return [stamped(caching.UserProvidedCacheLocator), stamped(caching.InTreeCacheLocator),
            stamped(caching.UserWideCacheLocator)]


_installed: type | None = None


def install() -> type:
    """Put gamesuite's locators first in numba's list (idempotent); returns the frozen-build one."""
    global _installed
    if _installed is None:
        from numba.core import caching

        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # renamed in numba 0.62
        _installed = _locator_class()
        impl._locator_classes[0:0] = [_installed, *_package_locator_classes()]
    return _installed
