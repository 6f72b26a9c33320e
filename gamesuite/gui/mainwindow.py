"""The main window: the board in the middle, docks for analysis, moves and the evaluation graph.

The window wires the parts together and decides when engines think: the
``GameController`` owns the game, the ``EngineHost`` runs searches in the
worker thread, the board, panel, move list and graph only show and ask.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QByteArray, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QStyle,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from ..core.errors import GameSuiteError, InvalidRecordError
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
from .fmt import score_text
from .movelist import MoveList
from .record import GameRecord, Node, PlayerSpec, parse_json
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
        """``restore``: True/False answers the restore-after-crash question, None asks the user.

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
        self._file: Path | None = None
        self._loading = False
        self.shutdown_ok: bool | None = None  # whether the worker ended within a second of closing
        self._after_rules: list = []  # callbacks to run once the worker has loaded the game's rules
        self._warmed: set[str] = set()  # game specs whose rules the worker has loaded
        self._preparing_spec = ""
        self.preparing_text = ""  # "Preparing the gomoku engine (3 of 35)" while the engines load
        self._search_label = ""  # the analysis panel's title of the search asked for last
        self.prepare_progress = (0, 0)  # kernels compiled, kernels expected (0: not known)

        game = self._initial_game(game_spec)
        if players is None:
            players = self._saved_players(game) or default_players(game)
        self.controller = GameController(GameRecord(game, players=players), self)

        self._build_central(game)
        self._build_docks()
        self._build_actions()
        self._build_status()
        self._connect()
        self.theme_name = str(self.storage.get("theme", "light"))
        self.set_theme(self.theme_name)
        self.board.set_flipped(bool(self.storage.get("flipped", False)))
        self.act_western.setChecked(str(self.storage.get("piece_style", "kanji")) == "western")
        self._apply_piece_style()
        self.panel.multipv.setValue(int(self.storage.get("multipv", 1)))
        self.resize(1100, 760)
        self.resizeDocks([self.dock_analysis], [190], Qt.Orientation.Vertical)
        self.resizeDocks([self.dock_moves, self.dock_graph], [300, 300], Qt.Orientation.Horizontal)
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
        self.central_box.addWidget(self.banner)
        self.clock_panel = ClockPanel()
        self.clock_panel.setVisible(False)
        self.central_box.addWidget(self.clock_panel)
        self.board: BoardWidget = board_class_for(game)(game)
        self.central_box.addWidget(self.board, 1)
        self.setup_bar = QToolBar("Setup")
        self.setup_bar.setObjectName("setupbar")
        self.setup_bar.setVisible(False)
        self.central_box.addWidget(self.setup_bar)
        self.setCentralWidget(central)

    def _build_docks(self) -> None:
        self.panel = AnalysisPanel()
        self.moves = MoveList()
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
        for a in (self.act_first, self.act_back, self.act_forward, self.act_last):
            m.addAction(a)
        m = mb.addMenu("&Engine")
        for a in (self.act_play, self.act_analyse, None, self.act_engine, self.act_hint):
            m.addSeparator() if a is None else m.addAction(a)
        m = mb.addMenu("&View")
        for a in (self.act_flip, self.act_western, None, self.act_light, self.act_dark, None):
            m.addSeparator() if a is None else m.addAction(a)
        for d in (self.dock_analysis, self.dock_moves, self.dock_graph):
            m.addAction(d.toggleViewAction())
        m = mb.addMenu("&Help")
        m.addAction("&How to use", self.show_help)
        m.addAction("&About", self.show_about)

        style = self.style()
        icons = {self.act_first: QStyle.StandardPixmap.SP_MediaSkipBackward,
                 self.act_back: QStyle.StandardPixmap.SP_MediaSeekBackward,
                 self.act_forward: QStyle.StandardPixmap.SP_MediaSeekForward,
                 self.act_last: QStyle.StandardPixmap.SP_MediaSkipForward}
        for a, pix in icons.items():
            a.setIcon(style.standardIcon(pix))
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
                  self.act_play, self.act_analyse, None, self.act_flip, self.act_setup):
            tb.addSeparator() if a is None else tb.addAction(a)
        self.toolbar = tb

        self.setup_group = QActionGroup(self)
        self.setup_actions: list[QAction] = []
        self.act_setup_done = QAction("Done", self)
        self.act_setup_done.triggered.connect(self.finish_setup)
        self.act_setup_clear = QAction("Clear", self)
        self.act_setup_clear.triggered.connect(lambda: self.board.setup_clear())
        self.act_setup_cancel = QAction("Cancel", self)
        self.act_setup_cancel.triggered.connect(lambda: self.end_setup(apply=False))

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
        c.message.connect(self.show_message)
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
        self.board.message.connect(self.show_message)

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
            self.show_message(f"Engine problem: {errors}", 10_000)
        self._sync_clock()
        if self.host.current is not None:  # a search asked for meanwhile starts now, in the worker
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
                self.host.stop()
                self.panel.flush()
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
            label = f"{c.game.player_name(st.current_player)}: {p.label()} is thinking"
        else:
            limits = Limits(infinite=True, multipv=self.panel.multipv.value())
            spec = self.analysis_spec()
            label = f"Analysing with {spec or 'the default engine'}"
        self._analysis_done_node = None
        self.host.start(purpose, c.game, st, spec, limits, new_game=self._new_game_pending, node_id=node.id)
        self._new_game_pending = False
        self._search_label = label
        # a search asked for while the engines load waits in the worker: say what happens, not "thinking"
        self.panel.begin(st, label if self.engines_ready else self.preparing_text + "…")
        self.panel.set_running(True)
        self._show_thinking()

    def _show_thinking(self) -> None:
        cur = self.host.current
        if not self.engines_ready:  # never "thinking" while the engines load: their real progress
            done, total = self.prepare_progress
            self.thinking.setRange(0, total)  # (0, 0): a busy bar while the total is not known
            self.thinking.setValue(min(done, total))
            self.thinking_label.setText(self.preparing_text)
            if cur is not None:
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
        self.panel.add_infos(infos)
        cur = self.host.current
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
        node = c.record.find(req.node_id) if req is not None and req.node_id is not None else None
        req_node = node or c.current
        if result.lines or result.depth:
            c.set_score(req_node, result.score)
        if purpose == "move":
            self.clock_tick()  # a flag that fell before the move came in
            if result.best_move is not None and req_node is c.current and c.over_text() is None:
                text = c.state.format_move(result.best_move)
                self.panel.set_running(False, f"{c.game.player_name(c.state.current_player)} played {text} "
                                              f"({score_text(result.score, c.game)}, depth {result.depth})")
                c.play(result.best_move)
        elif purpose == "hint":
            if result.best_move is not None:
                self.board.set_hint(result.best_move)
                self.show_message(f"Hint: {c.state.format_move(result.best_move)} "
                                  f"({score_text(result.score, c.game)})", 8000)
            self._show_thinking()
            self._update_engine()
        else:
            self._analysis_done_node = req_node.id
            self.panel.set_running(False, f"Analysis complete: {score_text(result.score, c.game)} "
                                          f"at depth {result.depth}")
            self._show_thinking()

    @Slot(int, str, str)
    def _on_engine_error(self, sid: int, purpose: str, message: str) -> None:
        self.show_message(f"The engine failed: {message}", 15_000)
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
            self.host.stop()
            self.panel.flush()
            self.panel.set_running(False, "Analysis stopped")
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
                self.host.stop()
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
        self.panel.begin(c.state, "Looking for a hint")
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
            self.show_message("The computer is to move")
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
        self._sync_clock()
        self._refresh()
        self._autosave()
        self._update_engine()

    @Slot()
    def _on_tree_changed(self) -> None:
        if not self._loading and self.ready:
            self.moves.show_record(self.controller.record, self.controller.current)
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
        if not self.ready:  # the rules may need kernels the worker has not loaded yet
            self.board.set_interactive(False)
            self.moves.clear()
            self._refresh_labels()
            return
        self.moves.show_record(c.record, c.current)
        self.graph.show_record(c.record, c.current)
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
        if self._file is not None:
            title = f"{self._file.name} — {title}"
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
            who = c.game.player_name(st.current_player) if st.current_player >= 0 else ""
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
        names = [c.game.player_name(i) for i in range(len(c.players))]
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

    # -- new game, files ------------------------------------------------------------------------
    @Slot()
    def new_game_dialog(self) -> None:
        dlg = NewGameDialog(self, self.controller.game, self.controller.players)
        if dlg.exec():
            self.new_game(dlg.result_game(), dlg.result_players())

    def new_game(self, game: Game, players: list[PlayerSpec] | None = None) -> bool:
        """Start a new game (engines of a new game or player get prepared first).

        Refused (False, with a message) for a game no board widget can show.
        """
        try:
            board_class_for(game)
        except ValueError:
            self.show_message(f"The window has no board for {game.long_name} yet", 10_000)
            return False
        self.end_setup(apply=False)
        self.host.stop()
        self.statusBar().clearMessage()
        players = players or default_players(game)
        old_specs = (self.controller.game.spec, [p.to_json() for p in self.controller.players])
        self._new_game_pending = True
        self._file = None
        self._analysis_done_node = None
        self.storage.set("game", game.spec)
        self.storage.set("players", json.dumps([p.to_json() for p in players]))
        if old_specs != (game.spec, [p.to_json() for p in players]):
            self._prepare_engines(game, players)
        self.controller.new_game(game, players)
        return True

    def _load_record(self, rec: GameRecord, current: object) -> None:
        self.end_setup(apply=False)
        self.host.stop()
        self.statusBar().clearMessage()
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

    def load_from(self, path: Path | str) -> bool:
        """Open a saved game; errors go to the status bar and return False.

        A game whose rules the worker has not loaded yet is read once it has (reading
        checks every move with the rules, which may be numba kernels).
        """
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
            game = GameRecord.game_of(parse_json(text))
        except (OSError, InvalidRecordError) as e:
            msg = e.strerror if isinstance(e, OSError) else str(e)
            self.show_message(f"Cannot open {path.name}: {msg}", 10_000)
            return False
        try:
            board_class_for(game)
        except ValueError:
            self.show_message(f"Cannot open {path.name}: the window has no board for {game.long_name} yet", 10_000)
            return False
        if game.spec not in self._warmed:
            self._after_rules.append(lambda: self._finish_load(path, text))
            self._prepare_engines(game, [])
            return True
        return self._finish_load(path, text)

    def _finish_load(self, path: Path, text: str) -> bool:
        try:
            rec, node = GameRecord.loads(text)
        except InvalidRecordError as e:
            self.show_message(f"Cannot open {path.name}: {e}", 10_000)
            return False
        self._load_record(rec, node)
        self._file = path
        self._refresh_labels()
        self.show_message(f"Opened {path}")
        return True

    def save_to(self, path: Path | str) -> bool:
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(self.controller.record.dumps(self.controller.current), encoding="utf-8")
        except OSError as e:
            self.show_message(f"Cannot save {path}: {e.strerror}", 10_000)
            return False
        self._file = path
        self._refresh_labels()
        self.show_message(f"Saved {path}")
        return True

    @Slot()
    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a game", str(self.storage.games_dir),
                                              "gamesuite games (*.json);;All files (*)")
        if path:
            self.load_from(path)

    @Slot()
    def save(self) -> None:
        if self._file is None:
            self.save_as_dialog()
        else:
            self.save_to(self._file)

    @Slot()
    def save_as_dialog(self) -> None:
        self.storage.games_dir.mkdir(parents=True, exist_ok=True)
        path, _ = QFileDialog.getSaveFileName(self, "Save the game", str(self.storage.games_dir / "game.json"),
                                              "gamesuite games (*.json)")
        if path:
            self.save_to(path if path.endswith(".json") else path + ".json")

    def import_from(self, path: Path | str) -> bool:
        """Open a game in its own format (gomoku record, .psq, ...); errors go to the status bar."""
        from .formats import decode, format_for_path, read_game

        path = Path(path)
        fmt = format_for_path(str(path))
        if fmt is None or fmt.load is None:
            self.show_message(f"Cannot open {path.name}: no game format reads this kind of file", 10_000)
            return False
        try:
            text = decode(path.read_bytes())
        except (OSError, InvalidRecordError) as e:
            self.show_message(f"Cannot open {path.name}: {e.strerror if isinstance(e, OSError) else e}", 10_000)
            return False
        if not any(load_game(s).name == fmt.game for s in self._warmed):
            # reading checks every move with the rules: let the worker load them first
            self._after_rules.append(lambda: self.import_from(path))
            self._prepare_engines(load_game(fmt.game), [])
            return True
        try:
            game, start, moves = read_game(fmt, text)
        except InvalidRecordError as e:
            self.show_message(f"Cannot open {path.name}: {e}", 10_000)
            return False
        players = self.controller.players if game == self.controller.game else \
            [PlayerSpec("human") for _ in range(game.num_players)]
        rec = GameRecord(game, start_text=start, players=[PlayerSpec.from_json(p.to_json()) for p in players],
                         metadata={"source": path.name})
        node = rec.root
        for m in moves:
            node = rec.add_move(node, m)
        self._load_record(rec, node)
        self._file = None
        self._refresh_labels()
        self.show_message(f"Imported {path} ({fmt.name}, {len(moves)} moves)")
        return True

    def export_game(self, path: Path | str) -> bool:
        """Save the line up to the position shown in the game's own format (chosen by the extension)."""
        from .formats import format_for_path, formats_for

        path = Path(path)
        fmt = format_for_path(str(path), [f for f in formats_for(self.controller.game.name) if f.save])
        if fmt is None or fmt.save is None:
            self.show_message(f"Cannot save {path.name}: {self.controller.game.name} has no format for this file",
                              10_000)
            return False
        try:
            text = fmt.save(self.controller.state)
            path.write_text(text, encoding="utf-8")
        except GameSuiteError as e:
            self.show_message(f"Cannot save {path.name}: {e}", 10_000)
            return False
        except OSError as e:
            self.show_message(f"Cannot save {path}: {e.strerror}", 10_000)
            return False
        self.show_message(f"Saved {path} ({fmt.name})")
        return True

    @Slot()
    def import_dialog(self) -> None:
        from .formats import all_formats

        fmts = [f for f in all_formats() if f.load]
        if not fmts:
            self.show_message("No game has a file format to import")
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
            self.show_message(f"{self.controller.game.long_name} has no file format of its own: use Save (JSON)"
                              " or Copy position")
            return
        self.storage.games_dir.mkdir(parents=True, exist_ok=True)
        default = str(self.storage.games_dir / f"game.{fmts[0].extensions[0]}")
        path, _ = QFileDialog.getSaveFileName(self, "Export the game", default, ";;".join(f.filter() for f in fmts))
        if path:
            self.export_game(path)

    def export_diagram(self, path: Path | str, size: int = 600) -> bool:
        path = str(path)
        if path.lower().endswith(".svg"):
            self.board.save_svg(path, size)
            ok = True
        else:
            ok = self.board.save_png(path, size)
        self.show_message(f"Diagram saved to {path}" if ok else f"Cannot write {path}")
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
        self.set_position_text(QGuiApplication.clipboard().text().strip())

    def set_position_text(self, text: str) -> bool:
        """Start a new record from position text; a bad text is refused with the reason."""
        if not self.ready:
            self.show_message("Preparing engines…")
            return False
        try:
            self.controller.game.state_from_text(text)
        except GameSuiteError as e:
            self.show_message(str(e), 10_000)
            return False
        self.host.stop()
        self._new_game_pending = True
        self.controller.set_start_position(text)
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
        self.host.stop()
        self.setup_active = True
        self.act_setup.setChecked(True)
        self.board.begin_setup()
        bar = self.setup_bar
        bar.clear()
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
            bar.addAction(a)
        if self.setup_actions:
            self.setup_actions[0].setChecked(True)
        sides = self.board.setup_sides()
        if sides:
            bar.addSeparator()
            bar.addWidget(QLabel(" To move: "))
            box = QComboBox()
            box.addItems(sides)
            box.setCurrentIndex(min(self.board.setup_side, len(sides) - 1))
            box.currentIndexChanged.connect(lambda i: setattr(self.board, "setup_side", i))
            bar.addWidget(box)
        bar.addSeparator()
        for a in (self.act_setup_clear, self.act_setup_done, self.act_setup_cancel):
            bar.addAction(a)
        bar.setVisible(True)
        self._sync_clock()
        self._update_banner()
        self._update_interactive()

    def finish_setup(self) -> bool:
        """Validate the edited position and start from it; stays in setup mode when it is refused."""
        if not self.setup_active:
            return False
        text = self.board.setup_text()
        try:
            self.controller.game.state_from_text(text)
        except GameSuiteError as e:
            self.act_setup.setChecked(True)
            self.show_message(f"This position cannot be played: {e}", 15_000)
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
        """Kanji or western letters on boards that have both (shogi)."""
        fn = getattr(self.board, "set_piece_style", None)
        if callable(fn):
            fn("western" if self.act_western.isChecked() else "kanji")

    def set_theme(self, name: str) -> None:
        self.theme_name = name
        (self.act_dark if name == "dark" else self.act_light).setChecked(True)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_app_theme(app, name)
        theme = board_theme(name)
        self.board.set_theme(theme)
        self.clock_panel.set_theme(theme)
        self._show_clocks()
        self.graph.set_theme(theme)
        self.moves.set_link_colour("#8ab4ff" if name == "dark" else "#2060c0")
        if self.ready:
            self.moves.show_record(self.controller.record, self.controller.current)
        self.storage.set("theme", name)

    def show_message(self, text: str, ms: int = 5000) -> None:
        self.statusBar().showMessage(text, ms)

    def show_help(self) -> None:
        QMessageBox.information(self, "How to use gamesuite", HELP_TEXT)

    def show_about(self) -> None:
        from .. import __version__

        QMessageBox.about(self, "About gamesuite",
                          f"gamesuite {__version__}\nPlay and analyse board games against strong engines.\nMIT licence.")

    # -- autosave, restore, closing -------------------------------------------------------------
    def _autosave(self) -> None:
        if self._loading:
            return
        try:
            self.storage.autosave(self.controller.record.to_json(self.controller.current))
        except OSError as e:
            self.show_message(f"Autosave failed: {e.strerror}")

    def _offer_restore(self, restore: bool | None) -> None:
        d = self.storage.unclean_autosave()
        if d is None or not d.get("moves") and not d.get("start"):
            return
        spec = str(d.get("game", ""))
        if spec != self.controller.game.spec and spec not in self._warmed:
            try:
                game = load_game(spec)
            except GameSuiteError:
                return
            self._after_rules.append(lambda: self._offer_restore(restore))
            self._prepare_engines(game, [])
            return
        if restore is None:
            answer = QMessageBox.question(
                self, "Restore the last game?",
                "gamesuite did not close normally last time. Restore the game you were playing?")
            restore = answer == QMessageBox.StandardButton.Yes
        if not restore:
            self.storage.forget_unclean()
            return
        try:
            rec, node = GameRecord.from_json(d)
        except InvalidRecordError as e:
            self.show_message(f"The autosaved game cannot be restored: {e}", 10_000)
            return  # the file stays for the user to rescue by hand
        self._load_record(rec, node)
        self._autosave()  # now in this window's own autosave
        self.storage.forget_unclean()
        self.show_message("Restored the game from the last session")

    def _shutdown(self) -> None:
        self.shutdown_ok = self.host.shutdown(1000)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.storage.set("geometry", self.saveGeometry())
        self.storage.set("windowState", self.saveState())
        self.hide()
        self._shutdown()
        self._autosave()
        self.storage.mark_clean()
        self.storage.settings.sync()
        super().closeEvent(event)


HELP_TEXT = """Click the board to play a move. The computer answers when it is its turn.
Shogi: click a piece (or a piece in your hand), then one of the marked squares.

Space: start or stop the engine (or make it move now) · H: hint · F: flip the board
Left/Right: step through the moves · Home/End or Up/Down: first/last move
Ctrl+Z: take back · Ctrl+Shift+Z: redo · Ctrl+N: new game · Ctrl+O/S: open/save
Ctrl+1: play mode · Ctrl+2: analyse mode (the engine follows every position)
Ctrl+P: set up a position · Ctrl+Shift+C / Ctrl+Shift+V: copy / paste the position

Clocks (New game): base + increment or base + byoyomi. A clock runs for the side to move in
play mode at the end of the line; it stops while you analyse, set up or look back.

Playing a different move in the past starts a variation; it is kept in the move list
(right-click a move to make it the main line or delete it). Click a line in the analysis
panel to preview it on the board; double-click to play its first move."""
