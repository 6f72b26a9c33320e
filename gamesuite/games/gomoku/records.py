"""Gomoku game records: gamesuite's text format and Gomocup ``.psq`` files, both ways.

The gamesuite record format (UTF-8 text)::

    [Game "gomoku(size=15,rule=renju)"]
    [Black "Alice"]
    [White "gamesuite"]
    [Result "1-0"]

    1. h8 i9 2. h9 i10 3. h10

- Header lines ``[Name "value"]`` come first; ``Game`` is required (the game
  spec), the others are free (``Result`` is ``1-0``, ``0-1``, ``1/2-1/2`` or
  ``*``). A ``"`` or ``\\`` inside a value is written ``\\"`` / ``\\\\``.
- Then the moves in ``h8`` notation, black first, separated by white space;
  move numbers (``12.``) and a final result token are ignored; ``#`` starts a
  comment that runs to the end of the line.

A Gomocup / Piskvork ``.psq`` file starts with a line such as
``Piskvorky 20x20, 11:11, 0`` followed by one move per line ``x,y,ms`` with
1-based coordinates, ``x`` the column from the left and ``y`` the row from the
top, ``ms`` the milliseconds the move took; the move list ends at the first line of
another shape (Piskvork writes the players' programs and a result code there).
``save_psq`` writes the header, the moves (``ms`` 0 when not known) and the
players' names, one per line, when they are known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.errors import GameSuiteError, InvalidRecordError, quote
from ...core.gameinfo import GameInfo
from ...core.registry import load_game
from .rules import BLACK, WHITE, Gomoku, GomokuState

_HEADER = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


@dataclass
class GameRecord:
    """A game: its headers and the state after its moves (history included)."""

    state: GomokuState
    headers: dict[str, str] = field(default_factory=dict)
    #: Seconds each move took (``.psq`` files record them), None where unknown.
    times: list[float | None] = field(default_factory=list)

    @property
    def game(self) -> Gomoku:
        return self.state.game


def result_of(state: GomokuState) -> str:
    """The result token of ``state``: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (unfinished)."""
    if not state.is_terminal():
        return "*"
    if state.winner == BLACK:
        return "1-0"
    if state.winner == WHITE:
        return "0-1"
    return "1/2-1/2"


def _escape(v: str) -> str:
    return v.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(v: str) -> str:
    return re.sub(r"\\(.)", r"\1", v)


def save_record(state: GomokuState, headers: dict[str, str] | None = None) -> str:
    """The record text of the game that led to ``state`` (from the empty board)."""
    if state._from_diagram:
        raise InvalidRecordError("a position set up from a diagram has no move list to save")
    h = {"Game": state.game.spec}
    for k, v in (headers or {}).items():
        if not re.fullmatch(r"\w+", k):
            raise InvalidRecordError(f"header name {quote(k)} must be letters, digits or _")
        if k != "Game":
            h[k] = str(v)
    h["Result"] = result_of(state)
    lines = [f'[{k} "{_escape(v)}"]' for k, v in h.items()]
    lines.append("")
    moves = [state.format_move(m) for m in state.history]
    out: list[str] = []
    for i in range(0, len(moves), 2):
        out.append(f"{i // 2 + 1}. " + " ".join(moves[i : i + 2]))
    body = []
    line = ""
    for chunk in out:
        if len(line) + len(chunk) > 72 and line:
            body.append(line)
            line = ""
        line = (line + " " + chunk).strip()
    if line:
        body.append(line)
    lines.extend(body)
    lines.append(h["Result"])
    return "\n".join(lines) + "\n"


def load_record(text: str) -> GameRecord:
    """Read a record in gamesuite's format; ``InvalidRecordError`` quoting the bad part."""
    headers: dict[str, str] = {}
    tokens: list[str] = []
    in_header = True
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if in_header and line.startswith("["):
            m = _HEADER.match(line)
            if not m:
                raise InvalidRecordError(f"line {n}: malformed header {quote(raw)}")
            headers[m.group(1)] = _unescape(m.group(2))
            continue
        in_header = False
        tokens.extend(line.split())
    if "Game" not in headers:
        raise InvalidRecordError('record has no [Game "..."] header')
    try:
        game = load_game(headers["Game"])
    except GameSuiteError as e:
        raise InvalidRecordError(f"record header Game: {e}") from None
    if not isinstance(game, Gomoku):
        raise InvalidRecordError(f"record is for {quote(headers['Game'])}, not gomoku")
    state = game.new_state()
    for tok in tokens:
        t = tok
        if re.fullmatch(r"[0-9]+\.+", t) or t in _RESULTS:
            continue
        t = re.sub(r"^[0-9]+\.+", "", t)
        try:
            move = game.parse_cell(t)
        except GameSuiteError as e:
            raise InvalidRecordError(f"record move {len(state.history) + 1}: {e}") from None
        if not state.is_legal(move):
            raise InvalidRecordError(
                f"record move {len(state.history) + 1} {quote(tok)} is illegal: {state.why_illegal(move)}"
            )
        state.play(move)
    return GameRecord(state, headers)


