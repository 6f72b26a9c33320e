"""Errors raised at the text edges of the program, and by engines.

Every error is a ``ValueError`` subclass named for what went wrong; its message
quotes the offending input (and, where there is one, the position)::

    GameSuiteError
    ├── InvalidMoveError, IllegalMoveError, InvalidPositionError
    ├── InvalidGameSpecError, InvalidOptionError, InvalidRecordError
    └── EngineError                  something went wrong between the program and an engine
        ├── ProtocolError            a protocol line that cannot be understood or obeyed
        └── EngineFailure            an engine lost a game by misbehaving (the arena's adjudication)
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


class EngineError(GameSuiteError):
    """Something went wrong between the program and an engine (one of ours, or an external program)."""


class ProtocolError(EngineError):
    """A line of an engine protocol that cannot be understood or obeyed: a bad command sent to one of
    our front ends (USI, Gomocup, JSON lines), or a bad reply from an external program."""


#: Why an engine lost a game by adjudication (``EngineFailure.kind``).
FAILURE_KINDS = ("illegal", "crash", "hang", "time", "resign", "no move", "protocol")


class EngineFailure(EngineError):
    """An engine lost the game by misbehaving: ``kind`` is one of ``FAILURE_KINDS``, ``detail`` says how."""

    def __init__(self, kind: str, detail: str) -> None:
        if kind not in FAILURE_KINDS:
            raise ValueError(f"unknown failure kind {kind!r}; known: {', '.join(FAILURE_KINDS)}")
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        return type(self), (self.kind, self.detail)


def quote(text: object, limit: int = 120) -> str:
    """Return ``text`` as a quoted string for an error message, shortened if long."""
    s = str(text)
    if len(s) > limit:
        s = s[: limit - 3] + "..."
    return repr(s)
