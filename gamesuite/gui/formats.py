"""Each game's standard file formats, for Game › Import and Export.

A format reads a file into a state (the game's start position, or a set-up
one, followed by the game's moves) and/or writes the line that led to a state.
Games declare their formats on ``Game.file_formats`` (by default, the
``FILE_FORMATS`` of the package's ``records`` module); the window lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..core.errors import GameSuiteError, InvalidRecordError
from ..core.registry import Game, game_classes
from ..core.state import State


@dataclass(frozen=True)
class FileFormat:
    """A game's file format: a name, file extensions (no dot) and a reader and/or writer."""

    game: str  # the registered game name
    name: str
    extensions: tuple[str, ...]
    load: Callable[[str], State] | None
    save: Callable[[State], str] | None

    def filter(self) -> str:
        """The file-dialog filter, e.g. ``Gomoku record (*.txt)``."""
        return f"{self.name} ({' '.join('*.' + e for e in self.extensions)})"


def formats_for(game_name: str) -> list[FileFormat]:
    """The file formats of one game (``Game.file_formats``)."""
    cls = game_classes().get(game_name)
    if cls is None:
        return []
    return [FileFormat(game_name, f.name, f.extensions, f.load, f.save) for f in cls.file_formats()]


def all_formats() -> list[FileFormat]:
    """The file formats of every registered game."""
    out: list[FileFormat] = []
    for name in sorted(game_classes()):
        out.extend(formats_for(name))
    return out


def format_for_path(path: str, formats: list[FileFormat] | None = None) -> FileFormat | None:
    """The format whose extension ``path`` has (None when no format claims it)."""
    low = path.lower()
    for f in formats if formats is not None else all_formats():
        if any(low.endswith("." + e) for e in f.extensions):
            return f
    return None


def decode(data: bytes) -> str:
    """File bytes as text: UTF-8 (with or without a BOM), else Shift-JIS (old KIF files)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            return data.decode("cp932")
        except UnicodeDecodeError:
            raise InvalidRecordError("the file is neither UTF-8 nor Shift-JIS text") from None


def read_game(fmt: FileFormat, text: str) -> tuple[Game, str | None, list[int]]:
    """``(game, start text or None for the usual start, moves)`` of a file; ``InvalidRecordError`` if bad."""
    if fmt.load is None:
        raise InvalidRecordError(f"{fmt.name} files can be saved, not opened")
    try:
        state: Any = fmt.load(text)
    except GameSuiteError as e:
        raise InvalidRecordError(str(e)) from None
    moves = list(state.history)
    start = state.copy()
    for _ in moves:
        start.undo()
    game = state.game
    start_text = start.to_text()
    if start_text == game.new_state().to_text():
        start_text = None
    return game, start_text, moves
