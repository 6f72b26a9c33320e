"""The window on the offscreen platform: moves, engines in the worker, analysis, files, restore."""

import json

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt

from gamesuite.core.errors import InvalidRecordError
from gamesuite.core.limits import Limits
from gamesuite.core.registry import game_classes, load_game
from gamesuite.core.score import Score
from gamesuite.gui.mainwindow import MainWindow
from gamesuite.gui.worker import EngineHost
from gamesuite.play.record import GameRecord, PlayerSpec

from .gui_fakes import Factory

HUMANS = [PlayerSpec("human"), PlayerSpec("human")]


def make_window(qtbot, tmp_path, factory=None, players=None, game="tictactoe", restore=False):
    win = MainWindow(data_dir=tmp_path, engine_factory=factory, restore=restore, game_spec=game,
                     players=players or HUMANS)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ready, timeout=30_000)
    return win


def click(qtbot, win, cell_text):
    move = win.controller.state.parse_move(cell_text)
    qtbot.mouseClick(win.board, Qt.MouseButton.LeftButton, pos=win.board.point_of(move).toPoint())


# -- the record (no Qt) ---------------------------------------------------------------


def test_record_json_round_trip_keeps_variations_scores_and_metadata():
    game = load_game("tictactoe")
    rec = GameRecord(game, players=[PlayerSpec("human"), PlayerSpec("engine", "solver,hash=4", None, 5)],
                     metadata={"event": "test"})
    s = rec.start_state()
    b2 = rec.add_move(rec.root, s.parse_move("b2"))
    a1 = rec.add_move(b2, s.parse_move("a1"))
    c3 = rec.add_move(b2, s.parse_move("c3"))  # a variation after b2
    alt = rec.add_move(rec.root, s.parse_move("a3"))  # a variation of the first move
    rec.add_move(alt, s.parse_move("b2"))
    deep = rec.add_move(c3, s.parse_move("a1"))
    a1.score = Score.mate(3, 0)
    a1.comment = "sharp"
    text = rec.dumps(current=deep)
    back, cur = GameRecord.loads(text)
    assert back.dumps(current=cur) == text
    assert cur.moves() == deep.moves()
    assert [n.move for n in back.root.children] == [b2.move, alt.move]
    assert [n.move for n in back.root.children[0].children] == [a1.move, c3.move]
    assert back.root.children[0].children[0].score == Score.mate(3, 0)
    assert back.players[1].engine == "solver,hash=4" and back.players[1].depth == 5
    assert back.metadata == {"event": "test"}
    d = json.loads(text)
    assert d["moves"][0]["move"] == "b2" and d["moves"][0]["variations"][0][0]["move"] == "a3"


@pytest.mark.parametrize("bad, what", [
    ("{", "not valid JSON"),
    ('{"format": "other"}', "not a gamesuite game"),
    ('{"format": "gamesuite-game", "version": 1, "game": "nosuchgame"}', "unknown game"),
    ('{"format": "gamesuite-game", "version": 1, "game": "tictactoe", "moves": [{"move": "z9"}]}', "z9"),
    ('{"format": "gamesuite-game", "version": 1, "game": "tictactoe", '
     '"moves": [{"move": "b2"}, {"move": "b2"}]}', "illegal move 'b2'"),
    ('{"format": "gamesuite-game", "version": 1, "game": "tictactoe", "players": [{"kind": "robot"}]}', "robot"),
])
def test_bad_game_files_are_refused_with_a_reason(bad, what):
    with pytest.raises(InvalidRecordError, match=what):
        GameRecord.loads(bad)


# -- the worker host --------------------------------------------------------------------


def test_host_forwards_only_the_wanted_search(qtbot):
    factory = Factory(step_s=0.01, late_infos=3, stop_lag_s=0.05)
    host = EngineHost(factory)
    game = load_game("tictactoe")
    results, infos = [], []
    host.result.connect(lambda sid, purpose, r: results.append(sid))
    host.info.connect(lambda sid, purpose, batch: infos.extend((sid, i.depth) for i in batch))
    try:
        first = host.start("analysis", game, game.new_state(), "", Limits(infinite=True))
        qtbot.waitUntil(lambda: any(s == first for s, _ in infos), timeout=5000)
        second = host.start("analysis", game, game.new_state(), "", Limits(depth=3))
        qtbot.waitUntil(lambda: not host.busy, timeout=5000)
        assert results == [second]  # the first search's result was dropped
        assert all(d < 1000 for _, d in infos)  # and so were its late reports
        assert host.dropped >= 4
        assert [d for s, d in infos if s == second] == [1, 2, 3]
        assert factory.engines[0].threads == {"worker"}  # never the GUI thread
    finally:
        assert host.shutdown(1000)


