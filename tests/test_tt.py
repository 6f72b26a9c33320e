"""The transposition table's prefetch hint: it reads nothing back and changes nothing."""

import numpy as np
from numba import njit

from gamesuite.search.tt import new_table, tt_prefetch, tt_probe, tt_store


@njit(cache=True)
def _prefetch_then_probe(t, keys, out) -> None:
    for i in range(keys.shape[0]):
        tt_prefetch(t, keys[i])
        out[i] = tt_probe(t, keys[i])


def test_prefetch_changes_nothing_and_takes_any_key():
    t = new_table(0.1)
    tt_store(t, np.uint64(12345), np.int64(3), np.int64(0), np.int64(7), np.int64(9), np.int64(0), np.int64(1))
    before = t.copy()
    keys = np.array([0, 12345, 2**64 - 1, 2**63, 987654321987654321], dtype=np.uint64)
    out = np.zeros(len(keys), dtype=np.int64)
    _prefetch_then_probe(t, keys, out)
    assert np.array_equal(t, before)
    assert out[1] == 12345 & (t.shape[0] - 1)  # the stored key is found, in its slot
    assert list(out[[0, 2, 3, 4]]) == [-1, -1, -1, -1]
