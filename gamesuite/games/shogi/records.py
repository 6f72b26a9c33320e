"""Shogi game records: KIF and KI2 (UTF-8 and Shift-JIS) and CSA (V2.2) read and written.

``read_record(path_or_text)`` returns a :class:`GameRecord` (start SFEN, USI moves,
metadata, result); ``write_kif`` / ``write_ki2`` / ``write_csa`` turn a record into text and
``save_record`` writes a file in the format and encoding its extension implies.
Every move is replayed through the rules while reading (and writing), and anything
malformed or illegal raises ``InvalidRecordError`` quoting the line and its number.

KIF follows the Kakinoki format (Kifu for Windows): header lines ``key：value``,
``手合割`` handicaps or a board diagram (BOD) start position, move lines
``   1 ７六歩(77)   ( 0:16/00:00:16)``, ``同　``, ``打``, ``成`` / ``不成``, special
moves (``投了``, ``千日手``, ...) and the ``まで64手で先手の勝ち`` summary. Only the
main line is read: branches (``変化：``) are skipped. KI2 is KIF's headers followed by
the moves in Japanese notation (``▲７六歩    △３四歩``, with 右/左/直/上/引/寄 instead of
the origin square: ``games/shogi/notation.py``) and no times; ``read_kif`` reads both. CSA follows V2.2 (also V2,
V2.1, V3.0 files read): ``N+``/``N-``, ``$KEY:value``, ``PI`` (with removed pieces),
``P1``..``P9``, ``P+``/``P-`` (``00AL``), the side to move, moves ``+7776FU``,
times ``T10``, specials ``%TORYO`` ... and comments ``'``. Minishogi is written
and read in CSA with the 5x5 convention of the MSK format (``P1``..``P5``, squares
``11``..``55``); KIF has no 5x5 convention, so a minishogi KIF raises an error.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from ...core.errors import GameSuiteError, InvalidPositionError, InvalidRecordError, quote
from ...core.files import write_atomic
from ...core.gameinfo import GameInfo
from ...core.registry import load_game
from .board import BLACK_BIT, HAND_ORDER, LETTERS, PROMOTED, decode_move, encode_drop, encode_move
from .notation import japanese, parse_japanese
from .rules import HANDICAPS, MINI_START, STANDARD_START, ShogiState

#: Results: the winner (``sente``, ``gote``), ``draw``, or empty when unknown/unfinished.
RESULTS = ("sente", "gote", "draw", "")

#: Piece types 1..14 (P L N S B R G K, +P +L +N +S +B +R) in CSA.
CSA_CODES = ("", "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU", "TO", "NY", "NK", "NG", "UM", "RY")
#: Piece names in KIF move text.
KIF_NAMES = ("", "歩", "香", "桂", "銀", "角", "飛", "金", "玉", "と", "成香", "成桂", "成銀", "馬", "龍")
#: One-character piece names in KIF board diagrams.
BOD_NAMES = ("", "歩", "香", "桂", "銀", "角", "飛", "金", "玉", "と", "杏", "圭", "全", "馬", "龍")
_KIF_PIECE = {name: t for t, name in enumerate(KIF_NAMES) if t}
_KIF_PIECE.update({name: t for t, name in enumerate(BOD_NAMES) if t})
_KIF_PIECE.update({"王": 8, "竜": 14})
_ZEN_DIGITS = "０１２３４５６７８９"
_KANJI_DIGITS = "〇一二三四五六七八九"

#: KIF handicap names (手合割) and their start positions.
KIF_HANDICAPS = {
    "平手": STANDARD_START,
    "香落ち": HANDICAPS["lance"],
    "右香落ち": "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "角落ち": HANDICAPS["bishop"],
    "飛車落ち": HANDICAPS["rook"],
    "飛香落ち": HANDICAPS["rook-lance"],
    "二枚落ち": HANDICAPS["two"],
    "三枚落ち": "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "四枚落ち": HANDICAPS["four"],
    "五枚落ち": "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "左五枚落ち": "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "六枚落ち": HANDICAPS["six"],
    "左七枚落ち": "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "右七枚落ち": "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "八枚落ち": HANDICAPS["eight"],
    "十枚落ち": HANDICAPS["ten"],
}

#: KIF header keys mapped to the record's metadata keys (others are kept as written).
_KIF_KEYS = {"先手": "sente", "下手": "sente", "後手": "gote", "上手": "gote", "開始日時": "start_time",
             "対局日": "start_time", "終了日時": "end_time", "棋戦": "event", "場所": "site",
             "持ち時間": "time_control", "戦型": "opening", "表題": "title", "手合割": "handicap"}
_KIF_KEYS_OUT = {"start_time": "開始日時", "end_time": "終了日時", "event": "棋戦", "site": "場所",
                 "time_control": "持ち時間", "opening": "戦型", "title": "表題"}
_CSA_KEYS = {"EVENT": "event", "SITE": "site", "START_TIME": "start_time", "END_TIME": "end_time",
             "TIME_LIMIT": "time_control", "OPENING": "opening"}

# KIF special moves: termination and who wins ("mover" = the side to move, "other", or "draw"/"").
_KIF_SPECIALS = {
    "投了": ("resign", "other"), "詰み": ("checkmate", "other"), "中断": ("abort", ""),
    "千日手": ("sennichite", "draw"), "持将棋": ("jishogi", "draw"), "切れ負け": ("timeout", "other"),
    "時間切れ": ("timeout", "other"), "反則勝ち": ("illegal-move", "mover"),
    "反則負け": ("illegal-move", "other"), "入玉勝ち": ("declaration", "mover"),
    "宣言勝ち": ("declaration", "mover"), "入玉宣言": ("declaration", "mover"),
    "不詰": ("no-mate", ""), "封じ手": ("sealed", ""),
    "不戦勝": ("forfeit", "mover"), "不戦敗": ("forfeit", "other"),
}
_CSA_SPECIALS = {
    "%TORYO": ("resign", "other"), "%CHUDAN": ("abort", ""), "%SENNICHITE": ("sennichite", "draw"),
    "%TIME_UP": ("timeout", "other"), "%ILLEGAL_MOVE": ("illegal-move", "other"),
    "%+ILLEGAL_ACTION": ("illegal-move", "gote"), "%-ILLEGAL_ACTION": ("illegal-move", "sente"),
    "%JISHOGI": ("jishogi", "draw"), "%KACHI": ("declaration", "mover"),
    "%HIKIWAKE": ("draw-agreement", "draw"), "%TSUMI": ("checkmate", "other"),
    "%FUZUMI": ("no-mate", ""), "%MATTA": ("matta", ""), "%ERROR": ("error", ""),
}


@dataclass
class GameRecord:
    """A game: its start position, its moves, who played it and how it ended.

    ``moves`` are USI strings; ``times[i]`` the seconds move ``i`` took (``None``
    unknown); ``comments[i]`` the comment lines after ``i`` moves (0 = before the
    first). ``result`` is ``sente``, ``gote`` (the winner), ``draw`` or ``""``;
    ``termination`` says how: ``resign``, ``checkmate``, ``sennichite``,
    ``perpetual-check``, ``timeout``, ``illegal-move``, ``declaration``,
    ``jishogi``, ``draw-agreement``, ``abort`` or ``""``. ``metadata`` uses the keys
    ``sente``, ``gote``, ``event``, ``site``, ``start_time``, ``end_time``,
    ``time_control``, ``opening``, ``title``, ``handicap`` plus any others as written.
    """

    start_sfen: str = STANDARD_START
    moves: list[str] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)
    result: str = ""
    termination: str = ""
    times: list[float | None] = field(default_factory=list)
    comments: dict[int, list[str]] = field(default_factory=dict)
    variant: str = "standard"

    def state(self) -> ShogiState:
        """The final position, the moves replayed (the declaration rule off: records declare themselves)."""
        state = _game(self.variant).state_from_text(self.start_sfen)
        for i, mt in enumerate(self.moves):
            try:
                move = state.parse_move(mt)
            except ValueError as e:
                raise InvalidRecordError(f"move {i + 1} {quote(mt)}: {e}") from None
            _check_legal(state, move, f"move {i + 1} {quote(mt)}")
            state.play(move)
        return state

    def move_ints(self) -> list[int]:
        """The moves as the rules' integers."""
        return self.state().history


