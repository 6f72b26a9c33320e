"""The Texel tuner's datasets: positions cached in several files are used together as one set."""

from __future__ import annotations

import numpy as np
import pytest

from gamesuite.games.shogi.texel import Dataset
from tests.test_shogi_engine import _mirror_sfen


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


# -- the KPA tables: the tie map, the flag a fit sets, features made anew for cached labels ----------------------


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_the_tie_map_ties_the_kpa_mirror_squares_of_a_king_on_the_middle_file(spec: str) -> None:
    import random

    from gamesuite.core import load_game
    from gamesuite.games.shogi.board import SLIDE_MASK
    from gamesuite.games.shogi.evaluation import E_KPA, E_KPA_ON, E_PST, E_SIZE, _evaluate, kpa_index
    from gamesuite.games.shogi.texel import tie_map

    game = load_game(spec)
    g = game.geometry
    files, mid = g.files, g.files // 2
    tie = tie_map(files)
    assert tie[E_KPA_ON] == -1  # the flag is no parameter
    for king in range(2):
        for kr, t, r, f in ((0, 3, 2, 0), (files - 1, 9, files - 1, 1), (1, 14, 0, mid + 1)):
            a = kpa_index(files, king, kr, mid, t, r, f)
            b = kpa_index(files, king, kr, mid, t, r, files - 1 - f)
            assert a != b and tie[a] == tie[b] >= 0
            # a king off the middle file: the two squares are two features
            off = [tie[kpa_index(files, king, kr, 0, t, r, x)] for x in (f, files - 1 - f)]
            assert off[0] != off[1]
    assert tie[kpa_index(files, 0, 0, mid, 3, 2, mid)] >= 0
    # weights made of the parameters (the piece-square and KPA tables only): a position and its mirror are equal
    rng = np.random.default_rng(3)
    params = rng.integers(-300, 300, int(tie.max()) + 1)
    ew = np.zeros(E_SIZE, dtype=np.int32)
    keep = np.zeros(E_SIZE, dtype=bool)
    keep[E_PST:E_PST + 16 * 81] = keep[E_KPA:] = True
    ew[keep] = params[tie[keep]]
    ew[E_KPA_ON] = 1

    def value(s):  # type: ignore[no-untyped-def]
        return _evaluate(s.board, s.hands, s.kings, np.int64(s.color), g.geo, g.sq2p, g.rel, g.pfile, g.dirs,
                         SLIDE_MASK, ew)

    r = random.Random(4)
    for _ in range(30):
        s = game.new_state()
        for _ in range(r.randrange(2, 100)):
            if s.is_terminal():
                break
            s.play(r.choice(s.legal_moves()))
        assert value(s) == value(game.state_from_text(_mirror_sfen(s.sfen()))), s.sfen()


