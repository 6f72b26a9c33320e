"""The window with shogi boards, and the order of the analysis panel's history by depth."""

import pytest

pytest.importorskip("PySide6")

from gamesuite.core.info import SearchInfo
from gamesuite.core.registry import load_game
from gamesuite.core.score import Score
from gamesuite.gui.analysis import AnalysisPanel


def _info(depth, line, pv):
    return SearchInfo(0, depth, depth, Score.eval(10 * depth - line, 0), tuple(pv), 100, 1000, 5, line)


def test_analysis_rows_of_one_depth_are_ordered_by_line_number(qtbot):
    panel = AnalysisPanel()
    qtbot.addWidget(panel)
    st = load_game("tictactoe").new_state()
    panel.begin(st, "test")
    # multi-PV engines report line 1, 2, 3 of a depth, then the next depth
    panel.add_infos([_info(1, k, [k - 1]) for k in (1, 2, 3)])
    panel.flush()
    panel.add_infos([_info(2, k, [k - 1, 4]) for k in (1, 2, 3)])
    panel.add_infos([_info(2, 1, [8, 4])])  # line 1 reported again at the same depth
    panel.flush()
    shown = [(panel.history.topLevelItem(i).text(0), panel.history.topLevelItem(i).text(1))
             for i in range(panel.history.topLevelItemCount())]
    assert shown == [("1", "2/2"), ("1", "2/2"), ("2", "2/2"), ("3", "2/2"), ("1", "1/1"), ("2", "1/1"), ("3", "1/1")]
    # the newer report of line 1 is above the older one
    assert panel.history.topLevelItem(0).data(0, 256) == [8, 4]


# -- the shogi board in the window ------------------------------------------------------------

from PySide6.QtCore import Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from gamesuite.gui.boards import ShogiBoard, board_class_for  # noqa: E402
from gamesuite.gui.mainwindow import MainWindow  # noqa: E402
from gamesuite.play.record import PlayerSpec  # noqa: E402

HUMANS = [PlayerSpec("human"), PlayerSpec("human")]


def make_window(qtbot, tmp_path, game="shogi", players=None):
    win = MainWindow(data_dir=tmp_path, restore=False, game_spec=game, players=players or HUMANS)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ready, timeout=60_000)
    return win


def click_point(qtbot, win, point):
    qtbot.mouseClick(win.board, Qt.MouseButton.LeftButton, pos=win.board.point_of(point).toPoint())


def sq(win, name):
    """The square index of a USI square name like ``7g``."""
    g = win.controller.game.geometry
    return g.sq(ord(name[1]) - 97, g.files - int(name[0]))


def click_usi(qtbot, win, text):
    """Play a USI move by clicks: the piece (or the hand piece), then the target."""
    b = win.board
    if "*" in text:
        kind = " PLNSBRGK".index(text[0])
        click_point(qtbot, win, b.hand_point(win.controller.state.current_player, kind))
        click_point(qtbot, win, sq(win, text[2:4]))
    else:
        if b.promotion_chooser is None or getattr(b.promotion_chooser, "by_text", False):
            # a promotion is asked only when it is optional: answer as the text says
            b.promotion_chooser = lambda _t, promote=text.endswith("+"): promote  # noqa: B008 - bound now
            b.promotion_chooser.by_text = True
        click_point(qtbot, win, sq(win, text[:2]))
        click_point(qtbot, win, sq(win, text[2:4]))


def test_shogi_games_get_the_shogi_board():
    assert board_class_for(load_game("shogi")) is ShogiBoard
    assert board_class_for(load_game("shogi(variant=mini)")) is ShogiBoard