_GAMES: dict[str, object] = {}


def _game(variant: str):
    if variant not in ("standard", "mini"):
        raise InvalidRecordError(f"unknown shogi variant {quote(variant)}")
    if variant not in _GAMES:
        _GAMES[variant] = load_game(f"shogi(variant={variant},impasse=off)")
    return _GAMES[variant]


def _check_legal(state: ShogiState, move: int, where: str) -> None:
    if move not in state.legal_moves():
        reason = state.why_illegal(move) or "not a legal move"
        raise InvalidRecordError(f"{where}: illegal move {state.format_move(move)} ({reason})")


def _winner(who: str, mover: int) -> str:
    if who == "mover":
        return ("sente", "gote")[mover]
    if who == "other":
        return ("sente", "gote")[1 - mover]
    return who


def _derive_end(state: ShogiState) -> tuple[str, str]:
    """(result, termination) of a game the rules ended, or ("", "")."""
    if not state.is_terminal():
        return "", ""
    ret = state.returns()
    result = "draw" if ret[0] == ret[1] else ("sente" if ret[0] > ret[1] else "gote")
    text = state.result_text()
    if "sennichite" in text:
        return result, "sennichite"
    if "perpetual" in text:
        return result, "perpetual-check"
    return result, "checkmate" if "checkmate" in text else "no-move"


# -- reading ------------------------------------------------------------------

def decode_bytes(data: bytes) -> str:
    """Text of a record file: UTF-8 (with or without BOM), else Shift-JIS (cp932)."""
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8")
        except UnicodeDecodeError as e:
            raise InvalidRecordError(f"record has a UTF-8 byte-order mark but bad UTF-8 at byte {e.start + 3}: "
                                     f"{data[e.start + 3:e.start + 7]!r}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp932")
    except UnicodeDecodeError as e:
        raise InvalidRecordError(f"record is neither UTF-8 nor Shift-JIS (cp932): bytes "
                                 f"{data[e.start:e.start + 4]!r} at offset {e.start}") from None


_CSA_LINE = re.compile(r"^(V[0-9]|N[+-]|P[I1-9+-]|\$|[+-]($|[0-9]{4}[A-Z]{2})|%[A-Z+-]|'|/$)")


def detect_format(text: str) -> str:
    """``"csa"`` or ``"kif"`` from a record's first meaningful line."""
    for line in text.lstrip("\ufeff").splitlines():
        s = line.strip()
        if not s:
            continue
        return "csa" if _CSA_LINE.match(s) else "kif"
    raise InvalidRecordError("record is empty")


def read_record(source: str | bytes | os.PathLike, fmt: str | None = None) -> GameRecord:
    """Read a KIF or CSA record from a path (``pathlib.Path``), from bytes (encoding detected) or from text.

    A ``str`` is always the record's text, never a file name: a record never makes the reader open
    another file. ``fmt`` (``"kif"`` / ``"csa"``) overrides the detection (file extension, else content).
    """
    if isinstance(source, os.PathLike):
        path = Path(source)
        try:
            data = path.read_bytes()
        except OSError as e:
            raise InvalidRecordError(f"cannot read record file {quote(str(path))}: {e.strerror}") from None
        text = decode_bytes(data)
        if fmt is None and path.suffix.lower() in (".kif", ".kifu", ".ki2", ".ki2u", ".csa"):
            fmt = "csa" if path.suffix.lower() == ".csa" else "kif"
    elif isinstance(source, (bytes, bytearray)):
        text = decode_bytes(bytes(source))
    elif isinstance(source, str):
        text = source
    else:
        raise InvalidRecordError(f"a record is a path, bytes or text, not {quote(type(source).__name__)}")
    text = text.lstrip("\ufeff")
    fmt = fmt or detect_format(text)
    if fmt == "kif":
        return read_kif(text)
    if fmt == "csa":
        return read_csa(text)
    raise InvalidRecordError(f"unknown record format {quote(fmt)}; expected 'kif' or 'csa'")


def _err(fmt: str, n: int, line: str, reason: str) -> InvalidRecordError:
    return InvalidRecordError(f"{fmt} line {n} {quote(line.rstrip())}: {reason}")


def _kanji_number(s: str) -> int | None:
    """1..99 written in kanji (``二``, ``十``, ``十八``) or digits; None if not a number."""
    if not s:
        return None
    s2 = s.translate(str.maketrans(_ZEN_DIGITS, "0123456789"))
    if s2.isascii() and s2.isdigit():
        return int(s2) if len(s2) <= 3 else None
    if "十" in s:
        tens, _, ones = s.partition("十")
        t = 1 if not tens else _KANJI_DIGITS.find(tens)
        o = 0 if not ones else _KANJI_DIGITS.find(ones)
        if t <= 0 or o < 0 or len(tens) > 1 or len(ones) > 1:
            return None
        return t * 10 + o
    if len(s) == 1 and _KANJI_DIGITS.find(s) > 0:
        return _KANJI_DIGITS.find(s)
    return None


