"""Kanji on every machine, shogi notation in the move list, typed moves, numbered stones, sounds, and
names, times and comments through KIF/KI2/CSA/psq files (issue 23, the parts that stand on their own)."""

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QRawFont, QTextLayout
from PySide6.QtWidgets import QApplication

from gamesuite.core.registry import game_classes, load_game
from gamesuite.games.shogi import records as shogi_records
from gamesuite.games.shogi.notation import JAPANESE_CHARS
from gamesuite.gui import fonts
from gamesuite.gui.mainwindow import MainWindow
from gamesuite.gui.record import GameRecord, PlayerSpec
from gamesuite.gui.sounds import MoveSounds, SoundPlayer, load_samples


def make_window(qtbot, tmp_path, game="shogi", players=None):
    g = load_game(game)
    win = MainWindow(data_dir=tmp_path, restore=False, game_spec=game,
                     players=players or [PlayerSpec("human") for _ in range(g.num_players)])
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ready, timeout=60_000)
    return win


def moves_of(win):
    st = win.controller.record.start_state()
    return st.format_line(win.controller.current.moves())


def play(win, *usi):
    for text in usi:
        assert win.controller.play(win.controller.state.parse_move(text)), text


# -- kanji on a machine without a Japanese font ---------------------------------------------------------

def _glyph_runs(text: str, font: QFont) -> list[tuple[str, list[int]]]:
    layout = QTextLayout(text, font)
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    return [(run.rawFont().familyName(), list(run.glyphIndexes())) for run in layout.glyphRuns()]


def test_the_shipped_font_has_every_character_the_window_writes_in_japanese(qapp):
    from gamesuite.gui.boards.shogi import KANJI, RANK_KANJI, SENTE_KING

    needed = set(JAPANESE_CHARS) | set("".join(KANJI) + RANK_KANJI + SENTE_KING + "☗☖")
    for path in sorted(fonts.FONT_DIR.glob("*.otf")):
        raw = QRawFont(str(path), 20)
        assert raw.isValid(), path
        missing = [c for c in needed if not c.isspace() and not raw.supportsCharacter(ord(c))]
        assert not missing, f"{path.name} lacks {''.join(missing)}"
    assert (fonts.FONT_DIR / "LICENSE").read_text(encoding="utf-8").count("SIL OPEN FONT LICENSE") == 1


def test_kanji_are_drawn_with_real_glyphs_in_the_window_and_in_any_text(qtbot, tmp_path):
    """Once the window has started, the pieces' font and Qt's fallback for any widget's text find a glyph
    for every kanji (no empty box: glyph 0), whatever fonts the machine has."""
    from gamesuite.gui.boards.shogi import kanji_available

    make_window(qtbot, tmp_path)
    assert set(fonts.load_fonts()) == {fonts.KANJI_SERIF, fonts.KANJI_SANS}
    assert kanji_available()
    text = "".join(sorted(c for c in JAPANESE_CHARS if not c.isspace()))
    for font in (QFont(), QFont(fonts.KANJI_SERIF)):  # the widgets' default font (fallback), the pieces' one
        runs = _glyph_runs(text, font)
        glyphs = [g for _, gl in runs for g in gl]
        assert len(glyphs) == len(text) and 0 not in glyphs, runs


