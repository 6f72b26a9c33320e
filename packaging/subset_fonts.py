"""Make the Japanese font subsets the window ships (``gamesuite/resources/fonts/``).

The window draws shogi pieces in kanji and writes Japanese move notation on any machine,
one without a Japanese font too: it loads these subsets at start-up (``gui/fonts.py``).
They are cut from Noto Serif CJK JP Bold (the pieces) and Noto Sans CJK JP Regular (text),
SIL Open Font License 1.1, keeping only the characters the window writes, and renamed
(the licence asks a modified font not to carry the original's name).

The text face (Sans) also carries every CJK character of the window's Japanese and Chinese
translations (``resources/i18n``). Run it again when the window needs more characters (a new
translation)::

    apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb noto
    pip install fonttools
    python packaging/subset_fonts.py noto/usr/share/fonts/opentype/noto [more characters...]
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "gamesuite" / "resources" / "fonts"

# (source collection, index of the JP face in it, new family, new style, file)
FACES = [
    ("NotoSerifCJK-Bold.ttc", "Gamesuite Kanji Serif", "Bold", "GamesuiteKanjiSerif-Bold.otf"),
    ("NotoSansCJK-Regular.ttc", "Gamesuite Kanji Sans", "Regular", "GamesuiteKanjiSans-Regular.otf"),
]


def characters(extra: str = "") -> str:
    """Every character the window may write in a CJK font: pieces, notation, records' words."""
    sys.path.insert(0, str(ROOT))
    from gamesuite.games.shogi.notation import JAPANESE_CHARS, PIECE_ALIASES

    words = "先手後手下手上手投了詰み千日手持将棋中断切れ負け時間反則勝ち入玉宣言まで手での勝ち持駒なし平手落ち"
    board = "歩香桂銀角飛金王玉と杏圭全馬龍一二三四五六七八九十〇"
    digits = "０１２３４５６７８９"
    chars = set(JAPANESE_CHARS) | set(PIECE_ALIASES) | set(words + board + digits + "☗☖▲△　・") | set(extra)
    return "".join(sorted(c for c in chars if ord(c) > 127))


def translated_characters() -> str:
    """The CJK characters of the window's Japanese and Chinese translations (``resources/i18n/*.ts``): the
    text face carries them, so that the window in those languages reads on a machine without a CJK font."""
    import xml.etree.ElementTree as ET

    chars: set[str] = set()
    for ts in sorted((ROOT / "gamesuite" / "resources" / "i18n").glob("gamesuite_*.ts")):
        if ts.stem.endswith(("_ja", "_zh_CN")):
            for tr in ET.parse(ts).getroot().iter("translation"):
                chars |= {c for c in (tr.text or "") if ord(c) > 0x2000}
    return "".join(sorted(chars))


def make(source_dir: Path, extra: str = "") -> list[Path]:
    OUT.mkdir(parents=True, exist_ok=True)
    made = []
    for src, family, style, fname in FACES:
        chars = characters(extra + (translated_characters() if "Sans" in family else ""))
        coll = TTCollection(str(source_dir / src))
        font = next(f for f in coll.fonts if f["name"].getDebugName(1).endswith(" JP"))
        opts = subset.Options()
        opts.layout_features = ["*"]
        opts.name_IDs = ["*"]
        opts.name_languages = ["*"]
        opts.notdef_outline = True
        opts.drop_tables += ["DSIG"]
        sub = subset.Subsetter(opts)
        sub.populate(text=chars)
        sub.subset(font)
        missing = [c for c in chars if ord(c) not in font.getBestCmap()]
        names = font["name"]
        full = f"{family} {style}"
        ps = full.replace(" ", "")
        for rec in list(names.names):
            if rec.nameID in (1, 3, 4, 6, 16, 17, 18, 21, 22):
                names.removeNames(nameID=rec.nameID)
        for nid, value in ((1, family), (2, style), (3, f"gamesuite:{ps}"), (4, full), (6, ps),
                           (16, family), (17, style)):
            names.setName(value, nid, 3, 1, 0x409)
            names.setName(value, nid, 1, 0, 0)
        names.setName("Cut from Noto CJK (SIL OFL 1.1) for gamesuite: only the characters its window writes. "
                      "Noto is a trademark of Google Inc.", 10, 3, 1, 0x409)
        if "CFF " in font:
            cff = font["CFF "].cff
            cff.fontNames = [ps]
            top = cff.topDictIndex[0]
            top.FullName, top.FamilyName = full, family
        path = OUT / fname
        font.save(str(path))
        made.append(path)
        print(f"{path.relative_to(ROOT)}: {len(chars) - len(missing)} characters, {path.stat().st_size} bytes"
              + (f"; not in the font: {''.join(missing)}" if missing else ""))
    return made


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    make(Path(sys.argv[1]), "".join(sys.argv[2:]))