def _sfen_of(grid: list[list[tuple[int, int] | None]], hands: list[dict[int, int]], color: int) -> str:
    """SFEN from rows of (color, type) cells, hands {type: count} and the side to move."""
    rows = []
    for row in grid:
        text, empty = "", 0
        for cell in row:
            if cell is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            c, t = cell
            letter = "+" + LETTERS[t - PROMOTED] if t > 8 else LETTERS[t]
            text += letter if c == 0 else letter.lower()
        rows.append(text + (str(empty) if empty else ""))
    hand = ""
    for c in (0, 1):
        for t in HAND_ORDER:
            n = hands[c].get(t, 0)
            if n:
                letter = LETTERS[t] if c == 0 else LETTERS[t].lower()
                hand += (str(n) if n > 1 else "") + letter
    return f"{'/'.join(rows)} {'bw'[color]} {hand or '-'} 1"


def _start_state(variant: str, sfen: str, fmt: str, n: int, line: str) -> ShogiState:
    try:
        return _game(variant).state_from_text(sfen)
    except InvalidPositionError as e:
        raise _err(fmt, n, line, f"bad start position: {e}") from None


# KIF ---------------------------------------------------------------------------

# numbers are ASCII digits of bounded length (a 5,000-digit move number is not a KIF move number)
_KIF_TIME = re.compile(r"\(\s*([0-9]{1,6}):([0-9]{1,6})(?:\.[0-9]{1,6})?\s*/\s*(?:([0-9]{1,6}):)?([0-9]{1,6}):"
                       r"([0-9]{1,6})(?:\.[0-9]{1,6})?\s*\)\s*\+?\s*$")
_KIF_MOVE_LINE = re.compile(r"^\s*([0-9]{1,6})\s+(\S.*)$")
_KIF_MOVE = re.compile(
    r"^(?:([１-９1-9])([一二三四五六七八九])|同[\s\u3000]*)"
    r"(成香|成桂|成銀|[歩香桂銀金角飛玉王と杏圭全馬龍竜])(不成|成|打|生)?(?:\(([1-9])([1-9])\))?$")
_KIF_HAND_ITEM = re.compile(r"^([歩香桂銀金角飛])([一二三四五六七八九十]*)$")


def _kif_hand(text: str, n: int, line: str) -> dict[int, int]:
    hand: dict[int, int] = {}
    text = text.strip()
    if text in ("", "なし"):
        return hand
    for item in re.split(r"[\s\u3000、,]+", text):
        if not item:
            continue
        m = _KIF_HAND_ITEM.match(item)
        count = _kanji_number(m.group(2)) if m and m.group(2) else 1
        if not m or count is None:
            raise _err("KIF", n, line, f"bad piece in hand {quote(item)}")
        t = _KIF_PIECE[m.group(1)]
        if t in hand:
            raise _err("KIF", n, line, f"{m.group(1)} listed twice")
        hand[t] = count
    return hand


def read_kif(text: str) -> GameRecord:
    """Parse KIF text (main line only), replaying every move; raises ``InvalidRecordError``."""
    rec = GameRecord()
    lines = text.lstrip("\ufeff").splitlines()
    handicap_line: tuple[int, str, str] | None = None
    grid: list[list[tuple[int, int] | None]] = []
    hands: list[dict[int, int]] = [{}, {}]
    board_line: tuple[int, str] | None = None
    side = 0
    state: ShogiState | None = None
    last_to = -1
    special: tuple[str, str, int, str] | None = None
    summary: tuple[int, str] | None = None
    in_board = False
    offset: int | None = None

    def begin(n: int, line: str) -> ShogiState:
        nonlocal state
        if state is None:
            if board_line is not None:
                if len(grid) != 9:
                    raise _err("KIF", board_line[0], board_line[1], f"board diagram has {len(grid)} ranks, not 9")
                rec.start_sfen = _sfen_of(grid, hands, side)
                state = _start_state("standard", rec.start_sfen, "KIF", board_line[0], board_line[1])
            elif handicap_line is not None:
                hn, hl, name = handicap_line
                if name not in KIF_HANDICAPS:
                    raise _err("KIF", hn, hl, f"unknown handicap {quote(name)} (and no board diagram); known: "
                               + ", ".join(KIF_HANDICAPS))
                rec.start_sfen = KIF_HANDICAPS[name]
                state = _start_state("standard", rec.start_sfen, "KIF", hn, hl)
            else:
                state = _start_state("standard", STANDARD_START, "KIF", n, line)
            rec.start_sfen = state.sfen()
        return state

    for n, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        s = line.strip().strip("\u3000")
        if in_board:
            if s.startswith("+"):
                in_board = False
                continue
            m = re.match(r"^\|(.*)\|", s)
            if not m:
                raise _err("KIF", n, line, "expected a board diagram row '|...|'")
            cells = m.group(1)
            if len(cells) != 18:
                raise _err("KIF", n, line, "a board row needs 9 cells of two characters")
            row: list[tuple[int, int] | None] = []
            for i in range(9):
                mark, ch = cells[2 * i], cells[2 * i + 1]
                if ch in "・\u30fb":
                    row.append(None)
                    continue
                t = _KIF_PIECE.get(ch)
                if t is None or len(BOD_NAMES[t]) != 1 or mark not in " v^":
                    raise _err("KIF", n, line, f"unknown board cell {quote(mark + ch)}")
                row.append((1 if mark == "v" else 0, t))
            if len(grid) >= 9:
                raise _err("KIF", n, line, "board diagram has more than 9 ranks")
            grid.append(row)
            continue
        if not s or s.startswith("#") or s.startswith("&"):
            continue
        if s.startswith("変化"):
            break  # branches follow the main line
        if s.startswith("*"):
            rec.comments.setdefault(len(state.history) if state else 0, []).append(s[1:])
            continue
        if (s.startswith("手数") and "指手" in s) or re.match(r"^(手数|最終手)[＝=]", s):
            continue
        if s.startswith("+") and state is None:
            in_board = True
            board_line = (n, line)
            continue
        if state is None and re.match(r"^[９9][\s\u3000]+[８8][\s\u3000]+[７7]", s):  # diagram file header
            continue
        if s.startswith("まで"):
            summary = (n, line)
            continue
        if s in ("先手番", "下手番", "後手番", "上手番") and state is None:
            side = 0 if s in ("先手番", "下手番") else 1
            continue
        m = re.match(r"^(先手|後手|下手|上手)の持駒[：:](.*)$", s)
        if m and state is None:
            hands[0 if m.group(1) in ("先手", "下手") else 1] = _kif_hand(m.group(2), n, line)
            continue
        if s[0] in "▲△☗☖":  # a KI2 line: moves in Japanese notation, no numbers, no times
            st = begin(n, line)
            for token in re.findall(r"[▲△☗☖][^▲△☗☖]*", s):
                tok = token.strip().strip("\u3000")
                if special is not None:
                    raise _err("KI2", n, line, f"a move after the game ended ({special[0]})")
                if (tok[0] in "▲☗") != (st.color == 0):
                    raise _err("KI2", n, line, f"{quote(tok)}: it is {('Sente (▲)', 'Gote (△)')[st.color]} to move")
                if tok[1:].strip() in _KIF_SPECIALS:
                    term, who = _KIF_SPECIALS[tok[1:].strip()]
                    special = (term, who, n, line)
                    continue
                try:
                    move = parse_japanese(st, tok)
                except GameSuiteError as e:
                    raise _err("KI2", n, line, str(e)) from None
                st.play(move)
                last_to = decode_move(move)[1]
                rec.times.append(None)
            continue
        m = _KIF_MOVE_LINE.match(line)
        if m:
            st = begin(n, line)
            number, body = int(m.group(1)), m.group(2)
            tm = _KIF_TIME.search(body)
            seconds = None
            if tm:
                seconds = float(int(tm.group(1)) * 60 + int(tm.group(2)))
                body = body[:tm.start()]
            body = body.strip().strip("\u3000").rstrip("+").strip()
            if special is not None:
                raise _err("KIF", n, line, f"a move after the game ended ({special[0]})")
            if offset is None:  # after a board diagram the numbers may continue the game's count
                offset = number - 1 if board_line is not None else 0
            if number != offset + len(st.history) + 1:
                raise _err("KIF", n, line, f"expected move number {offset + len(st.history) + 1}, got {number}")
            if body in _KIF_SPECIALS:
                term, who = _KIF_SPECIALS[body]
                special = (term, who, n, line)
                continue
            move = _kif_move(st, body, last_to, n, line)
            _check_legal_line(st, move, "KIF", n, line)
            st.play(move)
            last_to = decode_move(move)[1]
            rec.times.append(seconds)
            continue
        m = re.match(r"^([^：:]+)[：:](.*)$", s)
        if m and state is None:
            key, value = m.group(1).strip(), m.group(2).strip()
            if key == "手合割":
                handicap_line = (n, line, value)
            rec.metadata[_KIF_KEYS.get(key, key)] = value
            continue
        raise _err("KIF", n, line, "not a KIF header, move, comment or result line")
    st = begin(len(lines), lines[-1] if lines else "")
    rec.moves = [st.format_move(mv) for mv in st.history]
    if special is not None:
        rec.termination = special[0]
        rec.result = _winner(special[1], st.color)
    else:
        rec.result, rec.termination = _derive_end(st)
    if summary is not None:
        _check_kif_summary(rec, st, offset or 0, *summary)
    return rec


