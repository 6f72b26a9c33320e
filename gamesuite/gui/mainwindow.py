"""The main window (minimal: a tic-tac-toe board against the engine)."""

from __future__ import annotations

from PySide6.QtCore import QObject, QThread, Signal, Slot
from PySide6.QtWidgets import QGridLayout, QLabel, QMainWindow, QPushButton, QVBoxLayout, QWidget

from ..core.info import SearchResult, new_stop_flag
from ..core.limits import Limits
from ..core.registry import load_game, make_engine


class _Worker(QObject):
    """Runs engine searches on its own thread."""

    finished = Signal(object)

    def __init__(self, engine) -> None:  # type: ignore[no-untyped-def]
        super().__init__()
        self.engine = engine
        self.stop = new_stop_flag()

    @Slot(object)
    def think(self, state) -> None:  # type: ignore[no-untyped-def]
        self.stop[0] = 0
        self.finished.emit(self.engine.search(state, Limits(movetime=500), self.stop))


class MainWindow(QMainWindow):
    """A tic-tac-toe board: you play X, the engine answers as O."""

    request = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("gamesuite")
        self.game = load_game("tictactoe")
        self.state = self.game.new_state()
        self.engine = make_engine(self.game)
        self.thread_ = QThread(self)
        self.worker = _Worker(self.engine)
        self.worker.moveToThread(self.thread_)
        self.request.connect(self.worker.think)
        self.worker.finished.connect(self.on_engine_move)
        self.thread_.start()
        central = QWidget()
        box = QVBoxLayout(central)
        grid = QGridLayout()
        self.buttons: list[QPushButton] = []
        for i in range(self.game.cells):
            b = QPushButton("")
            b.setMinimumSize(80, 80)
            b.clicked.connect(lambda _=False, i=i: self.on_click(i))
            grid.addWidget(b, i // self.game.width, i % self.game.width)
            self.buttons.append(b)
        box.addLayout(grid)
        self.status = QLabel("You play X.")
        box.addWidget(self.status)
        new = QPushButton("New game")
        new.clicked.connect(self.new_game)
        box.addWidget(new)
        self.setCentralWidget(central)
        self.thinking = False

    def refresh(self) -> None:
        for i, b in enumerate(self.buttons):
            b.setText(".XO"[int(self.state.board[i])].strip("."))
        if self.state.is_terminal():
            self.status.setText(f"Game over: {self.state.result_text()}.")

    @Slot()
    def new_game(self) -> None:
        if self.thinking:
            return
        self.state = self.game.new_state()
        self.status.setText("You play X.")
        self.refresh()

    def on_click(self, i: int) -> None:
        if self.thinking or self.state.is_terminal():
            return
        if i not in self.state.legal_moves():
            self.status.setText(f"{self.state.format_move(i)}: {self.state.why_illegal(i)}")
            return
        self.state.play(i)
        self.refresh()
        if not self.state.is_terminal():
            self.thinking = True
            self.status.setText("Thinking…")
            self.request.emit(self.state.copy())

    @Slot(object)
    def on_engine_move(self, result: SearchResult) -> None:
        self.thinking = False
        if result.best_move is not None and not self.state.is_terminal():
            self.state.play(result.best_move)
            self.status.setText(f"O played {self.state.format_move(result.best_move)} ({result.score.for_player(0).text()} for X).")
        self.refresh()

    def closeEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        self.worker.stop[0] = 1
        self.thread_.quit()
        self.thread_.wait(2000)
        super().closeEvent(event)
