"""The engine settings dialog: which engine, its own options as form fields, its limits and lines.

One dialog for built-in and external engines alike. Built-in engines' options come from the engine
registry (``core.registry.engines_for``: each option's default says its type), external ones' from
what the program declared (``engine_external.EngineOption``); hash and threads come first. The
dialog's answer is an engine spec (``mtdf,hash=128,threads=2,@depth=12`` or
``usi:/path/engine,USI_Hash=256,label=YaneuraOu``) and, for analysis, the number of lines.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..arena.spec import parse_engine_spec
from ..core.errors import GameSuiteError
from ..core.registry import EngineEntry, Game, engines_for, parse_params
from .engine_external import EngineOption, spec_label
from .engine_manager import EngineBook, EngineManagerDialog, ExternalEngine
from .window_parts import WindowParts

INT_MAX = 2**31 - 1
#: Options shown first (hash and threads), by lower-case name, with the label they get.
FIRST = ("hash", "usi_hash", "max_memory", "threads", "thread_num")
#: The limits an engine may have of its own (``@key=N`` in its spec).
LIMIT_KINDS = ("", "depth", "nodes", "movetime")


def builtin_options(entry: EngineEntry) -> list[EngineOption]:
    """A built-in engine's registered options as form fields (``core.options.Option``: type, range, choices,
    help; a plain default says the type)."""
    out = []
    for name, decl in entry.options.items():
        default: Any = getattr(decl, "default", decl)
        kind = getattr(decl, "kind", None) or (type(default) if default is not None else str)
        choices = tuple(str(c) for c in getattr(decl, "choices", ()) or ())
        lo, hi = getattr(decl, "min", None), getattr(decl, "max", None)
        text = "" if default is None else _text(default)
        if choices:
            opt = EngineOption(name, "combo", text, choices=choices)
        elif kind is bool:
            opt = EngineOption(name, "check", "true" if default else "false")
        elif kind is int:
            low = int(lo) if lo is not None else (-INT_MAX if (default or 0) < 0 else 0)
            opt = EngineOption(name, "spin", text, low, int(hi) if hi is not None else INT_MAX)
        elif kind is float:
            opt = EngineOption(name, "float", text, lo, hi)
        else:
            opt = EngineOption(name, "string", text)
        opt.help = str(getattr(decl, "help", "") or "")
        out.append(opt)
    return out


def _text(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value).lower() if isinstance(value, bool) else str(value)


def _ordered(options: list[EngineOption]) -> list[EngineOption]:
    first = [o for k in FIRST for o in options if o.name.lower() == k]
    return first + [o for o in options if o not in first]


class OptionsForm(QWidget):
    """A form with one field per option; ``values()`` gives the ones that differ from their defaults."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.fields: dict[str, tuple[EngineOption, QWidget]] = {}

    def set_options(self, options: list[EngineOption], values: dict[str, str] | None = None) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self.fields.clear()
        for opt in _ordered(options):
            w = self._widget(opt)
            self.fields[opt.name] = (opt, w)
            label = QLabel(self._label(opt))
            label.setToolTip(f"{opt.name}: {opt.help}" if getattr(opt, "help", "") else opt.name)
            w.setToolTip(label.toolTip())
            self.form.addRow(label, w)
            self._set(opt, w, (values or {}).get(opt.name, opt.default))

    def _label(self, opt: EngineOption) -> str:
        low = opt.name.lower()
        if low in ("hash", "usi_hash"):
            base = self.tr("Hash (MB)")
        elif low in ("threads", "thread_num"):
            base = self.tr("Threads")
        elif low == "max_memory":
            base = self.tr("Memory (bytes)")
        else:
            return opt.name
        return base if base == opt.name else f"{base} · {opt.name}"

    @staticmethod
    def _widget(opt: EngineOption) -> QWidget:
        if opt.type == "check":
            return QCheckBox()
        if opt.type == "spin":
            s = QSpinBox()
            lo = max(-INT_MAX, opt.min if opt.min is not None else 0)
            hi = min(INT_MAX, opt.max if opt.max is not None else INT_MAX)
            s.setRange(lo, max(lo, hi))
            return s
        if opt.type == "float":
            d = QDoubleSpinBox()
            d.setDecimals(3)
            d.setRange(opt.min if opt.min is not None else -1e6, opt.max if opt.max is not None else 1e6)
            return d
        if opt.type == "combo":
            c = QComboBox()
            c.addItems(list(opt.choices))
            return c
        e = QLineEdit()
        if opt.type == "filename":
            e.setPlaceholderText("file")
        return e

    @staticmethod
    def _set(opt: EngineOption, w: QWidget, value: str) -> None:
        if isinstance(w, QCheckBox):
            w.setChecked(str(value).lower() in ("true", "1", "yes", "on"))
        elif isinstance(w, QSpinBox):
            try:
                w.setValue(int(value))
            except ValueError:
                w.setValue(w.minimum() if w.minimum() > 0 else 0)
        elif isinstance(w, QDoubleSpinBox):
            try:
                w.setValue(float(value))
            except ValueError:
                w.setValue(0.0)
        elif isinstance(w, QComboBox):
            w.setCurrentText(str(value))
        elif isinstance(w, QLineEdit):
            w.setText(str(value))

    @staticmethod
    def _get(opt: EngineOption, w: QWidget) -> str:
        if isinstance(w, QCheckBox):
            return "true" if w.isChecked() else "false"
        if isinstance(w, QSpinBox):
            return str(w.value())
        if isinstance(w, QDoubleSpinBox):
            return f"{round(w.value(), 6):g}"
        if isinstance(w, QComboBox):
            return w.currentText()
        return w.text().strip() if isinstance(w, QLineEdit) else ""

    def values(self) -> dict[str, str]:
        out = {}
        for name, (opt, w) in self.fields.items():
            v = self._get(opt, w)
            same = v == opt.default
            if opt.type == "float":
                try:
                    same = float(v) == float(opt.default)
                except ValueError:
                    pass
            if not same and not (opt.type in ("string", "filename") and v == "" and opt.default == ""):
                out[name] = v
        return out

    def widget(self, name: str) -> QWidget:
        return self.fields[name][1]


