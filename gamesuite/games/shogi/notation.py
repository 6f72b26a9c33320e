"""Shogi moves as people write them: Japanese (``▲７六歩``) and western (``P-7f``) notation.

The rules speak USI (``7g7f``, ``8h2b+``, ``P*5e``); people read shogi another way.

**Japanese** notation follows the Japan Shogi Association's rules for game records
(棋譜の表記方法), as newspapers, books, KI2 files and ShogiHome write them:

- ``▲`` for Sente's move, ``△`` for Gote's (``mark=False`` leaves it out);
- the square reached, file in full-width digits and rank in kanji (``７六``), or
  ``同`` when it is the square the previous move reached (the capture of that piece);
- the piece as it stood before the move (``歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍``);
- when two or more pieces of that kind could go there, the words that say which:
  first its motion (``上`` up, ``寄`` sideways, ``引`` back); when the motion does not
  tell them apart, its place (``右``/``左`` from the mover's side; ``直`` for a gold,
  silver or promoted minor piece moving straight up); when neither alone does, both
  (``左上``). Golds and silvers (and the pieces that move like gold) take their place
  from the square they move to; the other pieces (knight, bishop, rook, horse,
  dragon) from each other.
- ``成`` when the piece promotes, ``不成`` when it could have and did not, ``打``
  for a drop only when a piece on the board could also go there.

**Western** notation is Hodges' (the one English shogi books use), with the rules'
square names: the piece (``P L N S G B R K``, promoted ``+P +L +N +S +B +R``), the
square it came from only when another piece of the kind could go to the same
square (``G4i``), ``-`` for a move, ``x`` for a capture, ``*`` for a drop, the square
reached, then ``+`` when it promotes and ``=`` when it could have and did not:
``P-7f``, ``Bx2b+``, ``S*5e``, ``G4i-5h``, ``S-3c=``.

``parse_japanese`` / ``parse_western`` read either back (with or without the
marks, in full- or half-width digits, with the usual variants ``王 竜 全 圭 杏 生``);
``parse_any`` tries USI, then Japanese, then western. A text that fits no legal
move raises ``IllegalMoveError`` or ``InvalidMoveError``, and one that fits several
(a missing ``右``...) raises ``AmbiguousMoveError`` naming them; each quotes the
input.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from ...core.errors import GameSuiteError, IllegalMoveError, InvalidMoveError, quote
from .board import (
    COLOR_BITS,
    GOLD,
    KNIGHT,
    LETTERS,
    PRO_KNIGHT,
    PRO_LANCE,
    PRO_PAWN,
    PRO_SILVER,
    PROMOTED,
    SILVER,
    decode_move,
)

if TYPE_CHECKING:
    from .rules import ShogiState

#: The side marks: Sente (black, moves first in an even game), Gote.
MARKS = ("▲", "△")
#: Piece names in Japanese move text (index = type 1..14; the king is 玉 for both sides).
PIECE_NAMES = ("", "歩", "香", "桂", "銀", "角", "飛", "金", "玉", "と", "成香", "成桂", "成銀", "馬", "龍")
#: Other spellings read as the names above.
PIECE_ALIASES = {"王": "玉", "竜": "龍", "全": "成銀", "圭": "成桂", "杏": "成香", "个": "成香"}
FULLWIDTH_DIGITS = "０１２３４５６７８９"
KANJI_DIGITS = "〇一二三四五六七八九"
#: Piece letters in western notation (index = type).
WESTERN_NAMES = ("", "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R")
#: Pieces that move like a gold or a silver: their place is told from the square they go to, with 直.
_GOLDLIKE = frozenset((SILVER, GOLD, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER))
#: Every character Japanese notation may write (the shipped font must have each: tests check it).
JAPANESE_CHARS = frozenset("".join(MARKS) + "".join(PIECE_NAMES) + FULLWIDTH_DIGITS[1:] + KANJI_DIGITS[1:]
                           + "同打成不右左直上引寄　")


class AmbiguousMoveError(InvalidMoveError):
    """A move text that fits more than one legal move (``５二金`` when two golds can go there)."""


# -- geometry from the mover's side ------------------------------------------------------------

def _piece(state: ShogiState, sq: int) -> int:
    return int(state.board[state.g.sq2p[sq]])


def _forward(state: ShogiState, frm: int, to: int) -> int:
    """>0: the move goes towards the opponent (上), <0: back (引), 0: along the rank (寄)."""
    files = state.g.files
    d = frm // files - to // files
    return d if state.color == 0 else -d


def _rightward(state: ShogiState, sq: int) -> int:
    """How far right ``sq`` is, as the mover sees the board (Sente's right is file 1)."""
    col = sq % state.g.files
    return col if state.color == 0 else -col


def _motion(state: ShogiState, frm: int, to: int) -> str:
    f = _forward(state, frm, to)
    return "上" if f > 0 else "引" if f < 0 else "寄"


def _place(state: ShogiState, frm: int, to: int, kind: int, others: list[int]) -> str:
    """右, 左, 直 or "" (no word tells it apart by place)."""
    x = _rightward(state, frm)
    if kind in _GOLDLIKE:
        dx = x - _rightward(state, to)
        if dx == 0:
            return "直" if _forward(state, frm, to) > 0 else ""
        return "右" if dx > 0 else "左"
    xs = [_rightward(state, o) for o in others]
    if all(x > o for o in xs):
        return "右"
    if all(x < o for o in xs):
        return "左"
    return ""


def _sources(state: ShogiState, to: int, kind: int, legal: list[int]) -> list[int]:
    """The squares from which a piece of the mover's ``kind`` (as it stands) can legally go to ``to``."""
    g = state.g
    out = []
    for m in legal:
        frm, t, _ = decode_move(m)
        if t == to and frm < g.N and frm not in out and _piece(state, frm) & 15 == kind:
            out.append(frm)
    return out


def relative_words(state: ShogiState, move: int, legal: list[int] | None = None) -> str:
    """The words that tell the moving piece from the others of its kind that could go there ("" if none)."""
    g = state.g
    frm, to, _ = decode_move(int(move))
    if frm >= g.N:
        return ""
    kind = _piece(state, frm) & 15
    legal = state.legal_moves() if legal is None else legal
    sources = _sources(state, to, kind, legal)
    if frm not in sources:
        sources.append(frm)
    if len(sources) < 2:
        return ""
    others = [s for s in sources if s != frm]
    mine = _motion(state, frm, to)
    if all(_motion(state, o, to) != mine for o in others):
        return mine
    if kind == KNIGHT:  # a knight only moves up: its place tells
        return _place(state, frm, to, kind, others)
    place = _place(state, frm, to, kind, others)
    if place and all(_place(state, o, to, kind, [s for s in sources if s != o]) != place for o in others):
        return place
    return place + mine


def _square_ja(state: ShogiState, sq: int) -> str:
    row, col = divmod(sq, state.g.files)
    return FULLWIDTH_DIGITS[state.g.files - col] + KANJI_DIGITS[row + 1]


def _check_move(state: ShogiState, move: int) -> tuple[int, int, bool]:
    g = state.g
    if not isinstance(move, int) or move < 0:
        raise InvalidMoveError(f"move {quote(move)} is not a shogi move number")
    frm, to, promo = decode_move(move)
    if to >= g.N or frm >= g.N + 7 or (frm >= g.N and promo):
        raise InvalidMoveError(f"move {move} is not a move on the {g.files}x{g.ranks} board")
    if frm < g.N and not _piece(state, frm) & COLOR_BITS[state.color]:
        raise IllegalMoveError(f"move {state.format_move(move)}: no piece of the side to move on "
                               f"{g.square_name(frm)} in {state.sfen()}")
    return frm, to, promo


def _parts(state: ShogiState, move: int, legal: list[int]) -> tuple[bool, str, str, str, str]:
    """``(same square as the last move, square, piece name, words, 成/不成/打)`` of a move in Japanese."""
    frm, to, promo = _check_move(state, move)
    g = state.g
    hist = state.history
    same = bool(hist) and decode_move(int(hist[-1]))[1] == to
    if frm >= g.N:
        kind = frm - g.N + 1
        return same, _square_ja(state, to), PIECE_NAMES[kind], "", "打" if _sources(state, to, kind, legal) else ""
    kind = _piece(state, frm) & 15
    suffix = "成" if promo else ("不成" if kind < PROMOTED and move | 1 in legal else "")
    return same, _square_ja(state, to), PIECE_NAMES[kind], relative_words(state, move, legal), suffix


def japanese(state: ShogiState, move: int, mark: bool = True, ki2: bool = False) -> str:
    """``move`` (played in ``state``, which has the moves before it) in Japanese: ``▲７六歩``, ``△同銀``.

    ``ki2``: the spelling of KI2 files (``同　歩``: a full-width space after 同 before a
    one-character piece name).
    """
    move = int(move)
    same, square, name, words, suffix = _parts(state, move, state.legal_moves())
    dest = ("同\u3000" if ki2 and len(name) == 1 else "同") if same else square
    return (MARKS[state.color] if mark else "") + dest + name + words + suffix


def western(state: ShogiState, move: int) -> str:
    """``move`` (played in ``state``) in Hodges' western notation: ``P-7f``, ``Bx2b+``, ``S*5e``, ``G4i-5h``."""
    move = int(move)
    frm, to, promo = _check_move(state, move)
    g = state.g
    if frm >= g.N:
        return f"{LETTERS[frm - g.N + 1]}*{g.square_name(to)}"
    kind = _piece(state, frm) & 15
    legal = state.legal_moves()
    origin = g.square_name(frm) if len(set(_sources(state, to, kind, legal)) | {frm}) > 1 else ""
    sep = "x" if _piece(state, to) else "-"
    suffix = "+" if promo else ("=" if kind < PROMOTED and move | 1 in legal else "")
    return f"{WESTERN_NAMES[kind]}{origin}{sep}{g.square_name(to)}{suffix}"


# -- reading -------------------------------------------------------------------------------------

def _normalise_ja(text: str) -> str:
    """Marks, spaces and digit widths dropped or unified: ``▲7六歩``, ``７６歩`` and ``76歩`` read alike."""
    t = unicodedata.normalize("NFKC", text)  # full-width digits and spaces to ASCII
    for a, b in PIECE_ALIASES.items():
        t = t.replace(a, b)
    t = t.replace("生", "不成")
    t = "".join(ch for ch in t if ch not in "▲△☗☖▽▼ \t\u3000")
    if len(t) >= 2 and "0" <= t[0] <= "9" and t[1] in KANJI_DIGITS[1:]:  # ASCII: '𐩀'.isdigit() too
        t = t[0] + str(KANJI_DIGITS.index(t[1])) + t[2:]
    return t


def _spellings_ja(state: ShogiState, move: int, legal: list[int]) -> tuple[str, set[str], set[str]]:
    """The canonical text of ``move``, its normalised form(s), and every normalised spelling read as it
    (the words left out, 打 where it is not needed, the square instead of 同)."""
    same, square, name, words, suffix = _parts(state, move, legal)
    canon = MARKS[state.color] + ("同" if same else square) + name + words + suffix
    dests = {square, "同", square + "同", "同" + square} if same else {square}
    exact = {d + name + words + suffix for d in dests}
    loose = set(exact)
    for d in dests:
        for w in {words, ""}:  # the words left out: ambiguous where they were needed
            loose.add(d + name + w + suffix)
            if suffix in ("成", "不成"):
                loose.add(d + name + w)  # 成 or 不成 left out: ambiguous
        if decode_move(move)[0] >= state.g.N:
            loose.add(d + name + "打")
    return canon, {_normalise_ja(f) for f in exact}, {_normalise_ja(f) for f in loose}


def _target_of(state: ShogiState, text: str, kind: str) -> int | None:
    """The square a normalised move text names (None when it names none, e.g. ``同``)."""
    g = state.g
    if kind == "Japanese":
        if len(text) >= 2 and "0" <= text[0] <= "9" and "0" <= text[1] <= "9":
            f, r = int(text[0]), int(text[1])
            return g.sq(r - 1, g.files - f) if 1 <= f <= g.files and 1 <= r <= g.ranks else -1
        return None
    m = re.search(r"([1-9])([a-i])[+=]?$", text)
    if not m:
        return None
    f, r = int(m.group(1)), ord(m.group(2)) - 97
    return g.sq(r, g.files - f) if f <= g.files and r < g.ranks else -1


def _match(state: ShogiState, text: str, spell, kind: str) -> int:  # type: ignore[no-untyped-def]
    """The one legal move whose spellings include ``text`` (exact spellings first)."""
    legal = state.legal_moves()
    target = _target_of(state, text, kind)
    exact: list[int] = []
    loose: list[tuple[int, str]] = []
    for m in legal:
        if target is not None and decode_move(m)[1] != target:
            continue
        canon, exact_forms, loose_forms = spell(state, m, legal)
        if text in exact_forms:
            exact.append(m)
        if text in loose_forms:
            loose.append((m, canon))
    if len(exact) == 1:
        return exact[0]
    if len(loose) == 1:
        return loose[0][0]
    if not loose:
        raise IllegalMoveError(f"{quote(text)} is no legal move here ({kind} notation) in {state.sfen()}")
    raise AmbiguousMoveError(f"{quote(text)} could be {' or '.join(c for _, c in loose)}: say which")


def parse_japanese(state: ShogiState, text: str) -> int:
    """The legal move that ``text`` writes in Japanese (``▲７六歩``, ``76歩``, ``同銀``, ``５二金右``)."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidMoveError(f"move {quote(text)} is empty")
    t = _normalise_ja(text)
    if not any(name and name in t for name in PIECE_NAMES):
        raise InvalidMoveError(f"{quote(text)} is not a move in Japanese notation like ▲７六歩 or 同歩")
    try:
        return _match(state, t, _spellings_ja, "Japanese")
    except GameSuiteError as e:
        raise type(e)(str(e).replace(quote(t), quote(text), 1)) from None


def _normalise_western(text: str) -> str:
    t = unicodedata.normalize("NFKC", text).strip().replace(" ", "")
    out = ""
    for i, ch in enumerate(t):
        out += ch.upper() if ch.isalpha() and (i == 0 or t[i - 1] == "+") else ch.lower()
    return out


def _spellings_western(state: ShogiState, move: int, legal: list[int]) -> tuple[str, set[str], set[str]]:
    canon = western(state, move)
    g = state.g
    frm, to, _ = decode_move(move)
    loose = {canon}
    if frm < g.N:
        name, dest = WESTERN_NAMES[_piece(state, frm) & 15], g.square_name(to)
        suffix = canon[-1] if canon[-1] in "+=" else ""
        for origin in ("", g.square_name(frm)):
            for sep in ("-", "x", ""):
                loose.add(f"{name}{origin}{sep}{dest}{suffix}")
                loose.add(f"{name}{origin}{sep}{dest}")  # + or = left out: ambiguous where it may promote
    return canon, {_normalise_western(canon)}, {_normalise_western(f) for f in loose}


def parse_western(state: ShogiState, text: str) -> int:
    """The legal move that ``text`` writes in western notation (``P-7f``, ``Bx2b+``, ``S*5e``, ``G4i-5h``)."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidMoveError(f"move {quote(text)} is empty")
    t = _normalise_western(text)
    if not t or t[0] not in "PLNSGBRK+":
        raise InvalidMoveError(f"{quote(text)} is not a move in western notation like P-7f or Bx2b+")
    try:
        return _match(state, t, _spellings_western, "western")
    except GameSuiteError as e:
        raise type(e)(str(e).replace(quote(t), quote(text), 1)) from None


def parse_any(state: ShogiState, text: str) -> int:
    """A legal move from USI (``7g7f``), Japanese (``７六歩``) or western (``P-7f``) text."""
    errors: list[str] = []
    try:
        move = state.parse_move(text)
    except GameSuiteError as e:
        errors.append(str(e))
    else:
        if move in state.legal_moves():
            return move
        why = state.why_illegal(move) or "not a legal move"
        raise IllegalMoveError(f"{quote(text)} is not allowed: {why}")
    for parse in (parse_japanese, parse_western):
        try:
            return parse(state, text)
        except AmbiguousMoveError:
            raise
        except IllegalMoveError:
            raise
        except InvalidMoveError as e:
            errors.append(str(e))
    raise InvalidMoveError(f"{quote(text)} is not a move: write it as 7g7f, P*5e, ７六歩 or P-7f")