def test_a_move_by_two_clicks_with_legal_targets_highlighted(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    b = win.board
    click_point(qtbot, win, sq(win, "7g"))
    assert b.selected == sq(win, "7g")
    assert set(b.targets) == {sq(win, "7f")}  # a pawn has one target
    click_point(qtbot, win, sq(win, "7f"))
    assert win.controller.state.history == [win.controller.state.parse_move("7g7f")]
    assert b.selected is None and not b.targets
    # clicking the other side's piece is refused with the reason; nothing is played
    click_point(qtbot, win, sq(win, "3g"))
    assert "Sente's" in win.message_bar.text() and "Gote is to move" in win.message_bar.text()
    assert len(win.controller.state.history) == 1
    win.close()


def test_an_illegal_target_is_refused_with_the_reason(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    click_point(qtbot, win, sq(win, "7g"))
    click_point(qtbot, win, sq(win, "7e"))  # a pawn moves one step
    msg = win.message_bar.text()
    assert msg.startswith("7g7e is not allowed:"), msg
    assert win.controller.state.history == []
    click_point(qtbot, win, sq(win, "5e"))  # an empty square first
    assert "empty" in win.message_bar.text()
    win.close()


def test_a_drop_from_the_hand(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    for t in ("7g7f", "3c3d", "8h2b+", "3a2b"):
        click_usi(qtbot, win, t)
    st = win.controller.state
    assert st.hands[0, 5] == 1  # Sente has the bishop in hand
    b = win.board
    click_point(qtbot, win, b.hand_point(0, 5))
    assert sq(win, "4e") in b.targets and sq(win, "8g") not in b.targets  # 8g holds a pawn
    click_point(qtbot, win, sq(win, "4e"))
    assert win.controller.state.format_move(win.controller.state.history[-1]) == "B*4e"
    assert win.controller.state.hands[0, 5] == 0
    # the image shows the dropped bishop: rendering works with hands and the last move
    assert not b.render_image(300).isNull()
    win.close()


def test_drop_targets_are_the_empty_squares(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, game="shogi(variant=mini)")
    win.set_position_text("4k/5/5/5/K4 b B 1")
    b = win.board
    click_point(qtbot, win, b.hand_point(0, 5))
    assert len(b.targets) == 25 - 2
    click_point(qtbot, win, b.hand_point(1, 5))  # Gote's hand, not Sente's
    assert "Gote's hand" in win.message_bar.text()
    win.close()


@pytest.mark.parametrize("answer, expected", [(True, "2d2c+"), (False, "2d2c")])
def test_the_promotion_choice(qtbot, tmp_path, answer, expected):
    win = make_window(qtbot, tmp_path)
    win.set_position_text("4k4/9/9/7S1/9/9/9/9/4K4 b - 1")
    asked = []
    win.board.promotion_chooser = lambda text: asked.append(text) or answer
    click_usi(qtbot, win, "2d2c")  # 2c: silver into the zone
    assert asked == ["2d2c"]
    st = win.controller.state
    assert st.format_move(st.history[-1]) == expected
    win.controller.back()
    asked.clear()
    win.board.promotion_chooser = lambda text: asked.append(text) or None  # cancelled: nothing played
    click_usi(qtbot, win, "2d2c")
    assert asked == ["2d2c"] and win.controller.state.history == []
    win.board.promotion_chooser = lambda text: answer
    click_usi(qtbot, win, "2d1c")
    st = win.controller.state
    assert st.format_move(st.history[-1]) == ("2d1c+" if answer else "2d1c")
    win.close()


@pytest.mark.parametrize("button", ["Promote", "Do not promote"])
def test_the_promotion_dialog(qtbot, tmp_path, button):
    win = make_window(qtbot, tmp_path)
    win.set_position_text("4k4/9/9/7S1/9/9/9/9/4K4 b - 1")
    pressed = []

    def answer():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        for btn in box.buttons():
            if btn.text() == button:
                pressed.append(button)
                btn.click()

    QTimer.singleShot(20, answer)
    click_point(qtbot, win, sq(win, "2d"))
    click_point(qtbot, win, sq(win, "2c"))
    assert pressed == [button]
    st = win.controller.state
    assert st.format_move(st.history[-1]) == ("2d2c+" if button == "Promote" else "2d2c")
    win.close()


def test_a_forced_promotion_is_applied_without_asking(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    win.set_position_text("4k4/7P1/9/9/9/9/9/9/4K4 b - 1")
    win.board.promotion_chooser = lambda text: pytest.fail("asked about a forced promotion")
    click_usi(qtbot, win, "2b2a")  # a pawn on the last rank could never move again
    st = win.controller.state
    assert st.format_move(st.history[-1]) == "2b2a+"
    win.close()


def test_check_is_shown_and_flip_maps_clicks(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    win.set_position_text("4k4/9/9/9/9/9/9/9/4K3R b - 1")
    b = win.board
    b.promotion_chooser = lambda text: False
    click_usi(qtbot, win, "1i1a")  # the rook checks along rank a
    assert win.controller.state.in_check()
    assert b._checked_king() == sq(win, "5a")
    win.flip()
    assert b.move_at(b.point_of(sq(win, "5i"))) == sq(win, "5i")
    assert b.move_at(b.point_of(b.hand_point(0, 1))) == b.hand_point(0, 1)
    win.close()


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_a_short_game_against_the_engine(qtbot, tmp_path, spec):
    players = [PlayerSpec("human"), PlayerSpec("engine", "", None, 2)]
    win = make_window(qtbot, tmp_path, game=spec, players=players)
    qtbot.waitUntil(lambda: win.engines_ready, timeout=120_000)
    for i in range(4):
        st = win.controller.state
        if st.is_terminal():
            break
        assert st.current_player == 0 and win.board.interactive
        click_usi(qtbot, win, st.format_move(st.legal_moves()[-1]))  # the last legal move: often a drop
        assert len(win.controller.state.history) == 2 * i + 1
        # the computer's turn: clicks are refused while it thinks
        if not win.controller.state.is_terminal():
            if win.host.current is not None:  # still thinking: a click is refused
                click_point(qtbot, win, 0)
                assert "computer is to move" in win.message_bar.text()
            qtbot.waitUntil(lambda n=2 * i + 2: len(win.controller.state.history) == n
                            or win.controller.state.is_terminal(), timeout=60_000)
    assert len(win.controller.state.history) >= 4
    text = win.controller.state.to_text()
    assert win.controller.game.state_from_text(text).key == win.controller.state.key
    win.close()


# -- each game's own file formats -------------------------------------------------------------


def test_gomoku_record_export_and_import_and_psq(qtbot, tmp_path):
    from gamesuite.gui.formats import format_for_path, formats_for

    assert {f.name for f in formats_for("gomoku")} >= {"Gomoku record", "Gomocup record"}
    assert format_for_path("x.PSQ").name == "Gomocup record"
    win = make_window(qtbot, tmp_path, game="gomoku(size=15)")
    for t in ("h8", "h9", "i9"):
        win.controller.play(win.controller.state.parse_move(t))
    out = tmp_path / "g.txt"
    assert win.export_game(out)
    assert '[Game "gomoku(size=15' in out.read_text()
    win.new_game(load_game("gomoku(size=15)"), HUMANS)
    qtbot.waitUntil(lambda: win.ready, timeout=60_000)
    assert win.import_from(out)
    qtbot.waitUntil(lambda: len(win.controller.state.history) == 3, timeout=60_000)
    assert [win.controller.state.format_move(m) for m in win.controller.state.history] == ["h8", "h9", "i9"]
    psq = tmp_path / "g.psq"
    psq.write_text("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,8,0\n-1\n")
    assert win.import_from(psq)
    qtbot.waitUntil(lambda: len(win.controller.state.history) == 2, timeout=60_000)
    assert win.controller.state.format_move(win.controller.state.history[0]) == "h8"
    bad = tmp_path / "bad.psq"
    bad.write_text("Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n")
    assert not win.import_from(bad)
    assert "illegal" in win.error_box.text()
    assert not win.import_from(tmp_path / "x.unknown")
    assert "no game format" in win.error_box.text()
    win.close()


def test_importing_another_games_file_switches_the_game(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, game="tictactoe")
    psq = tmp_path / "g.psq"
    psq.write_text("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,8,0\n")
    assert win.import_from(psq)
    qtbot.waitUntil(lambda: win.controller.game.name == "gomoku" and win.ready, timeout=60_000)
    assert len(win.controller.state.history) == 2
    assert not any(p.is_engine for p in win.controller.players)
    win.close()


def test_a_game_package_can_declare_its_formats(monkeypatch):
    import sys
    import types

    from gamesuite.gui.formats import format_for_path, formats_for, read_game

    game = load_game("tictactoe")
    mod = types.ModuleType("gamesuite.games.tictactoe.records")

    def load(text):
        st = game.new_state()
        for t in text.split():
            st.play_text(t)
        return st

    mod.FILE_FORMATS = [("Move list", (".ttt",), load, lambda st: " ".join(st.format_line(st.history)))]
    monkeypatch.setitem(sys.modules, "gamesuite.games.tictactoe.records", mod)
    (fmt,) = formats_for("tictactoe")
    assert fmt.extensions == ("ttt",) and format_for_path("a.ttt") == fmt
    g, start, moves = read_game(fmt, "b2 a1")
    assert g == game and start is None and [game.new_state().format_move(m) for m in moves[:1]] == ["b2"]
    assert len(moves) == 2


def test_shogi_position_setup(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, game="shogi(variant=mini)")
    b = win.board
    win.begin_setup()
    b.setup_clear()
    b.setup_tool = "bK"
    b.click_move(sq(win, "5e"))
    b.setup_tool = "wK"
    b.click_move(sq(win, "1a"))
    b.setup_tool = "bS"
    b.click_move(sq(win, "3c"))
    b.click_move(sq(win, "3c"))  # again: promoted
    b.click_move(b.hand_point(0, 1))  # a pawn in Sente's hand
    b.setup_side = 1
    assert b.setup_text() == "4k/5/2+S2/5/K4 w P 1"
    assert win.finish_setup()
    st = win.controller.state
    assert st.sfen() == "4k/5/2+S2/5/K4 w P 1" and st.current_player == 1
    # an impossible position is refused and the editor stays open
    win.begin_setup()
    b.setup_tool = "bK"
    b.click_move(sq(win, "1e"))  # a second Sente king
    assert not win.finish_setup() and win.setup_active
    assert "king" in win.message_bar.text()
    win.end_setup()
    win.close()


def test_dragging_a_piece_and_sfen_copy_paste(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    b = win.board
    qtbot.mousePress(b, Qt.MouseButton.LeftButton, pos=b.point_of(sq(win, "2g")).toPoint())
    assert b.selected == sq(win, "2g")
    qtbot.mouseRelease(b, Qt.MouseButton.LeftButton, pos=b.point_of(sq(win, "2f")).toPoint())
    st = win.controller.state
    assert [st.format_move(m) for m in st.history] == ["2g2f"]
    # a drag onto a square that is no target plays nothing and keeps the selection
    qtbot.mousePress(b, Qt.MouseButton.LeftButton, pos=b.point_of(sq(win, "3c")).toPoint())
    qtbot.mouseRelease(b, Qt.MouseButton.LeftButton, pos=b.point_of(sq(win, "3e")).toPoint())
    assert len(win.controller.state.history) == 1 and b.selected == sq(win, "3c")
    win.copy_position()
    text = QApplication.clipboard().text()
    assert text == "lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2"
    QApplication.clipboard().setText("4k4/9/9/9/9/9/9/9/4K4 b 2P 1")
    win.ask_save_changes = lambda action: "discard"  # the game with its move is not saved: the window asks
    win.paste_position()
    assert win.controller.state.hands[0, 1] == 2
    QApplication.clipboard().setText("4k4/9/9/9/9/9/9/9/4K4 b 19P 1")  # more pawns than a set has
    win.paste_position()
    assert win.controller.state.hands[0, 1] == 2 and "19P" in win.message_bar.text()
    win.close()
