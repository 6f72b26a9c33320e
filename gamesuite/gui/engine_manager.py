"""The engine manager: external USI and Gomocup programs added by path, kept in the settings.

``EngineBook`` is the list the window keeps (``engines/external`` in its settings, JSON): each
``ExternalEngine`` has a name, a protocol, a command line, the options the program declared and the
values the user chose. ``EngineManagerDialog`` adds (the program is started once and asked for its
name and options: ``engine_external.probe_engine``), removes and renames them, and opens the engine
settings dialog for their options. An external engine is used through its engine spec
(``usi:/path/to/engine,Threads=2,label=NAME``), in New game and in Engine › Engine settings.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..arena.spec import parse_engine_spec
from ..core.errors import GameSuiteError, InvalidOptionError, quote
from ..core.registry import Game
from .engine_external import PROTOCOL_GAMES, PROTOCOLS, EngineOption, probe_engine

SETTINGS_KEY = "engines/external"


@dataclass
class ExternalEngine:
    """An external program the user added: how to start it, what it offers, what was chosen."""

    name: str
    protocol: str  # "usi" or "gomocup"
    command: list[str]
    options: list[EngineOption] = field(default_factory=list)
    values: dict[str, str] = field(default_factory=dict)  # option -> value, where not the default
    author: str = ""
    #: The games it is offered for (empty: its protocol's: USI shogi, Gomocup every gomoku-like game).
    only: tuple[str, ...] = ()

    @property
    def games(self) -> tuple[str, ...]:
        return self.only or PROTOCOL_GAMES.get(self.protocol, ())

    def plays(self, game: Game | str) -> bool:
        name = game if isinstance(game, str) else game.name
        if self.only or isinstance(game, str) or self.protocol != "gomocup":
            return name in self.games
        from ..arena.boards import is_placement_game

        return name in self.games or is_placement_game(game)

    def option(self, name: str) -> EngineOption | None:
        return next((o for o in self.options if o.name == name), None)

    def spec(self, values: dict[str, str] | None = None, limits: str = "") -> str:
        """The engine spec that starts it with ``values`` (default: the ones kept) and ``limits``
        (``@depth=8``...): ``usi:/path,Threads=2,label=NAME``."""
        vals = self.values if values is None else values
        parts = [f"{self.protocol}:{shlex.join(self.command)}"]
        for k, v in vals.items():
            opt = self.option(k)
            if opt is None or v != opt.default:
                parts.append(f"{k}={v}")
        if limits:
            parts.append(limits)
        parts.append(f"label={self.name}")
        return ",".join(parts)

    def matches(self, spec: str) -> bool:
        """Whether ``spec`` starts this program (whatever its options)."""
        try:
            parsed = parse_engine_spec(spec)
        except GameSuiteError:
            return False
        return parsed.kind == self.protocol and list(parsed.command) == list(self.command)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "protocol": self.protocol, "command": list(self.command),
                "options": [o.to_json() for o in self.options], "values": dict(self.values),
                "author": self.author, **({"games": list(self.only)} if self.only else {})}

    @classmethod
    def from_json(cls, d: Any) -> ExternalEngine:
        if (not isinstance(d, dict) or not isinstance(d.get("name"), str) or d.get("protocol") not in PROTOCOLS
                or not isinstance(d.get("command"), list) or not d["command"]):
            raise InvalidOptionError(f"not an external engine: {quote(d)}")
        values = d.get("values")
        if not isinstance(values, dict):
            values = {}
        return cls(d["name"], d["protocol"], [str(c) for c in d["command"]],
                   [EngineOption.from_json(o) for o in d.get("options", []) if isinstance(o, dict)],
                   {str(k): str(v) for k, v in values.items()}, str(d.get("author", "")),
                   tuple(str(g) for g in d.get("games", ()) if isinstance(g, str)))


class EngineBook:
    """The external engines a window knows, kept in its settings (``Storage``)."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage
        self.engines: list[ExternalEngine] = []
        self.problems: list[str] = []  # entries of the settings that could not be read (kept out)
        try:
            raw = json.loads(str(storage.get(SETTINGS_KEY, "") or "[]"))
        except ValueError:
            raw = []
        for d in raw if isinstance(raw, list) else []:
            try:
                self.engines.append(ExternalEngine.from_json(d))
            except GameSuiteError as e:
                self.problems.append(str(e))

    def save(self) -> None:
        self.storage.set(SETTINGS_KEY, json.dumps([e.to_json() for e in self.engines], ensure_ascii=False))

    def for_game(self, game: Game | str) -> list[ExternalEngine]:
        return [e for e in self.engines if e.plays(game)]

    def find(self, name: str) -> ExternalEngine | None:
        return next((e for e in self.engines if e.name == name), None)

    def for_spec(self, spec: str) -> ExternalEngine | None:
        """The engine a spec starts (by its command), if it is in the book."""
        return next((e for e in self.engines if e.matches(spec)), None)

    def _unique(self, name: str) -> str:
        base, n, out = name or "engine", 1, name or "engine"
        while self.find(out) is not None:
            n += 1
            out = f"{base} ({n})"
        return out

    def add(self, protocol: str, command: list[str] | str, timeout_ms: float = 15_000) -> ExternalEngine:
        """Start the program once, read its name and options, and keep it (saved at once).

        ``command``: a list, or one string split like a shell command line. Raises ``InvalidOptionError``
        or ``EngineFailure`` (quoting the command) when it cannot be added."""
        if isinstance(command, str):
            try:
                command = shlex.split(command)
            except ValueError as e:
                raise InvalidOptionError(f"bad command line {quote(command)}: {e}") from None
        if not command:
            raise InvalidOptionError("no program given")
        probe = probe_engine(protocol, command, timeout_ms)
        eng = ExternalEngine(self._unique(probe.name), protocol, list(command), probe.options, {}, probe.author)
        self.engines.append(eng)
        self.save()
        return eng

    def remove(self, name: str) -> None:
        self.engines = [e for e in self.engines if e.name != name]
        self.save()

    def rename(self, old: str, new: str) -> str:
        eng = self.find(old)
        new = new.strip()
        if eng is None or not new or new == old:
            return old
        eng.name = self._unique(new.replace(",", " "))
        self.save()
        return eng.name


