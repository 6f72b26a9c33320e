"""The fonts the window ships: kanji for shogi on every machine.

A machine without a Japanese font would show shogi pieces and Japanese move
notation as empty boxes. The package carries two small subsets of Noto CJK JP
(SIL Open Font License 1.1, ``resources/fonts/LICENSE``) with just the characters
the window writes (pieces, numerals, 同成不打▲△…; ``packaging/subset_fonts.py``
makes them): *Gamesuite Kanji Serif* (bold, the pieces) and *Gamesuite Kanji
Sans* (text). ``load_fonts()`` registers them with Qt once; Qt's font fallback
then finds them for any text that has kanji, and the shogi board asks for the
serif face by name.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFontDatabase, QGuiApplication

FONT_DIR = Path(__file__).resolve().parents[1] / "resources" / "fonts"
#: The family of the shipped face the shogi pieces are drawn with.
KANJI_SERIF = "Gamesuite Kanji Serif"
#: The family of the shipped face for text (Qt's fallback picks it for kanji in any widget).
KANJI_SANS = "Gamesuite Kanji Sans"

_loaded: list[str] = []
_tried: list[bool] = []


def load_fonts() -> list[str]:
    """Register the shipped fonts with Qt (once; needs a ``QGuiApplication``); the families loaded."""
    if not _tried and QGuiApplication.instance() is not None:
        _tried.append(True)
        for path in sorted(FONT_DIR.glob("*.otf")):
            fid = QFontDatabase.addApplicationFont(str(path))
            if fid >= 0:
                _loaded.extend(QFontDatabase.applicationFontFamilies(fid))
    return list(_loaded)


def kanji_family() -> str | None:
    """The family to draw shogi pieces with: the shipped serif face, else None (any Japanese font)."""
    return KANJI_SERIF if KANJI_SERIF in load_fonts() else None