class EngineOptionsDialog(QDialog):
    """The options kept for one external engine (Engine manager › Options…)."""

    def __init__(self, engine: ExternalEngine, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Options of {0}").format(engine.name))
        self.form = OptionsForm()
        self.form.set_options(engine.options, engine.values)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(scroll, 1)
        box.addWidget(buttons)
        self.resize(480, 520)

    def values(self) -> dict[str, str]:
        return self.form.values()


class EngineSettingsDialog(QDialog):
    """Engine › Engine settings (the analysis engine) and New game's engine button (a player's).

    ``spec()`` is the engine spec chosen; ``multipv()`` the lines to analyse (analysis only)."""

    def __init__(self, game: Game, spec: str, book: EngineBook, parent: QWidget | None = None,
                 multipv: int | None = None, title: str | None = None) -> None:
        super().__init__(parent)
        self.game = game
        self.book = book
        self.setWindowTitle(title or self.tr("Engine settings"))
        self._entries = engines_for(game)
        self.engine = QComboBox()
        self.manager_button = QPushButton(self.tr("Engine manager…"))
        self.about = QLabel()
        self.about.setWordWrap(True)
        self.options = OptionsForm()
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.options)
        scroll.setMinimumHeight(220)
        self.options_box = QGroupBox(self.tr("The engine's options"))
        QVBoxLayout(self.options_box).addWidget(scroll)
        self.limit_kind = QComboBox()
        for kind, text in zip(LIMIT_KINDS, (self.tr("No limit of its own"), self.tr("Depth"), self.tr("Nodes"),
                                            self.tr("Milliseconds per move"))):
            self.limit_kind.addItem(text, kind)
        self.limit_value = QSpinBox()
        self.limit_value.setRange(1, INT_MAX)
        self.multipv_spin = QSpinBox()
        self.multipv_spin.setRange(1, 64)
        self.multipv_spin.setValue(multipv or 1)
        self.spec_view = QLineEdit()
        self.spec_view.setReadOnly(True)
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828")
        self.error.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)

        top = QHBoxLayout()
        top.addWidget(self.engine, 1)
        top.addWidget(self.manager_button)
        limits = QHBoxLayout()
        limits.addWidget(self.limit_kind)
        limits.addWidget(self.limit_value)
        search = QGroupBox(self.tr("Search"))
        sform = QFormLayout(search)
        sform.addRow(self.tr("Limit"), limits)
        self.multipv_label = QLabel(self.tr("Lines (multi-PV)"))
        sform.addRow(self.multipv_label, self.multipv_spin)
        self.multipv_label.setVisible(multipv is not None)
        self.multipv_spin.setVisible(multipv is not None)
        form = QFormLayout()
        form.addRow(self.tr("Engine"), top)
        box = QVBoxLayout(self)
        box.addLayout(form)
        box.addWidget(self.about)
        box.addWidget(self.options_box, 1)
        box.addWidget(search)
        form2 = QFormLayout()
        form2.addRow(self.tr("Engine spec"), self.spec_view)
        box.addLayout(form2)
        box.addWidget(self.error)
        box.addWidget(buttons)

        self._fill_engines()
        self._load_spec(spec)
        self.engine.currentIndexChanged.connect(self._engine_changed)
        self.manager_button.clicked.connect(self._open_manager)
        self.limit_kind.currentIndexChanged.connect(self._limits_changed)
        self.limit_value.valueChanged.connect(self._update_spec)
        self._limits_changed()
        self.resize(560, 640)

    # -- the engines offered -------------------------------------------------------------------------
    def _fill_engines(self) -> None:
        self.engine.blockSignals(True)
        self.engine.clear()
        for e in self._entries:
            self.engine.addItem(e.name + (self.tr(" (default)") if e.default else ""), ("ours", e.name))
            self.engine.setItemData(self.engine.count() - 1, e.help, 3)  # (3: Qt.ToolTipRole)
        for x in self.book.for_game(self.game):
            self.engine.addItem(f"{x.name} — {x.protocol.upper()}", ("ext", x.name))
        self.engine.blockSignals(False)

    def _select(self, data: tuple[str, str]) -> None:
        for i in range(self.engine.count()):
            if tuple(self.engine.itemData(i)) == data:
                self.engine.setCurrentIndex(i)
                return

    def _load_spec(self, spec: str) -> None:
        """Show ``spec``: its engine, its options' values, its limits."""
        try:
            parsed = parse_engine_spec(spec, self.game.name) if spec.strip() else None
        except GameSuiteError as e:
            self.error.setText(str(e))
            parsed = None
        values: dict[str, str] = {}
        if parsed is None or parsed.kind == "ours":
            target = parsed.target if parsed is not None else ""
            name, _, rest = target.partition(",")
            try:
                values = parse_params(rest, "engine spec") if rest.strip() else {}
            except GameSuiteError:
                values = {}
            if name.strip():
                self._select(("ours", name.strip()))
            else:
                self.engine.setCurrentIndex(0)
        else:
            ext = self.book.for_spec(spec)
            if ext is None:
                self.engine.addItem(parsed.label, ("raw", spec))
                self.engine.setCurrentIndex(self.engine.count() - 1)
            else:
                self._select(("ext", ext.name))
            values = dict(parsed.options)
        self._show_options(values)
        if parsed is not None and parsed.limits:
            k, v = parsed.limits[-1] if parsed.limits[-1][0] != "clock" else parsed.limits[0]
            if k in LIMIT_KINDS:
                self.limit_kind.setCurrentIndex(LIMIT_KINDS.index(k))
                self.limit_value.setValue(int(v))
        self._update_spec()

    def _current(self) -> tuple[str, str]:
        d = self.engine.currentData()
        return tuple(d) if d else ("ours", "")

    def _show_options(self, values: dict[str, str] | None = None) -> None:
        kind, name = self._current()
        if kind == "ours":
            entry = next((e for e in self._entries if e.name == name), None)
            opts = builtin_options(entry) if entry is not None else []
            self.about.setText(entry.help if entry is not None else "")
        elif kind == "ext":
            ext = self.book.find(name)
            opts = ext.options if ext is not None else []
            values = values if values is not None else (dict(ext.values) if ext is not None else {})
            self.about.setText(self.tr("External {0} engine: {1}").format(
                ext.protocol.upper(), " ".join(ext.command)) if ext is not None else "")
        else:
            opts = []
            self.about.setText(self.tr("An engine spec that is not in the engine manager: its options are kept "
                                       "as written."))
        self.options.set_options(opts, values)
        for _, w in self.options.fields.values():
            for sig in ("valueChanged", "toggled", "textChanged", "currentIndexChanged"):
                s = getattr(w, sig, None)
                if s is not None:
                    s.connect(self._update_spec)
        self.options_box.setVisible(bool(opts))

    @Slot()
    def _engine_changed(self) -> None:
        self._show_options()
        self._update_spec()

    @Slot()
    def _limits_changed(self) -> None:
        kind = self.limit_kind.currentData()
        self.limit_value.setEnabled(bool(kind))
        if kind == "depth" and self.limit_value.value() > 64:
            self.limit_value.setValue(10)
        elif kind == "nodes" and self.limit_value.value() < 1000:
            self.limit_value.setValue(100_000)
        elif kind == "movetime" and self.limit_value.value() < 10:
            self.limit_value.setValue(1000)
        self._update_spec()

    @Slot()
    def _update_spec(self) -> None:
        self.spec_view.setText(self.spec())
        self.spec_view.setCursorPosition(0)

    @Slot()
    def _open_manager(self) -> None:
        before = {e.name for e in self.book.engines}
        dlg = EngineManagerDialog(self.book, self.game, self)
        dlg.exec()
        keep = self._current()
        self._fill_engines()
        added = [e for e in self.book.for_game(self.game) if e.name not in before]
        self._select(("ext", added[-1].name) if added else keep)
        self._engine_changed()

    # -- the answer ------------------------------------------------------------------------------------
    def limits_text(self) -> str:
        kind = self.limit_kind.currentData()
        return f"@{kind}={self.limit_value.value()}" if kind else ""

    def spec(self) -> str:
        """The engine spec the form describes."""
        kind, name = self._current()
        values = self.options.values()
        limits = self.limits_text()
        if kind == "ext":
            ext = self.book.find(name)
            if ext is not None:
                return ext.spec(values, limits)
        if kind == "raw":
            parsed = parse_engine_spec(name)
            base = name if not parsed.limits else ",".join(
                p for p in name.split(",") if not p.strip().startswith("@"))
            return ",".join([base] + ([limits] if limits else []))
        return ",".join([name] + [f"{k}={v}" for k, v in values.items()] + ([limits] if limits else []))

    def multipv(self) -> int:
        return self.multipv_spin.value()

    @Slot()
    def _accept(self) -> None:
        try:
            parse_engine_spec(self.spec(), self.game.name)
        except GameSuiteError as e:
            self.error.setText(str(e))
            return
        self.accept()



