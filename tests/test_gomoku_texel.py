"""The gomoku combination-table fit (``gomoku/texel.py``) and the engine's ``table=`` option."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from gamesuite.core.errors import InvalidOptionError
from gamesuite.core.limits import Limits
from gamesuite.games.gomoku import kernels as K
from gamesuite.games.gomoku import texel as T
from gamesuite.games.gomoku.engine import GomokuEngine, Position, load_table
from gamesuite.games.gomoku.rules import Gomoku, GomokuState


def _random_state(game: Gomoku, rng: random.Random, stones: int) -> GomokuState:
    """A position of ``stones`` random moves (played away from the edges so that lines form), not over."""
    size = game.size
    lo, hi = size // 5, size - size // 5
    assert stones < (hi - lo) ** 2
    while True:
        s = game.new_state()
        for _ in range(stones):
            while True:
                r, c = rng.randrange(lo, hi), rng.randrange(lo, hi)
                m = r * size + c
                if s.board[m] == 0:
                    break
            s.play(m)
            if s.is_terminal():
                break
        if not s.is_terminal():
            return s


@pytest.mark.parametrize("size", [15, 9])
def test_features_equal_plain_python_count(size: int) -> None:
    game = Gomoku(size=size)
    rng = random.Random(5)
    for stones in (0, 1, 6, 15, 24):
        s = _random_state(game, rng, stones)
        pos = Position(game, s.board)
        got = T.position_features(pos)
        want = T.features_ref(list(s.board), game.size, game.rule_id, s.to_move_stone)
        assert np.array_equal(got, want), stones
        assert got.sum() == 2 * (game.cells - s.stones)


def test_eval_from_features_equals_kernel() -> None:
    game = Gomoku()
    rng = random.Random(7)
    v0 = T.table_values()
    for stones in (2, 7, 12, 19, 30):
        s = _random_state(game, rng, stones)
        for tempo in (20, 16, 33):
            pos = Position(game, s.board, tempo=tempo)
            x = T.position_features(pos)
            assert int(T.linear_eval(x, v0, tempo)) // 16 == pos.evaluate()


def test_multisets_cover_the_table() -> None:
    t = K.combo_table()
    assert T.NCOMBO == 1365
    # the weights' table is a function of the multiset, so the values rebuild it exactly
    assert np.array_equal(T.make_table(T.table_values(t)), t)
    v = np.arange(T.NCOMBO) % 5000
    t2 = T.make_table(v)
    assert np.array_equal(t2 >> 16, t >> 16)
    assert np.array_equal(T.table_values(t2), v)


def test_table_round_trips_and_plays(tmp_path: Path) -> None:
    game = Gomoku(size=9)
    v = T.table_values() * 2 + 3
    path = tmp_path / "t.npz"
    written = T.save_table(path, v)
    loaded = load_table(path)
    assert np.array_equal(loaded, written)
    assert np.array_equal(T.table_values(loaded), np.clip(v, 0, 0xFFFF))
    e = GomokuEngine(game, table=str(path), hash=1)
    s = game.state_from_text("e5 f6 e6")
    pos = Position(game, s.board, cmb=e.cmb)
    plain = Position(game, s.board)
    x = T.position_features(plain)
    assert pos.evaluate() == int(T.linear_eval(x, T.table_values(loaded))) // 16 != plain.evaluate()
    r = e.search(s, Limits(nodes=2000))
    assert r.best_move is not None and s.board[r.best_move] == 0


def test_bad_tables_are_rejected(tmp_path: Path) -> None:
    game = Gomoku(size=9)
    good = K.combo_table()
    cases = {
        "missing.npz": None,
        "garbage.npz": b"not an npz",
        "badzip.npz": b"PK\x03\x04garbage",
        "noarray.npz": {"values": np.zeros(3)},
        "short.npz": {"table": good[:100]},
        "float.npz": {"table": good.astype(np.float64)},
        "class.npz": {"table": good ^ (1 << 16)},
        "negative.npz": {"table": np.where(np.arange(good.size) == 5, -1, good)},
    }
    for name, content in cases.items():
        p = tmp_path / name
        if isinstance(content, bytes):
            p.write_bytes(content)
        elif isinstance(content, dict):
            np.savez(p, **content)
        with pytest.raises(InvalidOptionError, match=name):
            GomokuEngine(game, table=str(p))
    np.savez(tmp_path / "ok.npz", table=good)
    with pytest.raises(InvalidOptionError, match="replaces the weights"):
        GomokuEngine(game, table=str(tmp_path / "ok.npz"), w_f3=50)
    assert GomokuEngine(game, table=str(tmp_path / "ok.npz")).cmb is not None


def test_tiny_fit_lowers_the_training_loss(tmp_path: Path) -> None:
    games = T.selfplay_games(6, 300, seed=3, randomness=0.2, log=lambda s: None)
    assert len(games) == 6 and all(len(g) > 0 for g in games)
    data = T._collect(games, T.Labeller(400, hash_mb=1), 0, lambda s: None)
    assert data.size > 20
    assert np.abs(data.v).max() <= T.MATE_VALUE
    cache = tmp_path / "c.npz"
    data.save(cache)
    back = T.Dataset.load(cache)
    assert np.array_equal(back.x, data.x) and np.array_equal(back.v, data.v)
    v0 = T.table_values()
    k = T.fit_scale(data, v0, 300.0)
    v, res = T.fit(data, data.subset(np.arange(5)), v0, k, 300.0, iterations=40, lr=5.0, log=lambda s: None)
    assert res["train"] < res["train0"]
    assert (v >= 0).all() and (v < 1 << 16).all()
    assert (v[T.combo_classes() == K.C_NONE] == v0[T.combo_classes() == K.C_NONE]).all()
    t = T.save_table(tmp_path / "fit.npz", v)
    assert np.array_equal(load_table(tmp_path / "fit.npz"), t)