def test_the_board_draws_kanji_and_the_western_letters_switch_still_works(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    b = win.board
    sente_king = 16 | 8
    assert b.piece_text(sente_king) == "玉" and b.piece_text(32 | 8) == "王"
    win.act_western.trigger()
    assert b.piece_text(sente_king) == "K"
    win.act_western.trigger()
    assert b.piece_text(sente_king) == "玉"


# -- shogi notation in the move list -------------------------------------------------------------------

def test_moves_are_written_in_japanese_by_default_and_the_choice_is_remembered(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    play(win, "7g7f", "3c3d", "8h2b+", "3a2b")
    shown = win.moves.toPlainText()
    assert "1. ▲７六歩" in shown and "2. △３四歩" in shown and "3. ▲２二角成" in shown and "4. △同銀" in shown
    assert win.notation_actions["japanese"].isChecked()
    win.notation_actions["western"].trigger()
    shown = win.moves.toPlainText()
    assert "▲" not in shown and "P-7f" in shown and "Bx2b+" in shown and "Sx2b" in shown
    win.notation_actions["usi"].trigger()
    shown = win.moves.toPlainText()
    assert "1. 7g7f 3c3d 2. 8h2b+ 3a2b" in " ".join(shown.split())
    win.notation_actions["japanese"].trigger()
    assert "△同銀" in win.moves.toPlainText()
    win.notation_actions["western"].trigger()
    win.close()
    again = make_window(qtbot, tmp_path)  # remembered for the next window
    assert again.notation.style == "western" and again.notation_actions["western"].isChecked()


def test_the_analysis_panel_writes_lines_in_the_chosen_notation(qtbot, tmp_path):
    from gamesuite.core.info import SearchInfo
    from gamesuite.core.score import Score

    win = make_window(qtbot, tmp_path)
    play(win, "7g7f", "3c3d")
    st = win.controller.state
    pv = (st.parse_move("8h2b+"),)
    s2 = st.copy()
    s2.play(pv[0])
    pv += (s2.parse_move("3a2b"),)
    win.panel.begin(st, "test")
    win.panel.add_infos([SearchInfo(0, 3, 3, Score.eval(12, 0), pv, 100, 1000, 5, 1)])
    win.panel.flush()
    row = win.panel.tree.topLevelItem(0).text(win.panel.pv_column)
    assert "▲２二角成 △同銀" in row, row


def test_notation_choice_is_only_offered_for_games_that_have_one(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, game="gomoku")
    assert not win.notation_menu.isEnabled()
    win.set_notation_style("western")  # not a gomoku style: nothing changes
    assert win.notation.style == ""


# -- typed moves -----------------------------------------------------------------------------------------

def type_move(qtbot, win, text):
    win.move_entry.setFocus()
    win.move_entry.clear()
    win.move_entry.insert(text)
    qtbot.keyClick(win.move_entry, Qt.Key.Key_Return)


@pytest.mark.parametrize("text", ["7g7f", "７六歩", "76歩", "▲7六歩", "P-7f"])
def test_a_typed_shogi_move_is_played(qtbot, tmp_path, text):
    win = make_window(qtbot, tmp_path)
    type_move(qtbot, win, text)
    assert moves_of(win) == ["7g7f"]
    assert win.move_entry.text() == ""  # emptied for the next move


def test_typed_drops_and_promotions(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    play(win, "7g7f", "3c3d")
    type_move(qtbot, win, "8h2b+")
    type_move(qtbot, win, "同銀")
    type_move(qtbot, win, "P-2f")
    type_move(qtbot, win, "4a3b")
    type_move(qtbot, win, "B*4e")
    assert moves_of(win) == ["7g7f", "3c3d", "8h2b+", "3a2b", "2g2f", "4a3b", "B*4e"]


@pytest.mark.parametrize("game, text, expect", [
    ("shogi", "7g7e", "'7g7e' is not allowed"),
    ("shogi", "hello", "'hello'"),
    ("shogi", "５八金", "'５八金' could be ▲５八金左 or ▲５八金右"),
    ("gomoku", "z99", "'z99'"),
    ("tictactoe", "b2 b2", "'b2 b2'"),
])
def test_a_bad_typed_move_is_refused_above_the_board_with_the_text_quoted(qtbot, tmp_path, game, text, expect):
    if game not in game_classes():
        pytest.skip(f"the {game} game is not installed")
    win = make_window(qtbot, tmp_path, game=game)
    type_move(qtbot, win, text)
    assert moves_of(win) == []
    assert win.message_bar.isVisible() and expect in win.message_bar.text(), win.message_bar.text()
    assert win.move_entry.text() == text and win.move_entry.selectedText() == text  # kept, to be typed over


def test_a_typed_move_on_an_occupied_gomoku_point_is_refused_and_a_good_one_played(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, game="gomoku")
    type_move(qtbot, win, "h8")
    type_move(qtbot, win, "h8")
    assert moves_of(win) == ["h8"]
    assert "'h8' is not allowed" in win.message_bar.text()
    type_move(qtbot, win, "i9")
    assert moves_of(win) == ["h8", "i9"]
    assert not win.message_bar.isVisible()  # the refusal went with the next move


def test_a_typed_move_for_the_computer_is_refused(qtbot, tmp_path):
    from .gui_fakes import Factory

    g = load_game("tictactoe")
    win = MainWindow(data_dir=tmp_path, engine_factory=Factory(step_s=5.0), restore=False, game_spec="tictactoe",
                     players=[PlayerSpec("engine"), PlayerSpec("human")])
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ready, timeout=60_000)
    assert g.num_players == 2
    type_move(qtbot, win, "b2")
    assert moves_of(win) == []
    assert "computer is to move" in win.message_bar.text()


def test_a_hare_move_is_typed_in_the_rules_text(qtbot, tmp_path):
    if "hare" not in game_classes():
        pytest.skip("no hare game")
    win = make_window(qtbot, tmp_path, game="hare")
    st = win.controller.state
    move = st.legal_moves()[0]
    type_move(qtbot, win, st.format_move(move))
    assert win.controller.current.moves()[:1] == [move]


def test_typing_over_the_board_starts_the_entry(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    win.board.setFocus()
    qtbot.keyClick(win.board, "7")  # not a shortcut: reaches the window, which gives it to the entry
    assert win.move_entry.text() == "7"
    for key in "g7f":
        qtbot.keyClick(win.move_entry, key)  # (h would be the hint's shortcut outside the entry)
    qtbot.keyClick(win.move_entry, Qt.Key.Key_Return)
    assert moves_of(win) == ["7g7f"]
    qtbot.keyClick(win.move_entry, "x")
    qtbot.keyClick(win.move_entry, Qt.Key.Key_Escape)
    assert win.move_entry.text() == "" and not win.move_entry.hasFocus()


def test_an_empty_entry_leaves_the_arrows_to_the_game(qtbot, tmp_path):
    from PySide6.QtTest import QTest

    win = make_window(qtbot, tmp_path, game="gomoku")
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=5000)
    type_move(qtbot, win, "h8")
    type_move(qtbot, win, "i9")
    qtbot.waitUntil(win.move_entry.hasFocus, timeout=5000)  # the focus stays for the next move
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Left)  # as the keyboard would: through shortcuts
    assert moves_of(win) == ["h8"]
    win.move_entry.insert("j1")
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Left)  # with text, the arrow moves the cursor
    assert moves_of(win) == ["h8"] and win.move_entry.cursorPosition() == 1


