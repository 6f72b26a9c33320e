"""Shogi (9x9) and minishogi (5x5): rules, SFEN/USI notation, numba move generation and perft."""

from .engine import ShogiEngine
from .rules import MINI_START, STANDARD_START, Shogi, ShogiState

__all__ = ["MINI_START", "STANDARD_START", "Shogi", "ShogiEngine", "ShogiState"]
