"""Each game's standard file formats, for Game › Import and Export.

A format reads a file into a state (the game's start position, or a set-up
one, followed by the game's moves) and/or writes the line that led to a state.
Games declare their formats on ``Game.file_formats`` (by default, the
``FILE_FORMATS`` of the package's ``records`` module: ``(name, extensions,
load, save)``, optionally followed by ``load_info(text) -> (State, GameInfo)``
and ``save_info(state, GameInfo) -> str``, the same with the players' names,
the moves' times and the comments (``core.gameinfo``), which the window then
keeps on import and writes on export); the window lists them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import GameSuiteError, InvalidRecordError
from ..core.files import decode_text
from ..core.gameinfo import GameInfo
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
    load_info: Callable[[str], tuple[State, GameInfo]] | None = None
    save_info: Callable[[State, GameInfo], str] | None = None

    def filter(self) -> str:
        """The file-dialog filter, e.g. ``Gomoku record (*.txt)``."""
        return f"{self.name} ({' '.join('*.' + e for e in self.extensions)})"

    def write(self, state: State, info: GameInfo | None = None) -> str:
        """The text of the line that led to ``state``, with ``info`` where the format keeps it."""
        if info is not None and self.save_info is not None:
            return self.save_info(state, info)
        if self.save is None:
            raise InvalidRecordError(f"{self.name} files can be opened, not saved")
        return self.save(state)

    def read(self, text: str) -> tuple[State, GameInfo]:
        """The state a file leads to (its moves in ``history``) and what it says besides the moves."""
        if self.load_info is not None:
            return self.load_info(text)
        if self.load is None:
            raise InvalidRecordError(f"{self.name} files can be saved, not opened")
        return self.load(text), GameInfo()


def formats_for(game_name: str) -> list[FileFormat]:
    """The file formats of one game (``Game.file_formats``)."""
    cls = game_classes().get(game_name)
    if cls is None:
        return []
    return [FileFormat(game_name, f.name, f.extensions, f.load, f.save, f.load_info, f.save_info)
            for f in cls.file_formats()]


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


#: Encodings tried after UTF-8 when a game file is imported: Shift-JIS (old KIF files).
TEXT_FALLBACKS = ("cp932",)


def decode(data: bytes) -> str:
    """File bytes as text: UTF-8 (with or without a BOM), else Shift-JIS (old KIF files);
    ``InvalidRecordError`` for binary data or bytes neither reads."""
    return decode_text(data, TEXT_FALLBACKS)


def read_game(fmt: FileFormat, text: str) -> tuple[Game, str | None, list[int]]:
    """``(game, start text or None for the usual start, moves)`` of a file; ``InvalidRecordError`` if bad."""
    game, start, moves, _ = read_game_info(fmt, text)
    return game, start, moves


def read_game_info(fmt: FileFormat, text: str) -> tuple[Game, str | None, list[int], GameInfo]:
    """``read_game`` and what the file says besides the moves (names, times, comments)."""
    if fmt.load is None and fmt.load_info is None:
        raise InvalidRecordError(f"{fmt.name} files can be saved, not opened")
    try:
        state, info = fmt.read(text)
    except GameSuiteError as e:
        raise InvalidRecordError(str(e)) from None
    s: Any = state
    moves = list(s.history)
    start = s.copy()
    for _ in moves:
        start.undo()
    game = s.game
    start_text = start.to_text()
    if start_text == game.new_state().to_text():
        start_text = None
    return game, start_text, moves, info