def _check_legal_line(state: ShogiState, move: int, fmt: str, n: int, line: str) -> None:
    try:
        _check_legal(state, move, "move")
    except InvalidRecordError as e:
        raise _err(fmt, n, line, str(e)[len("move: "):]) from None


def _kif_move(state: ShogiState, body: str, last_to: int, n: int, line: str) -> int:
    m = _KIF_MOVE.match(body)
    if not m:
        raise _err("KIF", n, line, f"{quote(body)} is not a KIF move like ７六歩(77), 同　角成(88) or ５五角打")
    g = state.g
    if m.group(1):
        f = int(unicodedata.digit(m.group(1)))
        r = _KANJI_DIGITS.find(m.group(2))
        to = g.sq(r - 1, 9 - f)
    else:
        if last_to < 0:
            raise _err("KIF", n, line, "'同' (same square) without a previous move")
        to = last_to
    t = _KIF_PIECE[m.group(3)]
    action = m.group(4) or ""
    if action == "打" or not m.group(5):
        if t > 7 or action in ("成", "不成", "生"):
            raise _err("KIF", n, line, f"{m.group(3)} cannot be dropped")
        return encode_drop(g.N, t, to)
    f0, r0 = int(m.group(5)), int(m.group(6))
    frm = g.sq(r0 - 1, 9 - f0)
    v = int(state.board[g.sq2p[frm]])
    if not v or (v & 15) != t:
        have = "nothing" if not v else KIF_NAMES[v & 15]
        raise _err("KIF", n, line, f"the move names {m.group(3)} on {f0}{r0} but the square holds {have}")
    if action == "成" and t > 7:
        raise _err("KIF", n, line, f"{m.group(3)} cannot promote")
    return encode_move(frm, to, action == "成")


def _check_kif_summary(rec: GameRecord, st: ShogiState, offset: int, n: int, line: str) -> None:
    m = re.match(r"^まで、?([0-9]{1,6})手", line.strip())
    if not m:
        raise _err("KIF", n, line, "expected 'まで<N>手で...'")
    if int(m.group(1)) != offset + len(st.history):
        raise _err("KIF", n, line, f"says {m.group(1)} moves but the record has {offset + len(st.history)}")
    rest = line.strip()[m.end():]
    w = re.search(r"(先手|後手|下手|上手)の(.*)(勝ち|負け)", rest)
    if w:
        side = "sente" if w.group(1) in ("先手", "下手") else "gote"
        winner = side if w.group(3) == "勝ち" else ("gote" if side == "sente" else "sente")
        if rec.result and rec.result != winner:
            raise _err("KIF", n, line, f"contradicts the result of the record ({rec.result} wins)")
        rec.result = winner
        if not rec.termination:
            rec.termination = "timeout" if "時間切れ" in rest else ("illegal-move" if "反則" in rest else "")
    elif "千日手" in rest or "持将棋" in rest:
        rec.result = "draw"
        rec.termination = rec.termination or ("sennichite" if "千日手" in rest else "jishogi")
    elif "中断" in rest:
        rec.termination = rec.termination or "abort"


# CSA ---------------------------------------------------------------------------

#: A run of CSA ``PI`` / ``P+`` items: two ASCII digits (file, rank) and a piece code each.
_CSA_ITEMS = re.compile(r"(?:[0-9]{2}[A-Z]{2})*")
_CSA_MOVE = re.compile(r"^([+-])([0-9])([0-9])([0-9])([0-9])([A-Z]{2})$")


def _csa_statements(text: str):
    for n, raw in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        line = raw.rstrip("\r\n")
        if line.startswith("'"):
            yield n, line, line
            continue
        for part in line.split(","):
            yield n, line, part.strip()


