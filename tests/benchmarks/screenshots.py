"""Screenshots of the program as a person uses it: under a real X server, moves played by mouse clicks.

    python tests/benchmarks/screenshots.py [--out DIR] [--only GAME,...]   # docs/screenshots/
    python tests/benchmarks/screenshots.py --check --out DIR                 # tests/test_gui_x11.py

Starts an X server (``Xvfb``) unless ``$DISPLAY`` names one, then, for each game, starts the
program itself (``gamesuite.gui.app.start``, as the ``gamesuite`` command does) on the ``xcb``
platform in a fresh data folder, and drives it with ``xdotool``: the moves are mouse clicks on
the board, the mode and the theme are chosen by clicking through the menus (Engine › Analyse,
View › Dark theme). The pictures are taken from the X server's screen, in the light theme and
then in the dark one: ``GAME-light.png`` and ``GAME-dark.png``. ``shogi-typed`` types its moves
into the move entry (kanji pieces, Japanese notation, a move being typed), ``gomoku-numbered``
turns on View › Numbered stones; each is shot in the light theme. ``--check`` plays a short
tic-tac-toe game against the computer instead and writes ``report.json`` beside its pictures.

Needs ``Xvfb`` and ``xdotool`` (Debian: ``apt-get install xvfb xdotool``; Qt's ``xcb`` platform
also wants ``libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCREEN = (1280, 900)
WINDOW = (1100, 720)

#: game -> (spec, players, the moves clicked (the rules' text), lines for the analysis)
SCENES = {
    "tictactoe": ("tictactoe(m=4,n=4,k=3)", ["human", "human"], ["b2", "c3", "b3"], 3),
    "gomoku": ("gomoku(size=15,rule=renju)", ["human", "human"],
               "h8 i9 h9 h7 g8 i8 i10 j9 g9 g10".split(), 3),
    "shogi": ("shogi", ["human", "human"], "7g7f 3c3d 8h2b+ 3a2b 2g2f 8c8d".split(), 2),
    "hare": ("hare(players=4)", ["human"] * 4, ["4", "2", "5", "7", "8", "6", "9", "10"], 1),
    # kanji and Japanese notation (▲５八金右, △同銀); the moves typed into the move entry, one left in it
    "shogi-typed": ("shogi", ["human", "human"], "7g7f 3c3d 4i5h 8c8d 8h2b+ 3a2b".split(), 2),
    "gomoku-numbered": ("gomoku(size=15)", ["human", "human"], "h8 i9 h9 h7 g8 i8 i10 j9 g9".split(), 1),
    # the window in Japanese, Chinese and Russian, analysing with external engines (when the anchors are here)
    "shogi-ja": ("shogi", ["human", "human"], "7g7f 3c3d 8h2b+ 3a2b 2g2f 8c8d".split(), 2),
    "gomoku-zh": ("gomoku(size=15)", ["human", "human"], "h8 i9 h9 h7 g8 i8 i10".split(), 1),
    "shogi-ru": ("shogi", ["human", "human"], "7g7f 3c3d 2g2f".split(), 2),
    # the engine dialogs
    "engine-settings": ("shogi", ["human", "human"], [], 1),
    "engine-manager": ("gomoku(size=15)", ["human", "human"], [], 1),
}
ANCHORS = Path(os.environ.get("GAMESUITE_ANCHORS", "/work/shared/anchors"))
YANE = f"usi:{ANCHORS / 'yaneuraou-material'},Threads=1,BookFile=no_book,USI_Hash=64,label=YaneuraOu"
RAPFI = f"gomocup:{ANCHORS / 'pbrain-rapfi'},label=Rapfi"
#: How a scene differs from the others: moves typed rather than clicked, text left in the move entry,
#: menu items clicked before the pictures, the themes shot.
SCENE_OPTIONS: dict[str, dict] = {
    "shogi-typed": {"typed": True, "entry": "P-2f", "themes": ["light"]},
    "gomoku-numbered": {"menus": [("View", "Numbered stones")], "themes": ["light"], "analyse": False},
    "shogi-ja": {"language": "ja", "themes": ["light"], "engine": YANE, "direct": True},
    "gomoku-zh": {"language": "zh_CN", "themes": ["light"], "engine": RAPFI, "direct": True},
    "shogi-ru": {"language": "ru", "themes": ["dark"], "direct": True, "notation": "western"},
    "engine-settings": {"dialog": "settings", "analyse": False, "engine": YANE},
    "engine-manager": {"dialog": "manager", "analyse": False},
}


# -- the outside: an X server, one program per picture set ------------------------------------------
def start_xvfb() -> tuple[subprocess.Popen, str]:
    """An X server on a free display number (``Xvfb -displayfd`` picks it)."""
    if shutil.which("Xvfb") is None:
        raise SystemExit("Xvfb is not installed (apt-get install xvfb)")
    r, w = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24",
                             "-nolisten", "tcp"], pass_fds=(w,), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    os.close(w)
    number = b""
    with os.fdopen(r, "rb") as f:
        while not number.endswith(b"\n"):
            ch = f.read(1)
            if not ch:
                proc.kill()
                raise SystemExit("Xvfb did not start")
            number += ch
    return proc, ":" + number.decode().strip()


def run_scene(name: str, out: Path, display: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Start the program for scene ``name`` (or ``check``) under ``display``; it writes into ``out``."""
    env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb",
               GAMESUITE_DATA_DIR=tempfile.mkdtemp(prefix="gamesuite-x11-"))
    return subprocess.run([sys.executable, __file__, "--drive", name, "--out", str(out)], env=env,
                          timeout=timeout, capture_output=True, text=True)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--only", default=",".join(SCENES), help="games, comma-separated")
    ap.add_argument("--check", action="store_true", help="a short game for the test under X")
    ap.add_argument("--drive", help=argparse.SUPPRESS)  # the child: run one scene in this process
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.drive:
        return Driver(args.out).run(args.drive)
    if shutil.which("xdotool") is None:
        raise SystemExit("xdotool is not installed (apt-get install xdotool)")
    server, display = (None, os.environ["DISPLAY"]) if os.environ.get("DISPLAY") else start_xvfb()
    status = 0
    try:
        for name in (["check"] if args.check else args.only.split(",")):
            t0 = time.perf_counter()
            done = run_scene(name, args.out, display)
            sys.stdout.write(done.stdout)
            sys.stderr.write(done.stderr)
            print(f"{name}: exit {done.returncode} in {time.perf_counter() - t0:.1f} s")
            status = status or done.returncode
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
    return status


