"""Entry point of the frozen program: numba's cache locator first, then the usual CLI."""

import multiprocessing

from gamesuite import numba_cache

numba_cache.install()  # before any module with kernels is imported

from gamesuite.cli import entry_point  # noqa: E402

if __name__ == "__main__":
    multiprocessing.freeze_support()
    entry_point()