# -- numbered stones -------------------------------------------------------------------------------------

def test_numbered_stones_show_each_stones_move_number_and_are_remembered(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, game="gomoku")
    play(win, "h8", "i9", "h9")
    st = win.controller.state
    assert win.board.move_numbers() == {}
    before = win.board.grab().toImage()
    win.act_numbered.trigger()
    assert win.board.move_numbers() == {st.parse_move("h8"): 1, st.parse_move("i9"): 2, st.parse_move("h9"): 3}
    assert win.board.grab().toImage() != before  # the numbers are drawn
    win.controller.back()
    assert win.board.move_numbers() == {st.parse_move("h8"): 1, st.parse_move("i9"): 2}
    win.close()
    again = make_window(qtbot, tmp_path, game="gomoku")
    assert again.act_numbered.isChecked() and again.board.numbered


# -- sounds ----------------------------------------------------------------------------------------------

class FakePlayer:
    error = None

    def __init__(self):
        self.played = []

    def play(self, name):
        self.played.append(name)

    def close(self):
        pass


def test_sounds_for_a_move_a_capture_and_the_end_of_the_game(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    fake = win.sounds.player = FakePlayer()
    play(win, "7g7f", "3c3d")
    assert fake.played == ["move", "move"]
    play(win, "8h2b+")  # takes the bishop
    assert fake.played[-1] == "capture"
    win.controller.back()
    assert fake.played[-1] == "capture" and len(fake.played) == 3  # stepping back is silent
    win.controller.forward()
    assert fake.played[-1] == "capture" and len(fake.played) == 4  # stepping forward replays it
    win.act_sounds.trigger()  # off
    play(win, "3a2b")
    assert len(fake.played) == 4
    win.act_sounds.trigger()  # on again
    play(win, "2g2f")
    assert fake.played[-1] == "move" and len(fake.played) == 5


def test_a_mate_sounds_the_end(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    assert win.set_position_text("8k/9/8P/9/9/9/9/9/K8 b G 1")
    fake = win.sounds.player = FakePlayer()
    play(win, "G*1b")  # the pawn on 1c guards the gold: mate
    assert win.controller.over_text() is not None
    assert fake.played == ["end"]


def test_the_end_sound_plays_once_for_a_game_ended_by_a_move(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, game="tictactoe")
    fake = win.sounds.player = FakePlayer()
    play(win, "a1", "b1", "a2", "b2", "a3")  # X wins
    assert win.controller.over_text() is not None
    assert fake.played == ["move"] * 4 + ["end"]
    win.controller.back()
    win.controller.forward()
    assert fake.played[-1] == "move"  # back at the end: a move, not the end again


def test_the_sound_setting_is_remembered(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    assert win.act_sounds.isChecked() and win.sounds.enabled  # on by default
    win.act_sounds.trigger()
    win.close()
    again = make_window(qtbot, tmp_path)
    assert not again.act_sounds.isChecked() and not again.sounds.enabled


def test_sounds_switched_on_where_there_is_no_device_say_so(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    fake = win.sounds.player = FakePlayer()
    fake.error = "no sound: failed to init device"
    win.act_sounds.trigger()
    win.act_sounds.trigger()  # on again
    assert "silent" in win.statusBar().currentMessage() and "failed to init device" in win.statusBar().currentMessage()


def test_a_new_or_opened_game_makes_no_sound(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    fake = win.sounds.player = FakePlayer()
    play(win, "7g7f")
    win.set_position_text("startpos moves 7g7f 3c3d")
    assert fake.played == ["move"]


class FakeDevice:
    def __init__(self, log, fail=False):
        self.log, self.fail = log, fail

    def start(self, stream):
        if self.fail:
            raise OSError("no playback device")
        frames = 0
        chunk = stream.send(512)
        while True:
            frames += len(chunk)
            try:
                chunk = stream.send(512)
            except StopIteration:
                break
        self.log.append(("start", frames))

    def stop(self):
        self.log.append(("stop",))

    def close(self):
        self.log.append(("close",))


def test_the_player_sends_each_sound_whole_to_the_device_on_its_own_thread():
    samples = load_samples()
    assert set(samples) == {"move", "capture", "end"}
    log = []
    player = SoundPlayer(samples, device_factory=lambda: FakeDevice(log))
    for name in ("move", "capture", "end"):
        player.play(name)
    assert player.wait_idle()
    assert player.played == ["move", "capture", "end"]
    started = [entry[1] for entry in log if entry[0] == "start"]
    assert started == [len(samples[n]) for n in ("move", "capture", "end")]
    player.close()
    assert log[-1] == ("close",) and player.error is None


def test_without_a_device_the_player_is_silent_and_says_why():
    log = []
    player = SoundPlayer(load_samples(), device_factory=lambda: FakeDevice(log, fail=True))
    player.play("move")
    player.wait_idle()
    assert player.error is not None and "no playback device" in player.error
    player.play("move")  # nothing more is tried
    assert player.played == []
    player.close()


def test_the_sounds_play_through_miniaudio_on_its_null_device():
    miniaudio = pytest.importorskip("miniaudio")
    from gamesuite.gui.sounds import RATE

    def null_device():
        return miniaudio.PlaybackDevice(output_format=miniaudio.SampleFormat.SIGNED16, nchannels=1,
                                        sample_rate=RATE, backends=[miniaudio.Backend.NULL])

    player = SoundPlayer(device_factory=null_device)
    player.play("move")
    assert player.wait_idle()
    assert player.error is None and player.played == ["move"]
    player.close()


def test_move_sounds_follow_the_controller_without_a_window(qtbot):
    from gamesuite.gui.controller import GameController

    c = GameController(GameRecord(load_game("tictactoe")))
    fake = FakePlayer()
    sounds = MoveSounds(c, fake)
    c.play(c.state.parse_move("b2"))
    c.go_to(c.record.root)
    c.play(c.state.parse_move("b2"))  # the same move again (an existing node): a move all the same
    assert fake.played == ["move", "move"]
    sounds.set_enabled(False)
    c.play(c.state.parse_move("a1"))
    assert fake.played == ["move", "move"]


# -- names, times and comments through KIF / KI2 / CSA / psq -------------------------------------------------

KIF = """# ---- test ----
開始日時：2026/11/22 10:00:00
棋戦：研究会
手合割：平手
先手：羽生善治
後手：藤井聡太
手数----指手---------消費時間--
*序盤の一手
   1 ７六歩(77)   ( 0:12/00:00:12)
   2 ３四歩(33)   ( 0:05/00:00:05)
*角道を開ける
   3 ２二角成(88) ( 1:01/00:01:13)
   4 同　銀(31)   ( 0:02/00:00:07)
   5 投了
まで4手で後手の勝ち
"""


def test_a_kif_round_trip_through_the_window_keeps_names_times_and_comments(qtbot, tmp_path):
    src = tmp_path / "in.kif"
    src.write_text(KIF, encoding="utf-8")
    win = make_window(qtbot, tmp_path)
    assert win.import_from(src)
    qtbot.waitUntil(lambda: len(win.controller.current.moves()) == 4, timeout=30_000)
    rec = win.controller.record
    assert [p.name for p in rec.players] == ["羽生善治", "藤井聡太"]
    assert [n.spent for n in win.controller.current.path()] == [12_000, 5_000, 61_000, 2_000]
    assert rec.root.comment == "序盤の一手" and win.controller.current.path()[1].comment == "角道を開ける"
    for ext in ("kif", "ki2", "csa"):
        out = tmp_path / f"out.{ext}"
        assert win.export_game(out), ext
        again = shogi_records.read_record(out.read_text(encoding="utf-8"), fmt="csa" if ext == "csa" else "kif")
        original = shogi_records.read_record(KIF)
        assert again.moves == original.moves, ext
        assert again.metadata["sente"] == "羽生善治" and again.metadata["gote"] == "藤井聡太", ext
        assert again.metadata.get("event") == "研究会" and again.metadata.get("start_time") == "2026/11/22 10:00:00"
        assert again.comments == original.comments, ext
        if ext != "ki2":  # KI2 has no times
            assert again.times == [12.0, 5.0, 61.0, 2.0], ext
    assert "▲７六歩" in (tmp_path / "out.ki2").read_text(encoding="utf-8")
    # and the names, times and comments survive gamesuite's own file too
    saved = tmp_path / "game.json"
    assert win.save_to(saved)
    rec2, node = GameRecord.loads(saved.read_text(encoding="utf-8"))
    assert [p.name for p in rec2.players] == ["羽生善治", "藤井聡太"]
    assert [n.spent for n in node.path()] == [12_000, 5_000, 61_000, 2_000]
    assert rec2.root.comment == "序盤の一手"


def test_the_time_a_move_took_on_the_clock_goes_into_the_export(qtbot, tmp_path):
    from gamesuite.gui.clock import TimeControl

    now = [0]
    tc = TimeControl(60_000, 1000)
    players = [PlayerSpec("human", clock=tc, name="Alice"), PlayerSpec("human", clock=tc, name="Bob")]
    win = MainWindow(data_dir=tmp_path, restore=False, game_spec="shogi", players=players,
                     clock_source=lambda: now[0])
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ready and win.engines_ready, timeout=60_000)
    win.clock_tick()
    now[0] += 3000
    play(win, "7g7f")
    now[0] += 7000
    play(win, "3c3d")
    out = tmp_path / "clock.kif"
    assert win.export_game(out)
    rec = shogi_records.read_record(out.read_text(encoding="utf-8"))
    assert rec.times == [3.0, 7.0] and rec.metadata["sente"] == "Alice" and rec.metadata["gote"] == "Bob"


def test_a_psq_round_trip_through_the_window(qtbot, tmp_path):
    from gamesuite.games.gomoku.records import load_psq

    src = tmp_path / "in.psq"
    src.write_text("Piskvorky 15x15, 11:11, 0\n8,8,1200\n9,9,300\n8,9,0\n", encoding="utf-8")
    win = make_window(qtbot, tmp_path, game="gomoku")
    assert win.import_from(src)
    qtbot.waitUntil(lambda: len(win.controller.current.moves()) == 3, timeout=30_000)
    assert [n.spent for n in win.controller.current.path()] == [1200, 300, 0]
    out = tmp_path / "out.psq"
    assert win.export_game(out)
    text = out.read_text(encoding="utf-8")
    assert text.splitlines()[:4] == ["Piskvorky 15x15, 11:11, 0", "8,8,1200", "9,9,300", "8,9,0"]
    assert load_psq(text).state.history == win.controller.state.history
