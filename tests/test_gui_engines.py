"""External engines in the window (issue 23): the engine manager, the engine settings dialog, external
USI and Gomocup programs analysing in the panel, stopped, and playing games, also against each other."""

import shlex
import sys
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox

from gamesuite.core.limits import Limits
from gamesuite.core.registry import load_game
from gamesuite.gui.engine_external import parse_usi_option, probe_engine, spec_limits
from gamesuite.gui.engine_manager import EngineBook, EngineManagerDialog, ExternalEngine
from gamesuite.gui.engine_settings import EngineSettingsDialog
from gamesuite.gui.mainwindow import MainWindow
from gamesuite.gui.record import PlayerSpec
from gamesuite.gui.storage import Storage

FAKE = Path(__file__).parent / "fakes" / "fake_analyser.py"
ANCHORS = Path("/work/shared/anchors")


def fake_command(protocol="usi", *extra):
    return [sys.executable, str(FAKE), "--protocol", protocol, *extra]


def fake_spec(protocol="usi", *extra, options=""):
    return f"{protocol}:{shlex.join(fake_command(protocol, *extra))}" + (f",{options}" if options else "")


def make_window(qtbot, tmp_path, game="tictactoe", players=None):
    g = load_game(game)
    win = MainWindow(data_dir=tmp_path, restore=False, game_spec=game,
                     players=players or [PlayerSpec("human") for _ in range(g.num_players)])
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ready, timeout=60_000)
    return win


# -- what a program declares -------------------------------------------------------------------------------

def test_usi_option_lines_of_every_type_are_read():
    o = parse_usi_option("option name USI_Hash type spin default 256 min 1 max 33554432")
    assert (o.name, o.type, o.default, o.min, o.max) == ("USI_Hash", "spin", "256", 1, 33554432)
    o = parse_usi_option("option name Style type combo default Normal var Solid var Normal var Risky")
    assert o.choices == ("Solid", "Normal", "Risky") and o.default == "Normal"
    o = parse_usi_option("option name Eval Dir type string default <empty>")
    assert (o.name, o.type, o.default) == ("Eval Dir", "string", "")
    assert parse_usi_option("option name Clear Hash type button") is None
    assert parse_usi_option("id name foo") is None


def test_probing_reads_name_and_options_and_a_bad_program_is_refused_with_its_name(tmp_path):
    r = probe_engine("usi", fake_command("usi"))
    assert r.name == "Fake Analyser" and r.author == "gamesuite tests"
    names = [o.name for o in r.options]
    assert names == ["USI_Hash", "Threads", "Style", "Ponder", "BookFile", "MultiPV"]  # (no button)
    assert probe_engine("gomocup", fake_command("gomocup")).name == "Fake Gomocup Analyser"
    book = EngineBook(Storage(tmp_path))
    with pytest.raises(Exception, match="no-such-engine"):
        book.add("usi", str(tmp_path / "no-such-engine"))
    with pytest.raises(Exception, match="usiok"):  # a Gomocup brain is no USI engine
        book.add("usi", fake_command("gomocup"), timeout_ms=1500)
    assert book.engines == []


def test_the_engine_book_keeps_engines_and_their_values_in_the_settings(tmp_path):
    book = EngineBook(Storage(tmp_path))
    e = book.add("usi", fake_command("usi"))
    e.values = {"Threads": "2", "Style": "Risky"}
    book.save()
    book.storage.settings.sync()
    again = EngineBook(Storage(tmp_path))
    assert [x.name for x in again.engines] == ["Fake Analyser"]
    x = again.engines[0]
    assert x.values == {"Threads": "2", "Style": "Risky"} and x.option("USI_Hash").max == 1024
    spec = x.spec()
    assert spec.startswith("usi:") and ",Threads=2,Style=Risky,label=Fake Analyser" in spec
    assert x.matches(spec) and again.for_spec(spec) is x
    assert x.plays("shogi") and not x.plays("gomoku")
    assert book.add("usi", fake_command("usi")).name == "Fake Analyser (2)"  # names stay unique
    g = ExternalEngine("g", "gomocup", ["brain"])
    assert g.plays(load_game("gomoku")) and g.plays(load_game("tictactoe")) and not g.plays(load_game("shogi"))


def test_a_spec_limit_is_the_engines_own():
    assert spec_limits("mtdf,hash=64,@depth=8") == Limits(depth=8)
    assert spec_limits("usi:/x/engine,Threads=2,@nodes=5000") == Limits(nodes=5000)
    assert spec_limits("mtdf") is None and spec_limits("") is None


# -- the external engines as engines ---------------------------------------------------------------------

# -- the dialogs -------------------------------------------------------------------------------------------

