"""The window never loses a game and never shows a stale or silent state (issue 20, item by item)."""

import json

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QMessageBox

from gamesuite.core.info import SearchInfo
from gamesuite.core.registry import game_classes, load_game
from gamesuite.core.score import Score
from gamesuite.gui.mainwindow import MainWindow
from gamesuite.play.record import GameRecord, PlayerSpec

from .gui_fakes import Factory

HUMANS = [PlayerSpec("human"), PlayerSpec("human")]
#: The real Save / Discard / Cancel question (conftest replaces it in every test, as a guard).
REAL_QUESTION = next((k.__dict__["ask_save_changes"] for k in MainWindow.__mro__ if "ask_save_changes" in k.__dict__),
                     None)


def make_window(qtbot, tmp_path, factory=None, players=None, game="tictactoe", restore=False):
    g = load_game(game)
    win = MainWindow(data_dir=tmp_path, engine_factory=factory, restore=restore, game_spec=game,
                     players=players or [PlayerSpec("human") for _ in range(g.num_players)])
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ready, timeout=60_000)
    return win


def click(qtbot, win, cell_text):
    move = win.controller.state.parse_move(cell_text)
    qtbot.mouseClick(win.board, Qt.MouseButton.LeftButton, pos=win.board.point_of(move).toPoint())


def moves_of(win):
    st = win.controller.record.start_state()
    return st.format_line(win.controller.current.moves())


def message_text(win):
    """What the window shows the user to read: the message above the board, or an error dialog."""
    texts = []
    bar = getattr(win, "message_bar", None)
    if bar is not None and bar.isVisible():
        texts.append(bar.text())
    for box in win.findChildren(QMessageBox):
        if box.isVisible():
            texts.append(box.text())
    return "\n".join(texts)


# -- 1. Silent loss: one place decides whether the game is unsaved; every replacing action asks -----


def replacing_actions(win, tmp_path, monkeypatch):
    """Each action that replaces the game, done as the user does it (the file dialogs answered)."""
    from PySide6.QtWidgets import QFileDialog

    from gamesuite.gui import dialogs

    other = GameRecord(load_game("tictactoe"), players=HUMANS)
    other.add_move(other.root, 0)
    (tmp_path / "other.json").write_text(other.dumps())
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(tmp_path / "other.json"), ""))
    monkeypatch.setattr(dialogs.NewGameDialog, "exec", lambda self: 1)

    def paste():
        QApplication.clipboard().setText("x...o....")
        win.paste_position()

    def set_up():
        win.begin_setup()
        win.board.setup_clear()
        win.finish_setup()

    def import_():
        (tmp_path / "g.psq").write_text("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,8,0\n-1\n")
        with monkeypatch.context() as m:
            m.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(tmp_path / "g.psq"), ""))
            win.act_import.trigger()

    return {"new game": win.act_new.trigger, "open": win.act_open.trigger, "paste": paste, "set up": set_up,
            "import": import_}


@pytest.mark.parametrize("action", ["new game", "open", "paste", "set up", "import"])
def test_every_action_that_replaces_an_unsaved_game_asks_first(qtbot, tmp_path, monkeypatch, action):
    if action == "import" and "gomoku" not in game_classes():
        pytest.skip("the gomoku game (whose files are imported here) is not installed")
    win = make_window(qtbot, tmp_path)
    for t in ("b2", "a1", "c3"):
        click(qtbot, win, t)
    asked = []
    win.ask_save_changes = lambda what: asked.append(what) or "cancel"
    do = replacing_actions(win, tmp_path, monkeypatch)[action]
    do()
    win.end_setup()
    assert len(asked) == 1, f"{action}: the unsaved game was replaced without asking"
    assert moves_of(win) == ["b2", "a1", "c3"]  # Cancel: nothing lost
    win.ask_save_changes = lambda what: asked.append(what) or "discard"
    do()
    qtbot.waitUntil(lambda: moves_of(win) != ["b2", "a1", "c3"], timeout=10_000)
    assert len(asked) == 2
    win.close()