def read_csa(text: str) -> GameRecord:
    """Parse CSA text (the first game of a file), replaying every move; raises ``InvalidRecordError``."""
    rec = GameRecord()
    state: ShogiState | None = None
    rank_rows: dict[int, list[tuple[int, int] | None]] = {}
    pi_seen = False
    extra: list[tuple[int, str, str]] = []  # P+ / P- statements
    special: tuple[str, str] | None = None
    first_line = (1, "")
    last: tuple[int, str] = (0, "")
    for n, line, st in _csa_statements(text):
        last = (n, line)
        if not st:
            continue
        if st.startswith("'"):
            if st.startswith("'*") and state is not None:
                rec.comments.setdefault(len(state.history), []).append(st[2:])
            elif st.startswith("'*"):
                rec.comments.setdefault(0, []).append(st[2:])
            continue
        if st == "/":
            break
        if st.startswith("$"):
            key, sep, value = st[1:].partition(":")
            if not sep or not key:
                raise _err("CSA", n, line, "a '$' line needs $KEY:value")
            rec.metadata[_CSA_KEYS.get(key, key.lower())] = value
            continue
        if special is not None and st.startswith("T"):
            continue  # the time of the final special move
        if state is None:
            if st.startswith("V"):
                rec.metadata["csa_version"] = st[1:]
                continue
            if st.startswith("N+") or st.startswith("N-"):
                rec.metadata["sente" if st[1] == "+" else "gote"] = st[2:]
                continue
            if st.startswith("PI"):
                if pi_seen or rank_rows:
                    raise _err("CSA", n, line, "a second start position")
                pi_seen = True
                first_line = (n, line)
                body = st[2:]
                if not _CSA_ITEMS.fullmatch(body):
                    raise _err("CSA", n, line, "PI is followed by squares and pieces like 82HI")
                extra.extend((n, line, "PI" + body[i:i + 4]) for i in range(0, len(body), 4))
                continue
            m = re.match(r"^P([1-9])(.*)$", st)
            if m:
                if pi_seen:
                    raise _err("CSA", n, line, "P1..P9 and PI cannot both be used")
                r = int(m.group(1))
                if r in rank_rows:
                    raise _err("CSA", n, line, f"rank {r} given twice")
                if not rank_rows:
                    first_line = (n, line)
                body = m.group(2)
                width = 5 if len(body.rstrip()) <= 15 else 9
                body = body.ljust(3 * width)
                if len(body) != 3 * width:
                    raise _err("CSA", n, line, f"a rank line has {width} cells of three characters")
                row: list[tuple[int, int] | None] = []
                for i in range(width):
                    cell = body[3 * i:3 * i + 3]
                    if cell.strip() == "*":
                        row.append(None)
                    elif cell[0] in "+-" and cell[1:] in CSA_CODES[1:]:
                        row.append((0 if cell[0] == "+" else 1, CSA_CODES.index(cell[1:])))
                    else:
                        raise _err("CSA", n, line, f"unknown cell {quote(cell)}")
                rank_rows[r] = row
                continue
            if st.startswith("P+") or st.startswith("P-"):
                body = st[2:]
                if not body or not _CSA_ITEMS.fullmatch(body):
                    raise _err("CSA", n, line, "P+/P- are followed by squares and pieces like 00KI or 55FU")
                extra.extend((n, line, st[:2] + body[i:i + 4]) for i in range(0, len(body), 4))
                continue
            if st in ("+", "-"):
                state = _csa_start(rec, rank_rows, pi_seen, extra, 0 if st == "+" else 1, n, line, first_line)
                continue
            if st.startswith("T") or st.startswith("%") or _CSA_MOVE.match(st):
                raise _err("CSA", n, line, "moves need a start position and a side to move ('+' or '-') first")
            raise _err("CSA", n, line, "not a CSA version, name, info, position or side line")
        if st.startswith("T"):
            if not rec.times or rec.times[-1] is not None:
                raise _err("CSA", n, line, "a time T<seconds> must follow a move")
            if not re.fullmatch(r"[0-9]{1,9}(\.[0-9]{1,6})?", st[1:]):
                raise _err("CSA", n, line, "time must be T<seconds> (ASCII digits)")
            rec.times[-1] = float(st[1:])
            continue
        if special is not None:
            raise _err("CSA", n, line, f"nothing may follow the end of the game ({special[0]})")
        if st.startswith("%"):
            if st not in _CSA_SPECIALS:
                raise _err("CSA", n, line, f"unknown special move {quote(st)}")
            special = _CSA_SPECIALS[st]
            continue
        m = _CSA_MOVE.match(st)
        if not m:
            raise _err("CSA", n, line, "not a CSA move like +7776FU, a time T10 or a special %TORYO")
        move = _csa_move(state, m, n, line)
        _check_legal_line(state, move, "CSA", n, line)
        state.play(move)
        rec.times.append(None)
    if state is None:
        raise _err("CSA", last[0], last[1], "no start position with a side to move ('+' or '-')")
    rec.moves = [state.format_move(mv) for mv in state.history]
    if special is not None:
        rec.termination, who = special
        rec.result = _winner(who, state.color)
    else:
        rec.result, rec.termination = _derive_end(state)
    return rec