def test_the_settings_dialog_shows_a_built_in_engines_options_as_fields_and_writes_its_spec(qtbot, tmp_path):
    game = load_game("gomoku")
    book = EngineBook(Storage(tmp_path))
    dlg = EngineSettingsDialog(game, "mtdf,hash=128,@depth=6", book, multipv=2)
    qtbot.addWidget(dlg)
    f = dlg.options
    assert list(f.fields)[:2] == ["hash", "threads"]  # hash and threads first
    assert isinstance(f.widget("hash"), QDoubleSpinBox) and f.widget("hash").value() == 128  # MB, a number
    assert isinstance(f.widget("threads"), QSpinBox) and f.widget("threads").maximum() == 64  # its declared range
    assert isinstance(f.widget("pure"), QCheckBox) and isinstance(f.widget("step"), QComboBox)  # a switch, choices
    assert "transposition" in f.widget("hash").toolTip()  # the option's help
    assert dlg.limit_kind.currentData() == "depth" and dlg.limit_value.value() == 6
    f.widget("threads").setValue(2)
    f.widget("pure").setChecked(True)
    assert dlg.spec() == "mtdf,hash=128,threads=2,pure=true,@depth=6"
    assert dlg.spec_view.text() == dlg.spec()
    dlg.limit_kind.setCurrentIndex(0)
    assert dlg.spec() == "mtdf,hash=128,threads=2,pure=true" and dlg.multipv() == 2
    dlg.engine.setCurrentIndex([dlg.engine.itemData(i)[1] for i in range(dlg.engine.count())].index("pvs"))
    assert dlg.spec() == "pvs"  # another engine: its own defaults


def test_the_settings_dialog_shows_an_external_engines_declared_options(qtbot, tmp_path):
    game = load_game("shogi")
    book = EngineBook(Storage(tmp_path))
    ext = book.add("usi", fake_command("usi"))
    ext.values = {"Style": "Solid"}
    dlg = EngineSettingsDialog(game, "", book)
    qtbot.addWidget(dlg)
    dlg.engine.setCurrentIndex(dlg.engine.count() - 1)
    f = dlg.options
    assert list(f.fields)[:2] == ["USI_Hash", "Threads"]
    assert isinstance(f.widget("Style"), QComboBox) and f.widget("Style").currentText() == "Solid"
    assert isinstance(f.widget("BookFile"), QLineEdit) and isinstance(f.widget("Ponder"), QCheckBox)
    assert f.widget("USI_Hash").maximum() == 1024
    f.widget("USI_Hash").setValue(64)
    spec = dlg.spec()
    assert spec == ext.spec({"USI_Hash": "64", "Style": "Solid"})
    dlg2 = EngineSettingsDialog(game, spec, book)  # opened again on that spec: the same values
    qtbot.addWidget(dlg2)
    assert dlg2.engine.currentData() == ("ext", ext.name) and dlg2.options.widget("USI_Hash").value() == 64
    assert dlg2.spec() == spec


def test_the_manager_adds_and_removes_engines_and_says_why_one_cannot_be_added(qtbot, tmp_path):
    book = EngineBook(Storage(tmp_path))
    dlg = EngineManagerDialog(book, load_game("gomoku"))
    qtbot.addWidget(dlg)
    assert dlg.protocol.currentData() == "gomocup"  # the game's protocol first
    assert dlg.add_engine("gomocup", shlex.join(fake_command("gomocup"))) is not None
    assert dlg.list.count() == 1 and "Fake Gomocup Analyser" in dlg.list.item(0).text()
    assert dlg.add_engine("usi", "/no/such/engine") is None
    assert "'/no/such/engine'" in dlg.error.text() and dlg.list.count() == 1
    dlg.name_edit.setText("Mine")
    dlg._rename()
    assert book.engines[0].name == "Mine"
    dlg._remove_clicked()
    assert book.engines == [] and dlg.list.count() == 0


# -- in the window ------------------------------------------------------------------------------------------

def test_an_external_usi_engine_analyses_in_the_panel_and_stops_at_once(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path)
    win.apply_engine_settings(fake_spec("usi"), 2)
    assert win.analysis_spec() == fake_spec("usi") and win.panel.multipv.value() == 2
    win.set_mode("analyse")
    qtbot.waitUntil(lambda: sorted(win.panel.lines) == [1, 2] and win.panel.lines[1].depth >= 3, timeout=20_000)
    assert win.panel.title.text() == "Analysing with usi:fake_analyser.py"
    assert win.panel.tree.topLevelItemCount() == 2 and win.panel.tree.topLevelItem(1).text(0) == "2"
    assert win.host.current is not None and win.host.current.purpose == "analysis"
    win.stop_analysis()
    assert win.host.current is None  # the panel is told at once; the program answers within its grace
    qtbot.waitUntil(lambda: not win.host.busy, timeout=5000)
    depth = win.panel.lines[1].depth
    qtbot.wait(200)
    assert win.panel.lines[1].depth == depth  # nothing more streams in after the stop


def test_external_engines_play_each_other_in_the_window(qtbot, tmp_path):
    players = [PlayerSpec("engine", fake_spec("usi"), movetime=100),
               PlayerSpec("engine", fake_spec("gomocup"), movetime=100)]
    win = make_window(qtbot, tmp_path, players=players)
    qtbot.waitUntil(lambda: win.controller.over_text() is not None, timeout=30_000)
    st = win.controller.record.start_state()
    line = st.format_line(win.controller.current.moves())
    assert line == ["a3", "b3", "c3", "a2", "b2", "c2", "a1"]  # each took the first empty cell
    assert win.host.current is None


