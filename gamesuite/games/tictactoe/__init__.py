"""Tic-tac-toe and m,n,k games, with a perfect-play engine."""

from .engine import TicTacToeEngine
from .mcts import TicTacToeMCTS
from .rules import TicTacToe, TicTacToeState

__all__ = ["TicTacToe", "TicTacToeEngine", "TicTacToeMCTS", "TicTacToeState"]