class EngineManagerDialog(QDialog):
    """Engine › Engine manager: the external engines, added by path and kept in the settings."""

    def __init__(self, book: EngineBook, game: Game | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.book = book
        self.game = game
        self.setWindowTitle(self.tr("Engine manager"))
        self.list = QListWidget()
        self.list.setMinimumWidth(460)
        self.protocol = QComboBox()
        self.protocol.addItem(self.tr("USI (shogi)"), "usi")
        self.protocol.addItem(self.tr("Gomocup (gomoku)"), "gomocup")
        if game is not None and game.name == "gomoku":
            self.protocol.setCurrentIndex(1)
        self.command = QLineEdit()
        self.command.setPlaceholderText(self.tr("Program, with its arguments if it needs any"))
        self.browse = QPushButton(self.tr("Browse…"))
        self.add_button = QPushButton(self.tr("Add"))
        self.remove_button = QPushButton(self.tr("Remove"))
        self.options_button = QPushButton(self.tr("Options…"))
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText(self.tr("Name"))
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c62828")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.accept)

        add_row = QHBoxLayout()
        add_row.addWidget(self.protocol)
        add_row.addWidget(self.command, 1)
        add_row.addWidget(self.browse)
        add_row.addWidget(self.add_button)
        sel_row = QHBoxLayout()
        sel_row.addWidget(self.name_edit, 1)
        sel_row.addWidget(self.options_button)
        sel_row.addWidget(self.remove_button)
        box = QVBoxLayout(self)
        box.addWidget(QLabel(self.tr("External engines (USI for shogi, Gomocup for gomoku):")))
        box.addWidget(self.list, 1)
        box.addLayout(sel_row)
        box.addWidget(self.details)
        box.addWidget(QLabel(self.tr("Add an engine:")))
        box.addLayout(add_row)
        box.addWidget(self.error)
        box.addWidget(buttons)

        self.browse.clicked.connect(self._browse)
        self.add_button.clicked.connect(self._add_clicked)
        self.command.returnPressed.connect(self._add_clicked)
        self.remove_button.clicked.connect(self._remove_clicked)
        self.options_button.clicked.connect(self._options_clicked)
        self.name_edit.editingFinished.connect(self._rename)
        self.list.currentRowChanged.connect(self._selected)
        self._fill()

    def _fill(self, select: str | None = None) -> None:
        self.list.clear()
        for e in self.book.engines:
            item = QListWidgetItem(f"{e.name}  —  {e.protocol.upper()}  —  {shlex.join(e.command)}")
            item.setData(Qt.ItemDataRole.UserRole, e.name)
            self.list.addItem(item)
        names = [e.name for e in self.book.engines]
        self.list.setCurrentRow(names.index(select) if select in names else (0 if names else -1))
        self._selected()

    def current(self) -> ExternalEngine | None:
        item = self.list.currentItem()
        return self.book.find(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None

    @Slot()
    def _selected(self) -> None:
        e = self.current()
        for w in (self.name_edit, self.options_button, self.remove_button):
            w.setEnabled(e is not None)
        if e is None:
            self.name_edit.clear()
            self.details.setText(self.tr("No external engine yet: add one below."))
            return
        self.name_edit.setText(e.name)
        changed = ", ".join(f"{k}={v}" for k, v in e.values.items()) or self.tr("none")
        self.details.setText(self.tr("Plays: {0}. By: {1}. Options: {2} ({3} changed: {4}).").format(
            ", ".join(e.games), e.author or "?", len(e.options), len(e.values), changed))

    @Slot()
    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose the engine's program"))
        if path:
            self.command.setText(shlex.quote(path))

    @Slot()
    def _add_clicked(self) -> None:
        self.add_engine(str(self.protocol.currentData()), self.command.text())

    def add_engine(self, protocol: str, command: str) -> ExternalEngine | None:
        """Add the program ``command`` speaks ``protocol``; on failure the dialog says why (quoting it)."""
        self.error.clear()
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            eng = self.book.add(protocol, command)
        except GameSuiteError as e:
            self.error.setText(self.tr("Cannot add {0}: {1}").format(quote(command), e))
            return None
        finally:
            QGuiApplication.restoreOverrideCursor()
        self.command.clear()
        self._fill(eng.name)
        return eng

    @Slot()
    def _remove_clicked(self) -> None:
        e = self.current()
        if e is not None:
            self.book.remove(e.name)
            self._fill()

    @Slot()
    def _rename(self) -> None:
        e = self.current()
        if e is not None:
            self._fill(self.book.rename(e.name, self.name_edit.text()))

    @Slot()
    def _options_clicked(self) -> None:
        e = self.current()
        if e is None:
            return
        from .engine_settings import EngineOptionsDialog

        dlg = EngineOptionsDialog(e, self)
        if dlg.exec():
            e.values = dlg.values()
            self.book.save()
            self._selected()
