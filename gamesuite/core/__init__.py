"""The State API, scores, limits, search reports, errors and the game registry.

Nothing here imports Qt or any particular game.
"""

from .errors import (
    EngineError,
    EngineFailure,
    GameSuiteError,
    IllegalMoveError,
    InvalidGameSpecError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidRecordError,
    ProtocolError,
)
from .info import Engine, InfoCallback, SearchInfo, SearchResult, new_stop_flag
from .limits import Limits
from .registry import (
    FileFormat,
    Game,
    Param,
    engines_for,
    game_classes,
    load_game,
    make_engine,
    register_engine,
    register_game,
)
from .score import WIN, WIN_THRESHOLD, Score
from .state import CHANCE, TERMINAL, State

__all__ = [
    "CHANCE",
    "TERMINAL",
    "WIN",
    "WIN_THRESHOLD",
    "Engine",
    "EngineError",
    "EngineFailure",
    "FileFormat",
    "Game",
    "GameSuiteError",
    "IllegalMoveError",
    "InfoCallback",
    "InvalidGameSpecError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "InvalidRecordError",
    "Limits",
    "Param",
    "ProtocolError",
    "Score",
    "SearchInfo",
    "SearchResult",
    "State",
    "engines_for",
    "game_classes",
    "load_game",
    "make_engine",
    "new_stop_flag",
    "register_engine",
    "register_game",
]