# -- the board ------------------------------------------------------------------------------


def test_clicks_play_moves_and_illegal_clicks_say_why(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    click(qtbot, win, "b2")
    click(qtbot, win, "a1")
    assert win.controller.state.to_text() == "....x.o.."
    click(qtbot, win, "b2")
    assert "taken" in win.message_bar.text()
    assert win.controller.state.to_text() == "....x.o.."
    assert "1. b2 a1" in win.moves.toPlainText()
    win.flip()  # after flipping, the same screen point is the opposite cell
    click(qtbot, win, "c3")
    assert win.controller.state.board[2] == 1
    qtbot.keyClick(win, Qt.Key.Key_Left)
    assert len(win.controller.current.moves()) == 2
    win.close()


def test_playing_a_different_move_in_the_past_keeps_a_variation(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    for t in ("b2", "a1", "c3"):
        click(qtbot, win, t)
    win.controller.back()
    win.controller.back()
    click(qtbot, win, "c1")
    rec = win.controller.record
    b2 = rec.root.children[0]
    assert len(b2.children) == 2  # a1 (main line) and c1 (the variation)
    assert "(" in win.moves.toPlainText() and "c1" in win.moves.toPlainText()
    win.controller.promote(win.controller.current)
    assert rec.mainline()[2] is win.controller.current
    win.close()


def test_setup_mode_validates_before_play_resumes(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    win.begin_setup()
    win.board.setup_tool = "second"
    for t in ("a1", "b1"):
        win.board.click_move(win.controller.state.parse_move(t))
    assert not win.finish_setup()  # two O and no X: refused, still editing
    assert win.setup_active and "x moves first" in win.message_bar.text()
    win.board.setup_tool = "first"
    for t in ("a3", "b3"):
        win.board.click_move(win.controller.state.parse_move(t))
    assert win.finish_setup()
    assert not win.setup_active
    assert win.controller.state.to_text() == "xx....oo."
    assert win.controller.record.start_text == "xx./.../oo."
    click(qtbot, win, "c3")
    assert win.controller.state.is_terminal()
    win.close()


def test_copy_and_paste_position_text(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    click(qtbot, win, "b2")
    win.copy_position()
    from PySide6.QtGui import QGuiApplication

    assert QGuiApplication.clipboard().text() == "....x...."
    QGuiApplication.clipboard().setText("x...o....")
    win.ask_save_changes = lambda action: "discard"  # the game with b2 is not saved: the window asks
    win.paste_position()
    assert win.controller.state.to_text() == "x...o...."
    QGuiApplication.clipboard().setText("nonsense")
    win.paste_position()
    assert "nonsense" in win.message_bar.text()
    assert win.controller.state.to_text() == "x...o...."
    win.close()


# -- engines ------------------------------------------------------------------------------


def test_whole_game_against_the_real_computer(qtbot, tmp_path):
    players = [PlayerSpec("human"), PlayerSpec("engine", "", None, 9)]
    win = make_window(qtbot, tmp_path, players=players)
    announced = []
    win.resultAnnounced.connect(announced.append)
    while not win.controller.state.is_terminal():
        qtbot.waitUntil(lambda: win.controller.state.current_player in (0, -2) and not win.host.busy,
                        timeout=10_000)
        if win.controller.state.is_terminal():
            break
        move = win.controller.state.legal_moves()[0]  # a weak human: the first free cell
        qtbot.mouseClick(win.board, Qt.MouseButton.LeftButton, pos=win.board.point_of(move).toPoint())
    st = win.controller.state
    assert st.returns() == [-1.0, 1.0]  # perfect play punishes the weak human
    assert announced == ["O wins"]
    assert "Game over: O wins" in win.banner.text()
    win.close()


def test_analysis_rows_arrive_and_stop_on_space(qtbot, tmp_path):
    factory = Factory(step_s=0.005)
    win = make_window(qtbot, tmp_path, factory)
    win.panel.multipv.setValue(2)
    qtbot.keyClick(win, Qt.Key.Key_Space)
    assert win.analysing
    qtbot.waitUntil(lambda: len(win.panel.rows) >= 6, timeout=5000)
    assert {r.multipv for r in win.panel.rows} == {1, 2}
    assert win.panel.redraws < len(win.panel.rows)  # batched redraws
    qtbot.keyClick(win, Qt.Key.Key_Space)
    assert not win.analysing
    qtbot.waitUntil(lambda: not win.host.busy, timeout=5000)
    n = len(win.panel.rows)
    qtbot.wait(150)
    assert len(win.panel.rows) == n
    assert win.panel.button.text() == "Analyse"
    assert all(t == "worker" for e in factory.engines for t in e.threads)
    win.close()


def test_analyse_mode_follows_the_user(qtbot, tmp_path):
    factory = Factory(step_s=0.005)
    win = make_window(qtbot, tmp_path, factory)
    win.set_mode("analyse")
    qtbot.waitUntil(lambda: len(win.panel.rows) >= 2, timeout=5000)
    click(qtbot, win, "b2")
    qtbot.waitUntil(lambda: win.panel.state.to_text() == "....x...." and len(win.panel.rows) >= 2, timeout=5000)
    win.controller.back()
    qtbot.waitUntil(lambda: win.panel.state.to_text() == "........." and len(win.panel.rows) >= 2, timeout=5000)
    assert win.controller.record.root.score is not None  # the graph has a point for the start
    win.set_mode("play")
    qtbot.waitUntil(lambda: not win.host.busy, timeout=5000)
    searched = [text for e in factory.engines for text, lim in e.searches if lim.infinite]
    assert searched[-3:] == [".........", "....x....", "........."]
    win.close()


def test_late_results_of_a_stopped_search_are_dropped(qtbot, tmp_path):
    factory = Factory(step_s=0.01, late_infos=5, stop_lag_s=0.1)
    players = [PlayerSpec("human"), PlayerSpec("engine", "", 60_000)]
    win = make_window(qtbot, tmp_path, factory, players)
    click(qtbot, win, "b2")
    qtbot.waitUntil(lambda: win.host.current is not None and len(win.panel.rows) >= 2, timeout=5000)
    assert win.thinking.isVisible() and "thinking" in win.banner.text()
    win.takeback()  # the computer's search is no longer wanted
    qtbot.waitUntil(lambda: not win.host.busy, timeout=5000)
    qtbot.wait(100)
    assert win.host.dropped >= 6  # five late reports and the result
    assert all(r.depth < 1000 for r in win.panel.rows)
    assert win.controller.current is win.controller.record.root
    assert len(win.controller.record.root.children[0].children) == 0  # no move was played
    win.close()


def test_move_now_plays_the_computers_move(qtbot, tmp_path):
    factory = Factory(step_s=0.01)
    players = [PlayerSpec("human"), PlayerSpec("engine", "", 60_000)]
    win = make_window(qtbot, tmp_path, factory, players)
    click(qtbot, win, "b2")
    qtbot.waitUntil(lambda: len(win.panel.rows) >= 1, timeout=5000)
    click(qtbot, win, "a1")  # not the human's turn
    assert "computer is to move" in win.message_bar.text().lower()
    qtbot.keyClick(win, Qt.Key.Key_Space)  # move now
    qtbot.waitUntil(lambda: len(win.controller.current.moves()) == 2, timeout=5000)
    assert win.controller.state.to_text() == "o...x...."
    win.close()


def test_hint_marks_a_move(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, Factory(step_s=0.005, pick=3))
    win.hint()
    qtbot.waitUntil(lambda: win.board.hint is not None, timeout=5000)
    assert win.board.hint == 3 and "Hint: a2" in win.statusBar().currentMessage()
    win.close()


def test_engine_failure_is_reported_not_raised(qtbot, tmp_path):
    factory = Factory(fail=True)
    win = make_window(qtbot, tmp_path, factory, [PlayerSpec("human"), PlayerSpec("engine", "", 100)])
    win.start_analysis()
    qtbot.waitUntil(lambda: not win.host.busy, timeout=5000)
    assert "scripted failure" in win.message_bar.text()
    assert not win.analysing
    click(qtbot, win, "b2")  # the computer's turn: its engine fails too
    qtbot.waitUntil(lambda: win.mode == "analyse", timeout=5000)
    qtbot.waitUntil(lambda: not win.host.busy, timeout=5000)
    n = len(factory.engines[0].searches)
    click(qtbot, win, "a1")  # the user may go on; nobody asks the broken engine again
    qtbot.wait(50)
    assert len(factory.engines[0].searches) == n and not win.host.busy
    win.close()


def test_closing_during_a_search_ends_the_worker(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, players=HUMANS, game="tictactoe(m=5,n=5,k=4)")
    win.start_analysis()
    qtbot.waitUntil(lambda: len(win.panel.rows) >= 1, timeout=20_000)
    assert win.host.busy
    win.close()
    assert win.shutdown_ok  # the worker thread ended within a second
    assert win.host._thread.isFinished()


# -- files ------------------------------------------------------------------------------------


def test_save_and_load_round_trip_with_variations(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    for t in ("b2", "a1", "c3"):
        click(qtbot, win, t)
    win.controller.back()
    click(qtbot, win, "a3")
    win.controller.set_score(win.controller.current, Score.eval(-40, 1))
    path = tmp_path / "games" / "g.json"
    assert win.save_to(path)
    saved = path.read_text()
    win.new_game(load_game("tictactoe(m=4,n=4,k=3)"), HUMANS)
    assert win.load_from(path)
    assert win.controller.record.dumps(win.controller.current) == saved
    assert win.controller.state.to_text() == "x...x.o.."
    assert [win.controller.state.format_move(m) for m in win.controller.current.moves()] == ["b2", "a1", "a3"]
    assert win.controller.current.score == Score.eval(40, 0)
    assert "g.json" in win.windowTitle()
    (tmp_path / "bad.json").write_text('{"format": "gamesuite-game", "version": 7}')
    assert not win.load_from(tmp_path / "bad.json")
    assert "version" in win.error_box.text() and "bad.json" in win.error_box.text()
    win.close()


def crash(win):
    """What the death of the window's process leaves: its autosave, and a lock nobody holds."""
    win.host.shutdown()
    win.storage.abandon()


def autosaves(tmp_path):
    return sorted(p.name for p in (tmp_path / "autosave").glob("*.json"))


def test_restore_after_a_crash(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    for t in ("b2", "a1", "c3"):
        click(qtbot, win, t)
    win.controller.back()
    click(qtbot, win, "c1")
    expected = win.controller.record.dumps(win.controller.current)
    crash(win)
    again = make_window(qtbot, tmp_path, restore=True)
    assert again.controller.record.dumps(again.controller.current) == expected
    assert autosaves(tmp_path) == [again.storage.autosave_path.name]  # the crashed session's file is gone
    again.close()  # a clean exit keeps the game for the next launch, which opens it without asking
    assert autosaves(tmp_path) == [again.storage.autosave_path.name]
    third = make_window(qtbot, tmp_path, restore=None)  # (a question here would wait forever)
    qtbot.waitUntil(lambda: bool(third.controller.record.root.children), timeout=10_000)
    assert third.controller.record.dumps(third.controller.current) == expected
    assert autosaves(tmp_path) == [third.storage.autosave_path.name]
    third.close()


def test_declining_the_restore_starts_fresh(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    click(qtbot, win, "b2")
    crash(win)
    again = make_window(qtbot, tmp_path, restore=False)
    assert not again.controller.record.root.children
    assert win.storage.autosave_path.name not in autosaves(tmp_path)
    again.close()


def test_two_windows_keep_their_own_autosaves(qtbot, tmp_path):
    first = make_window(qtbot, tmp_path)
    click(qtbot, first, "b2")
    second = make_window(qtbot, tmp_path, restore=False)
    assert second.storage.unclean_autosave() is None  # the first window is alive: nothing to restore
    click(qtbot, second, "a1")
    click(qtbot, second, "c3")
    assert first.storage.read_autosave()["moves"] != second.storage.read_autosave()["moves"]
    expected = second.controller.record.dumps(second.controller.current)
    first.close()  # kept for a later launch, but not offered while the second window lives
    assert autosaves(tmp_path) == sorted([first.storage.autosave_path.name, second.storage.autosave_path.name])
    crash(second)
    third = make_window(qtbot, tmp_path, restore=True)
    assert third.controller.record.dumps(third.controller.current) == expected
    third.close()


def test_a_crash_before_this_version_is_still_restored(qtbot, tmp_path):
    donor = make_window(qtbot, tmp_path)
    click(qtbot, donor, "b2")
    d = donor.controller.record.to_json(donor.controller.current)
    expected = donor.controller.record.dumps(donor.controller.current)
    donor.close()
    d["session"] = {"clean": False, "pid": 1}
    (tmp_path / "autosave.json").write_text(json.dumps(d))  # the single autosave file of earlier versions
    again = make_window(qtbot, tmp_path, restore=True)
    assert again.controller.record.dumps(again.controller.current) == expected
    assert not (tmp_path / "autosave.json").exists()
    again.close()


def test_export_diagram_png_and_svg(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    click(qtbot, win, "b2")
    assert win.export_diagram(tmp_path / "d.png", 300)
    assert win.export_diagram(tmp_path / "d.svg", 300)
    from PySide6.QtGui import QImage

    img = QImage(str(tmp_path / "d.png"))
    assert img.width() == 300 and img.height() == 300
    centre = win.board.render_image(300).pixelColor(150, 150)
    assert centre.name() != QImage(str(tmp_path / "d.png")).pixelColor(5, 5).name()  # something drawn
    assert "<svg" in (tmp_path / "d.svg").read_text()
    win.close()


def test_new_game_dialog_builds_the_spec_and_players(qtbot):
    from gamesuite.gui.dialogs import NewGameDialog

    dlg = NewGameDialog(None, load_game("tictactoe"), [PlayerSpec("engine", "solver", None, 4), PlayerSpec("human")])
    qtbot.addWidget(dlg)
    dlg.param_widgets["m"].setValue(4)
    dlg.param_widgets["n"].setValue(4)
    assert dlg.spec_text() == "tictactoe(m=4,n=4,k=3)"
    players = dlg.result_players()
    assert players[0].is_engine and players[0].depth == 4 and players[0].engine == "solver"
    assert not players[1].is_engine
    dlg.param_widgets["k"].setValue(9)
    dlg._accept()
    assert "cannot fit" in dlg.error.text()


def test_new_game_switches_the_board_and_theme(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    win.new_game(load_game("tictactoe(m=5,n=4,k=4)"), HUMANS)
    qtbot.waitUntil(lambda: win.ready, timeout=30_000)
    click(qtbot, win, "e4")
    assert win.controller.state.board[4] == 1
    win.set_theme("dark")
    assert win.board.theme.name == "dark"
    win.close()


@pytest.mark.skipif("gomoku" not in game_classes(), reason="the gomoku game is not installed")
def test_gomoku_drops_into_the_grid_board(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, Factory(step_s=0.005), game="gomoku(size=15,rule=renju)")
    assert win.board.stones
    click(qtbot, win, "h8")
    assert win.controller.state.board[7 * 15 + 7] == 1
    img = win.board.render_image(400)
    assert img.width() == 400
    win.close()


def test_diagram_command_writes_png_and_svg(qtbot, tmp_path, capsys):
    from gamesuite.cli import main

    assert main(["diagram", "tictactoe", "--position", "x...o...x", "-o", str(tmp_path / "d.png"),
                 "--size", "200"]) == 0
    from PySide6.QtGui import QImage

    img = QImage(str(tmp_path / "d.png"))
    assert (img.width(), img.height()) == (200, 200)
    assert main(["diagram", "tictactoe", "-o", str(tmp_path / "d.svg"), "--theme", "dark", "--flip"]) == 0
    assert "<svg" in (tmp_path / "d.svg").read_text()
    assert main(["diagram", "tictactoe", "--position", "xxx", "-o", str(tmp_path / "e.png")]) == 2
    assert "'xxx'" in capsys.readouterr().err
    assert main(["diagram", "tictactoe", "-o", str(tmp_path / "e.gif")]) == 2
    assert not (tmp_path / "e.png").exists()


def test_the_documented_example_file_loads():
    import pathlib
    import re

    doc = (pathlib.Path(__file__).parents[1] / "docs" / "game-json.md").read_text()
    example = re.search(r"```json\n(.*?)```", doc, re.S).group(1)
    rec, cur = GameRecord.loads(example)
    s = rec.start_state()
    assert s.format_line(cur.moves()) == ["b2", "a1", "c1"]
    assert [s.format_move(n.move) for n in rec.root.children] == ["b2", "a3"]
    assert rec.players[1].engine == "solver,hash=16" and rec.metadata["event"] == "Friday club"


def test_opening_a_game_of_another_kind_waits_for_its_rules(qtbot, tmp_path):
    game = load_game("tictactoe(m=4,n=4,k=3)")
    rec = GameRecord(game, players=HUMANS)
    s = rec.start_state()
    rec.add_move(rec.root, s.parse_move("d4"))
    (tmp_path / "g4.json").write_text(rec.dumps(rec.root.children[0]))
    win = make_window(qtbot, tmp_path)
    assert win.load_from(tmp_path / "g4.json")
    qtbot.waitUntil(lambda: win.ready and win.controller.game == game, timeout=30_000)
    assert win.controller.state.to_text() == "...x............"
    assert win.board.game == game
    win.close()


def test_two_computers_play_each_other_to_the_end(qtbot, tmp_path):
    factory = Factory(step_s=0.002)
    players = [PlayerSpec("engine", "", None, 2), PlayerSpec("engine", "", None, 3)]
    win = make_window(qtbot, tmp_path, factory, players)
    announced = []
    win.resultAnnounced.connect(announced.append)
    qtbot.waitUntil(lambda: bool(announced), timeout=10_000)
    # each scripted engine plays the first free cell: X wins on the c3-a1 diagonal at move 7
    assert win.controller.state.to_text() == "xoxoxox.."
    assert announced == ["X wins"]
    win.close()


def test_clicking_a_move_of_a_line_previews_the_line_up_to_it(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    s = win.controller.state
    from gamesuite.core.info import SearchInfo

    pv = tuple(s.parse_move(t) for t in ("b2", "a1", "c3", "a3"))
    win.panel.begin(s, "test")
    win.panel.add_infos([SearchInfo(1, 4, 4, Score.eval(0), pv, 10, 10, 1, 1)])
    win.panel.flush()
    item = win.panel.tree.topLevelItem(0)
    rect = win.panel.tree.visualItemRect(item)
    header = win.panel.tree.header()
    x0 = header.sectionViewportPosition(6) + 4
    from PySide6.QtGui import QFontMetrics

    fm = QFontMetrics(win.panel.tree.font())
    third = x0 + fm.horizontalAdvance("b2 a1 c") + 1  # on the third move
    seen = []
    win.panel.lineClicked.connect(seen.append)
    from PySide6.QtCore import QPoint

    qtbot.mouseClick(win.panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(third, rect.center().y()))
    assert seen[-1] == list(pv[:3])
    assert win.board.preview == list(pv[:3])
    qtbot.mouseClick(win.panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(20, rect.center().y()))
    assert seen[-1] == list(pv)  # elsewhere on the row: the whole line
    win.close()


def test_keys_walk_through_the_moves_and_the_move_list_navigates(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    for t in ("b2", "a1", "c3"):
        click(qtbot, win, t)
    rec = win.controller.record
    win.moves.nodeClicked.emit(rec.mainline()[1])  # as a click on "b2" in the list does
    assert win.controller.current is rec.mainline()[1]
    from PySide6.QtCore import QUrl

    win.moves.anchorClicked.emit(QUrl(f"node:{rec.mainline()[2].id}"))
    assert win.controller.current is rec.mainline()[2]
    qtbot.keyClick(win, Qt.Key.Key_Home)
    assert win.controller.current is rec.root
    qtbot.keyClick(win, Qt.Key.Key_Right)
    qtbot.keyClick(win, Qt.Key.Key_Right)
    assert win.controller.current is rec.mainline()[2]
    qtbot.keyClick(win, Qt.Key.Key_End)
    assert win.controller.current is rec.mainline()[3]
    qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.controller.current is rec.mainline()[2]
    qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert win.controller.current is rec.mainline()[3]
    flipped = win.board.flipped
    qtbot.keyClick(win, Qt.Key.Key_F)
    assert win.board.flipped != flipped
    win.close()


def test_stepping_quickly_through_positions_skips_the_searches_nobody_wants(qtbot, tmp_path):
    factory = Factory(step_s=0.02, stop_lag_s=0.2)  # each stopped search lingers 0.2 s
    win = make_window(qtbot, tmp_path, factory)
    for t in ("b2", "a1", "c3", "a3"):
        click(qtbot, win, t)
    win.set_mode("analyse")
    qtbot.waitUntil(lambda: len(factory.engines[0].searches) >= 2, timeout=5000)  # warm-up + the analysis
    for _ in range(4):
        win.controller.back()
    for _ in range(4):
        win.controller.forward()
    qtbot.waitUntil(lambda: win.panel.state.to_text() == win.controller.state.to_text()
                    and len(win.panel.rows) >= 2, timeout=10_000)
    searched = [text for text, lim in factory.engines[0].searches if lim.infinite]
    assert len(searched) <= 3  # the first, maybe one that had started, and the last; not all nine
    assert searched[-1] == win.controller.state.to_text()
    win.set_mode("play")
    win.close()


def test_the_qt_binding_keeps_none_and_bool_reference_counts(qapp):
    """PySide6 6.12.0 on Python 3.11 drops a reference to None/True/False on every
    ``processEvents()`` and signal ``emit()``, so a long session dies with "Fatal Python
    error: none_dealloc" (Python 3.12+ hides it: None and bools are immortal there).
    The window emits signals all the time: this binding must not be used on 3.11."""
    import sys

    from PySide6.QtCore import QObject, Signal

    class Emitter(QObject):
        fired = Signal(int)

    e = Emitter()
    e.fired.connect(lambda x: None)
    before_none, before_true = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(60):
        qapp.processEvents()
        e.fired.emit(1)
    assert abs(sys.getrefcount(None) - before_none) < 30
    assert abs(sys.getrefcount(True) - before_true) < 30


def test_a_new_board_family_only_implements_the_base_hooks(qtbot):
    """What shogi and Hare boards will do: subclass BoardWidget, draw, map clicks to moves."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QColor

    from gamesuite.gui.boards import BOARD_CLASSES, BoardWidget, GridBoard, board_class_for

    class StripBoard(BoardWidget):  # every cell in one row
        @classmethod
        def supports(cls, game):
            return game.name == "tictactoe" and game.width == 7

        def paint_board(self, p, rect):
            p.fillRect(rect, QColor(self.theme.board))

        def move_at(self, pos: QPointF):
            w = self.width() / self.game.cells
            return int(pos.x() // w) if 0 <= pos.x() < self.width() else None

        def setup_text(self):
            return self.state.to_text()

    game7 = load_game("tictactoe(m=7,n=3,k=3)")
    BOARD_CLASSES.insert(0, StripBoard)
    try:
        assert board_class_for(game7) is StripBoard
        assert board_class_for(load_game("tictactoe")) is GridBoard
        board = StripBoard(game7)
        qtbot.addWidget(board)
        board.resize(210, 30)
        seen = []
        board.moveRequested.connect(seen.append)
        from PySide6.QtCore import QPoint

        qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=QPoint(35, 15))
        assert seen == [3]
        assert board.render_image(64).width() == 64
    finally:
        BOARD_CLASSES.remove(StripBoard)


def test_a_game_without_a_board_is_refused_not_crashed(qtbot, tmp_path, monkeypatch):
    win = make_window(qtbot, tmp_path)
    import gamesuite.gui.boards as boards

    monkeypatch.setattr(boards, "BOARD_CLASSES", [])
    assert not win.new_game(load_game("tictactoe(m=4,n=4,k=3)"), HUMANS)
    assert "no board" in win.message_bar.text()
    assert win.controller.game == load_game("tictactoe")
    win.close()
