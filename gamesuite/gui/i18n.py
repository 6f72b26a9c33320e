"""The window's languages: English, Japanese, Chinese (simplified) and Russian, through Qt's translations.

The texts are the English source strings of ``self.tr(...)`` / ``QCoreApplication.translate(...)``
calls in ``gamesuite/gui``. ``tools/i18n.sh`` extracts them with PySide6's ``lupdate`` into
``resources/i18n/gamesuite_LANG.ts`` and compiles those with ``lrelease`` into the ``.qm`` files
shipped as package data; ``install(lang)`` loads one (with Qt's own translations of its standard
buttons and dialogs, from PySide6). View › Language chooses; the choice is kept in the settings
(``language``) and takes effect when the window is next opened.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QLibraryInfo, QLocale, QTranslator

from .window_parts import WindowParts

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMenu

I18N_DIR = Path(__file__).resolve().parent.parent / "resources" / "i18n"
#: The languages offered, each by its own name.
LANGUAGES = {"en": "English", "ja": "日本語", "zh_CN": "简体中文", "ru": "Русский"}
SETTINGS_KEY = "language"

#: The games' player names, translated where the window writes them (``notation.Notation.player``).
PLAYER_NAMES = (QT_TRANSLATE_NOOP("Players", "Black"), QT_TRANSLATE_NOOP("Players", "White"),
                QT_TRANSLATE_NOOP("Players", "Sente"), QT_TRANSLATE_NOOP("Players", "Gote"),
                QT_TRANSLATE_NOOP("Players", "Red"), QT_TRANSLATE_NOOP("Players", "Blue"),
                QT_TRANSLATE_NOOP("Players", "Yellow"), QT_TRANSLATE_NOOP("Players", "Green"),
                QT_TRANSLATE_NOOP("Players", "Purple"), QT_TRANSLATE_NOOP("Players", "Chance"))

_installed: list[QTranslator] = []
_current = "en"


def qm_path(lang: str) -> Path:
    return I18N_DIR / f"gamesuite_{lang}.qm"


def current() -> str:
    """The language installed (``en`` when none is)."""
    return _current


def install(lang: str) -> bool:
    """Translate the texts made from now on into ``lang`` (``en``: none); False when it has no
    translation (the texts stay English)."""
    global _current
    app = QCoreApplication.instance()
    if app is None:
        return False
    for t in _installed:
        app.removeTranslator(t)
    _installed.clear()
    _current = "en"
    if lang == "en" or lang not in LANGUAGES:
        return lang == "en"
    ours = QTranslator(app)
    if not ours.load(str(qm_path(lang))):
        return False
    qt = QTranslator(app)  # Qt's own: OK, Cancel, the file dialogs...
    if qt.load(QLocale(lang), "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        _installed.append(qt)
    app.installTranslator(ours)
    _installed.append(ours)
    _current = lang
    return True


def saved_language(storage: object) -> str:
    """The language kept in the settings (``en`` when none, or one no longer offered)."""
    lang = str(storage.get(SETTINGS_KEY, "en") or "en")  # type: ignore[attr-defined]
    return lang if lang in LANGUAGES else "en"



class LanguageMixin(WindowParts):
    """Part of ``MainWindow``: View › Language."""

    def _build_language_menu(self, view_menu: QMenu) -> None:
        from PySide6.QtGui import QAction, QActionGroup

        self.language_menu = view_menu.addMenu(self.tr("&Language"))
        self.language_group = QActionGroup(self)
        self.language_actions: dict[str, QAction] = {}
        chosen = saved_language(self.storage)
        for lang, name in LANGUAGES.items():
            a = QAction(name, self)
            a.setCheckable(True)
            a.setChecked(lang == chosen)
            a.triggered.connect(lambda _=False, la=lang: self.set_language(la))
            self.language_group.addAction(a)
            self.language_menu.addAction(a)
            self.language_actions[lang] = a

    def set_language(self, lang: str) -> None:
        """Keep ``lang`` for the next start (the window's texts are made when it opens)."""
        if lang not in LANGUAGES:
            return
        self.storage.set(SETTINGS_KEY, lang)
        self.language_actions[lang].setChecked(True)
        if lang != current():
            install(lang)  # the message below, and every dialog opened from now on, in the new language
            self.report(self.tr("The window will be in {0} when gamesuite is started again.")
                        .format(LANGUAGES[lang]), "info")
