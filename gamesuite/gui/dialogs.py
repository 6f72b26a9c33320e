"""The New game dialog: the game and its parameters, and who plays each side."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QSize, QTimer, Slot
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..core.errors import GameSuiteError
from ..core.registry import Game, Param, check_engine_spec, engines_for, game_classes, load_game
from ..play.clock import TimeControl
from ..play.record import PlayerSpec
from .notation import notation_for


class ClockEdit(QWidget):
    """Chooses one time control: none, base + increment (Fischer) or base + byoyomi."""

    KINDS = (QT_TRANSLATE_NOOP("ClockEdit", "No clock"), QT_TRANSLATE_NOOP("ClockEdit", "Base + increment"),
             QT_TRANSLATE_NOOP("ClockEdit", "Base + byoyomi"))

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = QComboBox()
        self.kind.addItems([self.tr(str(k)) for k in self.KINDS])
        self.base = QSpinBox()
        self.base.setRange(0, 600)
        self.base.setSuffix(self.tr(" min"))
        self.base.setValue(5)
        self.base_s = QSpinBox()
        self.base_s.setRange(0, 59)
        self.base_s.setSuffix(self.tr(" s"))
        self.extra = QSpinBox()  # the increment or the byoyomi
        self.extra.setRange(0, 3600)
        self.extra.setSuffix(self.tr(" s"))
        self.extra.setValue(3)
        self.periods = QSpinBox()
        self.periods.setRange(1, 10)
        self.periods.setPrefix("×")
        self.periods.setToolTip(self.tr("Byoyomi periods"))
        box = QHBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        for w in (self.kind, self.base, self.base_s, self.extra, self.periods):
            box.addWidget(w)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self._kind_changed()

    def _kind_changed(self) -> None:
        k = self.kind.currentIndex()
        self.base.setEnabled(k > 0)
        self.base_s.setEnabled(k > 0)
        self.extra.setEnabled(k > 0)
        self.extra.setToolTip(self.tr("Increment per move") if k == 1 else self.tr("Byoyomi per move"))
        self.periods.setVisible(k == 2)

    def set_control(self, tc: TimeControl | None) -> None:
        if tc is None:
            self.kind.setCurrentIndex(0)
            return
        self.kind.setCurrentIndex(2 if tc.byoyomi else 1)
        self.base.setValue(tc.base // 60_000)
        self.base_s.setValue(tc.base % 60_000 // 1000)
        self.extra.setValue((tc.byoyomi or tc.increment) // 1000)
        self.periods.setValue(tc.periods if tc.byoyomi else 1)

    def control(self) -> TimeControl | None:
        """The chosen control; ``InvalidRecordError`` for an impossible one (no time at all)."""
        k = self.kind.currentIndex()
        if k == 0:
            return None
        base = self.base.value() * 60_000 + self.base_s.value() * 1000
        extra = self.extra.value() * 1000
        if k == 1:
            return TimeControl(base, increment=extra)
        return TimeControl(base, byoyomi=extra, periods=self.periods.value())


class PlayerRow:
    """The widgets that choose one side's player."""

    def __init__(self, grid: QGridLayout, row: int, name: str) -> None:
        self.label = QLabel(name)
        self.kind = QComboBox()
        self.kind.addItems([QCoreApplication.translate("PlayerRow", "Human"),
                            QCoreApplication.translate("PlayerRow", "Computer")])
        self.engine = QComboBox()
        self.engine.setEditable(True)
        self.engine.setToolTip(QCoreApplication.translate(
            "PlayerRow", "Engine spec: a name and options, e.g. 'solver,hash=16'"))
        self.by = QComboBox()
        self.by.addItems([QCoreApplication.translate("PlayerRow", "ms per move"),
                          QCoreApplication.translate("PlayerRow", "depth")])
        self.amount = QSpinBox()
        self.amount.setRange(1, 600_000)
        self.amount.setValue(1000)
        self.clock = ClockEdit()
        self.clock.setToolTip(QCoreApplication.translate(
            "PlayerRow", "This player's clock (a computer with a clock ignores its time or depth per move)"))
        self.by.currentIndexChanged.connect(self._by_changed)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.settings = QToolButton()  # the engine settings dialog for this player's engine
        self.settings.setText("…")
        self.settings.setToolTip(QCoreApplication.translate(
            "PlayerRow", "Engine settings: the engine, its options and limits"))
        for col, w in enumerate((self.label, self.kind, self.engine, self.settings, self.amount, self.by)):
            grid.addWidget(w, 2 * row, col)
        grid.addWidget(self.clock, 2 * row + 1, 1, 1, 5)  # under the player: the dialog stays narrow
        self._kind_changed()

    def _by_changed(self) -> None:
        if self.by.currentIndex() == 1:
            self.amount.setRange(1, 64)
            self.amount.setValue(min(self.amount.value(), 6))
        else:
            self.amount.setRange(10, 600_000)
            self.amount.setValue(max(self.amount.value(), 1000))

    def _kind_changed(self) -> None:
        on = self.kind.currentIndex() == 1
        for w in (self.engine, self.by, self.amount, self.settings):
            w.setEnabled(on)

    def set_engines(self, names: list[str]) -> None:
        current = self.engine.currentText()
        self.engine.clear()
        self.engine.addItems(names)
        if current and (current.split(",")[0] in names or current in names):
            self.engine.setCurrentText(current)

    def set_spec(self, spec: PlayerSpec) -> None:
        self.kind.setCurrentIndex(1 if spec.is_engine else 0)
        if spec.engine:
            self.engine.setCurrentText(spec.engine)
        if spec.depth:
            self.by.setCurrentIndex(1)
            self.amount.setValue(spec.depth)
        else:
            self.by.setCurrentIndex(0)
            self.amount.setValue(spec.movetime or 1000)
        self.clock.set_control(spec.clock)

    def spec(self) -> PlayerSpec:
        """The player chosen (``InvalidRecordError`` for an impossible clock)."""
        clock = self.clock.control()
        if self.kind.currentIndex() == 0:
            return PlayerSpec("human", clock=clock)
        engine = self.engine.currentText().strip()
        if self.by.currentIndex() == 1:
            return PlayerSpec("engine", engine, None, self.amount.value(), clock)
        return PlayerSpec("engine", engine, self.amount.value(), None, clock)

    def widgets(self) -> list[QWidget]:
        return [self.label, self.kind, self.engine, self.settings, self.amount, self.by, self.clock]

    def spec_kind(self) -> str:
        return "engine" if self.kind.currentIndex() == 1 else "human"


