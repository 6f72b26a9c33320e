"""Gomoku (freestyle, standard, renju): rules, records and the numba engine."""

from . import engine, mcts, net  # noqa: F401  (registers the engines and the network encoder)
from .records import GameRecord, load_psq, load_record, save_record
from .rules import Gomoku, GomokuState

__all__ = ["GameRecord", "Gomoku", "GomokuState", "load_psq", "load_record", "save_record"]