def _kpa_dataset(rng: np.random.Generator, rows: int) -> tuple[Dataset, int, int]:
    """Positions where one KPA feature goes with wins and another with losses."""
    from gamesuite.games.shogi.evaluation import E_TEMPO, kpa_index

    good, bad = kpa_index(9, 1, 1, 2, 5, 2, 3), kpa_index(9, 0, 8, 1, 7, 7, 0)
    which = rng.random(rows) < 0.5
    idx = np.stack([np.full(rows, E_TEMPO), np.where(which, good, bad)], axis=1).ravel().astype(np.int32)
    coef = np.stack([np.ones(rows), np.ones(rows)], axis=1).ravel()
    y = np.where(which, (rng.random(rows) < 0.8) * 1.0, (rng.random(rows) < 0.2) * 1.0)
    data = Dataset(np.arange(0, 2 * rows + 1, 2, dtype=np.int64), idx, coef, y,
                   np.arange(rows, dtype=np.int32) // 4, np.full(rows, np.nan))
    return data, good, bad


def test_a_fit_that_moves_kpa_weights_turns_the_tables_on() -> None:
    from gamesuite.core import load_game
    from gamesuite.games.shogi.evaluation import E_KPA, E_KPA_ON, E_SIZE, default_weights
    from gamesuite.games.shogi.texel import fit

    g = load_game("shogi").geometry
    rng = np.random.default_rng(11)
    data, good, bad = _kpa_dataset(rng, 400)
    ew0 = default_weights(g)
    assert ew0[E_KPA_ON] == 0 and not ew0[E_KPA:].any()
    ew, _ = fit(data, data, ew0, 9, iterations=60, scale=200.0, log=lambda *_: None)
    assert ew[E_KPA_ON] == 1 and ew[good] > 10 and ew[bad] < -10
    # a strong pull of the KPA tables alone keeps them near their start, the rest free
    held, _ = fit(data, data, ew0, 9, iterations=60, scale=200.0, l2_kpa=1e5, log=lambda *_: None)
    assert abs(int(held[good])) < abs(int(ew[good])) / 4 and abs(int(held[bad])) < abs(int(ew[bad])) / 4
    # no KPA feature: the tables stay off, and tables that were off start from zero
    plain = data.subset(np.arange(data.size))
    plain.idx = np.where(plain.idx >= E_KPA, 0, plain.idx).astype(np.int32)
    stale = ew0.copy()
    stale[E_KPA:] = 7  # off: worth nothing to the engine, so nothing to the fit
    off, _ = fit(plain, plain, stale, 9, iterations=20, scale=200.0, log=lambda *_: None)
    assert off[E_KPA_ON] == 0 and not off[E_KPA:].any() and off.shape == (E_SIZE,)


def _save_random_games(directory, count: int, seed: int) -> None:  # type: ignore[no-untyped-def]
    """``count`` records of random shogi games (60 plies, a made-up result) as the arena saves them."""
    import random

    from gamesuite.arena.record import GameRecord, save_record
    from gamesuite.core import load_game

    game = load_game("shogi")
    r = random.Random(seed)
    for i in range(count):
        s = game.new_state()
        moves = []
        for _ in range(60):
            if s.is_terminal():
                break
            m = r.choice(s.legal_moves())
            moves.append(s.format_move(m))
            s.play(m)
        win = r.random() < 0.5
        save_record(GameRecord(game="shogi", start="", moves=moves, opening_plies=0, engines=["a", "b"],
                               returns=[1.0, -1.0] if win else [-1.0, 1.0], result="1-0" if win else "0-1",
                               reason="resignation", round=i), directory)


def test_refeature_keeps_the_labels_with_new_features(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from gamesuite.games.shogi.evaluation import E_SIZE, E_SIZE_V1
    from gamesuite.games.shogi.texel import load_positions, main, read_cache

    games = tmp_path / "games"
    _save_random_games(games, 10, 1)  # the tenth game is held out
    fresh = load_positions([str(games)], 16, log=lambda *_: None)
    assert fresh.size > 200 and (fresh.idx >= E_SIZE_V1).any()
    # a cache of the old layout: no KPA features, no esize, the labels of a search
    lens = np.add.reduceat((fresh.idx < E_SIZE_V1).astype(np.int64), fresh.rowptr[:-1])
    labels = np.arange(fresh.size) * 3.0
    labels[::5] = np.nan
    old = tmp_path / "old.npz"
    np.savez(old, rowptr=np.concatenate([[0], np.cumsum(lens)]), idx=fresh.idx[fresh.idx < E_SIZE_V1],
             coef=fresh.coef[fresh.idx < E_SIZE_V1], y=fresh.y, game=fresh.game, v=labels)
    out = ["--out", str(tmp_path / "weights.npz")]  # never the package's file
    # the fit stops on it and says how to go on
    assert main([str(games), "--cache", str(old), *out]) == 2
    assert "--refeature" in capsys.readouterr().err
    new = tmp_path / "new.npz"
    assert main([str(games), "--cache", str(old), "--refeature", str(new), *out]) == 0
    with np.load(new) as z:
        assert int(z["esize"]) == E_SIZE
    got = read_cache(new)
    assert np.array_equal(got.rowptr, fresh.rowptr) and np.array_equal(got.idx, fresh.idx)
    assert np.array_equal(got.coef, fresh.coef) and np.array_equal(got.y, fresh.y)
    assert np.array_equal(got.game, fresh.game) and np.array_equal(got.v, labels, equal_nan=True)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left
    assert not (tmp_path / "weights.npz").exists()
    # the new cache is read, not refused, and fitted on
    assert main([str(games), "--cache", str(new), "--iterations", "3", "--scale", "300", *out]) == 0
    with np.load(tmp_path / "weights.npz") as z:
        assert z["standard"].shape == (E_SIZE,)
    # other records than the cache's: a clear error naming both
    more = tmp_path / "more"
    _save_random_games(more, 11, 1)
    assert main([str(more), "--cache", str(old), "--refeature", str(tmp_path / "x.npz"), *out]) == 2
    err = capsys.readouterr().err
    assert "old.npz" in err and "more" in err and "differ" in err and not (tmp_path / "x.npz").exists()
    assert main([str(games), "--cache", str(tmp_path / "none.npz"), "--refeature", str(new), *out]) == 2
    # --no-kpa: the same cache fitted without the KPA tables, written in the layout without them
    assert main([str(games), "--cache", str(new), "--iterations", "3", "--scale", "300", "--no-kpa", *out]) == 0
    with np.load(tmp_path / "weights.npz") as z:
        assert z["standard"].shape == (E_SIZE_V1,)


def test_a_dataset_without_kpa_features_keeps_every_position_and_every_other_feature() -> None:
    from gamesuite.games.shogi.evaluation import E_KPA, E_SIZE

    rng = np.random.default_rng(12)
    data, good, bad = _kpa_dataset(rng, 50)
    extra = _random_dataset(rng, 30, 4)  # features below E_KPA only
    both = Dataset.concat([data, extra])
    plain = both.without_kpa()
    assert plain.size == both.size and not (plain.idx >= E_KPA).any()
    assert np.array_equal(plain.y, both.y) and np.array_equal(plain.game, both.game)
    for i in range(both.size):
        s, e = both.rowptr[i], both.rowptr[i + 1]
        keep = both.idx[s:e] < E_KPA
        assert np.array_equal(plain.idx[plain.rowptr[i]:plain.rowptr[i + 1]], both.idx[s:e][keep])
        assert np.array_equal(plain.coef[plain.rowptr[i]:plain.rowptr[i + 1]], both.coef[s:e][keep])
    # any weights with the KPA tables zero evaluate both the same
    w = rng.normal(size=E_SIZE)
    w[E_KPA:] = 0
    full = np.add.reduceat(w[both.idx] * both.coef, both.rowptr[:-1])
    assert np.allclose(np.add.reduceat(w[plain.idx] * plain.coef, plain.rowptr[:-1]), full)
    assert (both.idx == good).any() and (both.idx == bad).any()