def _csa_start(rec: GameRecord, rank_rows: dict, pi_seen: bool, extra: list, color: int,
               n: int, line: str, first_line: tuple[int, str]) -> ShogiState:
    if pi_seen or not rank_rows:
        if rank_rows:
            raise _err("CSA", n, line, "P1..P9 and PI cannot both be used")
        start = _game("standard").state_from_text(STANDARD_START)
        size = 9
        grid: list[list[tuple[int, int] | None]] = [[None] * 9 for _ in range(9)]
        g = start.g
        if pi_seen:
            for sq in range(g.N):
                v = int(start.board[g.sq2p[sq]])
                if v:
                    grid[sq // 9][sq % 9] = (0 if v & BLACK_BIT else 1, v & 15)
    else:
        widths = {len(r) for r in rank_rows.values()}
        size = widths.pop() if len(widths) == 1 else 0
        if size not in (5, 9) or sorted(rank_rows) != list(range(1, size + 1)):
            raise _err("CSA", first_line[0], first_line[1],
                       "the board needs every rank P1..P9 (or P1..P5 for minishogi) of equal width")
        grid = [list(rank_rows[r]) for r in range(1, size + 1)]
    variant = "standard" if size == 9 else "mini"
    hands: list[dict[int, int]] = [{}, {}]
    full = {1: 18, 2: 4, 3: 4, 4: 4, 5: 2, 6: 2, 7: 4} if size == 9 else {1: 2, 4: 2, 5: 2, 6: 2, 7: 2}
    al: list[tuple[int, int, str]] = []
    for en, eline, item in extra:
        sign, f, r, code = item[:2], int(item[2]), int(item[3]), item[4:]
        if sign == "PI":
            if not (1 <= f <= 9 and 1 <= r <= 9) or code not in CSA_CODES[1:]:
                raise _err("CSA", en, eline, f"bad removed piece {quote(item[2:])}")
            cell = grid[r - 1][9 - f]
            if cell is None or CSA_CODES[cell[1]] != code:
                raise _err("CSA", en, eline, f"no {code} on {f}{r} to remove")
            grid[r - 1][9 - f] = None
            continue
        c = 0 if sign == "P+" else 1
        if f == 0 and r == 0:
            if code == "AL":
                al.append((c, en, eline))
                continue
            t = CSA_CODES.index(code) if code in CSA_CODES[1:8] else -1
            if t < 0:
                raise _err("CSA", en, eline, f"{quote(code)} cannot be in hand")
            hands[c][t] = hands[c].get(t, 0) + 1
            continue
        if not (1 <= f <= size and 1 <= r <= size) or code not in CSA_CODES[1:]:
            raise _err("CSA", en, eline, f"bad square or piece {quote(item[2:])}")
        grid[r - 1][size - f] = (c, CSA_CODES.index(code))
    if al:
        if len(al) > 1:
            raise _err("CSA", al[1][1], al[1][2], "00AL given twice")
        c = al[0][0]
        used = {t: hands[0].get(t, 0) + hands[1].get(t, 0) for t in full}
        for row in grid:
            for cell in row:
                if cell and cell[1] != 8:
                    t = cell[1] - PROMOTED if cell[1] > 8 else cell[1]
                    used[t] += 1
        for t, total in full.items():
            if total - used[t] > 0:
                hands[c][t] = hands[c].get(t, 0) + total - used[t]
    rec.variant = variant
    sfen = _sfen_of(grid, hands, color)
    state = _start_state(variant, sfen, "CSA", n, line)
    rec.start_sfen = state.sfen()
    return state


def _csa_move(state: ShogiState, m: re.Match, n: int, line: str) -> int:
    g = state.g
    size = g.files
    if (m.group(1) == "+") != (state.color == 0):
        raise _err("CSA", n, line, f"it is {'Sente (+)' if state.color == 0 else 'Gote (-)'} to move")
    f0, r0, f1, r1 = (int(m.group(i)) for i in range(2, 6))
    code = m.group(6)
    if code not in CSA_CODES[1:]:
        raise _err("CSA", n, line, f"unknown piece {quote(code)}")
    t = CSA_CODES.index(code)
    if not (1 <= f1 <= size and 1 <= r1 <= size):
        raise _err("CSA", n, line, f"target {f1}{r1} is off the {size}x{size} board")
    to = g.sq(r1 - 1, size - f1)
    if f0 == 0 and r0 == 0:
        if t > 7:
            raise _err("CSA", n, line, f"{code} cannot be dropped")
        return encode_drop(g.N, t, to)
    if not (1 <= f0 <= size and 1 <= r0 <= size):
        raise _err("CSA", n, line, f"origin {f0}{r0} is off the {size}x{size} board")
    frm = g.sq(r0 - 1, size - f0)
    v = int(state.board[g.sq2p[frm]])
    have = v & 15
    if not v:
        raise _err("CSA", n, line, f"no piece on {f0}{r0}")
    if have == t:
        return encode_move(frm, to, False)
    if have <= 6 and t == have + PROMOTED:
        return encode_move(frm, to, True)
    raise _err("CSA", n, line, f"the piece on {f0}{r0} is {CSA_CODES[have]}, which cannot become {code}")


# -- writing ------------------------------------------------------------------

_IMPLIED = {"resign": "other", "checkmate": "other", "timeout": "other", "declaration": "mover",
            "sennichite": "draw", "jishogi": "draw", "draw-agreement": "draw"}


def _replay(record: GameRecord) -> tuple[ShogiState, ShogiState]:
    """(start state, final state) of a record, checking every move and the result."""
    if record.result not in RESULTS:
        raise InvalidRecordError(f"result must be one of {RESULTS}, got {quote(record.result)}")
    try:
        start = _game(record.variant).state_from_text(record.start_sfen)
    except InvalidPositionError as e:
        raise InvalidRecordError(f"bad start position: {e}") from None
    final = record.state()
    implied = _IMPLIED.get(record.termination)
    if implied and record.result and _winner(implied, final.color) != record.result:
        side = ("Sente", "Gote")[final.color]
        raise InvalidRecordError(f"the record's result {quote(record.result)} contradicts its termination "
                                 f"{quote(record.termination)} with {side} to move after {len(final.history)} moves")
    return start, final


def _mover_word(record: GameRecord, mover: int) -> str:
    """'mover', 'other' or 'draw'/'' for the record's result seen from the side to move at the end."""
    if record.result == "draw":
        return "draw"
    if record.result in ("sente", "gote"):
        return "mover" if ("sente", "gote")[mover] == record.result else "other"
    return ""


def _kif_width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def _kif_square(g, sq: int) -> str:
    row, col = divmod(sq, g.files)
    return _ZEN_DIGITS[9 - col] + _KANJI_DIGITS[row + 1]


def _kanji_count(k: int) -> str:
    if k <= 1:
        return ""
    if k < 10:
        return _KANJI_DIGITS[k]
    return ("" if k < 20 else _KANJI_DIGITS[k // 10]) + "十" + (_KANJI_DIGITS[k % 10] if k % 10 else "")


def _kif_header(record: GameRecord, start: ShogiState) -> tuple[list[str], tuple[str, str]]:
    """The header lines of a KIF or KI2 file and the players' titles (先手/後手, or 下手/上手 with a handicap)."""
    handicap = next((name for name, sfen in KIF_HANDICAPS.items()
                     if sfen.split()[:3] == start.sfen().split()[:3]), None)
    upper = handicap not in (None, "平手")
    names = ("下手", "上手") if upper else ("先手", "後手")
    out = ["# ---- gamesuite 棋譜ファイル ----"]
    for key in ("start_time", "end_time", "event", "title", "site", "time_control", "opening"):
        if record.metadata.get(key):
            out.append(f"{_KIF_KEYS_OUT[key]}：{record.metadata[key]}")
    known = set(_KIF_KEYS.values()) | {"csa_version"}
    for key, value in record.metadata.items():
        if key not in known and re.fullmatch(r"[^：:\s]+", key):
            out.append(f"{key}：{value}")
    if handicap is not None:
        out.append(f"手合割：{handicap}")
    else:
        out.append("手合割：その他")
        out.extend(_bod(start, names))
    out.append(f"{names[0]}：{record.metadata.get('sente', '')}")
    out.append(f"{names[1]}：{record.metadata.get('gote', '')}")
    if handicap is None and start.color == 1:
        out.append(f"{names[1]}番")
    return out, names


def _kif_ending(record: GameRecord, final: ShogiState, names: tuple[str, str], special_line: bool) -> list[str]:
    """The lines after the moves: the special move (``投了``...; KIF only) and ``まで64手で先手の勝ち``."""
    out = []
    n = len(final.history)
    mover = final.color
    word = _mover_word(record, mover)
    special = {"resign": "投了", "checkmate": "詰み", "abort": "中断", "sennichite": "千日手",
               "jishogi": "持将棋", "timeout": "切れ負け", "declaration": "入玉勝ち"}.get(record.termination)
    if record.termination in ("illegal-move", "perpetual-check"):
        special = "反則勝ち" if word == "mover" else "反則負け"
    if special and special_line:
        out.append(f"{n + 1:>4} {special}")
    if record.result in ("sente", "gote"):
        winner = names[0 if record.result == "sente" else 1]
        how = {"timeout": "時間切れにより", "declaration": "入玉宣言により"}.get(record.termination, "")
        foul = "の反則勝ち" if record.termination in ("illegal-move", "perpetual-check") else "の勝ち"
        out.append(f"まで{n}手で{how}{winner}{foul}")
    elif record.result == "draw":
        out.append(f"まで{n}手で{'持将棋' if record.termination == 'jishogi' else '千日手'}")
    elif record.termination == "abort":
        out.append(f"まで{n}手で中断")
    return out


def write_kif(record: GameRecord) -> str:
    """The record as KIF text (Kifu for Windows style); save it with ``save_record``."""
    if record.variant != "standard":
        raise InvalidRecordError("KIF is a 9x9 format with no minishogi convention; write minishogi as CSA")
    start, final = _replay(record)
    g = start.g
    out, names = _kif_header(record, start)
    out.append("手数----指手---------消費時間--")
    out.extend("*" + c for c in record.comments.get(0, []))
    state = start.copy()
    totals = [0.0, 0.0]
    last_to = -1

    def timed(num: int, text: str, seconds: float | None, mover: int) -> str:
        pad = " " * max(1, 13 - _kif_width(text))
        if seconds is None:
            return f"{num:>4} {text}"
        totals[mover] += seconds
        s, tot = int(seconds), int(totals[mover])
        return (f"{num:>4} {text}{pad}({s // 60:>2}:{s % 60:02d}/"
                f"{tot // 3600:02d}:{tot // 60 % 60:02d}:{tot % 60:02d})")

    for i, move in enumerate(final.history):
        frm, to, promo = decode_move(move)
        dest = "同　" if to == last_to else _kif_square(g, to)
        if frm >= g.N:
            text = f"{dest}{KIF_NAMES[frm - g.N + 1]}打"
        else:
            t = int(state.board[g.sq2p[frm]]) & 15
            suffix = "成" if promo else ""
            if not promo and t <= 6 and move + 1 in state.legal_moves():
                suffix = "不成"
            row, col = divmod(frm, g.files)
            text = f"{dest}{KIF_NAMES[t]}{suffix}({9 - col}{row + 1})"
        seconds = record.times[i] if i < len(record.times) else None
        out.append(timed(i + 1, text, seconds, state.color))
        state.play(move)
        last_to = to
        out.extend("*" + c for c in record.comments.get(i + 1, []))
    out.extend(_kif_ending(record, final, names, special_line=True))
    return "\n".join(out) + "\n"


#: Moves on one line of a KI2 file, and the width each takes (in Shift-JIS bytes, as Kifu for Windows counts).
KI2_PER_LINE, KI2_WIDTH = 6, 12


def _sjis_width(s: str) -> int:
    try:
        return len(s.encode("cp932"))
    except UnicodeEncodeError:
        return _kif_width(s)


def write_ki2(record: GameRecord) -> str:
    """The record as KI2 text: KIF's headers, then the moves in Japanese notation (``▲７六歩    △３四歩``),
    several to a line, with the words that tell pieces apart (右/左/直/上/引/寄) instead of origins, and
    no times. A comment ends its line."""
    if record.variant != "standard":
        raise InvalidRecordError("KI2 is a 9x9 format with no minishogi convention; write minishogi as CSA")
    start, final = _replay(record)
    out, names = _kif_header(record, start)
    out.extend("*" + c for c in record.comments.get(0, []))
    state = start.copy()
    line: list[str] = []

    def flush() -> None:
        if line:
            out.append("".join(t + " " * max(1, KI2_WIDTH - _sjis_width(t)) for t in line[:-1]) + line[-1])
            line.clear()

    for i, move in enumerate(final.history):
        line.append(japanese(state, move, ki2=True))
        state.play(move)
        comments = record.comments.get(i + 1, [])
        if comments or len(line) == KI2_PER_LINE:
            flush()
        out.extend("*" + c for c in comments)
    flush()
    out.extend(_kif_ending(record, final, names, special_line=False))
    return "\n".join(out) + "\n"


def _bod(state: ShogiState, names: tuple[str, str]) -> list[str]:
    g = state.g

    def hand(c: int) -> str:
        items = [BOD_NAMES[t] + _kanji_count(int(state.hands[c, t])) for t in HAND_ORDER if state.hands[c, t]]
        return "　".join(items) + "　" if items else "なし"

    lines = [f"{names[1]}の持駒：{hand(1)}", "  ９ ８ ７ ６ ５ ４ ３ ２ １", "+---------------------------+"]
    for r in range(9):
        cells = ""
        for c in range(9):
            v = int(state.board[g.sq2p[g.sq(r, c)]])
            cells += " ・" if not v else ("v" if not v & BLACK_BIT else " ") + BOD_NAMES[v & 15]
        lines.append(f"|{cells}|{_KANJI_DIGITS[r + 1]}")
    lines += ["+---------------------------+", f"{names[0]}の持駒：{hand(0)}"]
    return lines


def write_csa(record: GameRecord) -> str:
    """The record as CSA V2.2 text (minishogi with the 5x5 MSK convention)."""
    start, final = _replay(record)
    g = start.g
    out = ["V2.2", f"N+{record.metadata.get('sente', '')}", f"N-{record.metadata.get('gote', '')}"]
    for key, csa_key in (("event", "EVENT"), ("site", "SITE"), ("start_time", "START_TIME"),
                         ("end_time", "END_TIME"), ("time_control", "TIME_LIMIT"), ("opening", "OPENING")):
        if record.metadata.get(key):
            out.append(f"${csa_key}:{record.metadata[key]}")
    out.extend("'*" + c for c in record.comments.get(0, []))
    if record.variant == "standard" and start.sfen().split()[:3] == STANDARD_START.split()[:3]:
        out.append("PI")
    else:
        for r in range(g.ranks):
            row = ""
            for c in range(g.files):
                v = int(start.board[g.sq2p[g.sq(r, c)]])
                row += " * " if not v else ("+" if v & BLACK_BIT else "-") + CSA_CODES[v & 15]
            out.append(f"P{r + 1}{row}")
        for c, sign in ((0, "+"), (1, "-")):
            items = "".join("00" + CSA_CODES[t] for t in HAND_ORDER for _ in range(int(start.hands[c, t])))
            if items:
                out.append(f"P{sign}{items}")
    out.append("+" if start.color == 0 else "-")
    state = start.copy()
    for i, move in enumerate(final.history):
        frm, to, promo = decode_move(move)
        sign = "+" if state.color == 0 else "-"
        tr, tc = divmod(to, g.files)
        if frm >= g.N:
            text = f"{sign}00{g.files - tc}{tr + 1}{CSA_CODES[frm - g.N + 1]}"
        else:
            fr, fc = divmod(frm, g.files)
            t = (int(state.board[g.sq2p[frm]]) & 15) + (PROMOTED if promo else 0)
            text = f"{sign}{g.files - fc}{fr + 1}{g.files - tc}{tr + 1}{CSA_CODES[t]}"
        out.append(text)
        seconds = record.times[i] if i < len(record.times) else None
        if seconds is not None:
            out.append(f"T{int(seconds)}" if float(seconds).is_integer() else f"T{seconds:g}")
        state.play(move)
        out.extend("'*" + c for c in record.comments.get(i + 1, []))
    mover = final.color
    word = _mover_word(record, mover)
    term = record.termination
    special = {"resign": "%TORYO", "checkmate": "%TSUMI", "abort": "%CHUDAN", "sennichite": "%SENNICHITE",
               "jishogi": "%JISHOGI", "timeout": "%TIME_UP", "declaration": "%KACHI",
               "draw-agreement": "%HIKIWAKE"}.get(term)
    if term in ("illegal-move", "perpetual-check"):
        loser = {"mover": 1 - mover, "other": mover}.get(word, mover)
        special = "%ILLEGAL_MOVE" if loser == mover else f"%{'+-'[loser]}ILLEGAL_ACTION"
    if special:
        out.append(special)
    return "\n".join(out) + "\n"


def save_record(record: GameRecord, path: str | os.PathLike, encoding: str | None = None) -> None:
    """Write ``record`` to ``path``: ``.csa`` as CSA, ``.kif`` / ``.ki2`` as Shift-JIS KIF / KI2, ``.kifu`` /
    ``.ki2u`` as UTF-8 KIF / KI2."""
    p = Path(path)
    ext = p.suffix.lower()
    if ext == ".csa":
        text = write_csa(record)
        enc = encoding or "utf-8"
    elif ext in (".kif", ".kifu"):
        text = write_kif(record)
        enc = encoding or ("cp932" if ext == ".kif" else "utf-8")
    elif ext in (".ki2", ".ki2u"):
        text = write_ki2(record)
        enc = encoding or ("cp932" if ext == ".ki2" else "utf-8")
    else:
        raise InvalidRecordError(f"record file {quote(str(p))} needs the extension .kif, .kifu, .ki2, .ki2u "
                                 "or .csa")
    try:
        data = text.encode(enc)
    except UnicodeEncodeError as e:
        raise InvalidRecordError(f"{quote(e.object[e.start:e.end])} cannot be written in {enc}; "
                                 "save as .kifu (UTF-8)") from None
    except LookupError:
        raise InvalidRecordError(f"unknown encoding {quote(enc)}") from None
    try:
        write_atomic(p, data.replace(b"\n", b"\r\n") if enc.lower() in ("cp932", "shift_jis", "sjis") else data)
    except OSError as e:
        raise InvalidRecordError(f"cannot write {quote(str(p))}: {e.strerror or e}") from None


def record_from_state(state: ShogiState, metadata: dict[str, str] | None = None,
                      result: str = "", termination: str = "") -> GameRecord:
    """A record of the game that led to ``state`` (its start position and moves)."""
    if result not in RESULTS:
        raise InvalidRecordError(f"result must be one of {RESULTS}, got {quote(result)}")
    rec = GameRecord(start_sfen=state.root_sfen, moves=[state.format_move(m) for m in state.history],
                     metadata=dict(metadata or {}), result=result, termination=termination,
                     times=[None] * len(state.history), variant=state.g.variant)
    if not result and not termination:
        rec.result, rec.termination = _derive_end(state)
    return rec


__all__ = ["GameRecord", "InvalidRecordError", "KIF_HANDICAPS", "MINI_START", "decode_bytes", "detect_format",
           "info_of",
           "read_csa", "read_kif", "read_record", "record_from_state", "record_with_info", "save_record", "write_csa",
           "write_ki2", "write_kif"]


def info_of(record: GameRecord) -> GameInfo:
    """The players' names, times, comments and other headers of ``record`` as a ``GameInfo``."""
    meta = {k: v for k, v in record.metadata.items() if k not in ("sente", "gote", "handicap", "csa_version")}
    timeout = None
    if record.termination == "timeout" and record.result in ("sente", "gote"):
        timeout = 1 if record.result == "sente" else 0
    return GameInfo(names=[record.metadata.get("sente", ""), record.metadata.get("gote", "")],
                    times=list(record.times), comments={i: "\n".join(c) for i, c in record.comments.items()},
                    metadata=meta, timeout=timeout)


def record_with_info(state: ShogiState, info: GameInfo | None) -> GameRecord:
    """A record of the game that led to ``state`` with ``info``'s names, times, comments and headers."""
    info = info or GameInfo()
    meta = {k: v for k, v in info.metadata.items() if k not in ("sente", "gote")}
    if info.name(0):
        meta["sente"] = info.name(0)
    if info.name(1):
        meta["gote"] = info.name(1)
    if info.timeout in (0, 1):
        rec = record_from_state(state, meta, result="gote" if info.timeout == 0 else "sente", termination="timeout")
    else:
        rec = record_from_state(state, meta)
    n = len(state.history)
    rec.times = [info.time(i) for i in range(n)]
    rec.comments = {i: text.splitlines() or [""] for i, text in info.comments.items() if 0 <= i <= n and text}
    return rec


def _format(name: str, extensions: tuple[str, ...], fmt: str, write) -> tuple:  # type: ignore[no-untyped-def]
    """A ``FILE_FORMATS`` entry: reading ``fmt`` ("kif" reads KI2 too) and writing with ``write``."""

    def load(text: str) -> ShogiState:
        return read_record(text, fmt=fmt).state()

    def load_info(text: str) -> tuple[ShogiState, GameInfo]:
        rec = read_record(text, fmt=fmt)
        return rec.state(), info_of(rec)

    # The window writes every file in UTF-8: a KIF or KI2 file says so on its first line, as ShogiHome
    # writes it (readers that expect Shift-JIS for .kif look there).
    head = "#KIF version=2.0 encoding=UTF-8\n" if fmt == "kif" else ""

    def save(state: ShogiState) -> str:
        return head + write(record_from_state(state))

    def save_info(state: ShogiState, info: GameInfo) -> str:
        return head + write(record_with_info(state, info))

    return (name, extensions, load, save, load_info, save_info)


#: The formats the window offers in Game › Import/Export (see gamesuite/gui/formats.py):
#: ``(name, extensions, load, save, load with its GameInfo, save with a GameInfo)``.
FILE_FORMATS = [
    _format("KIF", ("kif", "kifu"), "kif", write_kif),
    _format("KI2", ("ki2", "ki2u"), "kif", write_ki2),
    _format("CSA", ("csa",), "csa", write_csa),
]
