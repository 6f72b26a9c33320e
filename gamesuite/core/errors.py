"""Errors raised at the text edges of the program.

Every error is a ``ValueError`` subclass named for what went wrong; its message
quotes the offending input (and, where there is one, the position).
"""

from __future__ import annotations


class GameSuiteError(ValueError):
    """Base of every input error gamesuite raises."""


class InvalidMoveError(GameSuiteError):
    """A move text that cannot be parsed at all (``'z99'`` on a 15x15 board)."""


class IllegalMoveError(GameSuiteError):
    """A well-formed move that the rules do not allow in this position."""


class InvalidPositionError(GameSuiteError):
    """A position text that is malformed or describes an impossible position."""


class InvalidGameSpecError(GameSuiteError):
    """A game spec such as ``'gomoku(size=99)'`` that names no game or bad parameters."""


class InvalidOptionError(GameSuiteError):
    """An engine option, limit or setting that is malformed or out of range."""


class InvalidRecordError(GameSuiteError):
    """A game record (file) that cannot be read."""


def quote(text: object, limit: int = 120) -> str:
    """Return ``text`` as a quoted string for an error message, shortened if long."""
    s = str(text)
    if len(s) > limit:
        s = s[: limit - 3] + "..."
    return repr(s)
