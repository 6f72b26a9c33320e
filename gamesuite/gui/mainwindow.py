"""The main window: the board in the middle, docks for analysis, moves and the evaluation graph.

The window wires the parts together and decides when engines think: the
``GameController`` owns the game, the ``EngineHost`` runs searches in the
worker thread, the board, panel, move list and graph only show and ask.

This module builds the window and keeps it current (actions, docks, the view,
autosave); each other concern is a module of its own, mixed into ``MainWindow``:

- ``window_engines``: preparing engines, what they think about, hint/analysis/play;
- ``window_clocks``: the game clocks, flag fall and the engine's limits under them;
- ``window_files``: new game, open/save, import/export, diagrams, the clipboard;
- ``window_setup``: the set-up mode;
- ``window_swap``: swap openings (swap1, swap2): the negotiation, its choices and its record.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QTextBrowser,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from ..core.errors import GameSuiteError, InvalidRecordError, quote
from ..core.registry import Game, load_game
from ..play.clock import ClockRunner, TimeSource
from ..play.record import GameRecord, PlayerSpec
from . import i18n
from .analysis import AnalysisPanel
from .boards import BoardWidget, board_class_for
from .clockview import ClockPanel
from .controller import GameController
from .engine_manager import EngineBook
from .engine_settings import EngineDialogsMixin
from .evalgraph import EvalGraph
from .fonts import load_fonts
from .helptext import help_html, rules_html
from .i18n import LanguageMixin
from .icons import themed_icon
from .keyentry import MoveEntry, TypeAhead
from .messages import MessageBar
from .movelist import MoveList
from .notation import Notation, notation_for, styles_of
from .session import SaveState
from .sounds import MoveSounds
from .storage import Storage
from .themes import apply_app_theme, board_theme
from .window_clocks import CLOCK_TICK_MS, ClocksMixin
from .window_engines import EnginesMixin
from .window_files import FilesMixin, default_players
from .window_setup import SetupMixin
from .window_swap import SwapMixin
from .worker import EngineFactory, EngineHost

DEFAULT_GAME = "tictactoe"
#: The smallest window: at this size every board is whole and the docks keep their minimum sizes.
MIN_WIDTH, MIN_HEIGHT = 800, 600
#: The docks' sizes at the default window size (the analysis panel's height, the right column's width).
DOCK_HEIGHT, DOCK_WIDTH = 190, 300


class MainWindow(EnginesMixin, EngineDialogsMixin, LanguageMixin, ClocksMixin, FilesMixin, SetupMixin, SwapMixin,
                 QMainWindow):
    """The desktop program's window."""

    interactive = Signal()  # engines prepared: the window takes input (emitted once)
    resultAnnounced = Signal(str)

    def __init__(
        self,
        data_dir: Path | str | None = None,
        engine_factory: EngineFactory | None = None,
        restore: bool | None = None,
        game_spec: str | None = None,
        players: list[PlayerSpec] | None = None,
        clock_source: TimeSource | None = None,
    ) -> None:
        """``restore``: True/False answers the restore-after-crash question, None asks the user (the game
        of a window that closed normally is opened again without asking, unless ``restore`` is False).

        ``clock_source``: the game clocks' time source (a callable returning ms; tests pass a fake).
        """
        super().__init__()
        self.clock = ClockRunner(clock_source)
        self._clock_record: GameRecord | None = None
        self.clock_timer = QTimer(self)
        self.clock_timer.setInterval(CLOCK_TICK_MS)
        self.clock_timer.timeout.connect(self.clock_tick)
        self.storage = Storage(data_dir)
        self.engine_book = EngineBook(self.storage)  # the external engines (Engine › Engine manager)
        i18n.install(i18n.saved_language(self.storage))  # before any text is made (View › Language)
        self.host = EngineHost(engine_factory, self)
        self.mode = "play"  # or "analyse"
        self.analysing = False
        self.ready = False  # the game's rules are loaded: the board takes moves
        self.engines_ready = False  # the engines are compiled (searches asked for earlier wait for it)
        self.setup_active = False
        self._ready_token = 0
        self._was_interactive = False
        self._announced_node: int | None = None
        self._analysis_done_node: int | None = None
        self._new_game_pending = True
        self.save_state = SaveState()  # the game's file and whether it is saved
        self.error_box: QMessageBox | None = None  # the last error dialog shown
        self._replaced = False  # the user opened or started a game before the last one could be restored
        self._loading = False
        self.shutdown_ok: bool | None = None  # whether the worker ended within a second of closing
        self._after_rules: list[Callable[[], object]] = []  # to run once the worker has loaded the rules
        self._warmed: set[str] = set()  # game specs whose rules the worker has loaded
        self._preparing_spec = ""
        self.preparing_text = ""  # "Preparing the gomoku engine (3 of 35)" while the engines load
        self._search_label = ""  # the analysis panel's title of the search asked for last
        self.prepare_progress = (0, 0)  # kernels compiled, kernels expected (0: not known)

        load_fonts()  # kanji for shogi on a machine without a Japanese font
        game = self._initial_game(game_spec)
        if players is None:
            players = self._saved_players(game) or default_players(game)
        self.controller = GameController(GameRecord(game, players=players,
                                                     match=self.new_record_match(self._saved_opening(game))), self)
        self.notation: Notation = self._notation_for(game)
        self.sounds = MoveSounds(self.controller, enabled=bool(self.storage.get("sounds", True)))

        self._build_central(game)
        self._build_docks()
        self.panel.set_notation(self.notation)  # the notation chosen for the game (View › Move notation)
        self._build_actions()
        self._build_status()
        self._connect()
        self.theme_name = str(self.storage.get("theme", "light"))
        self.set_theme(self.theme_name)
        self.board.set_flipped(bool(self.storage.get("flipped", False)))
        self.act_western.setChecked(str(self.storage.get("piece_style", "kanji")) == "western")
        self.act_numbered.setChecked(bool(self.storage.get("numbered_stones", False)))
        self.act_sounds.setChecked(self.sounds.enabled)
        self._apply_piece_style()
        self._sync_notation_actions()
        self.panel.multipv.setValue(int(self.storage.get("multipv", 1)))
        self.setMinimumSize(MIN_WIDTH, MIN_HEIGHT)
        self.resize(1100, 760)
        self._dock_sizes = {"analysis": DOCK_HEIGHT, "right": DOCK_WIDTH}  # what the user chose, kept
        self._fit_docks()
        geo = self.storage.get("geometry")
        if isinstance(geo, QByteArray):
            self.restoreGeometry(geo)
        st = self.storage.get("windowState")
        if isinstance(st, QByteArray):
            self.restoreState(st)

        self._swap_from_record()  # (a swap opening kept from the last new game: nothing played yet)
        # Until the worker has loaded the game's kernels, the GUI thread calls nothing
        # that might compile: the restore question waits for it too.
        self._after_rules.append(lambda: self._offer_restore(restore))
        self._prepare_engines()
        self._refresh()

    # -- construction -------------------------------------------------------------
    def _initial_game(self, spec: str | None) -> Game:
        for s in (spec, self.storage.get("game"), DEFAULT_GAME):
            if s:
                try:
                    game = load_game(str(s))
                    board_class_for(game)
                    return game
                except (GameSuiteError, ValueError):  # ValueError: no board widget for it
                    continue
        return load_game(DEFAULT_GAME)

    def _saved_opening(self, game: Game) -> str:
        """The opening rule of the last new game, if ``game`` may have it (``""``: none)."""
        from ..arena.swap import check_rule

        rule = str(self.storage.get("opening", "") or "")
        try:
            if rule:
                check_rule(game, rule)
        except GameSuiteError:
            return ""
        return rule

    def _saved_players(self, game: Game) -> list[PlayerSpec] | None:
        try:
            raw = json.loads(str(self.storage.get("players", "")))
            players = [PlayerSpec.from_json(p) for p in raw]
        except (ValueError, TypeError):
            return None
        return players if len(players) == game.num_players else None

    def _build_central(self, game: Game) -> None:
        central = QWidget()
        self.central_box = QVBoxLayout(central)
        self.central_box.setContentsMargins(6, 6, 6, 6)
        self.banner = QLabel()
        self.banner.setAlignment(Qt.AlignmentFlag.AlignCenter)
        font = self.banner.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        self.banner.setFont(font)
        self.banner.setWordWrap(True)
        self.central_box.addWidget(self.banner)
        self.message_bar = MessageBar()
        self.central_box.addWidget(self.message_bar)
        self._build_swap_bar()
        self.central_box.addWidget(self.swap_bar)
        self.clock_panel = ClockPanel()
        self.clock_panel.setVisible(False)
        self.central_box.addWidget(self.clock_panel)
        self.board: BoardWidget = board_class_for(game)(game)
        self.central_box.addWidget(self.board, 1)
        self._build_setup_bar()
        self.central_box.addWidget(self.setup_bar)
        self.setCentralWidget(central)

    def _build_docks(self) -> None:
        self.panel = AnalysisPanel()
        self.panel.setMinimumHeight(100)
        self.moves = MoveList()
        self.moves.setMinimumWidth(150)
        self.graph = EvalGraph()
        self.dock_analysis = self._dock(self.tr("Analysis"), self.panel, Qt.DockWidgetArea.BottomDockWidgetArea,
                                        "analysis")
        self.dock_moves = self._dock(self.tr("Moves"), self.moves, Qt.DockWidgetArea.RightDockWidgetArea, "moves")
        self.dock_graph = self._dock(self.tr("Evaluation"), self.graph, Qt.DockWidgetArea.RightDockWidgetArea,
                                     "evaluation")

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea, name: str) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{name}")  # (the same in every language: the saved layout finds it)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _action(self, text: str, slot: Callable[..., object],
                shortcut: str | QKeySequence | QKeySequence.StandardKey | None = None, tip: str = "",
                checkable: bool = False) -> QAction:
        a = QAction(text, self)
        if shortcut:
            a.setShortcut(QKeySequence(shortcut))
        if tip:
            a.setStatusTip(tip)
            a.setToolTip(f"{tip} ({a.shortcut().toString()})" if shortcut else tip)
        a.setCheckable(checkable)
        a.triggered.connect(slot)
        self.addAction(a)  # shortcuts work whatever has the focus
        return a

    def _build_actions(self) -> None:
        A = self._action
        self.act_new = A(self.tr("&New game…"), self.new_game_dialog, QKeySequence.StandardKey.New,
                         self.tr("Start a new game"))
        self.act_open = A(self.tr("&Open…"), self.open_dialog, QKeySequence.StandardKey.Open,
                          self.tr("Open a saved game"))
        self.act_save = A(self.tr("&Save"), self.save, QKeySequence.StandardKey.Save, self.tr("Save the game"))
        self.act_save_as = A(self.tr("Save &as…"), self.save_as_dialog, "Ctrl+Shift+S",
                             self.tr("Save the game to a new file"))
        self.act_import = A(self.tr("&Import…"), self.import_dialog, None,
                            self.tr("Open a game in the game's own file format"))
        self.act_export_game = A(self.tr("E&xport…"), self.export_game_dialog, None,
                                 self.tr("Save the line shown in the game's own file format"))
        self.act_export = A(self.tr("&Export diagram…"), self.export_dialog, "Ctrl+E",
                            self.tr("Save the board as PNG or SVG"))
        self.act_quit = A(self.tr("&Quit"), self.close, QKeySequence.StandardKey.Quit)
        self.act_takeback = A(self.tr("&Take back"), self.takeback, "Ctrl+Z", self.tr("Take back your last move"))
        self.act_redo = A(self.tr("&Redo"), self.controller_forward, "Ctrl+Shift+Z", self.tr("Replay the next move"))
        self.act_copy = A(self.tr("&Copy position"), self.copy_position, "Ctrl+Shift+C",
                          self.tr("Copy the position as text"))
        self.act_paste = A(self.tr("&Paste position"), self.paste_position, "Ctrl+Shift+V",
                           self.tr("Set up a position from text"))
        self.act_setup = A(self.tr("Set &up position"), self.toggle_setup, "Ctrl+P",
                           self.tr("Edit the position"), checkable=True)
        self.act_first = A(self.tr("First move"), lambda: self.controller.to_start(), "Home")
        self.act_back = A(self.tr("Back"), self.controller_back, "Left", self.tr("One move back"))
        self.act_forward = A(self.tr("Forward"), self.controller_forward, "Right", self.tr("One move forward"))
        self.act_last = A(self.tr("Last move"), lambda: self.controller.to_end(), "End")
        self.act_up = A(self.tr("Start"), lambda: self.controller.to_start(), "Up")
        self.act_down = A(self.tr("End"), lambda: self.controller.to_end(), "Down")
        self.act_engine = A(self.tr("Start/stop &engine"), self.toggle_engine, "Space",
                            self.tr("Start or stop the engine"))
        self.act_hint = A(self.tr("&Hint"), self.hint, "H", self.tr("Ask the engine for a move"))
        self.act_engine_settings = A(self.tr("Engine &settings…"), self.engine_settings_dialog, "Ctrl+Shift+E",
                                     self.tr("The analysis engine, its options, limits and lines"))
        self.act_engine_manager = A(self.tr("Engine &manager…"), self.engine_manager_dialog, None,
                                    self.tr("Add external USI and Gomocup engines"))
        self.act_flip = A(self.tr("&Flip board"), self.flip, "F", self.tr("Turn the board around"))
        self.act_western = A(self.tr("&Western piece letters"), self.toggle_western, None,
                             self.tr("Shogi pieces with letters instead of kanji"), checkable=True)
        self.act_numbered = A(self.tr("&Numbered stones"), self.toggle_numbered, None,
                              self.tr("Show on each stone the number of its move"), checkable=True)
        self.act_sounds = A(self.tr("S&ounds"), self.toggle_sounds, None,
                            self.tr("A sound for each move, capture and the end of the game"), checkable=True)
        self.notation_group = QActionGroup(self)
        self.notation_actions: dict[str, QAction] = {}
        labels = {"japanese": self.tr("&Japanese (▲７六歩)"), "western": self.tr("W&estern (P-7f)"),
                  "usi": self.tr("&USI (7g7f)")}
        for style, label in labels.items():
            a = A(label, lambda _=False, st=style: self.set_notation_style(st), checkable=True)
            self.notation_group.addAction(a)
            self.notation_actions[style] = a
        self.move_entry = MoveEntry(self)
        self.move_entry.moveTyped.connect(self.play_typed)
        self.type_ahead = TypeAhead(self, self.move_entry)
        self.act_type_move = A(self.tr("T&ype a move"), lambda: self.move_entry.start(), "Ctrl+L",
                               self.tr("Type a move (h8, 7g7f, ７六歩…) and press Enter"))
        self.mode_group = QActionGroup(self)
        self.act_play = A(self.tr("&Play against the computer"), lambda: self.set_mode("play"), "Ctrl+1",
                          checkable=True)
        self.act_analyse = A(self.tr("&Analyse"), lambda: self.set_mode("analyse"), "Ctrl+2",
                             self.tr("Engine follows every position"),
                             checkable=True)
        for a in (self.act_play, self.act_analyse):
            self.mode_group.addAction(a)
        self.act_play.setChecked(True)
        self.theme_group = QActionGroup(self)
        self.act_light = A(self.tr("&Light theme"), lambda: self.set_theme("light"), checkable=True)
        self.act_dark = A(self.tr("&Dark theme"), lambda: self.set_theme("dark"), checkable=True)
        for a in (self.act_light, self.act_dark):
            self.theme_group.addAction(a)

        mb = self.menuBar()
        m = mb.addMenu(self.tr("&Game"))
        _add_items(m, (self.act_new, self.act_open, self.act_save, self.act_save_as, None, self.act_import,
                  self.act_export_game, self.act_export, None, self.act_quit))
        m = mb.addMenu(self.tr("&Edit"))
        _add_items(m, (self.act_takeback, self.act_redo, None, self.act_copy, self.act_paste, None, self.act_setup))
        m = mb.addMenu(self.tr("&Moves"))
        _add_items(m, (self.act_first, self.act_back, self.act_forward, self.act_last, None, self.act_type_move))
        m = mb.addMenu(self.tr("&Engine"))
        _add_items(m, (self.act_play, self.act_analyse, None, self.act_engine, self.act_hint, None,
                  self.act_engine_settings, self.act_engine_manager))
        m = mb.addMenu(self.tr("&View"))
        _add_items(m, (self.act_flip, self.act_western, self.act_numbered, None))
        self.notation_menu = m.addMenu(self.tr("&Move notation"))
        for a in self.notation_actions.values():
            self.notation_menu.addAction(a)
        self._build_language_menu(m)
        _add_items(m, (None, self.act_light, self.act_dark, None, self.act_sounds, None))
        for d in (self.dock_analysis, self.dock_moves, self.dock_graph):
            m.addAction(d.toggleViewAction())
        m = mb.addMenu(self.tr("&Help"))
        m.addAction(self.tr("&How to use"), self.show_help)
        self.act_rules = m.addAction(self.tr("&Rules of the game"), self.show_rules)
        m.addAction(self.tr("&About"), self.show_about)

        self.nav_icons = {self.act_first: "first", self.act_back: "back", self.act_forward: "forward",
                          self.act_last: "last"}
        for a, short in ((self.act_new, self.tr("New")), (self.act_open, self.tr("Open")),
                         (self.act_save, self.tr("Save")), (self.act_takeback, self.tr("Take back")),
                         (self.act_hint, self.tr("Hint")), (self.act_engine, self.tr("Engine")),
                         (self.act_play, self.tr("Play")), (self.act_analyse, self.tr("Analyse")),
                         (self.act_flip, self.tr("Flip")), (self.act_setup, self.tr("Set up"))):
            a.setIconText(short)
        tb = QToolBar("Main")
        tb.setObjectName("toolbar-main")
        tb.setMovable(False)
        self.addToolBar(tb)
        _add_items(tb, (self.act_new, self.act_open, self.act_save, None, self.act_first, self.act_back,
                  self.act_forward, self.act_last, None, self.act_takeback, self.act_hint, self.act_engine, None,
                  self.act_play, self.act_analyse, None, self.act_flip, self.act_setup, None))
        tb.addWidget(self.move_entry)
        self.toolbar = tb

        self.setup_group = QActionGroup(self)
        self.setup_actions: list[QAction] = []

    def _build_status(self) -> None:
        sb = self.statusBar()
        self.thinking = QProgressBar()
        self.thinking.setRange(0, 0)
        self.thinking.setMaximumWidth(110)
        self.thinking.setMaximumHeight(14)
        self.thinking.setVisible(False)
        self.thinking_label = QLabel()
        self.hover_label = QLabel()
        self.hover_label.setMinimumWidth(40)
        self.mode_label = QLabel()
        sb.addPermanentWidget(self.thinking_label)
        sb.addPermanentWidget(self.thinking)
        sb.addPermanentWidget(self.hover_label)
        sb.addPermanentWidget(self.mode_label)

    def _connect(self) -> None:
        c = self.controller
        c.changed.connect(self._on_changed)
        c.treeChanged.connect(self._on_tree_changed)
        c.scoresChanged.connect(self._on_scores_changed)
        c.gameLoaded.connect(self._on_game_loaded)
        c.message.connect(self._report_refusal)
        c.treeChanged.connect(self._swap_tree_changed)
        self._connect_board()
        self.moves.nodeClicked.connect(self._go_to_node)
        self.moves.promoteRequested.connect(self.controller.promote)
        self.moves.deleteRequested.connect(self.controller.delete_from)
        self.graph.plyClicked.connect(self._go_to_node)
        self.panel.toggleRequested.connect(self.toggle_engine)
        self.panel.lineClicked.connect(self._preview_line)
        self.panel.lineActivated.connect(self._play_line_start)
        self.panel.multipvChanged.connect(self._multipv_changed)
        self.host.info.connect(self._on_info)
        self.host.result.connect(self._on_result)
        self.host.error.connect(self._on_engine_error)
        self.host.busyChanged.connect(self._on_busy)
        self.host.ready.connect(self._on_ready)
        self.host.rulesReady.connect(self._on_rules_ready)
        self.host.progress.connect(self._on_prepare_progress)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self._shutdown)

    def _connect_board(self) -> None:
        self.board.moveRequested.connect(self._on_board_move)
        self.board.hoverChanged.connect(self.hover_label.setText)
        self.board.message.connect(self._report_refusal)

    # -- user actions: moves ----------------------------------------------------------------
    @Slot(int)
    def _on_board_move(self, move: int) -> None:
        if not self.ready:
            self.show_message(self.tr("Preparing engines…"))
            return
        if self._swap_board_move(move):  # a stone of a swap opening (or one refused there)
            return
        p = self.controller.player_to_move()
        if self.mode == "play" and p is not None and p.is_engine and self.controller.at_end_of_line():
            self._report_refusal(self.tr("The computer is to move (Space makes it move now)"))
            return
        self.clock_tick()  # a flag that fell since the last tick ends the game before the move
        self.controller.play(move)

    def _go_to_node(self, node: object) -> None:
        self.controller.go_to(node)  # type: ignore[arg-type]

    @Slot()
    def controller_back(self) -> None:
        self.controller.back()

    @Slot()
    def controller_forward(self) -> None:
        self.controller.forward()

    @Slot()
    def takeback(self) -> None:
        if self._swap_takeback():
            return
        if not self.controller.takeback():
            self.show_message(self.tr("Nothing to take back"))

    def _preview_line(self, pv: object) -> None:
        cur = self.panel.state
        if cur is not None and cur.key == self.controller.state.key:
            self.board.set_preview(list(pv))  # type: ignore[call-overload]

    def _play_line_start(self, pv: object) -> None:
        moves = list(pv)  # type: ignore[call-overload]
        cur = self.panel.state
        if moves and cur is not None and cur.key == self.controller.state.key:
            self.clock_tick()
            self.controller.play(moves[0])

    # -- reactions to the controller -------------------------------------------------------
    @Slot()
    def _on_changed(self) -> None:
        self.message_bar.dismiss("warning")  # a refused move is no news once the position changed
        self._sync_clock()
        self._refresh()
        self._autosave()
        self._update_engine()
        self._sync_panel()

    @Slot()
    def _on_game_loaded(self) -> None:
        """A new record replaced the game: nothing shown may be about the old one."""
        self._swap_from_record()
        self.notation = self._notation_for(self.controller.game)
        self._sync_notation_actions()
        self.panel.set_notation(self.notation)
        self.panel.clear()
        self.graph.show_record(self.controller.record, self.controller.current)
        self.board.set_hint(None)

    @Slot()
    def _on_tree_changed(self) -> None:
        if not self._loading and self.ready:
            self.moves.show_record(self.controller.record, self.controller.current, self.notation)
            self._refresh_labels()
            self._autosave()

    @Slot()
    def _on_scores_changed(self) -> None:
        self.graph.update()

    def _refresh(self) -> None:
        c = self.controller
        if self.board.game != c.game:
            self._install_board(c.game)
        if not self.setup_active:
            self.board.set_state(c.state)
        self.graph.show_record(c.record, c.current)  # (scores and the main line only: no rules needed)
        if not self.ready:  # the rules may need kernels the worker has not loaded yet
            self.board.set_interactive(False)
            self.moves.clear()
            self._refresh_labels()
            return
        self.moves.show_record(c.record, c.current, self.notation)
        self._update_interactive()
        self._refresh_labels()
        over = c.over_text()
        if over is not None and c.current.id != self._announced_node:
            self._announced_node = c.current.id
            text = over
            self.show_message(f"Game over: {text}", 15_000)
            self.resultAnnounced.emit(text)

    def _refresh_labels(self) -> None:
        c = self.controller
        name = c.game.long_name
        if c.game.values:
            name += " " + ", ".join(f"{k}={v}" for k, v in c.game.values.items())
        title = f"{name} — gamesuite"
        file = self.save_state.file
        if file is not None:
            title = f"{file.name} — {title}"
        if self.ready and self.save_state.is_unsaved(c.record):
            title = "* " + title  # moves that are in no file
        self.setWindowTitle(title)
        self.mode_label.setText(self.tr("Analyse mode") if self.mode == "analyse" else self.tr("Play mode"))
        self._update_banner()

    def _update_banner(self) -> None:
        c = self.controller
        st = c.state
        if not self.ready:
            text = self.preparing_text + "…"
        elif self.setup_active:
            text = self.tr("Setting up a position: click to place, right-click to remove, then Done")
        elif c.over_text() is not None:
            text = self.tr("Game over: {0}").format(c.over_text())
        elif self.swap_banner() is not None:
            text = self.swap_banner() or ""
        else:
            who = self.notation.player(st.current_player) if st.current_player >= 0 else ""
            p = c.player_to_move()
            cur = self.host.current
            if not self.engines_ready and p is not None and p.is_engine and self.mode == "play":
                text = self.tr("{0} to move — {1}…").format(who, self.preparing_text[:1].lower()
                                                            + self.preparing_text[1:])
            elif cur is not None and cur.purpose == "move":
                text = self.tr("{0} to move — the computer is thinking…").format(who)
            elif p is not None and p.is_engine and self.mode == "play" and not c.at_end_of_line():
                text = self.tr("{0} to move (computer) — go to the last move to let it play").format(who)
            elif p is not None and p.is_engine:
                text = self.tr("{0} to move (computer)").format(who)
            else:
                text = self.tr("{0} to move").format(who)
        self.banner.setText(text)
        self._show_swap_bar()

    def _update_interactive(self) -> None:
        if not self.ready:
            self.board.set_interactive(False)
            return
        c = self.controller
        p = self._player_to_act()  # (in a swap opening: the role whose answer is due)
        computer_turn = self.mode == "play" and p is not None and p.is_engine and c.at_end_of_line()
        self.board.set_interactive(self.ready and (self.setup_active or not computer_turn))

    def _install_board(self, game: Game) -> None:
        old = self.board
        new = board_class_for(game)(game)
        new.set_theme(old.theme)
        new.set_flipped(old.flipped)
        new.rules_ready = self.ready
        new.set_interactive(self.board.interactive)
        self.central_box.replaceWidget(old, new)
        old.hide()
        old.deleteLater()
        self.board = new
        self._apply_piece_style()
        self._connect_board()

    # -- view ----------------------------------------------------------------------------------
    @Slot()
    def flip(self) -> None:
        self.board.set_flipped(not self.board.flipped)
        self.storage.set("flipped", self.board.flipped)

    @Slot()
    def toggle_western(self) -> None:
        self.storage.set("piece_style", "western" if self.act_western.isChecked() else "kanji")
        self._apply_piece_style()

    def _apply_piece_style(self) -> None:
        """Kanji or western letters on boards that have both (shogi); numbered stones on boards that
        number them (gomoku, tic-tac-toe)."""
        fn = getattr(self.board, "set_piece_style", None)
        if callable(fn):
            fn("western" if self.act_western.isChecked() else "kanji")
        fn = getattr(self.board, "set_numbered", None)
        if callable(fn):
            fn(self.act_numbered.isChecked())

    @Slot()
    def toggle_numbered(self) -> None:
        self.storage.set("numbered_stones", self.act_numbered.isChecked())
        self._apply_piece_style()

    @Slot()
    def toggle_sounds(self) -> None:
        on = self.act_sounds.isChecked()
        self.sounds.set_enabled(on)
        self.storage.set("sounds", on)
        if on and self.sounds.player.error:
            text = self.tr("Sounds are on, but this machine is silent: {0}")
            self.show_message(text.format(self.sounds.player.error))

    # -- move notation and typed moves -------------------------------------------------------------
    def _notation_for(self, game: Game) -> Notation:
        """The game's notation in the style chosen for it (remembered per game: View › Move notation)."""
        return notation_for(game, str(self.storage.get(f"notation/{game.name}", "")) or None)

    def _sync_notation_actions(self) -> None:
        styles = styles_of(self.controller.game)
        self.notation_menu.setEnabled(bool(styles))
        for style, a in self.notation_actions.items():
            a.setVisible(style in styles or not styles)
            a.setChecked(style == self.notation.style)

    def set_notation_style(self, style: str) -> None:
        """Write the game's moves in ``style`` (one of its notation's ``STYLES``) from now on."""
        game = self.controller.game
        if style not in styles_of(game):
            return
        self.storage.set(f"notation/{game.name}", style)
        self.notation = self._notation_for(game)
        self._sync_notation_actions()
        self.panel.set_notation(self.notation)
        if self.ready:
            self.moves.show_record(self.controller.record, self.controller.current, self.notation)

    @Slot(str)
    def play_typed(self, text: str) -> None:
        """A move typed in the move entry: played as if clicked, or refused above the board with the
        text quoted."""
        c = self.controller
        if text.strip().lower() == "swap" and self.ready and not self.setup_active:  # a swap opening's choice
            answered = len(self.swap_steps)
            self.swap_take()
            (self.move_entry.accepted if len(self.swap_steps) > answered else self.move_entry.refused)()
            return
        if not self.ready or self.setup_active:
            self._report_refusal(self.tr("{0}: no move can be typed now").format(quote(text)) + " ("
                                 + (self.tr("setting up a position") if self.setup_active
                                    else self.tr("preparing engines")) + ")")
            self.move_entry.refused()
            return
        try:
            move = self.notation.parse(c.state, text)
        except GameSuiteError as e:
            self._report_refusal(str(e) if quote(text) in str(e)
                                 else self.tr("{0} is not a move here: {1}").format(quote(text), e))
            self.move_entry.refused()
            return
        before = c.current
        self._on_board_move(move)
        if c.current is before:
            self.move_entry.refused()
        else:
            self.move_entry.accepted()

    def set_theme(self, name: str) -> None:
        self.theme_name = name
        (self.act_dark if name == "dark" else self.act_light).setChecked(True)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_app_theme(app, name)
        palette = app.palette() if isinstance(app, QApplication) else self.palette()
        for action, icon in self.nav_icons.items():
            action.setIcon(themed_icon(icon, palette))
        theme = board_theme(name)
        self.board.set_theme(theme)
        self.clock_panel.set_theme(theme)
        self._show_clocks()
        self.graph.set_theme(theme)
        self.message_bar.set_theme(name)
        self.moves.set_link_colour("#8ab4ff" if name == "dark" else "#2060c0")
        if self.ready:
            self.moves.show_record(self.controller.record, self.controller.current, self.notation)
        self.storage.set("theme", name)

    def show_message(self, text: str, ms: int = 5000) -> None:
        """News that may pass (the status bar); what must be read goes to ``report``."""
        self.statusBar().showMessage(text, ms)

    def _text_window(self, title: str, html: str) -> QDialog:
        dlg = QDialog(self)
        dlg.setWindowTitle(title)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        text = QTextBrowser()
        text.setOpenExternalLinks(False)
        text.setHtml(html)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(dlg.close)
        box = QVBoxLayout(dlg)
        box.addWidget(text)
        box.addWidget(buttons)
        dlg.resize(min(640, self.width()), min(620, self.height()))
        dlg.show()
        return dlg

    def show_help(self) -> None:
        self.help_window = self._text_window("How to use gamesuite", help_html())

    def show_rules(self) -> None:
        """The rules of the game shown, in the Help menu."""
        self.help_window = self._text_window(f"Rules: {self.controller.game.long_name}",
                                             rules_html(self.controller.game))

    def show_about(self) -> None:
        from .. import __version__

        QMessageBox.about(self, "About gamesuite",
                          f"gamesuite {__version__}\nPlay and analyse board games against strong engines.\n"
                          "MIT licence.")

    # -- the docks keep their sizes ---------------------------------------------------------------
    def _fit_docks(self) -> None:
        """Give the docks the sizes the user chose, as far as the window's size allows: a window made
        small and large again gets them back (Qt would leave them squeezed)."""
        h = min(self._dock_sizes["analysis"], max(110, self.height() // 4))
        w = min(self._dock_sizes["right"], max(180, self.width() // 3))
        if not self.dock_analysis.isFloating():
            self.resizeDocks([self.dock_analysis], [h], Qt.Orientation.Vertical)
        right = [d for d in (self.dock_moves, self.dock_graph)
                 if not d.isFloating() and self.dockWidgetArea(d) == Qt.DockWidgetArea.RightDockWidgetArea]
        if right:
            self.resizeDocks(right, [w] * len(right), Qt.Orientation.Horizontal)

    def _remember_dock_sizes(self) -> None:
        """The user moved a splitter between the docks: keep what they chose."""
        if not self.dock_analysis.isFloating() and self.dock_analysis.isVisible():
            self._dock_sizes["analysis"] = self.dock_analysis.height()
        if not self.dock_moves.isFloating() and self.dock_moves.isVisible():
            self._dock_sizes["right"] = self.dock_moves.width()

    def event(self, e: QEvent) -> bool:
        done = super().event(e)
        if e.type() == QEvent.Type.MouseButtonRelease:  # the main window itself: a splitter drag ended
            self._remember_dock_sizes()
        return done

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        QTimer.singleShot(0, self._fit_docks)

    # -- autosave, restore, closing -------------------------------------------------------------
    def _autosave(self, closed: bool = False) -> None:
        if self._loading:
            return
        rec = self.controller.record
        try:
            self.storage.autosave(rec.to_json(self.controller.current),
                                  {**self.save_state.to_json(rec), "closed": closed})
        except OSError as e:
            self.report(f"Autosave failed: {e.strerror or e} ({self.storage.autosave_path})")

    def _offer_restore(self, restore: bool | None) -> None:
        """Open the last game again: the one of the last window closed normally (at once), or of a session
        that crashed (``restore`` None: after asking)."""
        d = self.storage.unclean_autosave()
        if d is None:
            return
        if not d.get("moves") and not d.get("start"):
            self.storage.forget_unclean()
            return
        if self._replaced:  # the user already opened or started a game: keep this one for later
            self.storage.release_unclean()
            return
        session = d.get("session")
        if not isinstance(session, dict):
            session = {}
        closed = bool(session.get("closed"))
        spec = str(d.get("game", ""))
        if spec != self.controller.game.spec and spec not in self._warmed:
            try:
                game = load_game(spec)
            except GameSuiteError:
                self.storage.release_unclean()
                return
            self._after_rules.append(lambda: self._offer_restore(restore))
            self._prepare_engines(game, [])
            return
        if restore is None:
            if closed:
                restore = True
            else:
                answer = QMessageBox.question(
                    self, "Restore the last game?",
                    "gamesuite did not close normally last time. Restore the game you were playing?")
                restore = answer == QMessageBox.StandardButton.Yes
        if not restore:
            if closed:
                self.storage.release_unclean()  # (only a script says no to the last game: keep it)
            else:
                self.storage.forget_unclean()  # the user declined the crashed session's game
            return
        try:
            rec, node = GameRecord.from_json(d)
        except InvalidRecordError as e:
            self.report(f"The autosaved game cannot be restored: {e}")
            self.storage.release_unclean()
            return  # the file stays for the user to rescue by hand
        self._load_record(rec, node)
        self.save_state.restore(rec, session)
        self._refresh_labels()
        self._autosave()  # now in this window's own autosave
        self.storage.forget_unclean()
        self.show_message("Your last game, as you left it" if closed else "Restored the game from the last session",
                          8000)

    def _shutdown(self) -> None:
        self.sounds.close()
        self.shutdown_ok = self.host.shutdown(1000)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Quitting loses nothing: the game stays in the autosave and the next launch opens it again."""
        self.storage.set("geometry", self.saveGeometry())
        self.storage.set("windowState", self.saveState())
        self.hide()
        self._shutdown()
        rec = self.controller.record
        if rec.root.children or rec.start_text is not None:
            self._autosave(closed=True)
            self.storage.abandon()
        else:
            self.storage.discard_autosave()  # an empty board: nothing to open again
        self.storage.release_unclean()
        self.storage.settings.sync()
        super().closeEvent(event)


def _add_items(target: QMenu | QToolBar, actions: tuple[QAction | None, ...]) -> None:
    """Add ``actions`` to a menu or tool bar in order, a separator for each ``None``."""
    for a in actions:
        if a is None:
            target.addSeparator()
        else:
            target.addAction(a)
