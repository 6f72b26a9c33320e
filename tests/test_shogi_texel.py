"""The Texel tuner's datasets: positions cached in several files are used together as one set."""

from __future__ import annotations

import numpy as np

from gamesuite.games.shogi.texel import Dataset


def _random_dataset(rng: np.random.Generator, rows: int, games: int) -> Dataset:
    lens = rng.integers(1, 6, size=rows)
    rowptr = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    n = int(rowptr[-1])
    v = rng.normal(size=rows)
    v[rng.random(rows) < 0.3] = np.nan
    return Dataset(rowptr, rng.integers(0, 500, size=n).astype(np.int32), rng.normal(size=n),
                   rng.choice([0.0, 0.5, 1.0], size=rows), np.sort(rng.integers(0, games, size=rows)).astype(np.int32),
                   v)


def test_concatenated_datasets_keep_every_row_and_keep_their_games_apart() -> None:
    rng = np.random.default_rng(5)
    a, b = _random_dataset(rng, 40, 7), _random_dataset(rng, 25, 4)
    both = Dataset.concat([a, b])
    assert both.size == a.size + b.size
    for i in range(both.size):
        part, j = (a, i) if i < a.size else (b, i - a.size)
        s, e = both.rowptr[i], both.rowptr[i + 1]
        ps, pe = part.rowptr[j], part.rowptr[j + 1]
        assert np.array_equal(both.idx[s:e], part.idx[ps:pe])
        assert np.array_equal(both.coef[s:e], part.coef[ps:pe])
        assert both.y[i] == part.y[j]
        assert np.array_equal(both.v[i], part.v[j], equal_nan=True)
    # no game of the second part shares a number with a game of the first
    assert set(both.game[: a.size]).isdisjoint(both.game[a.size:])
    assert len(set(both.game)) == len(set(a.game)) + len(set(b.game))


def test_a_dataset_split_and_joined_again_is_the_same() -> None:
    rng = np.random.default_rng(6)
    d = _random_dataset(rng, 30, 5)
    cut = 12
    joined = Dataset.concat([d.subset(np.arange(cut)), d.subset(np.arange(cut, d.size))])
    assert np.array_equal(joined.rowptr, d.rowptr)
    assert np.array_equal(joined.idx, d.idx) and np.array_equal(joined.coef, d.coef)
    assert np.array_equal(joined.v, d.v, equal_nan=True)
