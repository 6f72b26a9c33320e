"""Tic-tac-toe and m,n,k games, with a perfect-play engine."""

from .engine import TicTacToeEngine
from .rules import TicTacToe, TicTacToeState

__all__ = ["TicTacToe", "TicTacToeEngine", "TicTacToeState"]
