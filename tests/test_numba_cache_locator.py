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