def test_save_in_the_question_saves_then_replaces_and_a_saved_game_is_not_asked_about(qtbot, tmp_path,
                                                                                       monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    win = make_window(qtbot, tmp_path)
    for t in ("b2", "a1"):
        click(qtbot, win, t)
    assert win.windowTitle().startswith("*")  # the title says the game is in no file
    target = tmp_path / "kept.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    win.ask_save_changes = lambda what: "save"
    QApplication.clipboard().setText("x...o....")
    win.paste_position()
    assert json.loads(target.read_text())["moves"][1]["move"] == "a1"  # saved first...
    assert win.controller.state.to_text() == "x...o...."  # ...then replaced
    # a game just saved (or opened) and not changed since is replaced without a question
    win.ask_save_changes = lambda what: pytest.fail("a saved game needs no question")
    assert win.load_from(target)
    QApplication.clipboard().setText(".........")
    win.paste_position()
    assert win.controller.state.to_text() == "........."
    win.close()


def test_the_real_question_offers_save_discard_and_cancel(qtbot, tmp_path):
    assert REAL_QUESTION is not None, "the window has no Save / Discard / Cancel question"
    win = make_window(qtbot, tmp_path)
    win.ask_save_changes = REAL_QUESTION.__get__(win)
    click(qtbot, win, "b2")
    seen = []

    def answer(button):
        def click_it():
            box = QApplication.activeModalWidget()
            if not isinstance(box, QMessageBox):
                QTimer.singleShot(20, click_it)
                return
            seen.append((box.text(), sorted(b.text().replace("&", "") for b in box.buttons())))
            box.button(button).click()
        QTimer.singleShot(20, click_it)

    QApplication.clipboard().setText("x...o....")
    answer(QMessageBox.StandardButton.Cancel)
    win.paste_position()
    assert moves_of(win) == ["b2"]
    answer(QMessageBox.StandardButton.Discard)
    win.paste_position()
    assert win.controller.state.to_text() == "x...o...."
    assert "not saved" in seen[0][0] or "no file" in seen[0][0]
    assert {"Save", "Cancel"} <= set(seen[0][1]) and any("Discard" in b or "Close without" in b for b in seen[0][1])
    win.close()


def test_quit_and_relaunch_keeps_the_game(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    for t in ("b2", "a1", "c3"):
        click(qtbot, win, t)
    expected = win.controller.record.dumps(win.controller.current)
    win.close()  # a normal quit (Ctrl+Q)
    again = make_window(qtbot, tmp_path, restore=None)  # a launch as the user does it: nothing to answer
    qtbot.waitUntil(lambda: bool(again.controller.record.root.children), timeout=10_000)
    assert again.controller.record.dumps(again.controller.current) == expected
    assert again.save_state.is_unsaved(again.controller.record)  # still in no file: still asked about
    again.close()


# -- 2. Stale analysis: the panel and the graph are about the position shown ------------------------


def computer_thinks(qtbot, tmp_path, game="tictactoe"):
    """A window where the computer (a scripted engine) has just moved: its lines are in the panel."""
    players = [PlayerSpec("human"), PlayerSpec("engine", "", None, 4)]
    win = make_window(qtbot, tmp_path, Factory(step_s=0.005), players, game)
    win.panel.multipv.setValue(2)
    win.board.click_move(win.controller.state.legal_moves()[0])
    qtbot.waitUntil(lambda: len(win.controller.current.moves()) == 2 and not win.host.busy, timeout=10_000)
    assert win.panel.rows
    return win


@pytest.mark.skipif("gomoku" not in game_classes(), reason="the gomoku game is not installed")
def test_a_new_game_clears_the_panel_of_the_old_one(qtbot, tmp_path):
    win = computer_thinks(qtbot, tmp_path)
    win.new_game(load_game("gomoku"), HUMANS)
    assert not win.panel.rows and win.panel.tree.topLevelItemCount() == 0
    assert "play" not in win.panel.title.text()  # not "O played ..." of the tic-tac-toe game
    assert win.graph.record is win.controller.record
    qtbot.waitUntil(lambda: win.ready, timeout=60_000)
    assert not win.panel.rows
    win.close()


def test_opening_or_pasting_clears_the_panel(qtbot, tmp_path):
    win = computer_thinks(qtbot, tmp_path)
    rec = GameRecord(load_game("tictactoe"), players=HUMANS)
    (tmp_path / "g.json").write_text(rec.dumps())
    win.ask_save_changes = lambda what: "discard"
    assert win.load_from(tmp_path / "g.json")
    assert not win.panel.rows and win.panel.tree.topLevelItemCount() == 0
    win.close()
    win = computer_thinks(qtbot, tmp_path)
    assert win.set_position_text("x...o....")
    assert not win.panel.rows
    win.close()


def test_no_hint_is_looked_for_after_the_game_ended(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, Factory(step_s=0.05))
    for t in ("b2", "a1", "b1", "a2"):
        click(qtbot, win, t)
    win.hint()
    assert "hint" in win.panel.title.text().lower()
    click(qtbot, win, "b3")  # X wins before the hint comes
    assert win.controller.state.is_terminal()
    qtbot.waitUntil(lambda: not win.host.busy, timeout=5000)
    qtbot.wait(50)
    title = win.panel.title.text()
    assert "hint" not in title.lower() and "X wins" in title, title
    assert win.panel.button.text() == "Analyse" and not win.thinking.isVisible()
    win.close()


# -- 3. Silent errors: every error stays until read; nothing escapes to stderr ----------------------


def test_opening_a_binary_file_shows_a_dialog_and_keeps_the_game(qtbot, tmp_path, capfd):
    win = make_window(qtbot, tmp_path)
    click(qtbot, win, "b2")
    bad = tmp_path / "picture.json"
    bad.write_bytes(bytes(range(256)) * 4)
    assert not win.load_from(bad)
    shown = message_text(win)
    assert "picture.json" in shown and "gamesuite" in shown.lower(), shown
    assert moves_of(win) == ["b2"]
    assert capfd.readouterr().err == ""
    win.close()


def test_a_refused_position_stays_on_screen_whole(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    win.begin_setup()
    for t in ("a1", "b1", "c1"):
        win.board.setup_tool = "second"
        win.board.click_move(win.controller.state.parse_move(t))
    assert not win.finish_setup()
    qtbot.wait(50)
    shown = message_text(win)
    assert "cannot be played" in shown and "x moves first" in shown, shown
    assert win.statusBar().currentMessage() == ""  # not a passing status-bar note that a timer removes
    label = win.message_bar.label
    assert label.wordWrap() and label.width() <= win.centralWidget().width()  # wrapped, not cut off
    win.message_bar.close_button.click()  # read: the user closes it
    assert not win.message_bar.isVisible()
    win.close()


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_becomes_a_dialog_and_the_game_stays(qtbot, tmp_path, capfd):
    import sys
    import threading

    from gamesuite.gui.messages import install_excepthook

    win = make_window(qtbot, tmp_path)
    click(qtbot, win, "b2")
    uninstall = install_excepthook(win.error_dialog, tmp_path / "errors.log")
    try:
        win.controller.changed.connect(lambda: 1 / 0)  # a bug somewhere in a slot
        win.controller.back()
        assert "ZeroDivisionError" in win.error_box.text() and "kept" in win.error_box.text()
        win.error_box.close()
        win.error_box = None
        thread = threading.Thread(target=lambda: [][1])  # and one in a Python thread
        thread.start()
        thread.join()
        qtbot.waitUntil(lambda: win.error_box is not None and "IndexError" in win.error_box.text(), timeout=5000)
    finally:
        uninstall()
    assert sys.excepthook is not None
    assert "ZeroDivisionError" in (tmp_path / "errors.log").read_text()
    assert capfd.readouterr().err == ""
    assert win.controller.record.root.children  # the game is still there
    win.close()


# -- 4. Pasted moves become moves --------------------------------------------------------------------


@pytest.mark.parametrize("game, text, moves", [
    ("shogi", "startpos moves 7g7f 3c3d", ["7g7f", "3c3d"]),
    ("shogi", "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 2g2f", ["2g2f"]),
    ("gomoku", "h8 i9 h9", ["h8", "i9", "h9"]),
])
def test_position_text_with_moves_becomes_a_game_with_those_moves(qtbot, tmp_path, game, text, moves):
    if game not in game_classes():
        pytest.skip(f"the {game} game is not installed")
    win = make_window(qtbot, tmp_path, game=game)
    assert win.set_position_text(text)
    assert moves_of(win) == moves
    assert win.controller.record.start_text is None  # they start from the usual start
    shown = win.moves.toPlainText()
    start = win.controller.record.start_state()
    texts = win.notation.line(start, [start.parse_move(m) for m in moves])  # (shogi: ▲７六歩 by default)
    assert all(t in shown for t in texts), shown
    win.controller.back()  # and one can step back through them
    assert moves_of(win) == moves[:-1]
    win.close()


# -- 5. Hidden controls ------------------------------------------------------------------------------


def test_the_setup_editors_buttons_are_in_view_at_the_default_size(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, game="shogi")
    win.begin_setup()
    qtbot.wait(50)
    shown = {}
    for b in win.findChildren(QAbstractButton):
        text = b.text().replace("&", "")
        if text in ("Clear", "Done", "Cancel") and b.isVisible() and not b.visibleRegion().isEmpty():
            top_left = b.mapTo(win, QPoint(0, 0))
            if win.rect().contains(top_left) and win.rect().contains(top_left + QPoint(b.width() - 1, b.height() - 1)):
                shown[text] = b
    assert set(shown) == {"Clear", "Done", "Cancel"}
    tools = [a for a in win.setup_actions]
    assert tools and all(any(w.isVisible() for w in a.associatedObjects() if hasattr(w, "isVisible"))
                         for a in tools)  # every piece has a visible button too
    win.end_setup()
    win.close()


# -- 6. Dark theme -------------------------------------------------------------------------------------


def lightness(icon):
    img = icon.pixmap(24, 24).toImage()
    values = [img.pixelColor(x, y) for x in range(img.width()) for y in range(img.height())]
    opaque = [c.lightness() for c in values if c.alpha() > 128]
    assert opaque, "an empty icon"
    return sum(opaque) / len(opaque)


def test_navigation_icons_follow_the_theme(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    for action in (win.act_first, win.act_back, win.act_forward, win.act_last):
        win.set_theme("dark")
        assert lightness(action.icon()) > 160, action.text()  # light on a dark toolbar
        win.set_theme("light")
        assert lightness(action.icon()) < 100, action.text()
    win.close()


def luminance(c: QColor) -> float:
    def ch(v: int) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * ch(c.red()) + 0.7152 * ch(c.green()) + 0.0722 * ch(c.blue())


def contrast(a: QColor, b: QColor) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("game", ["tictactoe", "shogi"])
def test_the_evaluation_graphs_labels_read_in_both_themes(qtbot, monkeypatch, theme, game):
    """The players' names on the graph: drawn with and without them, the pixels that differ are the
    letters; the best-drawn letter of each name must stand out from what is under it (WCAG 4.5:1)."""
    from gamesuite.gui.evalgraph import EvalGraph
    from gamesuite.gui.themes import board_theme

    g = load_game(game)
    rec = GameRecord(g)
    graph = EvalGraph()
    qtbot.addWidget(graph)
    graph.resize(300, 160)
    graph.set_theme(board_theme(theme))
    graph.show_record(rec, rec.root)
    with_names = graph.grab().toImage()
    monkeypatch.setattr(g, "player_name", lambda p: "")
    graph.update()
    without = graph.grab().toImage()
    best = {"top": 0.0, "bottom": 0.0}
    for y in range(with_names.height()):
        half = "top" if y < with_names.height() / 2 else "bottom"
        for x in range(with_names.width()):
            a, b = with_names.pixelColor(x, y), without.pixelColor(x, y)
            if a != b:
                best[half] = max(best[half], contrast(a, b))
    assert best["top"] >= 4.5 and best["bottom"] >= 4.5, best


# -- 7. Layout ---------------------------------------------------------------------------------------


def test_the_new_game_dialog_shrinks_back_and_stays_inside_the_window(qtbot, tmp_path):
    from gamesuite.gui.dialogs import NewGameDialog

    win = make_window(qtbot, tmp_path)
    win.resize(900, 650)
    dlg = NewGameDialog(win, win.controller.game, win.controller.players)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.wait(50)
    first = dlg.size()
    dlg.game_box.setCurrentIndex(dlg.game_box.findData("hare"))
    dlg.param_widgets["players"].setValue(6)
    dlg.same_clock.setChecked(False)  # a clock on every row
    qtbot.wait(100)
    assert dlg.width() <= win.width() and dlg.height() <= win.height(), (dlg.size(), win.size())
    dlg.game_box.setCurrentIndex(dlg.game_box.findData("tictactoe"))
    qtbot.wait(100)
    labels = [lb.text() for lb in dlg.findChildren(QLabel) if lb.isVisible() and lb.text() in
              ("player 1", "player 2", "player 3", "player 4", "player 5", "player 6", "X", "O")]
    assert labels == ["X", "O"]
    assert dlg.height() <= max(first.height(), dlg.sizeHint().height()) + 10, (dlg.size(), first)
    dlg.close()
    win.close()


def test_the_docks_get_their_size_back_after_the_window_was_small(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    qtbot.wait(50)
    before = (win.dock_analysis.height(), win.dock_moves.width())
    win.resize(500, 400)
    qtbot.wait(100)
    win.resize(1100, 760)
    qtbot.wait(100)
    after = (win.dock_analysis.height(), win.dock_moves.width())
    assert after[0] >= 0.9 * before[0] and after[1] >= 0.9 * before[1], (before, after)
    win.close()


@pytest.mark.parametrize("game", ["tictactoe", "gomoku", "shogi", "hare(players=6)"])
def test_at_the_smallest_size_the_board_is_whole_and_nothing_overlaps(qtbot, tmp_path, game):
    if game.split("(")[0] not in game_classes():
        pytest.skip(f"the {game} game is not installed")
    win = make_window(qtbot, tmp_path, game=game)
    smallest = win.minimumSize()
    assert smallest.width() <= 800 and smallest.height() <= 600  # the stated minimum (docs/gui.md)
    win.resize(400, 300)  # asks for less: gets the smallest size
    qtbot.wait(100)
    assert win.width() >= smallest.width() and win.height() >= smallest.height()
    assert win.width() <= 800 and win.height() <= 600
    central = win.centralWidget().geometry()
    board = win.board.geometry().translated(win.centralWidget().pos())
    assert central.contains(board), (central, board)
    assert win.board.width() >= win.board.minimumWidth() and win.board.height() >= win.board.minimumHeight()
    docks = [d.geometry() for d in (win.dock_analysis, win.dock_moves, win.dock_graph) if d.isVisible()]
    for i, a in enumerate(docks):
        assert not a.intersects(central), (a, central)
        for b in docks[i + 1:]:
            assert not a.intersects(b), (a, b)
    assert win.dock_moves.width() >= 150 and win.dock_analysis.height() >= 100
    win.close()


# -- 8. Hare and Hedgehog in words ------------------------------------------------------------------


def hare_line():
    g = load_game("hare(players=3)")
    st = g.new_state()
    return g, st, [st.parse_move(t) for t in ("2", "4", "5")]  # a carrot, a position, a carrot square


def test_hare_lines_and_scores_read_as_words_with_one_column_per_player(qtbot):
    from gamesuite.gui.analysis import AnalysisPanel

    g, st, pv = hare_line()
    panel = AnalysisPanel()
    qtbot.addWidget(panel)
    panel.begin(st, "test")
    panel.add_infos([SearchInfo(0, 3, 3, Score.vector([-15.17, -9.86, 3.25]), tuple(pv), 100, 1000, 5, 1)])
    panel.flush()
    tree = panel.tree
    headers = [tree.headerItem().text(c) for c in range(tree.columnCount())]
    row = [tree.topLevelItem(0).text(c) for c in range(tree.columnCount())]
    for name, value in (("Red", "-15.2"), ("Blue", "-9.9"), ("Yellow", "+3.2")):
        assert name in headers and value in row[headers.index(name)], (headers, row)
    pv_text = row[-1]
    assert "Red" in pv_text and "Blue" in pv_text and "Yellow" in pv_text, pv_text
    assert "carrot" in pv_text  # square 2 is a carrot square
    assert "…" not in "".join(row[:-1]) and "(" not in "".join(row[:-1])  # no truncated vector


def test_the_hare_move_list_names_the_player_of_each_move(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, game="hare(players=3)")
    for m in hare_line()[2]:
        win.controller.play(m)
    text = win.moves.toPlainText()
    for name in ("Red", "Blue", "Yellow"):
        assert name in text, text
    assert "1001" not in text
    win.close()


def test_help_has_the_rules_of_hare_and_hedgehog(qtbot, tmp_path):
    from PySide6.QtWidgets import QTextBrowser

    win = make_window(qtbot, tmp_path, game="hare")
    rules = [a for m in win.menuBar().actions() if m.menu() is not None and "Help" in m.text()
             for a in m.menu().actions() if "ules" in a.text()]
    assert rules, "no rules in the Help menu"
    rules[0].trigger()
    qtbot.wait(50)
    texts = [b.toPlainText() for b in QApplication.topLevelWidgets()[0].window().findChildren(QTextBrowser)]
    texts += [b.toPlainText() for w in QApplication.topLevelWidgets() for b in w.findChildren(QTextBrowser)
              if b.isVisible()]
    shown = "\n".join(texts)
    for word in ("carrots", "lettuce", "hedgehog", "hare card", "finish"):
        assert word in shown.lower(), word
    win.close()


# -- 9. Multi-PV in place, the history a click away, a graph with a scale ----------------------------


def test_multipv_lines_are_rows_updated_in_place(qtbot):
    from gamesuite.gui.analysis import AnalysisPanel

    panel = AnalysisPanel()
    qtbot.addWidget(panel)
    st = load_game("tictactoe").new_state()
    panel.begin(st, "test")
    first_items = None
    for depth in (1, 2, 3):
        panel.add_infos([SearchInfo(0, depth, depth, Score.eval(10 * depth - k, 0), (k - 1, 4), 100, 1000, 5, k)
                         for k in (1, 2, 3)])
        panel.flush()
        items = [panel.tree.topLevelItem(i) for i in range(panel.tree.topLevelItemCount())]
        if first_items is None:
            first_items = items
        assert len(items) == 3  # one row per line, however deep
        assert [it.text(0) for it in items] == ["1", "2", "3"]
        assert all(it.text(1) == f"{depth}/{depth}" for it in items)
        assert items == first_items  # the same rows, rewritten
    # the history by depth is one click away
    bar = panel.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    assert panel.tabs.currentWidget() is panel.history and panel.history.topLevelItemCount() == 9


def test_the_evaluation_graph_has_a_scale_and_a_click_goes_to_the_move(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    for t in ("b2", "a1", "c3", "a3"):
        click(qtbot, win, t)
    rec = win.controller.record
    for i, node in enumerate(rec.mainline()):
        node.score = Score.eval(50 * i, 0)
    g = win.graph
    g.show_record(rec, win.controller.current)
    labels = [label for _, label in g.ticks()]
    assert "0" in labels and any(label.startswith("+") for label in labels)
    r = g.plot_rect()
    assert r.left() > 10 and r.bottom() < g.height() - 5  # room for the scale and the move numbers
    x = r.left() + r.width() * 2 / 4
    qtbot.mouseClick(g, Qt.MouseButton.LeftButton, pos=QPoint(int(x), int(r.center().y())))
    assert win.controller.current is rec.mainline()[2]
    img: QImage = g.grab().toImage()
    assert img.width() == g.width()
    win.close()
