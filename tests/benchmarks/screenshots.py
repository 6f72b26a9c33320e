"""Render screenshots of the window offscreen into docs/screenshots/ (run by hand).

    python tests/benchmarks/screenshots.py [OUTDIR]

Plays a few positions with the real engines and grabs the window: a
tic-tac-toe game against the computer (light theme), an analysis with three
lines (dark theme), when the gomoku game is installed a renju position, a
shogi analysis with a piece in hand selected, and a Hare and Hedgehog race.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from gamesuite.core.errors import GameSuiteError  # noqa: E402
from gamesuite.core.registry import game_classes, load_game  # noqa: E402
from gamesuite.gui.mainwindow import MainWindow  # noqa: E402
from gamesuite.gui.record import PlayerSpec  # noqa: E402


def wait(ms: int) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def wait_until(cond, timeout_ms: int = 20_000) -> None:  # type: ignore[no-untyped-def]
    waited = 0
    while not cond() and waited < timeout_ms:
        wait(20)
        waited += 20


def shoot(win: MainWindow, path: Path) -> None:
    wait(250)
    win.grab().save(str(path), "PNG")
    print(f"wrote {path}")


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    data = tempfile.mkdtemp(prefix="gamesuite-shots-")

    # 1. Playing tic-tac-toe against the computer (light theme).
    win = MainWindow(data_dir=data, restore=False, game_spec="tictactoe",
                     players=[PlayerSpec("human"), PlayerSpec("engine", "", 300)])
    win.resize(1100, 720)
    win.show()
    win.set_theme("light")
    wait_until(lambda: win.engines_ready)
    for text in ("b2", "c1", "a2", "c2"):
        move = win.controller.state.parse_move(text)
        if move not in win.controller.state.legal_moves():
            move = win.controller.state.legal_moves()[-1]
        win.board.click_move(move)
        wait_until(lambda: win.controller.state.current_player != 1 and not win.host.busy)
        if win.controller.state.is_terminal():
            break
    if win.controller.state.is_terminal():
        win.controller.back()  # show the end of the game with a hovering last move
        win.controller.forward()
    shoot(win, out / "tictactoe-play-light.png")

    # 2. Analysing a 4x4 position with three lines (dark theme).
    win.set_theme("dark")
    win.new_game(load_game("tictactoe(m=4,n=4,k=3)"), [PlayerSpec("human"), PlayerSpec("human")])
    wait_until(lambda: win.ready)
    for text in ("b2", "c3", "b3"):
        win.controller.play(win.controller.state.parse_move(text))
    win.panel.multipv.setValue(3)
    win.set_mode("analyse")
    wait_until(lambda: win.host.current is None and len(win.panel.rows) > 0, 20_000)
    if win.panel.rows:
        win.panel.tree.setCurrentItem(win.panel.tree.topLevelItem(0))
        win.board.set_preview(list(win.panel.rows[-1].pv))
    shoot(win, out / "tictactoe-analyse-dark.png")
    win.set_mode("play")

    # 3. The New game dialog.
    from gamesuite.gui.dialogs import NewGameDialog

    dlg = NewGameDialog(win, win.controller.game, [PlayerSpec("human"), PlayerSpec("engine", "", 2000)])
    dlg.show()
    wait(300)
    dlg.grab().save(str(out / "new-game-dialog-dark.png"), "PNG")
    print(f"wrote {out / 'new-game-dialog-dark.png'}")
    dlg.close()

    # 4. Gomoku under renju, if the game is there.
    if "gomoku" in game_classes():
        try:
            game = load_game("gomoku(size=15,rule=renju)")
        except GameSuiteError:
            game = None
        if game is not None:
            win.set_theme("light")
            win.new_game(game, [PlayerSpec("human"), PlayerSpec("human")])
            wait_until(lambda: win.ready, 60_000)
            # Black to move with a forbidden point (h4: a double three), shown as a red cross.
            for text in "k7 g6 h6 k11 h5 e9 i5 k6 j9 e8 f10 i11".split():
                win.controller.play(win.controller.state.parse_move(text))
            win.set_mode("analyse")
            wait(2500)
            shoot(win, out / "gomoku-renju-light.png")
            win.set_mode("play")

    # 5. Shogi: analysing with two lines, a piece in hand selected (its drop targets shown).
    if "shogi" in game_classes():
        win.set_theme("light")
        win.new_game(load_game("shogi"), [PlayerSpec("human"), PlayerSpec("engine", "", 1000)])
        wait_until(lambda: win.ready, 60_000)
        for text in "7g7f 3c3d 8h2b+ 3a2b 2g2f 8c8d".split():
            win.controller.play(win.controller.state.parse_move(text))
        win.panel.multipv.setValue(2)
        win.set_mode("analyse")
        wait(3000)
        win.board.click_move(win.board.hand_point(0, 5))  # Sente's bishop in hand: where it may drop
        shoot(win, out / "shogi-analyse-light.png")
        win.set_mode("play")

    # 6. Hare and Hedgehog, four players, a few moves in (a hare card drawn), the targets shown.
    if "hare" in game_classes():
        import random

        win.set_theme("light")
        win.new_game(load_game("hare(players=4)"), [PlayerSpec("human") for _ in range(4)])
        wait_until(lambda: win.ready, 60_000)
        win.controller.rng = random.Random(2)
        for code in (4, 2, 1, 7, 6, 8, 9, 5):
            st = win.controller.state
            legal = [m for m in st.legal_moves() if m <= 64]
            win.controller.play(min(legal, key=lambda m: abs(m - code)))
        shoot(win, out / "hare-play-light.png")
    win.close()
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
