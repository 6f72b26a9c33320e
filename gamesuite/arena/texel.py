"""What the games' Texel fits share (``games/shogi/texel.py``, ``games/gomoku/texel.py``): the cross-entropy of
a logistic prediction, the scale ``K`` of ``sigmoid(eval / K)`` that fits best, Adam's step, and the rule of the
``--cache`` files."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np


def cross_entropy(z: np.ndarray, t: np.ndarray) -> float:
    """Mean cross-entropy of ``sigmoid(z)`` against the probabilities ``t`` (computed stably)."""
    return float(np.mean(np.logaddexp(0, z) - t * z))


def best_scale(loss: Callable[[float], float], lo: float, hi: float, steps: int = 60) -> float:
    """The ``K`` in ``[lo, hi]`` with the least ``loss(K)``: golden-section search on a log scale (``loss`` is
    taken to have one minimum there)."""
    a_, b_ = math.log(lo), math.log(hi)
    for _ in range(steps):
        a = a_ + (b_ - a_) * 0.382
        b = a_ + (b_ - a_) * 0.618
        if loss(math.exp(a)) < loss(math.exp(b)):
            b_ = b
        else:
            a_ = a
    return math.exp((a_ + b_) / 2)


class Adam:
    """Adam's update of a parameter vector in place (Kingma and Ba; moments 0.9 and 0.999)."""

    def __init__(self, size: int, lr: float, b1: float = 0.9, b2: float = 0.999) -> None:
        self.lr, self.b1, self.b2 = lr, b1, b2
        self.m = np.zeros(size)
        self.v = np.zeros(size)
        self.it = 0

    def step(self, w: np.ndarray, grad: np.ndarray) -> None:
        """One step of ``w`` against the gradient ``grad``."""
        self.it += 1
        b1, b2 = self.b1, self.b2
        self.m = b1 * self.m + (1 - b1) * grad
        self.v = b2 * self.v + (1 - b2) * grad * grad
        w -= self.lr * (self.m / (1 - b1 ** self.it)) / (np.sqrt(self.v / (1 - b2 ** self.it)) + 1e-12)


def label_caches(given: list[str] | None) -> tuple[list[Path], bool]:
    """The ``--cache`` files of a fit and whether to read them (every one exists) rather than label positions
    and write the first. ``ValueError`` when more than one is given and some do not exist."""
    caches = [Path(c) for c in given or []]
    missing = [str(c) for c in caches if not c.exists()]
    if len(caches) > 1 and missing:
        raise ValueError(f"--cache given {len(caches)} times, but {', '.join(missing)} does not exist")
    return caches, bool(caches) and not missing
