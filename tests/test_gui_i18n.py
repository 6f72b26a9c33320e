"""The window in English, Japanese, Chinese (simplified) and Russian (issue 23): every translation loads,
the language chosen is remembered, and no visible text of the main window stays English."""

import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("PySide6")

from PySide6.QtWidgets import QMenu

from gamesuite.core.registry import load_game
from gamesuite.gui import i18n
from gamesuite.gui.mainwindow import MainWindow
from gamesuite.gui.record import PlayerSpec

#: Texts that are the same in a language as in English (a name, a notation).
SAME = {"ru": {"&USI (7g7f)"}}


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    i18n.install("en")


def make_window(qtbot, tmp_path, game="shogi", language=None):
    if language is not None:
        from gamesuite.gui.storage import Storage

        Storage(tmp_path).set(i18n.SETTINGS_KEY, language)
    g = load_game(game)
    win = MainWindow(data_dir=tmp_path, restore=False, game_spec=game,
                     players=[PlayerSpec("human"), PlayerSpec("engine", "", movetime=100)][:g.num_players])
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ready, timeout=60_000)
    return win


def visible_texts(win) -> dict[str, str]:
    """Every text a user reads in the window without opening a dialog, by where it is."""
    out: dict[str, str] = {}

    def menu(m: QMenu, key: str) -> None:
        out[key] = m.title()
        for i, a in enumerate(m.actions()):
            if a.isSeparator() or not a.isVisible():
                continue
            if a.menu() is not None:
                menu(a.menu(), f"{key}/{i}")
            elif a.text() not in i18n.LANGUAGES.values():  # (each language by its own name)
                out[f"{key}/{i}"] = a.text()
                if a.statusTip():
                    out[f"{key}/{i}/tip"] = a.statusTip()

    for i, a in enumerate(win.menuBar().actions()):
        menu(a.menu(), f"menu{i}")
    for i, a in enumerate(win.toolbar.actions()):
        if not a.isSeparator() and a.iconText():
            out[f"toolbar{i}"] = a.iconText()
    for d in (win.dock_analysis, win.dock_moves, win.dock_graph):
        out[d.objectName()] = d.windowTitle()
    p = win.panel
    out["panel.button"] = p.button.text()
    out["panel.title"] = p.title.text()
    out["panel.multipv"] = p.multipv.prefix()
    for i in range(p.tabs.count()):
        out[f"panel.tab{i}"] = p.tabs.tabText(i)
    header = p.tree.headerItem()
    for i in range(header.columnCount()):
        out[f"panel.header{i}"] = header.text(i)
    out["banner"] = win.banner.text()
    out["mode"] = win.mode_label.text()
    out["move entry"] = win.move_entry.placeholderText() if hasattr(win.move_entry, "placeholderText") else ""
    return {k: v for k, v in out.items() if v}


def test_every_translation_is_shipped_and_loads(qapp):
    for lang in ("ja", "zh_CN", "ru"):
        assert i18n.qm_path(lang).is_file(), lang
        assert i18n.install(lang) and i18n.current() == lang
    assert i18n.install("en") and i18n.current() == "en"
    assert not i18n.install("xx") and i18n.current() == "en"


@pytest.mark.parametrize("lang", ["ja", "zh_CN", "ru"])
def test_the_translation_sources_are_complete(lang):
    ts = i18n.I18N_DIR / f"gamesuite_{lang}.ts"
    root = ET.parse(ts).getroot()
    unfinished = [m.find("source").text for m in root.iter("message")
                  if m.find("translation").get("type") == "unfinished" or not m.find("translation").text]
    assert unfinished == []
    for m in root.iter("message"):  # the same {0} placeholders: a translation cannot lose a value
        src, tr = m.find("source").text, m.find("translation").text
        for k in ("{0}", "{1}", "{2}", "{3}", "{4}"):
            assert (k in src) == (k in tr), (src, tr)


@pytest.mark.parametrize("lang", ["ja", "zh_CN", "ru"])
def test_no_visible_text_of_the_main_window_stays_english(qtbot, tmp_path, lang):
    english = visible_texts(make_window(qtbot, tmp_path / "en"))
    win = make_window(qtbot, tmp_path / lang, language=lang)
    assert i18n.current() == lang
    texts = visible_texts(win)
    assert set(texts) == set(english)  # the same places
    same = {k: v for k, v in texts.items() if v == english[k] and v not in SAME.get(lang, set())}
    assert same == {}
    if lang == "ja":
        assert texts["menu0"] == "対局(&G)" and texts["dock-analysis"] == "検討"


def test_the_language_is_chosen_in_the_menu_and_remembered(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, game="tictactoe")
    assert set(win.language_actions) == {"en", "ja", "zh_CN", "ru"}
    assert win.language_actions["en"].isChecked()
    win.language_actions["ru"].trigger()
    assert win.storage.get(i18n.SETTINGS_KEY) == "ru" and i18n.current() == "ru"
    assert "Русский" in win.message_bar.text()  # the message says when, in the new language
    win.close()
    again = make_window(qtbot, tmp_path, game="tictactoe")
    assert again.language_actions["ru"].isChecked() and again.menuBar().actions()[0].text() == "&Игра"


def test_the_new_game_and_engine_dialogs_are_translated(qtbot, tmp_path):
    from PySide6.QtWidgets import QGroupBox

    from gamesuite.gui.dialogs import NewGameDialog
    from gamesuite.gui.engine_manager import EngineBook
    from gamesuite.gui.engine_settings import EngineSettingsDialog
    from gamesuite.gui.storage import Storage

    i18n.install("ja")
    dlg = NewGameDialog(None, load_game("shogi"))
    qtbot.addWidget(dlg)
    assert dlg.windowTitle() == "新規対局"
    assert {b.title() for b in dlg.findChildren(QGroupBox)} >= {"対局者", "持ち時間"}
    assert [dlg.rows[0].kind.itemText(i) for i in range(2)] == ["人間", "コンピュータ"]
    es = EngineSettingsDialog(load_game("shogi"), "", EngineBook(Storage(tmp_path)), multipv=1)
    qtbot.addWidget(es)
    assert es.windowTitle() == "エンジン設定" and es.options_box.title() == "エンジンのオプション"
    assert es.options.form.labelForField(es.options.widget("hash")).text().startswith("ハッシュ")


@pytest.mark.parametrize("lang", ["ja", "zh_CN"])
def test_the_shipped_text_font_has_every_character_of_the_translation(qapp, lang):
    """The window in Japanese or Chinese reads on a machine without a CJK font (no empty boxes)."""
    from PySide6.QtGui import QRawFont

    from gamesuite.gui import fonts

    raw = QRawFont(str(fonts.FONT_DIR / "GamesuiteKanjiSans-Regular.otf"), 12)
    assert raw.isValid()
    root = ET.parse(i18n.I18N_DIR / f"gamesuite_{lang}.ts").getroot()
    text = "".join(t.text or "" for t in root.iter("translation"))
    missing = sorted({c for c in text if ord(c) > 0x2000 and not raw.supportsCharacter(ord(c))})
    assert missing == []
