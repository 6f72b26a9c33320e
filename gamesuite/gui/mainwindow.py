"""The main window: the board in the middle, docks for analysis, moves and the evaluation graph.

The window wires the parts together and decides when engines think: the
``GameController`` owns the game, the ``EngineHost`` runs searches in the
worker thread, the board, panel, move list and graph only show and ask.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QGuiApplication, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QTextBrowser,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..core.errors import GameSuiteError, InvalidRecordError, quote
from ..core.files import write_atomic, write_atomic_with
from ..core.info import SearchResult
from ..core.limits import Limits
from ..core.registry import Game, load_game
from .analysis import AnalysisPanel
from .boards import BoardWidget, board_class_for
from .clock import ClockRunner, ClockValue, Reading, TimeSource, after_move, available, reading
from .clockview import ClockPanel
from .controller import GameController
from .dialogs import NewGameDialog
from .evalgraph import EvalGraph
from .flowlayout import FlowLayout
from .fonts import load_fonts
from .fmt import score_text
from .helptext import help_html, rules_html
from .icons import themed_icon
from .keyentry import MoveEntry, TypeAhead
from .messages import MessageBar, error_box
from .movelist import MoveList
from .notation import Notation, notation_for, styles_of
from .record import GameRecord, Node, PlayerSpec, parse_json
from .session import SaveState
from .sounds import MoveSounds
from .storage import Storage
from .themes import apply_app_theme, board_theme
from .worker import EngineFactory, EngineHost

DEFAULT_GAME = "tictactoe"
HINT_MS = 1000
#: How often the clocks are redrawn and checked for a fallen flag while one runs (ms).
CLOCK_TICK_MS = 100
#: An engine is told this much less time than its clock shows (at most a tenth of it), for the
#: moments between its search ending and its move reaching the window.
ENGINE_CLOCK_MARGIN_MS = 100
#: The smallest window: at this size every board is whole and the docks keep their minimum sizes.
MIN_WIDTH, MIN_HEIGHT = 800, 600
#: The docks' sizes at the default window size (the analysis panel's height, the right column's width).
DOCK_HEIGHT, DOCK_WIDTH = 190, 300


def default_players(game: Game) -> list[PlayerSpec]:
    """Human against the default engine (the computer plays the second side)."""
    players = [PlayerSpec("human") for _ in range(game.num_players)]
    for p in players[1:]:
        p.kind = "engine"
    return players


class MainWindow(QMainWindow):
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
        self._after_rules: list = []  # callbacks to run once the worker has loaded the game's rules
        self._warmed: set[str] = set()  # game specs whose rules the worker has loaded
        self._preparing_spec = ""
        self.preparing_text = ""  # "Preparing the gomoku engine (3 of 35)" while the engines load
        self._search_label = ""  # the analysis panel's title of the search asked for last
        self.prepare_progress = (0, 0)  # kernels compiled, kernels expected (0: not known)

        load_fonts()  # kanji for shogi on a machine without a Japanese font
        game = self._initial_game(game_spec)
        if players is None:
            players = self._saved_players(game) or default_players(game)
        self.controller = GameController(GameRecord(game, players=players), self)
        self.notation: Notation = self._notation_for(game)
        self.sounds = MoveSounds(self.controller, enabled=bool(self.storage.get("sounds", True)))

        self._build_central(game)
        self._build_docks()
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
        self.clock_panel = ClockPanel()
        self.clock_panel.setVisible(False)
        self.central_box.addWidget(self.clock_panel)
        self.board: BoardWidget = board_class_for(game)(game)
        self.central_box.addWidget(self.board, 1)
        self._build_setup_bar()
        self.central_box.addWidget(self.setup_bar)
        self.setCentralWidget(central)

    def _build_setup_bar(self) -> None:
        """The setup editor's controls: the pieces (wrapping onto more rows as needed), the side to
        move, and Clear / Done / Cancel, always in view."""
        self.setup_bar = QWidget()
        self.setup_bar.setObjectName("setupbar")
        box = QHBoxLayout(self.setup_bar)
        box.setContentsMargins(0, 2, 0, 0)
        tools = QWidget()
        self.setup_tools_layout = FlowLayout(tools, spacing=3)
        box.addWidget(tools, 1)
        self.setup_side_label = QLabel("To move:")
        self.setup_side_box = QComboBox()
        self.setup_side_box.currentIndexChanged.connect(self._setup_side_changed)
        box.addWidget(self.setup_side_label, 0, Qt.AlignmentFlag.AlignTop)
        box.addWidget(self.setup_side_box, 0, Qt.AlignmentFlag.AlignTop)
        self.setup_clear = QPushButton("Clear")
        self.setup_clear.setToolTip("Empty the board")
        self.setup_clear.clicked.connect(lambda: self.board.setup_clear())
        self.setup_done = QPushButton("Done")
        self.setup_done.setToolTip("Check the position and start from it")
        self.setup_done.clicked.connect(self.finish_setup)
        self.setup_cancel = QPushButton("Cancel")
        self.setup_cancel.setToolTip("Leave the editor; the game stays as it was")
        self.setup_cancel.clicked.connect(lambda: self.end_setup(apply=False))
        for b in (self.setup_clear, self.setup_done, self.setup_cancel):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            box.addWidget(b, 0, Qt.AlignmentFlag.AlignTop)
        self.setup_bar.setVisible(False)

    @Slot(int)
    def _setup_side_changed(self, i: int) -> None:
        if i >= 0:
            self.board.setup_side = i

    def _build_docks(self) -> None:
        self.panel = AnalysisPanel()
        self.panel.setMinimumHeight(100)
        self.moves = MoveList()
        self.moves.setMinimumWidth(150)
        self.graph = EvalGraph()
        self.dock_analysis = self._dock("Analysis", self.panel, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.dock_moves = self._dock("Moves", self.moves, Qt.DockWidgetArea.RightDockWidgetArea)
        self.dock_graph = self._dock("Evaluation", self.graph, Qt.DockWidgetArea.RightDockWidgetArea)

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{title.lower()}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _action(self, text: str, slot, shortcut: str | QKeySequence | None = None, tip: str = "",  # type: ignore[no-untyped-def]
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
        self.act_new = A("&New game…", self.new_game_dialog, QKeySequence.StandardKey.New, "Start a new game")
        self.act_open = A("&Open…", self.open_dialog, QKeySequence.StandardKey.Open, "Open a saved game")
        self.act_save = A("&Save", self.save, QKeySequence.StandardKey.Save, "Save the game")
        self.act_save_as = A("Save &as…", self.save_as_dialog, "Ctrl+Shift+S", "Save the game to a new file")
        self.act_import = A("&Import…", self.import_dialog, None, "Open a game in the game's own file format")
        self.act_export_game = A("E&xport…", self.export_game_dialog, None,
                                 "Save the line shown in the game's own file format")
        self.act_export = A("&Export diagram…", self.export_dialog, "Ctrl+E", "Save the board as PNG or SVG")
        self.act_quit = A("&Quit", self.close, QKeySequence.StandardKey.Quit)
        self.act_takeback = A("&Take back", self.takeback, "Ctrl+Z", "Take back your last move")
        self.act_redo = A("&Redo", self.controller_forward, "Ctrl+Shift+Z", "Replay the next move")
        self.act_copy = A("&Copy position", self.copy_position, "Ctrl+Shift+C", "Copy the position as text")
        self.act_paste = A("&Paste position", self.paste_position, "Ctrl+Shift+V", "Set up a position from text")
        self.act_setup = A("Set &up position", self.toggle_setup, "Ctrl+P", "Edit the position", checkable=True)
        self.act_first = A("First move", lambda: self.controller.to_start(), "Home")
        self.act_back = A("Back", self.controller_back, "Left", "One move back")
        self.act_forward = A("Forward", self.controller_forward, "Right", "One move forward")
        self.act_last = A("Last move", lambda: self.controller.to_end(), "End")
        self.act_up = A("Start", lambda: self.controller.to_start(), "Up")
        self.act_down = A("End", lambda: self.controller.to_end(), "Down")
        self.act_engine = A("Start/stop &engine", self.toggle_engine, "Space", "Start or stop the engine")
        self.act_hint = A("&Hint", self.hint, "H", "Ask the engine for a move")
        self.act_flip = A("&Flip board", self.flip, "F", "Turn the board around")
        self.act_western = A("&Western piece letters", self.toggle_western, None,
                             "Shogi pieces with letters instead of kanji", checkable=True)
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
        self.act_play = A("&Play against the computer", lambda: self.set_mode("play"), "Ctrl+1", checkable=True)
        self.act_analyse = A("&Analyse", lambda: self.set_mode("analyse"), "Ctrl+2", "Engine follows every position",
                             checkable=True)
        for a in (self.act_play, self.act_analyse):
            self.mode_group.addAction(a)
        self.act_play.setChecked(True)
        self.theme_group = QActionGroup(self)
        self.act_light = A("&Light theme", lambda: self.set_theme("light"), checkable=True)
        self.act_dark = A("&Dark theme", lambda: self.set_theme("dark"), checkable=True)
        for a in (self.act_light, self.act_dark):
            self.theme_group.addAction(a)

        mb = self.menuBar()
        m = mb.addMenu("&Game")
        for a in (self.act_new, self.act_open, self.act_save, self.act_save_as, None, self.act_import,
                  self.act_export_game, self.act_export, None, self.act_quit):
            m.addSeparator() if a is None else m.addAction(a)
        m = mb.addMenu("&Edit")
        for a in (self.act_takeback, self.act_redo, None, self.act_copy, self.act_paste, None, self.act_setup):
            m.addSeparator() if a is None else m.addAction(a)
        m = mb.addMenu("&Moves")
        for a in (self.act_first, self.act_back, self.act_forward, self.act_last, None, self.act_type_move):
            m.addSeparator() if a is None else m.addAction(a)
        m = mb.addMenu("&Engine")
        for a in (self.act_play, self.act_analyse, None, self.act_engine, self.act_hint):
            m.addSeparator() if a is None else m.addAction(a)
        m = mb.addMenu("&View")
        for a in (self.act_flip, self.act_western, self.act_numbered, None):
            m.addSeparator() if a is None else m.addAction(a)
        self.notation_menu = m.addMenu(self.tr("&Move notation"))
        for a in self.notation_actions.values():
            self.notation_menu.addAction(a)
        for a in (None, self.act_light, self.act_dark, None, self.act_sounds, None):
            m.addSeparator() if a is None else m.addAction(a)
        for d in (self.dock_analysis, self.dock_moves, self.dock_graph):
            m.addAction(d.toggleViewAction())
        m = mb.addMenu("&Help")
        m.addAction("&How to use", self.show_help)
        self.act_rules = m.addAction("&Rules of the game", self.show_rules)
        m.addAction("&About", self.show_about)

        self.nav_icons = {self.act_first: "first", self.act_back: "back", self.act_forward: "forward",
                          self.act_last: "last"}
        for a, short in ((self.act_new, "New"), (self.act_open, "Open"), (self.act_save, "Save"),
                         (self.act_takeback, "Take back"), (self.act_hint, "Hint"), (self.act_engine, "Engine"),
                         (self.act_play, "Play"), (self.act_analyse, "Analyse"), (self.act_flip, "Flip"),
                         (self.act_setup, "Set up")):
            a.setIconText(short)
        tb = QToolBar("Main")
        tb.setObjectName("toolbar-main")
        tb.setMovable(False)
        self.addToolBar(tb)
        for a in (self.act_new, self.act_open, self.act_save, None, self.act_first, self.act_back,
                  self.act_forward, self.act_last, None, self.act_takeback, self.act_hint, self.act_engine, None,
                  self.act_play, self.act_analyse, None, self.act_flip, self.act_setup, None):
            tb.addSeparator() if a is None else tb.addAction(a)
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

    # -- engines: preparation ---------------------------------------------------------
    def analysis_spec(self) -> str:
        """The engine spec used for analysis and hints: the first computer player's, or the default."""
        for p in self.controller.players:
            if p.is_engine:
                return p.engine
        return ""

    def _prepare_engines(self, game: Game | None = None, players: list[PlayerSpec] | None = None) -> None:
        """Have the worker load ``game``'s rule kernels and build and warm up its engines.

        Until the rules are loaded (``rulesReady``) the window is not ``ready``: the board
        takes no moves and nothing on the GUI thread calls into the game's rules beyond
        ``new_state``; searches asked for later wait in the worker behind the warm-up.
        """
        game = game or self.controller.game
        players = players if players is not None else self.controller.players
        engines = [p.engine for p in players if p.is_engine]
        specs = set(engines) | {engines[0] if engines else ""}
        self.ready = False
        self.engines_ready = False
        self.board.rules_ready = False
        self._preparing_spec = game.spec
        self.prepare_progress = (0, 0)
        self.preparing_text = f"Preparing the {game.name} engine"
        self._ready_token = self.host.prepare([(game, s) for s in sorted(specs)])
        self.banner.setText(self.preparing_text + "…")
        self._show_thinking()

    @Slot(int, int, int, str)
    def _on_prepare_progress(self, token: int, done: int, total: int, what: str) -> None:
        """Real progress of the engines' compilation: "Preparing the gomoku engine (12 of 35)"."""
        if token != self._ready_token or self.engines_ready:
            return
        self.prepare_progress = (done, total)
        what = what or f"the {self.controller.game.name} engine"
        self.preparing_text = f"Preparing {what}" + (f" ({min(done, total)} of {total})" if total else "")
        self._show_thinking()

    @Slot(int)
    def _on_rules_ready(self, token: int) -> None:
        if token != self._ready_token:
            return
        self.ready = True
        self.board.rules_ready = True
        self._warmed.add(self._preparing_spec)
        todo, self._after_rules = self._after_rules, []
        for fn in todo:
            fn()
        self._sync_clock()
        self._refresh()
        self._update_engine()
        if not self._was_interactive:
            self._was_interactive = True
            self.interactive.emit()

    @Slot(int, str)
    def _on_ready(self, token: int, errors: str) -> None:
        if token != self._ready_token:
            return
        self.engines_ready = True
        if errors:
            self.report(f"Engine problem: {errors}")
        self._sync_clock()
        cur = self.host.current
        if cur is not None and cur.purpose == "move":  # a move asked for meanwhile starts now, in the worker
            self.panel.set_running(True, self._search_label)
        self._show_thinking()

    # -- engines: what to think about ------------------------------------------------------
    def _update_engine(self, force: bool = False) -> None:
        if not self.ready or self.setup_active:
            return
        c = self.controller
        node, st = c.current, c.state
        cur = self.host.current
        p = c.player_to_move()
        purpose = None
        if self.mode == "play" and p is not None and p.is_engine and c.over_text() is None and c.at_end_of_line():
            purpose = "move"
        elif self.analysing and not st.is_terminal():
            purpose = "analysis"
        if purpose is None:
            if cur is not None and not (cur.purpose == "hint" and cur.node_id == node.id):
                self._stop_search()
            self._show_thinking()
            return
        if not force and cur is not None and cur.purpose == purpose and cur.node_id == node.id:
            return
        if purpose == "analysis" and not force and self._analysis_done_node == node.id and cur is None:
            return
        if purpose == "move":
            assert p is not None
            if p.clock is not None:
                limits = self.clock_limits()
            else:
                limits = Limits(depth=p.depth) if p.depth else Limits(movetime=p.movetime or 1000)
            spec = p.engine
            label = f"{self.notation.player(st.current_player)}: {p.label()} is thinking"
        else:
            limits = Limits(infinite=True, multipv=self.panel.multipv.value())
            spec = self.analysis_spec()
            label = f"Analysing with {spec or 'the default engine'}"
        self._analysis_done_node = None
        self.host.start(purpose, c.game, st, spec, limits, new_game=self._new_game_pending, node_id=node.id)
        self._new_game_pending = False
        self._search_label = label
        # a search asked for while the engines load waits in the worker: say what happens, not "thinking"
        waiting = not self.engines_ready and purpose == "move"
        self.panel.begin(st, self.preparing_text + "…" if waiting else label, node.id, c.record, purpose)
        self.panel.set_running(True)
        self._show_thinking()

    def _stop_search(self, label: str = "Stopped") -> None:
        """Stop the running search (its late reports are dropped); the panel says it stopped."""
        cur = self.host.current
        self.host.stop()
        if cur is not None:
            self.panel.flush()
            self.panel.set_running(False, label if self.panel.state is not None else None)
        self._sync_panel()

    def _sync_panel(self) -> None:
        """Keep the analysis panel about the position shown: a panel about another position is
        cleared (a new game, an opened file, a pasted or set-up position, a step elsewhere), except
        the computer's thoughts about the move it just played."""
        c = self.controller
        p = self.panel
        if p.state is not None:
            here = p.is_about(c.record, c.current.id)
            just_played = (p.purpose == "move" and c.current.parent is not None
                           and p.is_about(c.record, c.current.parent.id))
            if not here and not just_played:
                p.clear()
        if p.state is None and self.host.current is None:
            over = c.over_text() if self.ready else None
            p.title.setText(f"Game over: {over}" if over else "Engine idle")

    def _show_thinking(self) -> None:
        cur = self.host.current
        if not self.engines_ready:  # never "thinking" while the engines load: their real progress
            done, total = self.prepare_progress
            self.thinking.setRange(0, total)  # (0, 0): a busy bar while the total is not known
            self.thinking.setValue(min(done, total))
            self.thinking_label.setText(self.preparing_text)
            if cur is not None and cur.purpose == "move":  # (a hint or an analysis keeps its own title)
                self.panel.set_running(True, self.preparing_text + "…")
        else:
            self.thinking.setRange(0, 0)
        if not self.engines_ready:
            pass
        elif cur is not None and cur.purpose == "move":
            self.thinking_label.setText("Computer is thinking")
        elif cur is not None and cur.purpose == "analysis":
            self.thinking_label.setText("Analysing")
        elif cur is not None and cur.purpose == "hint":
            self.thinking_label.setText("Looking for a hint")
        else:
            self.thinking_label.setText("")
        self.thinking.setVisible(cur is not None or not self.engines_ready)
        self.panel.set_running(cur is not None)
        self._update_banner()
        self._update_interactive()

    @Slot(int, str, object)
    def _on_info(self, sid: int, purpose: str, infos: list) -> None:
        cur = self.host.current
        if cur is not None and self.panel.is_about(self.controller.record, cur.node_id):  # type: ignore[arg-type]
            self.panel.add_infos(infos)
        tops = [i for i in infos if i.multipv == 1]
        if tops and cur is not None and purpose in ("analysis", "move"):
            node = self.controller.record.find(cur.node_id) if cur.node_id is not None else None
            if node is not None:
                self.controller.set_score(node, tops[-1].score)

    @Slot(int, str, object)
    def _on_result(self, sid: int, purpose: str, result: SearchResult) -> None:
        self.panel.flush()
        c = self.controller
        req = self.host.finished_request
        req_node = c.record.find(req.node_id) if req is not None and req.node_id is not None else None
        if req_node is None:  # a search of a game no longer shown
            self._show_thinking()
            return
        if result.lines or result.depth:
            c.set_score(req_node, result.score)
        score = self._score_words(result.score)
        if purpose == "move":
            self.clock_tick()  # a flag that fell before the move came in
            if result.best_move is not None and req_node is c.current and c.over_text() is None:
                text = self.notation.move(c.state, result.best_move)
                self.panel.set_running(False, f"{self.notation.player(c.state.current_player)} played {text} "
                                              f"({score}, depth {result.depth})")
                c.play(result.best_move)
        elif purpose == "hint":
            if result.best_move is not None and req_node is c.current:
                self.board.set_hint(result.best_move)
                hint = f"Hint: {self.notation.move(c.state, result.best_move)} ({score})"
                self.panel.set_running(False, hint)
                self.show_message(hint, 8000)
            self._show_thinking()
            self._update_engine()
        else:
            self._analysis_done_node = req_node.id
            if self.panel.is_about(c.record, req_node.id):
                self.panel.set_running(False, f"Analysis complete: {score} at depth {result.depth}")
            self._show_thinking()

    def _score_words(self, score) -> str:  # type: ignore[no-untyped-def]
        """A score for a sentence: ``+0.35``, ``X wins in 3``, or one value per player (``Red +1.2, …``)."""
        if score.kind == "vector":
            return ", ".join(f"{self.notation.player(i)} {v}" for i, v in enumerate(self.notation.score_cells(score)))
        return score_text(score, self.controller.game)

    @Slot(int, str, str)
    def _on_engine_error(self, sid: int, purpose: str, message: str) -> None:
        self.report(f"The engine failed: {message}")
        self.panel.set_running(False, "The engine failed")
        # Do not ask a broken engine again by itself: the computers stop playing
        # (analyse mode, engine off) until the user starts something.
        self.analysing = False
        if purpose == "move":
            self.mode = "analyse"
            self.act_analyse.setChecked(True)
            self._sync_clock()
            self._refresh_labels()
        self._show_thinking()

    @Slot(bool)
    def _on_busy(self, busy: bool) -> None:
        self._show_thinking()

    # -- user actions: engine ----------------------------------------------------------------
    @Slot()
    def toggle_engine(self) -> None:
        """Space: move now (computer's turn), or start/stop the analysis."""
        cur = self.host.current
        if cur is not None and cur.purpose == "move":
            self.host.move_now()
            return
        if self.analysing:
            self.stop_analysis()
        else:
            self.start_analysis()

    def start_analysis(self) -> None:
        self.analysing = True
        self._analysis_done_node = None
        self._update_engine(force=True)
        self._show_thinking()

    def stop_analysis(self) -> None:
        self.analysing = False
        cur = self.host.current
        if cur is not None and cur.purpose == "analysis":
            self._stop_search("Analysis stopped")
        self._show_thinking()

    def set_mode(self, mode: str) -> None:
        """``"play"``: computers move for their sides; ``"analyse"``: the engine follows the position."""
        self.mode = mode
        (self.act_play if mode == "play" else self.act_analyse).setChecked(True)
        self._sync_clock()  # the clocks run in play mode only
        if mode == "analyse":
            self.start_analysis()
        else:
            self.analysing = False
            cur = self.host.current
            if cur is not None and cur.purpose == "analysis":
                self._stop_search("Analysis stopped")
            self._update_engine()
        self._refresh_labels()

    @Slot()
    def hint(self) -> None:
        c = self.controller
        if not self.ready or c.state.is_terminal():
            return
        cur = self.host.current
        if cur is not None and cur.purpose == "move":
            return
        self.host.start("hint", c.game, c.state, self.analysis_spec(), Limits(movetime=HINT_MS),
                        node_id=c.current.id)
        self.panel.begin(c.state, "Looking for a hint", c.current.id, c.record, "hint")
        self.panel.set_running(True)
        self._show_thinking()

    @Slot(int)
    def _multipv_changed(self, n: int) -> None:
        self.storage.set("multipv", n)
        if self.analysing:
            self._update_engine(force=True)

    # -- user actions: moves ----------------------------------------------------------------
    @Slot(int)
    def _on_board_move(self, move: int) -> None:
        if not self.ready:
            self.show_message("Preparing engines…")
            return
        p = self.controller.player_to_move()
        if self.mode == "play" and p is not None and p.is_engine and self.controller.at_end_of_line():
            self._report_refusal("The computer is to move (Space makes it move now)")
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
        if not self.controller.takeback():
            self.show_message("Nothing to take back")

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
        self.mode_label.setText("Analyse mode" if self.mode == "analyse" else "Play mode")
        self._update_banner()

    def _update_banner(self) -> None:
        c = self.controller
        st = c.state
        if not self.ready:
            text = self.preparing_text + "…"
        elif self.setup_active:
            text = "Setting up a position: click to place, right-click to remove, then Done"
        elif c.over_text() is not None:
            text = f"Game over: {c.over_text()}"
        else:
            who = self.notation.player(st.current_player) if st.current_player >= 0 else ""
            p = c.player_to_move()
            cur = self.host.current
            if not self.engines_ready and p is not None and p.is_engine and self.mode == "play":
                text = f"{who} to move — {self.preparing_text[:1].lower()}{self.preparing_text[1:]}…"
            elif cur is not None and cur.purpose == "move":
                text = f"{who} to move — the computer is thinking…"
            elif p is not None and p.is_engine and self.mode == "play" and not c.at_end_of_line():
                text = f"{who} to move (computer) — go to the last move to let it play"
            else:
                text = f"{who} to move" + (" (computer)" if p is not None and p.is_engine else "")
        self.banner.setText(text)

    def _update_interactive(self) -> None:
        if not self.ready:
            self.board.set_interactive(False)
            return
        c = self.controller
        p = c.player_to_move()
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

    # -- clocks ------------------------------------------------------------------------------------
    def _clock_player(self) -> int | None:
        """The player whose clock should run now, or None (no clock, analyse or setup mode,
        browsing the past, game over, engines still loading)."""
        c = self.controller
        if not c.record.has_clocks or self.mode != "play" or self.setup_active or not self.engines_ready:
            return None
        if not c.at_end_of_line() or c.over_text() is not None:
            return None
        p = c.state.current_player
        return p if 0 <= p < len(c.players) and c.players[p].clock is not None else None

    def _sync_clock(self) -> None:
        """Record the clocks of positions just reached, then run or pause the clock for the one shown."""
        c = self.controller
        if self._clock_record is not c.record:
            self._clock_record = c.record
            self.clock.reset()
        if c.record.has_clocks and self.ready:  # (replaying moves needs the game's rules loaded)
            self._record_clocks(c.current)
        p = self._clock_player()
        if p is None:
            self.clock.pause()
            self.clock_timer.stop()
        else:
            self.clock.start(c.current.id, p)
            self.clock_timer.start()
        self._show_clocks()

    def _record_clocks(self, node: Node) -> None:
        """Give ``node`` and the new positions above it their clocks: the move that left a
        position is charged the time spent there and gets its increment; a move made where
        the clock never ran (analyse mode, an earlier position, an imported game) changes nothing."""
        todo: list[Node] = []
        n: Node | None = node
        while n is not None and n.parent is not None and n.clocks is None:
            todo.append(n)
            n = n.parent
        if not todo:
            return
        rec = self.controller.record
        controls = rec.controls()
        state = rec.state_at(todo[-1].parent)  # type: ignore[arg-type]
        for n in reversed(todo):
            parent = n.parent
            assert parent is not None and n.move is not None
            clocks = list(rec.clocks_at(parent))
            mover = state.current_player
            spent = self.clock.take(parent.id)
            if spent is not None:
                n.spent = spent  # the time the move took (written into KIF/CSA/.psq exports)
            if spent is not None and 0 <= mover < len(controls):
                ctl, v = controls[mover], clocks[mover]
                if ctl is not None and v is not None:
                    # a move that came in a moment after the flag fell (the last tick just missed it)
                    # counts as made in the last millisecond
                    clocks[mover] = after_move(ctl, v, min(spent, available(ctl, v) - 1)) or v
            n.clocks = tuple(clocks)
            state.play(n.move)

    def clock_readings(self) -> list[Reading | None]:
        """Every player's clock at the position shown, as it reads now."""
        c = self.controller
        values = c.record.clocks_at(c.current)
        mover = c.state.current_player
        spent = self.clock.spent(c.current.id)
        out: list[Reading | None] = []
        for i, (ctl, v) in enumerate(zip(c.record.controls(), values)):
            if ctl is None or v is None:
                out.append(None)
            elif c.current.timeout == i:
                out.append(Reading(0, 0, 0, True))
            else:
                out.append(reading(ctl, v, spent if i == mover else 0))
        return out

    def _show_clocks(self) -> None:
        c = self.controller
        self.clock_panel.setVisible(c.record.has_clocks)
        if not c.record.has_clocks:
            return
        names = [self.notation.player(i) for i in range(len(c.players))]
        self.clock_panel.show_clocks(names, c.record.controls(), self.clock_readings(), self.clock.player)

    @Slot()
    def clock_tick(self) -> None:
        """Redraw the clocks; the player whose time is up loses."""
        c = self.controller
        run = self.clock
        if run.running and run.node_id == c.current.id and run.player is not None:
            r = self.clock_readings()[run.player]
            if r is not None and r.flagged:
                self._flag(c.current, run.player)
                return
            cur = self.host.current
            if (r is not None and r.left <= ENGINE_CLOCK_MARGIN_MS and cur is not None and cur.purpose == "move"
                    and cur.node_id == c.current.id):
                self.host.move_now()  # an engine that overran the time it was given: its best move so far
        self._show_clocks()

    def _flag(self, node: Node, player: int) -> None:
        c = self.controller
        self.clock.take(node.id)
        self.clock_timer.stop()
        clocks = list(c.record.clocks_at(node))
        clocks[player] = ClockValue(0, 0)
        cur = self.host.current
        if cur is not None and cur.purpose == "move":
            self.host.stop()
        c.set_timeout(node, player, tuple(clocks))

    def clock_limits(self) -> Limits:
        """The limits of the engine to move under its clock: every player's time left and
        increment, the mover's byoyomi (a margin kept back for the move to reach the window)."""
        c = self.controller
        mover = c.state.current_player
        readings = self.clock_readings()
        values = c.record.clocks_at(c.current)
        time_left: list[int] = []
        increment: list[int] = []
        byoyomi = None
        for i, (ctl, v, r) in enumerate(zip(c.record.controls(), values, readings)):
            if ctl is None or v is None or r is None:
                time_left.append(0)
                increment.append(0)
                continue
            increment.append(ctl.increment)
            if i != mover:
                time_left.append(v.main)
                continue
            time_left.append(max(0, r.main - min(ENGINE_CLOCK_MARGIN_MS, r.main // 10)))
            if ctl.byoyomi and r.periods:
                period = r.period if r.in_byoyomi else ctl.byoyomi
                byoyomi = max(1, period - min(ENGINE_CLOCK_MARGIN_MS, period // 10))
        return Limits(time_left=tuple(time_left), increment=tuple(increment), byoyomi=byoyomi)

    # -- replacing the game: the one question before unsaved moves are lost ---------------------
    def ask_save_changes(self, action: str) -> str:
        """Ask what to do with the unsaved moves before ``action``: ``"save"``, ``"discard"`` or ``"cancel"``."""
        B = QMessageBox.StandardButton
        box = QMessageBox(QMessageBox.Icon.Question, "The game is not saved",
                          f"The game has moves that are in no file. Save them before {action}?",
                          B.Save | B.Discard | B.Cancel, self)
        box.setDefaultButton(B.Save)
        box.setEscapeButton(B.Cancel)
        self.question_box = box
        answer = box.exec()
        self.question_box = None
        return {B.Save: "save", B.Discard: "discard"}.get(B(answer), "cancel")

    def may_replace_game(self, action: str) -> bool:
        """Whether the game shown may be replaced: asks *Save / Discard / Cancel* when it has moves that are
        in no file (``SaveState`` decides); every action that replaces the game asks this first."""
        if not self.save_state.is_unsaved(self.controller.record):
            return True
        answer = self.ask_save_changes(action)
        if answer == "save":
            return self.save()
        return answer == "discard"

    # -- new game, files ------------------------------------------------------------------------
    @Slot()
    def new_game_dialog(self) -> None:
        dlg = NewGameDialog(self, self.controller.game, self.controller.players)
        if dlg.exec() and self.may_replace_game("starting a new game"):
            self.new_game(dlg.result_game(), dlg.result_players())

    def new_game(self, game: Game, players: list[PlayerSpec] | None = None) -> bool:
        """Start a new game (engines of a new game or player get prepared first).

        Refused (False, with a message) for a game no board widget can show. Does not ask about
        unsaved moves: the actions that call it do (``may_replace_game``).
        """
        try:
            board_class_for(game)
        except ValueError:
            self.report(f"The window has no board for {game.long_name} ({game.spec!r}) yet")
            return False
        self._replaced = True
        self.end_setup(apply=False)
        self._stop_search()
        self.message_bar.dismiss()
        players = players or default_players(game)
        old_specs = (self.controller.game.spec, [p.to_json() for p in self.controller.players])
        self._new_game_pending = True
        self.save_state.new_game()
        self._analysis_done_node = None
        self.storage.set("game", game.spec)
        self.storage.set("players", json.dumps([p.to_json() for p in players]))
        if old_specs != (game.spec, [p.to_json() for p in players]):
            self._prepare_engines(game, players)
        self.controller.new_game(game, players)
        return True

    def _load_record(self, rec: GameRecord, current: object) -> None:
        self.end_setup(apply=False)
        self._stop_search()
        self.message_bar.dismiss()
        same = rec.game == self.controller.game and rec.players == self.controller.players
        self._new_game_pending = True
        self._analysis_done_node = None
        if not same:
            self._prepare_engines(rec.game, rec.players)
        self._loading = True
        try:
            self.controller.load(rec, current)  # type: ignore[arg-type]
        finally:
            self._loading = False
        self._refresh()
        self._sync_panel()

    def error_dialog(self, title: str, text: str) -> None:
        """An error that must be read: a dialog (it does not block the window's event loop)."""
        self.error_box = error_box(self, title, text)

    def report(self, text: str, kind: str = "error") -> None:
        """A message that stays above the board until the user closes it or a newer one comes."""
        self.message_bar.show_message(text, kind)

    @Slot(str)
    def _report_refusal(self, text: str) -> None:
        """Why a click or a move was refused: shown until the position changes or the user closes it."""
        self.report(text, "warning")

    def _cannot_open(self, path: Path, why: str) -> bool:
        self.error_dialog("Cannot open the game", f"Cannot open {quote(str(path))}: {why}")
        return False

    def load_from(self, path: Path | str) -> bool:
        """Open a saved game; an unreadable file gets a dialog quoting it, and False.

        A game whose rules the worker has not loaded yet is read once it has (reading
        checks every move with the rules, which may be numba kernels).
        """
        path = Path(path)
        self._replaced = True
        try:
            text = path.read_bytes().decode("utf-8")
        except OSError as e:
            return self._cannot_open(path, e.strerror or str(e))
        except UnicodeDecodeError:
            return self._cannot_open(path, "it is not a gamesuite game (not UTF-8 text; Import… reads "
                                           "other formats)")
        try:
            game = GameRecord.game_of(parse_json(text))
        except ValueError as e:
            return self._cannot_open(path, str(e))
        try:
            board_class_for(game)
        except ValueError:
            return self._cannot_open(path, f"the window has no board for {game.long_name} yet")
        if game.spec not in self._warmed:
            self._after_rules.append(lambda: self._finish_load(path, text))
            self._prepare_engines(game, [])
            return True
        return self._finish_load(path, text)

    def _finish_load(self, path: Path, text: str) -> bool:
        try:
            rec, node = GameRecord.loads(text)
        except ValueError as e:
            return self._cannot_open(path, str(e))
        self._load_record(rec, node)
        self.save_state.saved(rec, path)
        self._refresh_labels()
        self.show_message(f"Opened {path}")
        return True

    def save_to(self, path: Path | str) -> bool:
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, self.controller.record.dumps(self.controller.current))
        except OSError as e:
            self.error_dialog("Cannot save the game", f"Cannot save to {quote(str(path))}: {e.strerror or e}")
            return False
        self.save_state.saved(self.controller.record, path)
        self._refresh_labels()
        self._autosave()
        self.show_message(f"Saved {path}")
        return True

    @Slot()
    def open_dialog(self) -> None:
        if not self.may_replace_game("opening another game"):
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open a game", str(self.storage.games_dir),
                                              "gamesuite games (*.json);;All files (*)")
        if path:
            self.load_from(path)

    @Slot()
    def save(self) -> bool:
        """Save to the game's file, or ask for one; False when it was not saved."""
        if self.save_state.file is None:
            return self.save_as_dialog()
        return self.save_to(self.save_state.file)

    @Slot()
    def save_as_dialog(self) -> bool:
        self.storage.games_dir.mkdir(parents=True, exist_ok=True)
        path, _ = QFileDialog.getSaveFileName(self, "Save the game", str(self.storage.games_dir / "game.json"),
                                              "gamesuite games (*.json)")
        if not path:
            return False
        return self.save_to(path if path.endswith(".json") else path + ".json")

    def import_from(self, path: Path | str) -> bool:
        """Open a game in its own format (gomoku record, .psq, ...); an unreadable file gets a dialog."""
        from .formats import decode, format_for_path, read_game_info

        path = Path(path)
        self._replaced = True
        fmt = format_for_path(str(path))
        if fmt is None or fmt.load is None:
            return self._cannot_open(path, "no game format reads this kind of file")
        try:
            text = decode(path.read_bytes())
        except OSError as e:
            return self._cannot_open(path, e.strerror or str(e))
        except ValueError as e:
            return self._cannot_open(path, str(e))
        if not any(load_game(s).name == fmt.game for s in self._warmed):
            # reading checks every move with the rules: let the worker load them first
            self._after_rules.append(lambda: self.import_from(path))
            self._prepare_engines(load_game(fmt.game), [])
            return True
        try:
            game, start, moves, info = read_game_info(fmt, text)
        except ValueError as e:
            return self._cannot_open(path, str(e))
        players = self.controller.players if game == self.controller.game else \
            [PlayerSpec("human") for _ in range(game.num_players)]
        rec = GameRecord(game, start_text=start, players=[PlayerSpec.from_json(p.to_json()) for p in players],
                         metadata={"source": path.name})
        node = rec.root
        for m in moves:
            node = rec.add_move(node, m)
        rec.apply_info(node, info)  # the players' names, the moves' times, the comments
        self._load_record(rec, node)
        self.save_state.saved(rec, None)  # its moves are in the imported file; Save asks for a new one
        self._refresh_labels()
        self.show_message(f"Imported {path} ({fmt.name}, {len(moves)} moves)")
        return True

    def export_game(self, path: Path | str) -> bool:
        """Save the line up to the position shown in the game's own format (chosen by the extension)."""
        from .formats import format_for_path, formats_for

        path = Path(path)
        fmt = format_for_path(str(path), [f for f in formats_for(self.controller.game.name) if f.save])
        if fmt is None or fmt.save is None:
            self.error_dialog("Cannot export the game", f"Cannot save {quote(path.name)}: "
                              f"{self.controller.game.long_name} has no format for this kind of file")
            return False
        try:
            c = self.controller
            text = fmt.write(c.state, c.record.info_at(c.current))  # with names, times and comments
            write_atomic(path, text)
        except GameSuiteError as e:
            self.error_dialog("Cannot export the game", f"Cannot save {quote(path.name)}: {e}")
            return False
        except OSError as e:
            self.error_dialog("Cannot export the game", f"Cannot save to {quote(str(path))}: {e.strerror or e}")
            return False
        self.show_message(f"Saved {path} ({fmt.name})")
        return True

    @Slot()
    def import_dialog(self) -> None:
        from .formats import all_formats

        fmts = [f for f in all_formats() if f.load]
        if not fmts:
            self.report("No game has a file format to import", "info")
            return
        if not self.may_replace_game("importing another game"):
            return
        exts = " ".join(sorted({"*." + e for f in fmts for e in f.extensions}))
        filters = ";;".join([f"Game records ({exts})"] + [f.filter() for f in fmts] + ["All files (*)"])
        path, _ = QFileDialog.getOpenFileName(self, "Import a game", str(self.storage.games_dir), filters)
        if path:
            self.import_from(path)

    @Slot()
    def export_game_dialog(self) -> None:
        from .formats import formats_for

        fmts = [f for f in formats_for(self.controller.game.name) if f.save]
        if not fmts:
            self.report(f"{self.controller.game.long_name} has no file format of its own: use Save (JSON)"
                        " or Copy position", "info")
            return
        self.storage.games_dir.mkdir(parents=True, exist_ok=True)
        default = str(self.storage.games_dir / f"game.{fmts[0].extensions[0]}")
        path, _ = QFileDialog.getSaveFileName(self, "Export the game", default, ";;".join(f.filter() for f in fmts))
        if path:
            self.export_game(path)

    def export_diagram(self, path: Path | str, size: int = 600) -> bool:
        path = str(path)

        def write(tmp: Path) -> None:  # a temporary beside the file, renamed over it when complete
            if path.lower().endswith(".svg"):
                self.board.save_svg(str(tmp), size)
            elif not self.board.save_png(str(tmp), size):
                raise OSError(f"cannot write {path}")

        try:
            write_atomic_with(path, write)
            ok = True
        except OSError:
            ok = False
        if ok:
            self.show_message(f"Diagram saved to {path}")
        else:
            self.error_dialog("Cannot export the diagram", f"Cannot write {quote(path)}")
        return ok

    @Slot()
    def export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export diagram", str(Path.home() / "diagram.png"),
                                              "PNG image (*.png);;SVG drawing (*.svg)")
        if path:
            self.export_diagram(path)

    @Slot()
    def copy_position(self) -> None:
        text = self.controller.state.to_text()
        QGuiApplication.clipboard().setText(text)
        self.show_message(f"Copied: {text}")

    @Slot()
    def paste_position(self) -> None:
        text = QGuiApplication.clipboard().text().strip()
        if self._position_record(text) is not None and self.may_replace_game("starting from the pasted position"):
            self.set_position_text(text)

    def _position_record(self, text: str) -> tuple[GameRecord, Node] | None:
        """A new record from position text: moves in the text (``startpos moves 7g7f``, a gomoku move
        list) become moves of the record, from the position before them. A bad text is reported
        (quoted) and gives None."""
        if not self.ready:
            self.show_message("Preparing engines…")
            return None
        game = self.controller.game
        try:
            state = game.state_from_text(text)
        except GameSuiteError as e:
            self.report(f"Not a {game.long_name} position: {e}")
            return None
        moves = list(state.history)
        start_text: str | None = text
        if moves:  # the position before them starts the record
            start = state.copy()
            for _ in moves:
                start.undo()
            start_text = start.to_text()
            if start_text == game.new_state().to_text():
                start_text = None
        players = [PlayerSpec.from_json(p.to_json()) for p in self.controller.players]
        rec = GameRecord(game, start_text, players=players, metadata=dict(self.controller.record.metadata))
        node = rec.root
        for m in moves:
            node = rec.add_move(node, m)
        return rec, node

    def set_position_text(self, text: str) -> bool:
        """Start a new record from position text (with its moves, if it has any); a bad text is refused
        with the reason. Does not ask about unsaved moves: its callers do."""
        made = self._position_record(text)
        if made is None:
            return False
        self._replaced = True
        self._load_record(*made)
        self.save_state.new_game()
        self._refresh_labels()
        return True

    # -- setup mode ----------------------------------------------------------------------------
    @Slot()
    def toggle_setup(self) -> None:
        if self.setup_active:
            self.finish_setup()
        else:
            self.begin_setup()

    def begin_setup(self) -> None:
        if not self.ready:
            self.act_setup.setChecked(False)
            return
        self._stop_search()
        self.setup_active = True
        self.act_setup.setChecked(True)
        self.board.begin_setup()
        flow = self.setup_tools_layout
        while flow.count():
            item = flow.takeAt(0)
            if item is not None and item.widget() is not None:
                item.widget().deleteLater()
        for a in self.setup_actions:
            self.setup_group.removeAction(a)
        self.setup_actions = []
        for key, label in self.board.setup_tools():
            a = QAction(label, self)
            a.setCheckable(True)
            a.setData(key)
            a.triggered.connect(lambda _=False, k=key: setattr(self.board, "setup_tool", k))
            self.setup_group.addAction(a)
            self.setup_actions.append(a)
            button = QToolButton()
            button.setDefaultAction(a)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            flow.addWidget(button)
        if self.setup_actions:
            self.setup_actions[0].setChecked(True)
        sides = self.board.setup_sides()
        self.setup_side_box.blockSignals(True)
        self.setup_side_box.clear()
        self.setup_side_box.addItems(sides)
        self.setup_side_box.setCurrentIndex(min(self.board.setup_side, len(sides) - 1) if sides else -1)
        self.setup_side_box.blockSignals(False)
        self.setup_side_box.setVisible(bool(sides))
        self.setup_side_label.setVisible(bool(sides))
        self.setup_bar.setVisible(True)
        self._sync_clock()
        self._update_banner()
        self._update_interactive()

    def finish_setup(self) -> bool:
        """Validate the edited position and start from it; stays in setup mode when it is refused
        (the reason stays above the board) or when the user keeps the unsaved game."""
        if not self.setup_active:
            return False
        text = self.board.setup_text()
        try:
            self.controller.game.state_from_text(text)
        except GameSuiteError as e:
            self.act_setup.setChecked(True)
            self.report(f"This position cannot be played: {e}")
            return False
        if not self.may_replace_game("starting from the set-up position"):
            self.act_setup.setChecked(True)
            return False
        self.end_setup(apply=False)
        self.set_position_text(text)
        return True

    def end_setup(self, apply: bool = False) -> None:
        if not self.setup_active:
            return
        self.setup_active = False
        self.act_setup.setChecked(False)
        self.board.end_setup()
        self.setup_bar.setVisible(False)
        self.message_bar.dismiss()
        self.board.set_state(self.controller.state)
        self._sync_clock()
        self._update_banner()
        self._update_interactive()
        self._update_engine()

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
            self.show_message(self.tr("Sounds are on, but this machine is silent: {0}").format(self.sounds.player.error))

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
                          f"gamesuite {__version__}\nPlay and analyse board games against strong engines.\nMIT licence.")

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
        session = d.get("session") if isinstance(d.get("session"), dict) else {}
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