def test_the_new_game_dialog_offers_the_managers_engines_and_its_settings_button(qtbot, tmp_path):
    from gamesuite.gui.dialogs import NewGameDialog

    book = EngineBook(Storage(tmp_path))
    ext = book.add("gomocup", fake_command("gomocup"))
    dlg = NewGameDialog(None, load_game("gomoku"), book=book)
    qtbot.addWidget(dlg)
    row = dlg.rows[1]
    items = [row.engine.itemText(i) for i in range(row.engine.count())]
    assert items[0] == "mtdf" and ext.spec() in items
    row.engine.setCurrentText(ext.spec())
    settings = dlg.engine_settings(row)
    assert settings.engine.currentData() == ("ext", ext.name)
    settings.options.widget("thread_num").setValue(2)
    settings.accept()
    assert row.engine.currentText() == ext.spec({"thread_num": "2"})
    assert dlg.result_players()[1].engine == ext.spec({"thread_num": "2"})


@pytest.mark.skipif(not (ANCHORS / "yaneuraou-material").exists(), reason="no YaneuraOu here")
def test_yaneuraou_added_in_the_manager_analyses_shogi_in_the_window(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, game="shogi")
    dlg = win.engine_manager_dialog()
    ext = dlg.add_engine("usi", str(ANCHORS / "yaneuraou-material"))
    dlg.accept()
    assert ext is not None and ext.name.startswith("YaneuraOu") and ext.option("Threads") is not None
    win.apply_engine_settings(ext.spec({"Threads": "1", "BookFile": "no_book", "USI_Hash": "16"}), 1)
    win.set_mode("analyse")
    qtbot.waitUntil(lambda: 1 in win.panel.lines and win.panel.lines[1].depth >= 6, timeout=30_000)
    win.stop_analysis()
    qtbot.waitUntil(lambda: not win.host.busy, timeout=5000)


@pytest.mark.skipif(not (ANCHORS / "pbrain-rapfi").exists(), reason="no Rapfi here")
def test_rapfi_plays_a_move_in_the_window(qtbot, tmp_path):
    ext = EngineBook(Storage(tmp_path)).add("gomocup", str(ANCHORS / "pbrain-rapfi"))
    assert ext.name == "Rapfi"
    win = make_window(qtbot, tmp_path, game="gomoku",
                      players=[PlayerSpec("human"), PlayerSpec("engine", ext.spec(), movetime=300)])
    assert win.engine_book.find("Rapfi") is not None
    win.controller.play(win.controller.state.parse_move("h8"))
    qtbot.waitUntil(lambda: len(win.controller.current.moves()) == 2, timeout=20_000)
    assert 1 in win.panel.lines and win.panel.lines[1].depth > 1  # its INFO PV lines, in the panel


@pytest.mark.slow
def test_our_own_programs_as_external_engines_in_the_window(qtbot, tmp_path):
    """gamesuite-usi (shogi) and pbrain-gamesuite (gomoku) as real processes: added in the manager,
    analysing in the panel, stopped (the brain, which does not know YXSTOP, is ended at once)."""
    import shutil

    usi, brain = shutil.which("gamesuite-usi"), shutil.which("pbrain-gamesuite")
    if not usi or not brain:
        pytest.skip("the programs are not installed")
    for game, protocol, prog in (("shogi", "usi", usi), ("gomoku", "gomocup", brain)):
        book = EngineBook(Storage(tmp_path / game))
        ext = book.add(protocol, [prog], timeout_ms=60_000)
        win = make_window(qtbot, tmp_path / game, game=game)
        win.apply_engine_settings(ext.spec(), 1)
        win.controller.play(win.controller.state.legal_moves()[0])
        win.set_mode("analyse")
        qtbot.waitUntil(lambda win=win: 1 in win.panel.lines and win.panel.lines[1].depth >= 2, timeout=120_000)
        win.stop_analysis()
        assert win.host.current is None
        qtbot.waitUntil(lambda win=win: not win.host.busy, timeout=10_000)
        win.close()


def test_the_managers_options_dialog_keeps_the_values_chosen(qtbot, tmp_path):
    from gamesuite.gui.engine_settings import EngineOptionsDialog

    book = EngineBook(Storage(tmp_path))
    ext = book.add("usi", fake_command("usi"))
    dlg = EngineOptionsDialog(ext)
    qtbot.addWidget(dlg)
    f = dlg.form
    f.widget("Threads").setValue(4)
    f.widget("Ponder").setChecked(True)
    f.widget("BookFile").setText("/books/my.db")
    assert dlg.values() == {"Threads": "4", "Ponder": "true", "BookFile": "/books/my.db"}
    f.widget("Threads").setValue(1)  # back to its default: not kept
    assert "Threads" not in dlg.values()
    ext.values = dlg.values()
    assert ext.spec() == f"usi:{shlex.join(fake_command('usi'))},Ponder=true,BookFile=/books/my.db,label=Fake Analyser"
