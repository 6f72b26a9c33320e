"""The pieces the games' Texel fits share (``gamesuite.arena.texel``)."""

import math

import numpy as np
import pytest

from gamesuite.arena.texel import Adam, best_scale, cross_entropy, label_caches


def test_cross_entropy_is_the_plain_formula_and_stays_finite():
    z = np.array([-3.0, 0.0, 2.5])
    t = np.array([0.1, 0.5, 0.9])
    p = 1 / (1 + np.exp(-z))
    assert math.isclose(cross_entropy(z, t), float(np.mean(-(t * np.log(p) + (1 - t) * np.log(1 - p)))))
    assert math.isfinite(cross_entropy(np.array([-1e4, 1e4]), np.array([1.0, 0.0])))  # no overflow far out


def test_best_scale_finds_the_minimum_of_the_loss():
    assert math.isclose(best_scale(lambda k: (math.log(k) - math.log(137.0)) ** 2, 20.0, 5000.0), 137.0,
                        rel_tol=1e-6)
    # at the ends of the range when the minimum lies beyond them
    assert math.isclose(best_scale(lambda k: k, 20.0, 5000.0), 20.0, rel_tol=1e-6)
    assert math.isclose(best_scale(lambda k: -k, 20.0, 5000.0), 5000.0, rel_tol=1e-6)


def test_adam_minimises_a_quadratic():
    target = np.array([3.0, -2.0, 0.5])
    w = np.zeros(3)
    adam = Adam(3, lr=0.05)
    for _ in range(2000):
        adam.step(w, 2 * (w - target))
    assert np.allclose(w, target, atol=1e-3) and adam.it == 2000


def test_label_caches_reads_only_when_every_file_exists(tmp_path):
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    assert label_caches(None) == ([], False)
    assert label_caches([str(a)]) == ([a], False)  # one missing file: label, then write it
    a.write_bytes(b"")
    assert label_caches([str(a)]) == ([a], True)
    with pytest.raises(ValueError, match="b.npz does not exist"):
        label_caches([str(a), str(b)])
    b.write_bytes(b"")
    assert label_caches([str(a), str(b)]) == ([a, b], True)