class EngineDialogsMixin(WindowParts):
    """Part of ``MainWindow``: Engine › Engine settings and Engine › Engine manager."""

    def engine_settings_dialog(self) -> EngineSettingsDialog:
        """Choose the engine that analyses and gives hints in this game, its options, limits and lines."""
        game = self.controller.game
        dlg = EngineSettingsDialog(game, self.analysis_spec(), self.engine_book, self,
                                   multipv=self.panel.multipv.value(),
                                   title=self.tr("Analysis engine: {0}").format(game.long_name))
        self.engine_dialog = dlg
        dlg.accepted.connect(lambda: self.apply_engine_settings(dlg.spec(), dlg.multipv()))
        dlg.open()
        return dlg

    def apply_engine_settings(self, spec: str, multipv: int) -> None:
        """Analyse with ``spec`` (kept for the game) on ``multipv`` lines from now on."""
        game = self.controller.game
        self.storage.set(f"analysis_engine/{game.name}", spec)
        self.panel.multipv.blockSignals(True)
        self.panel.multipv.setValue(multipv)
        self.panel.multipv.blockSignals(False)
        self.storage.set("multipv", multipv)
        self.show_message(self.tr("Analysis engine: {0}").format(spec_label(spec)))
        if self.analysing:
            self._update_engine(force=True)

    def engine_manager_dialog(self) -> EngineManagerDialog:
        dlg = EngineManagerDialog(self.engine_book, self.controller.game, self)
        self.engine_dialog = dlg
        dlg.open()
        return dlg