class NewGameDialog(QDialog):
    """Choose a game, its parameters and the players; ``result_game()`` / ``result_players()``."""

    def __init__(self, parent: QWidget | None = None, game: Game | None = None,
                 players: list[PlayerSpec] | None = None, book: Any = None, opening: str = "") -> None:
        """``book``: the window's external engines (``engine_manager.EngineBook``), offered beside ours;
        ``opening``: the opening rule chosen at first (``""``, ``"swap1"``, ``"swap2"``)."""
        super().__init__(parent)
        self.book = book
        self.setWindowTitle(self.tr("New game"))
        self._classes = game_classes()
        self.game_box = QComboBox()
        for name, cls in self._classes.items():
            self.game_box.addItem(cls.long_name, name)
        self.description = QLabel()
        self.description.setWordWrap(True)
        self.params_box = QGroupBox(self.tr("Parameters"))
        self.params_form = QFormLayout(self.params_box)
        self.param_widgets: dict[str, QWidget] = {}
        self.opening_box = QGroupBox(self.tr("Opening"))  # swap1 / swap2 where arena.swap.check_rule allows
        opening_form = QFormLayout(self.opening_box)
        self.opening = QComboBox()
        self.opening.addItem(self.tr("None: Black plays first"), "")
        self.opening.addItem(self.tr("swap1"), "swap1")
        self.opening.addItem(self.tr("swap2"), "swap2")
        self.opening.setCurrentIndex(max(0, self.opening.findData(opening)))
        self.opening_help = QLabel()
        self.opening_help.setWordWrap(True)
        opening_form.addRow(self.tr("Opening rule"), self.opening)
        opening_form.addRow(self.opening_help)
        self.opening.currentIndexChanged.connect(self._update_opening)
        self.players_box = QGroupBox(self.tr("Players"))
        self.players_scroll = QScrollArea()  # six players with their own clocks may not fit the screen
        self.players_scroll.setWidgetResizable(True)
        self.players_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        QVBoxLayout(self.players_box).addWidget(self.players_scroll)
        self.players_grid = QGridLayout()
        self.rows: list[PlayerRow] = []
        self.clock_box = QGroupBox(self.tr("Clock"))
        clock_form = QFormLayout(self.clock_box)
        self.same_clock = QCheckBox(self.tr("The same for every player"))
        self.same_clock.setChecked(True)
        self.clock = ClockEdit()
        clock_form.addRow(self.same_clock)
        clock_form.addRow(self.tr("Time control"), self.clock)
        self.same_clock.toggled.connect(self._same_clock_toggled)
        self.same_clock.toggled.connect(self._same_clock_changed)
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        form = QFormLayout()
        form.addRow(self.tr("Game"), self.game_box)
        box.addLayout(form)
        box.addWidget(self.description)
        box.addWidget(self.params_box)
        box.addWidget(self.opening_box)
        box.addWidget(self.players_box)
        box.addWidget(self.clock_box)
        box.addWidget(self.error)
        box.addWidget(self.buttons)
        self._game: Game | None = None
        self._initial_players = players
        self.game_box.currentIndexChanged.connect(self._game_changed)
        if game is not None:
            i = self.game_box.findData(game.name)
            self.game_box.setCurrentIndex(max(0, i))
            self._game_changed()
            for p in game.params:
                self._set_param(p, game[p.name])
        else:
            self._game_changed()
        if players:
            clocks = [p.clock for p in players]
            self.clock.set_control(clocks[0])
            self.same_clock.setChecked(all(c == clocks[0] for c in clocks))
            for row, spec in zip(self.rows, players):
                row.set_spec(spec)
        self._same_clock_changed()

    @Slot(bool)
    def _same_clock_toggled(self, same: bool) -> None:
        """Going from one clock to one per player starts every player with the shared one."""
        if not same:
            try:
                clock = self.clock.control()
            except GameSuiteError:
                return
            for row in self.rows:
                row.clock.set_control(clock)

    @Slot()
    def _same_clock_changed(self) -> None:
        """One clock editor for everyone, or one per player row."""
        same = self.same_clock.isChecked()
        self.clock.setEnabled(same)
        for row in self.rows:
            row.clock.setVisible(not same)
        self._refit()

    # -- building the form -------------------------------------------------------
    def _clear_form(self) -> None:
        while self.params_form.rowCount():
            self.params_form.removeRow(0)
        self.param_widgets.clear()
        self._new_rows()

    def _new_rows(self) -> None:
        """Take the player rows away at once (a fresh grid for the new ones)."""
        old = self.players_scroll.takeWidget()
        if old is not None:
            old.hide()
            old.deleteLater()
        holder = QWidget()
        self.players_grid = QGridLayout(holder)
        self.players_grid.setContentsMargins(0, 0, 0, 0)
        self.players_scroll.setWidget(holder)
        self.rows.clear()

    def _fit(self) -> None:
        """Size the dialog to its contents (smaller too), never larger than the main window or the screen."""
        holder = self.players_scroll.widget()
        if holder is not None:
            holder.adjustSize()
            want = holder.sizeHint()
            cap = self._cap()
            bar = self.players_scroll.verticalScrollBar().sizeHint().width()
            self.players_scroll.setMinimumWidth(min(want.width() + bar, cap.width() - 60))
            box = self.layout()
            items = [box.itemAt(i) for i in range(box.count())] if box is not None else []
            others = sum(it.sizeHint().height() + box.spacing() for it in items
                         if box is not None and it is not None and it.widget() is not self.players_box)
            others += self.players_box.sizeHint().height() - self.players_scroll.sizeHint().height()
            if box is not None:
                m = box.contentsMargins()
                others += m.top() + m.bottom()
            others += 40  # and the window frame
            # all the rows if they fit, else as many as fit (at least two) and a scroll bar
            self.players_scroll.setMinimumHeight(max(min(want.height(), 110),
                                                     min(want.height(), cap.height() - others)))
            self.players_scroll.setMaximumHeight(want.height() + 2)
        box = self.layout()
        if box is not None:
            box.activate()
        hint, cap = self.sizeHint(), self._cap()
        self.setMaximumSize(cap)
        self.resize(min(hint.width(), cap.width()), min(hint.height(), cap.height()))

    def _cap(self) -> QSize:
        """The largest size the dialog may take: its main window's, else the screen's."""
        parent = self.parentWidget()
        if parent is not None and parent.window().isVisible():
            return parent.window().size()
        screen = self.screen()
        return screen.availableSize() if screen is not None else QSize(1024, 768)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fit()

    @Slot()
    def _game_changed(self) -> None:
        self._clear_form()
        name = self.game_box.currentData()
        cls = self._classes[name]
        self.description.setText(cls.description)
        for p in cls.params:
            w = self._param_widget(p)
            self.param_widgets[p.name] = w
            # the help's words before a colon name the field; all of it is the tooltip (a long help
            # text as a label would widen the dialog past the window)
            text = p.help or p.name
            label = QLabel(text.split(":")[0].strip() if ":" in text else text)
            label.setToolTip(f"{p.name}: {text}")
            w.setToolTip(text)
            self.params_form.addRow(label, w)
            self._watch_param(w)
        self.params_box.setVisible(bool(cls.params))
        try:
            game = cls()
        except GameSuiteError:
            return
        engines = self._engine_names(game)
        for i in range(game.num_players):
            row = self._player_row(game, i)
            row.set_engines(engines)
            self.rows.append(row)
        if len(self.rows) >= 2:
            self.rows[1].kind.setCurrentIndex(1)  # by default the computer plays the second side
        if hasattr(self, "same_clock"):
            self._same_clock_changed()
        self._update_opening()
        self._refit()

    def _engine_names(self, game: Game) -> list[str]:
        """Ours by name, then the external engines of the engine manager by their specs."""
        names = [e.name for e in engines_for(game)]
        if self.book is not None:
            names += [x.spec() for x in self.book.for_game(game)]
        return names

    def _player_row(self, game: Game, i: int) -> PlayerRow:
        row = PlayerRow(self.players_grid, i, notation_for(game).player(i))
        row.settings.clicked.connect(lambda _=False, r=row: self.engine_settings(r))
        return row

    def engine_settings(self, row: PlayerRow) -> QDialog | None:
        """The engine settings dialog for ``row``'s engine: its answer becomes the row's engine spec."""
        from .engine_manager import EngineBook
        from .engine_settings import EngineSettingsDialog

        try:
            game = load_game(self.spec_text())
        except GameSuiteError as e:
            self.error.setText(str(e))
            return None
        if self.book is None:
            self.book = EngineBook(_NoStorage())
        dlg = EngineSettingsDialog(game, row.engine.currentText().strip(), self.book, self,
                                   title=self.tr("Engine for {0}").format(row.label.text()))
        self.engine_dialog = dlg

        def chosen() -> None:
            row.set_engines(self._engine_names(game))
            row.engine.setCurrentText(dlg.spec())

        dlg.accepted.connect(chosen)
        dlg.open()
        return dlg

    def _refit(self) -> None:
        if self.isVisible():
            QTimer.singleShot(0, self._fit)  # once the new rows have their sizes

    def _watch_param(self, w: QWidget) -> None:
        """Rebuild the player rows when a parameter changes the number of players (hare's ``players``)."""
        if isinstance(w, QSpinBox):
            w.valueChanged.connect(self._params_changed)
        elif isinstance(w, QComboBox):
            w.currentIndexChanged.connect(self._params_changed)
        elif isinstance(w, QCheckBox):
            w.toggled.connect(self._params_changed)
        elif isinstance(w, QLineEdit):
            w.editingFinished.connect(self._params_changed)

    @Slot()
    def _update_opening(self) -> None:
        """The opening rules are offered where ``arena.swap.check_rule`` allows them (freestyle and standard
        gomoku), else disabled with its reason; the line under the choice says what the rule is."""
        from ..arena.swap import check_rule

        if not hasattr(self, "opening"):
            return
        game = None
        try:
            game = load_game(self.spec_text())
            check_rule(game, "swap1")
            why = ""
        except GameSuiteError as e:
            why = str(e).replace("swap1 openings", self.tr("Swap openings"))
        self.opening.setEnabled(not why)
        if why:
            self.opening.setCurrentIndex(0)
            self.opening_help.setText(why)
        elif self.opening.currentData() == "swap1":
            self.opening_help.setText(self.tr(
                "The proposer places three stones (black, white, black); the chooser takes Black (swap) or "
                "stays White and plays the 4th stone."))
        elif self.opening.currentData() == "swap2":
            self.opening_help.setText(self.tr(
                "As swap1, or the chooser places two more stones (4th and 5th) and the proposer chooses the "
                "colour."))
        else:
            self.opening_help.setText(self.tr("No swap: Black plays first as usual."))
        swapping = bool(self.result_opening())
        for i, row in enumerate(self.rows[:2]):  # the first player (Black) proposes, the second chooses
            name = notation_for(game).player(i) if game is not None else row.label.text().split(" (")[0]
            role = self.tr("proposer") if i == 0 else self.tr("chooser")
            row.label.setText(self.tr("{0} ({1})").format(name, role) if swapping else name)
        self._refit()
        self.opening_box.setVisible(self.game_box.currentData() == "gomoku")  # (the rule's own games)

    def result_opening(self) -> str:
        """The opening rule chosen: ``""`` (none), ``"swap1"`` or ``"swap2"``."""
        return str(self.opening.currentData() or "") if self.opening.isEnabled() else ""

    @Slot()
    def _params_changed(self) -> None:
        self._update_opening()
        try:
            game = load_game(self.spec_text())
        except GameSuiteError:
            return
        if game.num_players == len(self.rows):
            return
        try:
            specs = [row.spec() for row in self.rows]
        except GameSuiteError:
            specs = [PlayerSpec(row.spec_kind()) for row in self.rows]
        self._new_rows()
        engines = self._engine_names(game)
        for i in range(game.num_players):
            row = self._player_row(game, i)
            row.set_engines(engines)
            if specs:
                row.set_spec(specs[min(i, len(specs) - 1)])  # new rows copy the last side's player
            self.rows.append(row)
        self._same_clock_changed()
        self._refit()

    def _param_widget(self, p: Param) -> QWidget:
        if p.choices:
            w = QComboBox()
            w.addItems([str(c) for c in p.choices])
            w.setCurrentText(str(p.default))
            return w
        if isinstance(p.default, bool):
            c = QCheckBox()
            c.setChecked(p.default)
            return c
        if isinstance(p.default, int):
            s = QSpinBox()
            s.setRange(p.min if p.min is not None else -10**6, p.max if p.max is not None else 10**6)
            s.setValue(p.default)
            return s
        e = QLineEdit(str(p.default))
        return e

    def _set_param(self, p: Param, value: Any) -> None:
        w = self.param_widgets.get(p.name)
        if isinstance(w, QComboBox):
            w.setCurrentText(str(value))
        elif isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, QSpinBox):
            w.setValue(int(value))
        elif isinstance(w, QLineEdit):
            w.setText(str(value))

    def spec_text(self) -> str:
        """The game spec the form describes, e.g. ``tictactoe(m=4,n=4,k=3)``."""
        name = self.game_box.currentData()
        vals = []
        for pname, w in self.param_widgets.items():
            if isinstance(w, QComboBox):
                v = w.currentText()
            elif isinstance(w, QCheckBox):
                v = "true" if w.isChecked() else "false"
            elif isinstance(w, QSpinBox):
                v = str(w.value())
            else:
                v = w.text()  # type: ignore[attr-defined]
            vals.append(f"{pname}={v}")
        return f"{name}({','.join(vals)})" if vals else name

    @Slot()
    def _accept(self) -> None:
        try:
            game = load_game(self.spec_text())
        except GameSuiteError as e:
            self.error.setText(str(e))
            return
        from .boards import board_class_for

        try:
            board_class_for(game)
        except ValueError:
            self.error.setText(f"The window has no board for {game.long_name} yet.")
            return
        try:
            players = self.result_players()
        except GameSuiteError as e:
            self.error.setText(f"Clock: {e}")
            return
        for i, p in enumerate(players):  # an engine spec is checked here, before any engine is built
            if p.is_engine:
                try:
                    check_engine_spec(game, p.engine)
                except GameSuiteError as e:
                    self.error.setText(f"Player {i + 1}: {e}")
                    return
        self._game = game
        self.accept()

    def result_game(self) -> Game:
        return self._game or load_game(self.spec_text())

    def result_players(self) -> list[PlayerSpec]:
        """The players, with their clocks (``InvalidRecordError`` for an impossible clock)."""
        players = [row.spec() for row in self.rows]
        if self.same_clock.isChecked():
            clock = self.clock.control()
            for p in players:
                p.clock = clock
        return players


class _NoStorage:
    """Settings that keep nothing (a New game dialog opened without a window's engine book)."""

    def get(self, key: str, default: Any = None) -> Any:
        return default

    def set(self, key: str, value: Any) -> None:
        pass
