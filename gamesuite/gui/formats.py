"""Each game's standard file formats, for Game › Import and Export.

A format reads a file into a state (the game's start position, or a set-up
one, followed by the game's moves) and/or writes the line that led to a state.
Gomoku's formats are listed here (its record text and Gomocup ``.psq``);
any game package can offer its own with no change to the window: a module
``gamesuite.games.<game>.records`` that defines ``FILE_FORMATS``, a list of
``(name, extensions, load, save)`` with ``load(text) -> State`` and
``save(state) -> str`` (either may be None), optionally followed by
``load_info(text) -> (State, GameInfo)`` and ``save_info(state, GameInfo) -> str``:
the same with the players' names, the moves' times and the comments
(``core.gameinfo``), which the window then keeps on import and writes on export.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable

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


def _gomoku_formats() -> list[FileFormat]:
    try:
        rec = importlib.import_module("gamesuite.games.gomoku.records")
    except ImportError:
        return []

    def headers(info: GameInfo) -> dict[str, str]:
        h = {k: v for k, v in info.metadata.items() if k.isidentifier()}
        h.update({k: n for k, n in (("Black", info.name(0)), ("White", info.name(1))) if n})
        return h

    def load_record_info(text: str) -> tuple[State, GameInfo]:
        r = rec.load_record(text)
        meta = {k: v for k, v in r.headers.items() if k not in ("Game", "Result", "Black", "White")}
        return r.state, GameInfo(names=[r.headers.get("Black", ""), r.headers.get("White", "")], metadata=meta)

    def load_psq_info(text: str) -> tuple[State, GameInfo]:
        r = rec.load_psq(text)
        return r.state, GameInfo(times=list(r.times))

    return [
        FileFormat("gomoku", "Gomoku record", ("txt", "gomoku"), lambda text: rec.load_record(text).state,
                   lambda state: rec.save_record(state), load_record_info,
                   lambda state, info: rec.save_record(state, headers(info))),
        FileFormat("gomoku", "Gomocup record", ("psq",), lambda text: rec.load_psq(text).state,
                   lambda state: rec.save_psq(state), load_psq_info,
                   lambda state, info: rec.save_psq(state, info.times, info.names)),
    ]


def _package_formats(name: str) -> list[FileFormat]:
    """Formats a game package declares in ``records.FILE_FORMATS`` (none when it has no such module)."""
    try:
        rec = importlib.import_module(f"gamesuite.games.{name}.records")
    except ImportError:
        return []
    out = []
    for entry in getattr(rec, "FILE_FORMATS", ()):
        fname, exts, load, save, *rich = entry
        load_info, save_info = (list(rich) + [None, None])[:2]
        out.append(FileFormat(name, str(fname), tuple(str(e).lstrip(".") for e in exts), load, save,
                              load_info, save_info))
    return out


def formats_for(game_name: str) -> list[FileFormat]:
    """The file formats of one game (its package's own, plus those listed here)."""
    fmts = _package_formats(game_name)
    if game_name == "gomoku" and not fmts:
        fmts = _gomoku_formats()
    return fmts


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
