"""Hare and Hedgehog (Hase und Igel) for 2-6 players, with hare cards as chance nodes."""

from . import mcts  # noqa: F401  (registers the numba MCTS)
from .engine import HareEngine
from .rules import HareGame, HareState

__all__ = ["HareEngine", "HareGame", "HareState"]