# -- the inside: the program, driven by clicks ------------------------------------------------------
class Driver:
    """Runs in the program's process: clicks with xdotool, waits with the Qt event loop running."""

    def __init__(self, out: Path) -> None:
        self.out = out

    def run(self, name: str) -> int:
        from gamesuite.gui.storage import Storage

        if name == "check":
            spec, players, moves, lines = "tictactoe", ["human", "engine"], ["b2", "a1"], 1
        else:
            spec, players, moves, lines = SCENES[name]
        settings = Storage().settings  # the data folder of this run ($GAMESUITE_DATA_DIR)
        settings.setValue("game", spec)
        settings.setValue("players", json.dumps([{"kind": k, "engine": "", "depth": 4} if k == "engine"
                                                 else {"kind": k} for k in players]))
        settings.setValue("theme", "light")
        settings.setValue("multipv", lines)
        opts = SCENE_OPTIONS.get(name, {})
        if opts.get("language"):
            settings.setValue("language", opts["language"])
        if opts.get("notation"):
            settings.setValue(f"notation/{spec.split('(')[0]}", opts["notation"])
        if opts.get("engine") and ANCHORS.is_dir():
            settings.setValue(f"analysis_engine/{spec.split('(')[0]}", opts["engine"])
        settings.sync()  # the program reads the same file
        del settings
        if opts.get("dialog") and ANCHORS.is_dir():  # engines in the engine manager
            from gamesuite.gui.engine_manager import EngineBook

            book = EngineBook(Storage())
            for protocol, prog in (("usi", "yaneuraou-material"), ("gomocup", "pbrain-rapfi")):
                eng = book.add(protocol, [str(ANCHORS / prog)])
                if protocol == "usi":
                    eng.values = {"Threads": "1", "BookFile": "no_book"}
            book.save()
            book.storage.settings.sync()

        from gamesuite.gui.app import start

        self.app, self.win = start([])
        win = self.win
        win.move(0, 0)
        win.resize(*WINDOW)
        self.wait_until(lambda: win.engines_ready, 120_000)
        win.controller.rng = random.Random(2)  # the hare cards drawn: the same pictures every time
        self.wait(300)
        if name == "check":
            return self.check(moves)
        if opts.get("dialog"):
            return self.dialog(name, opts["dialog"])
        if opts.get("analyse", True):
            if opts.get("direct"):  # (the menus are not in English)
                win.set_mode("analyse")
            else:
                self.menu("Engine", "Analyse")  # the engine follows the game: the graph gets a score per move
        for text in moves:
            self.type_move(text) if opts.get("typed") else self.play(text)
            self.wait(700)
        self.wait(4000 if name.startswith(("shogi", "gomoku")) else 2500)
        if opts.get("analyse", True):
            if opts.get("direct"):
                win.set_mode("play")
            else:
                self.menu("Engine", "Play against the computer")  # stop: the lines stay, the same in both
        self.wait(300)
        for title, item in opts.get("menus", []):
            self.menu(title, item)
        if name == "shogi":  # Sente's bishop in hand: where it may be dropped
            self.click(win.board, win.board.point_of(win.board.hand_point(0, 5)))
        if opts.get("entry"):  # a move being typed
            self.click(win.move_entry, win.move_entry.rect().center())
            self.xdotool("type", "--delay", "60", opts["entry"])
            self.wait(300)
        themes = opts.get("themes", ["light", "dark"])
        for theme in themes:
            if theme == "dark":
                win.set_theme("dark") if opts.get("direct") else self.menu("View", "Dark theme")
            self.shoot(f"{name}-{theme}.png", keep_focus=bool(opts.get("entry")))
        win.close()
        return 0

    def dialog(self, name: str, which: str) -> int:
        """Open the engine settings dialog (on the external engine, if any) or the engine manager, and
        shoot it."""
        win = self.win
        dlg = win.engine_settings_dialog() if which == "settings" else win.engine_manager_dialog()
        dlg.move(40, 40)
        self.wait(800)
        g = dlg.frameGeometry()
        self.xdotool("mousemove", "--sync", str(SCREEN[0] - 2), str(SCREEN[1] - 2))
        self.wait(300)
        pix = self.app.primaryScreen().grabWindow(0, g.x(), g.y(), g.width(), g.height())
        path = self.out / f"{name}.png"
        pix.save(str(path), "PNG")
        print(f"wrote {path}")
        dlg.reject()
        win.close()
        return 0

    def check(self, moves: list[str]) -> int:
        """The test's game: two moves of ours by clicks (the computer answers each), then the theme."""
        win = self.win
        report: dict = {"clicked": [], "moves": [], "shots": {}, "window": [win.width(), win.height()]}
        for text in moves:
            n = len(win.controller.current.moves())
            self.play(text)
            report["clicked"].append(text)
            self.wait_until(lambda n=n: len(win.controller.current.moves()) >= n + 2
                            or win.controller.state.is_terminal(), 30_000)
        st = win.controller.record.start_state()
        report["moves"] = st.format_line(win.controller.current.moves())
        report["shots"]["light"] = self.shoot("check-light.png")
        self.menu("View", "Dark theme")
        report["theme"] = win.theme_name
        report["shots"]["dark"] = self.shoot("check-dark.png")
        report["message"] = win.message_bar.text()
        (self.out / "report.json").write_text(json.dumps(report, indent=1))
        win.close()
        return 0

    # -- waiting and clicking -------------------------------------------------------------------
    def wait(self, ms: int) -> None:
        from PySide6.QtCore import QEventLoop, QTimer

        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def wait_until(self, cond, timeout_ms: int = 20_000) -> None:  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        while not cond():
            if (time.perf_counter() - t0) * 1000 > timeout_ms:
                raise TimeoutError("the program did not get there in time")
            self.wait(20)

    def xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], check=True, timeout=10)

    def click(self, widget, point) -> None:  # type: ignore[no-untyped-def]
        """A real left click (the X server's pointer) at ``point`` of ``widget``."""
        g = widget.mapToGlobal(point.toPoint() if hasattr(point, "toPoint") else point)
        self.xdotool("mousemove", "--sync", str(g.x()), str(g.y()))
        self.wait(60)
        self.xdotool("click", "1")
        self.wait(120)

    def play(self, text: str) -> None:
        """Play the move ``text`` by clicks on the board: a point, a piece then its square, a square."""
        win = self.win
        board = win.board
        st = win.controller.state
        before = len(win.controller.current.moves())
        move = st.parse_move(text)
        if hasattr(board, "square_center"):  # Hare and Hedgehog: the square the piece goes to
            legal = [m for m in st.legal_moves() if m < 100]
            move = min(legal, key=lambda m: abs(m - move)) if legal else st.legal_moves()[0]
            self.click(board, board.square_center(board._target_of(move)))
        elif hasattr(board, "hand_point"):  # shogi: from, then to (USI text); the promotion question by a click
            g = win.controller.game.geometry
            self.answer_promotion("Promote" if text.endswith("+") else "Do not promote")
            for sq in (text[:2], text[2:4]):
                self.click(board, board.point_of(g.sq(ord(sq[1]) - 97, g.files - int(sq[0]))))
            self._answer.stop()
        else:
            self.click(board, board.point_of(move))
        self.wait_until(lambda: len(win.controller.current.moves()) > before, 10_000)
        self.wait(150)

    def type_move(self, text: str) -> None:
        """Play the move ``text`` by typing it over the board (the keys go to the move entry) and Enter."""
        win = self.win
        before = len(win.controller.current.moves())
        g = win.board.mapToGlobal(win.board.rect().center())  # the pointer over the window: it has the keys
        self.xdotool("mousemove", str(g.x()), str(g.y()))  # (no --sync: the pointer may be there already)
        self.wait(100)
        self.xdotool("type", "--delay", "60", text)
        self.xdotool("key", "Return")
        self.wait_until(lambda: len(win.controller.current.moves()) > before, 10_000)
        self.wait(150)

    def answer_promotion(self, button: str) -> None:
        """Click ``button`` of the promotion question if the next click raises it (the question runs its
        own event loop, so a timer started now does the clicking)."""
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication, QMessageBox

        def look() -> None:
            box = QApplication.activeModalWidget()
            if isinstance(box, QMessageBox) and box.isVisible():
                self._answer.stop()
                b = next(b for b in box.buttons() if b.text().replace("&", "") == button)
                g = b.mapToGlobal(b.rect().center())
                self.xdotool("mousemove", "--sync", str(g.x()), str(g.y()), "click", "1")

        self._answer = QTimer()
        self._answer.setInterval(100)
        self._answer.timeout.connect(look)
        self._answer.start()

    def menu(self, title: str, item: str) -> None:
        """Open menu ``title`` of the menu bar and click ``item`` in it, both with the mouse."""
        from PySide6.QtWidgets import QApplication, QMenu

        bar = self.win.menuBar()
        top = next(a for a in bar.actions() if a.text().replace("&", "") == title)
        self.click(bar, bar.actionGeometry(top).center())
        menu = top.menu()
        assert isinstance(menu, QMenu)
        self.wait_until(menu.isVisible, 5000)
        action = next(a for a in menu.actions() if a.text().replace("&", "") == item)
        self.click(menu, menu.actionGeometry(action).center())
        self.wait_until(lambda: not menu.isVisible(), 5000)
        QApplication.processEvents()
        self.wait(400)

    def shoot(self, name: str, keep_focus: bool = False) -> str:
        """The window as the X server shows it (its screen, cut to the window), saved as ``name``."""
        g = self.win.frameGeometry()
        self.xdotool("mousemove", "--sync", str(SCREEN[0] - 2), str(SCREEN[1] - 2))  # no hover highlight
        self.wait(300)
        pix = self.app.primaryScreen().grabWindow(0, g.x(), g.y(), g.width(), g.height())
        path = self.out / name
        pix.save(str(path), "PNG")
        print(f"wrote {path}")
        return str(path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
