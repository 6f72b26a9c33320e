"""What the window's parts (the mixins of ``MainWindow``) may use of the window: its widgets, state and
the methods one part calls on another.

``MainWindow`` (``gui/mainwindow.py``) is a ``QMainWindow`` made of parts by concern:
``window_engines``, ``window_clocks``, ``window_files``, ``window_setup``, ``i18n`` (``LanguageMixin``)
and ``engine_settings`` (``EngineDialogsMixin``). To the type checker each part derives from
``WindowParts`` below, which declares what ``MainWindow.__init__`` sets up and the methods a part
borrows from another, so that a misspelt name or a wrong type is caught; at run time ``WindowParts``
is ``object`` and ``MainWindow`` brings ``QMainWindow`` once. A new attribute that one part uses and
another (or ``MainWindow``) sets is declared here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from PySide6.QtCore import QTimer, Signal
    from PySide6.QtGui import QAction, QActionGroup
    from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox, QProgressBar

    from ..arena.swap import SwapStep
    from ..core.limits import Limits
    from ..core.registry import Game
    from ..play.clock import ClockRunner
    from ..play.record import GameRecord, Node, PlayerSpec
    from .analysis import AnalysisPanel
    from .boards import BoardWidget
    from .clockview import ClockPanel
    from .controller import GameController
    from .engine_manager import EngineBook, EngineManagerDialog
    from .engine_settings import EngineSettingsDialog
    from .messages import MessageBar
    from .notation import Notation
    from .session import SaveState
    from .storage import Storage
    from .worker import EngineHost

    class WindowParts(QMainWindow):
        """The window as its parts see it (see the module's docstring)."""

        interactive = Signal()

        # widgets and actions
        board: BoardWidget
        panel: AnalysisPanel
        banner: QLabel
        message_bar: MessageBar
        clock_panel: ClockPanel
        thinking: QProgressBar
        thinking_label: QLabel
        act_play: QAction
        act_analyse: QAction
        act_setup: QAction
        setup_group: QActionGroup
        setup_actions: list[QAction]
        question_box: QMessageBox | None
        error_box: QMessageBox | None
        engine_dialog: EngineSettingsDialog | EngineManagerDialog  # the last one opened

        # the game, the engines and the clock
        controller: GameController
        notation: Notation
        host: EngineHost
        engine_book: EngineBook
        storage: Storage
        save_state: SaveState
        clock: ClockRunner
        clock_timer: QTimer
        mode: str
        analysing: bool
        ready: bool
        engines_ready: bool
        setup_active: bool
        _clock_record: GameRecord | None
        _was_interactive: bool
        _new_game_pending: bool
        _analysis_done_node: int | None
        _after_rules: list[Callable[[], object]]
        _warmed: set[str]

        # methods of MainWindow and of one part that another part calls
        def show_message(self, text: str, ms: int = 5000) -> None: ...
        def report(self, text: str, kind: str = "error") -> None: ...
        def _refresh(self) -> None: ...
        def _refresh_labels(self) -> None: ...
        def _update_banner(self) -> None: ...
        def _update_interactive(self) -> None: ...
        def _autosave(self, closed: bool = False) -> None: ...
        def analysis_spec(self) -> str: ...
        def _prepare_engines(self, game: Game | None = None, players: list[PlayerSpec] | None = None) -> None: ...
        def _update_engine(self, force: bool = False) -> None: ...
        def _stop_search(self, label: str | None = None) -> None: ...
        def _sync_panel(self) -> None: ...
        def _sync_clock(self) -> None: ...
        def clock_tick(self) -> None: ...
        def clock_limits(self) -> Limits: ...
        def may_replace_game(self, action: str) -> bool: ...
        def set_position_text(self, text: str) -> bool: ...
        def end_setup(self, apply: bool = False) -> None: ...
        def set_mode(self, mode: str) -> None: ...
        def swap_pending(self) -> bool: ...
        def _player_to_act(self) -> PlayerSpec | None: ...
        def _on_swap_answer(self, node: Node, answer: object) -> None: ...
        def swap_seed(self) -> int: ...
        def swap_players(self) -> list[PlayerSpec]: ...
        def new_record_match(self, opening_rule: str) -> dict[str, Any]: ...
        swap_rule: str
        swap_steps: list[SwapStep]
else:
    WindowParts = object

__all__ = ["WindowParts"]