_PSQ_HEAD = re.compile(r"^\s*Piskvorky\s+([0-9]{1,3})\s*x\s*([0-9]{1,3})", re.IGNORECASE)  # ASCII, bounded
_PSQ_MOVE = re.compile(r"^\s*(-?[0-9]{1,3})\s*,\s*(-?[0-9]{1,3})\s*(?:,\s*(-?[0-9]{1,12})\s*)?$")


def load_psq(text: str, rule: str = "freestyle") -> GameRecord:
    """Import a Gomocup ``.psq`` record (the board must be square, 5..26)."""
    lines = text.splitlines()
    if not lines:
        raise InvalidRecordError("empty .psq record")
    m = _PSQ_HEAD.match(lines[0])
    if not m:
        raise InvalidRecordError(f".psq record must start with 'Piskvorky WxH', got {quote(lines[0])}")
    w, h = int(m.group(1)), int(m.group(2))
    if w != h:
        raise InvalidRecordError(f".psq board {w}x{h} is not square")
    try:
        game = load_game(f"gomoku(size={w},rule={rule})")
    except GameSuiteError as e:
        raise InvalidRecordError(f".psq record: {e}") from None
    state = game.new_state()
    assert isinstance(state, GomokuState)
    times: list[float | None] = []
    for n, line in enumerate(lines[1:], 2):
        mm = _PSQ_MOVE.match(line)
        if not mm:
            break
        x, y = int(mm.group(1)), int(mm.group(2))
        times.append(int(mm.group(3)) / 1000 if mm.group(3) is not None and int(mm.group(3)) >= 0 else None)
        if not (1 <= x <= w and 1 <= y <= h):
            raise InvalidRecordError(f".psq line {n}: move {quote(line)} is off the {w}x{h} board")
        move = (y - 1) * w + (x - 1)
        if not state.is_legal(move):
            raise InvalidRecordError(f".psq line {n}: move {quote(line)} is illegal: {state.why_illegal(move)}")
        state.play(move)
    return GameRecord(state, {"Game": game.spec, "Result": result_of(state)}, times)


def save_psq(state: GomokuState, times: list[float | None] | None = None, names: list[str] | None = None) -> str:
    """The ``.psq`` text of the game that led to ``state``: ``times[i]`` the seconds move ``i`` took
    (written in ms, 0 when unknown), ``names`` the players' names (written after the moves when known)."""
    if state._from_diagram:
        raise InvalidRecordError("a position set up from a diagram has no move list to save")
    size = state.game.size
    lines = [f"Piskvorky {size}x{size}, 11:11, 0"]
    for i, move in enumerate(state.history):
        y, x = divmod(int(move), size)
        t = times[i] if times is not None and i < len(times) else None
        lines.append(f"{x + 1},{y + 1},{0 if t is None else round(t * 1000)}")
    if names and any(names):
        lines.extend(n.replace("\n", " ") for n in names)
    return "\n".join(lines) + "\n"


def _headers(info: GameInfo) -> dict[str, str]:
    h = {k: v for k, v in info.metadata.items() if k.isidentifier()}
    h.update({k: n for k, n in (("Black", info.name(0)), ("White", info.name(1))) if n})
    return h


def _load_record_info(text: str) -> tuple[GomokuState, GameInfo]:
    r = load_record(text)
    meta = {k: v for k, v in r.headers.items() if k not in ("Game", "Result", "Black", "White")}
    return r.state, GameInfo(names=[r.headers.get("Black", ""), r.headers.get("White", "")], metadata=meta)


def _load_psq_info(text: str) -> tuple[GomokuState, GameInfo]:
    r = load_psq(text)
    return r.state, GameInfo(times=list(r.times))


#: The game's file formats (``Game.file_formats``): its record text and Gomocup's ``.psq``, each
#: ``(name, extensions, load, save, load_info, save_info)`` (the last two keep names, times, comments).
FILE_FORMATS = [
    ("Gomoku record", ("txt", "gomoku"), lambda text: load_record(text).state, save_record, _load_record_info,
     lambda state, info: save_record(state, _headers(info))),
    ("Gomocup record", ("psq",), lambda text: load_psq(text).state, save_psq, _load_psq_info,
     lambda state, info: save_psq(state, info.times, info.names)),
]
