"""Training positions of stone games, stored compactly as boards, and the board symmetries.

A position is its board (``int8``, 0 empty, 1 the first player's stones, 2 the
second's), the stone to move (1 or 2), a policy target over the cells and a
value target from the mover's view. Networks see them through the game's
*board encoder* (``register_board_encoder``), a minibatch at a time, so a
window of hundreds of thousands of 15x15 positions takes a few hundred MB
instead of gigabytes of planes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.files import write_npz


@dataclass
class Positions:
    """``boards [N, cells]`` (int8), ``stones [N]`` (the stone to move: 1 or 2), ``pi [N, cells]`` (policy
    targets) and ``z [N]`` (value targets, the mover's view)."""

    boards: np.ndarray
    stones: np.ndarray
    pi: np.ndarray
    z: np.ndarray

    FIELDS = ("boards", "stones", "pi", "z")

    def __len__(self) -> int:
        return len(self.z)

    @classmethod
    def empty(cls, cells: int) -> Positions:
        return cls(np.zeros((0, cells), np.int8), np.zeros(0, np.int8), np.zeros((0, cells), np.float32),
                   np.zeros(0, np.float32))

    @classmethod
    def concat(cls, parts: Iterable[Positions]) -> Positions:
        parts = list(parts)
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in cls.FIELDS))

    def take(self, idx: np.ndarray | slice) -> Positions:
        return Positions(*(getattr(self, f)[idx] for f in self.FIELDS))

    def last(self, n: int) -> Positions:
        return self.take(slice(max(0, len(self) - n), None))

    def save(self, path: str | Path, **extra: np.ndarray) -> None:
        """Write a plain ``.npz`` atomically (a half-written file is never left under ``path``)."""
        write_npz(path, {"boards": self.boards, "stones": self.stones, "pi": self.pi.astype(np.float16), "z": self.z,
                         **extra}, allow_pickle=False)

    @classmethod
    def load(cls, path: str | Path) -> Positions:
        with np.load(path, allow_pickle=False) as d:
            return cls(d["boards"].astype(np.int8), d["stones"].astype(np.int8), d["pi"].astype(np.float32),
                       d["z"].astype(np.float32))


def transform(x: np.ndarray, k: int) -> np.ndarray:
    """Board symmetry ``k`` (0..7) of arrays whose last two axes are the board: ``k % 4`` quarter turns,
    then a left-right mirror when ``k >= 4`` (on a board that is not square only 0, 2, 4 and 6 keep
    its shape)."""
    y = np.rot90(x, k % 4, axes=(-2, -1))
    return y[..., ::-1] if k >= 4 else y


def symmetries(x: np.ndarray, pi: np.ndarray, height: int, width: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The board's symmetric copies of one example ``(planes [C, H, W], policy [H*W])``: 8 on a square
    board, 4 otherwise."""
    ks = range(8) if height == width else (0, 2, 4, 6)
    p = pi.reshape(height, width)
    return [(transform(x, k).copy(), transform(p, k).reshape(-1).copy()) for k in ks]
