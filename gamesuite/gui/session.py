"""Whether the game in the window is saved: the one place that decides it.

Every action that would replace the game (New game, Open, Import, Paste
position, a set-up position) asks ``SaveState.is_unsaved`` first, and the window
asks the user *Save / Discard / Cancel* when it says yes. Quitting replaces
nothing: the autosave keeps the game, unsaved or not, and the next launch opens
it again (``Storage``).

A game is unsaved when its moves (the whole tree, with the start position and
the comments) differ from what was last saved or opened. Engine scores, clock
readings and the position shown are not the user's work and do not count; a
game without a move has nothing to lose. No Qt in this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..play.record import GameRecord, Node


def moves_shape(record: GameRecord) -> tuple[Any, ...]:
    """What the user made of ``record``: the game, the start position and the move tree with comments."""

    def tree(node: Node) -> tuple[Any, ...]:
        return tuple((c.move, c.comment, tree(c)) for c in node.children)

    return record.game.spec, record.start_text, tree(record.root)


class SaveState:
    """The file the game belongs to and what it held when last saved or opened."""

    def __init__(self) -> None:
        self.file: Path | None = None
        self._saved: tuple[Any, ...] | None = None  # None: in no file (a new game)

    def new_game(self) -> None:
        """A game in no file: any move makes it unsaved."""
        self.file, self._saved = None, None

    def saved(self, record: GameRecord, path: Path | None) -> None:
        """``record`` was just written to (or read from) ``path``."""
        self.file, self._saved = path, moves_shape(record)

    def is_unsaved(self, record: GameRecord) -> bool:
        """Whether replacing ``record`` now would lose moves that are in no file."""
        if self._saved is None:
            return bool(record.root.children)
        return moves_shape(record) != self._saved

    # -- kept in the autosave, so that a relaunch knows the file and whether it was saved ----------
    def to_json(self, record: GameRecord) -> dict[str, Any]:
        return {"file": str(self.file) if self.file is not None else None, "unsaved": self.is_unsaved(record)}

    def restore(self, record: GameRecord, d: Any) -> None:
        """The state written by ``to_json`` (a game autosaved without it counts as unsaved)."""
        d = d if isinstance(d, dict) else {}
        file = d.get("file")
        self.file = Path(file) if isinstance(file, str) and file else None
        self._saved = None if d.get("unsaved", True) or self.file is None else moves_shape(record)
