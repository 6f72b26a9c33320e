"""The frozen-build cache locator: user cache folder, keyed by build, independent of the working folder."""

import os
import sys

from gamesuite import numba_cache


def _kernel():
    return 1


def test_locator_is_inert_outside_a_frozen_program():
    cls = numba_cache.install()
    assert numba_cache.install() is cls  # idempotent
    assert not getattr(sys, "frozen", False)
    assert cls.from_function(_kernel, __file__) is None


def test_frozen_locator_path_does_not_depend_on_the_working_folder(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cls = numba_cache.install()
    paths = []
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        monkeypatch.chdir(tmp_path / folder)
        loc = cls.from_function(_kernel, "gamesuite/games/tictactoe/kernels.py")  # a file that is not there
        assert loc is not None
        paths.append(loc.get_cache_path())
    assert paths[0] == paths[1]
    assert paths[0].startswith(str(tmp_path / "cache"))
    assert numba_cache.build_id() in paths[0] and os.path.isdir(paths[0])
    assert loc.get_source_stamp() == numba_cache.build_id()


def test_gamesuite_kernels_are_stamped_with_every_kernel_file():
    from gamesuite.games.tictactoe import kernels

    dispatcher = next(v for n, v in vars(kernels).items() if n.startswith("_") and hasattr(v, "_cache"))
    locator = dispatcher._cache._impl.locator
    assert type(locator).__name__.startswith("PackageStamped")
    assert locator.get_source_stamp() == numba_cache.package_stamp()
    files = numba_cache._kernel_files()
    assert any(f.endswith(os.path.join("shogi", "kernels.py")) for f in files)
    assert any(f.endswith(os.path.join("shogi", "search.py")) for f in files)


def test_a_change_to_any_kernel_file_changes_the_stamp():
    before = numba_cache.compute_package_stamp()
    path = next(f for f in numba_cache._kernel_files() if f.endswith(os.path.join("shogi", "kernels.py")))
    st = os.stat(path)
    try:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
        assert numba_cache.compute_package_stamp() != before  # search.py's kernels will compile again
    finally:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert numba_cache.compute_package_stamp() == before


def test_kernels_outside_gamesuite_keep_numbas_own_locators():
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    stamped = [c for c in impl._locator_classes if c.__name__.startswith("PackageStamped")]
    assert len(stamped) == 3
    assert all(c.from_function(_kernel, __file__) is None for c in stamped)
    assert not numba_cache.in_package(__file__)
