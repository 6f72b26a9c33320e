"""The Gomocup codec: cells as ``x,y``, a game's rule as ``INFO rule``, ``Limits`` as ``INFO`` lines,
and a program's reports (gamesuite's ``MESSAGE depth ...``, Yixin-Board's ``INFO PV`` blocks) read back.

Our brain (``protocols.gomocup``) writes ``MESSAGE`` lines with ``message_line`` and reads ``x,y``
cells with ``XY``; the arena's and the window's external Gomocup programs (``arena.external``:
``GomocupPlayer`` and ``GomocupEngine``) are driven with ``limit_lines`` and ``rule_code`` and their
reports read with ``parse_message``, ``gomocup_score`` and ``parse_count``.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.info import SearchInfo
from ..core.limits import Limits
from ..core.score import Score

#: A cell ``x,y`` (ASCII digits, bounded).
XY = re.compile(r"^\s*(-?[0-9]{1,4})\s*,\s*(-?[0-9]{1,4})\s*$")
#: A ``BOARD`` line ``x,y,field``.
XYF = re.compile(r"^\s*(-?[0-9]{1,4})\s*,\s*(-?[0-9]{1,4})\s*,\s*(-?[0-9]{1,4})\s*$")
#: ``INFO rule`` codes by our rule names (Gomocup: bit 1 exactly five, bit 4 renju, bit 8 caro).
RULES = {"freestyle": 0, "standard": 1, "exact": 1, "exactfive": 1, "renju": 4, "caro": 8}
#: ``timeout_turn`` for a search with no time limit (about 11 days; a 32-bit millisecond count).
FOREVER_MS = 1_000_000_000
_MATE = re.compile(r"^([+-]?)M(\d+)$", re.I)


def parse_xy(text: str) -> tuple[int, int] | None:
    """``x,y`` as numbers, or None when ``text`` is no cell."""
    m = XY.match(text)
    return (int(m.group(1)), int(m.group(2))) if m else None


def rule_code(game: Any) -> int:
    """The ``INFO rule`` code of ``game``: its ``gomocup_rule`` if it has one, else by its ``rule``."""
    rule = getattr(game, "gomocup_rule", None)
    if rule is None:
        rule = RULES.get(str(getattr(game, "values", {}).get("rule", "freestyle")).lower(), 0)
    return int(rule)


def limit_lines(limits: Limits, seat: int, work_cap_ms: int, sent: dict[str, int]) -> list[str]:
    """``limits`` as ``INFO`` lines for the player in ``seat``.

    A time per move is ``timeout_turn``; a clock is ``timeout_turn`` (what is left, and the
    byoyomi) and ``time_left``; a work limit alone (``nodes``/``depth``) is also a time cap of
    ``work_cap_ms``, for programs that do not read ``MAX_NODE``/``MAX_DEPTH``; no limit (or
    ``infinite``) is a ``timeout_turn`` of ``FOREVER_MS``. ``MAX_NODE``/``MAX_DEPTH`` (the
    Yixin-Board extension Rapfi and our brain read) are sent when set, and set back to 0 once no
    longer wanted; ``sent`` keeps what the program was told (a new process: an empty dict).
    """
    out = []
    if limits.movetime is not None and not limits.infinite:
        out += [f"INFO timeout_turn {max(1, limits.movetime)}", "INFO timeout_match 0"]
    elif limits.time_left is not None and not limits.infinite:
        left = limits.time_left[seat] if 0 <= seat < len(limits.time_left) else limits.time_left[0]
        out += [f"INFO timeout_turn {max(1, left + (limits.byoyomi or 0))}", f"INFO time_left {max(0, left)}"]
    elif not limits.infinite and (limits.nodes is not None or limits.depth is not None):
        out += [f"INFO timeout_turn {max(1, work_cap_ms)}", "INFO timeout_match 0"]
    else:
        out += [f"INFO timeout_turn {FOREVER_MS}", "INFO timeout_match 0"]
    for key, value in (("MAX_NODE", None if limits.infinite else limits.nodes),
                       ("MAX_DEPTH", None if limits.infinite else limits.depth)):
        v = int(value or 0)
        if v or sent.get(key):
            out.append(f"INFO {key} {v}")
            sent[key] = v
    return out


def parse_count(text: str) -> int:
    """``123``, ``12K``, ``3M`` as an integer (0 when it is none)."""
    m = re.match(r"^([0-9.]+)([KMG]?)$", text.strip(), re.I)
    if not m:
        return 0
    try:
        return int(float(m.group(1)) * {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}[m.group(2).upper()])
    except ValueError:
        return 0


def gomocup_score(text: str, pov: int) -> Score | None:
    """A Gomocup program's evaluation of the side to move: ``85``, ``-M7``/``+M7`` (Rapfi's mate in
    plies), or gamesuite's ``+0.85``, ``win in 3``, ``loss in 2``, ``draw`` (``Score.text``)."""
    t = text.strip()
    m = _MATE.match(t)
    if m:
        n = int(m.group(2))
        return Score.mate(-n if m.group(1) == "-" else n, pov)
    w = t.split()
    if len(w) == 3 and w[0] in ("win", "loss") and w[1] == "in" and w[2].isdigit():
        n = int(w[2])
        return Score.mate(2 * n - 1 if w[0] == "win" else -2 * n, pov)
    if t == "draw":
        return Score.eval(0, pov)
    try:
        return Score.eval(float(t) * 100 if "." in t else int(t), pov)
    except ValueError:
        return None


def message_line(info: SearchInfo, size: int) -> str:
    """A ``MESSAGE`` line for one search report (PV in ``x,y``); ``parse_message`` reads it back."""
    pv = " ".join(f"{m % size},{m // size}" for m in info.pv)
    return (f"MESSAGE depth {info.depth}/{info.seldepth} score {info.score.text()} nodes {info.nodes} "
            f"nps {info.nps} time {info.time_ms} pv {pv}")


def parse_message(words: list[str]) -> dict[str, Any] | None:
    """The words after ``MESSAGE`` of a ``message_line`` as ``depth``, ``seldepth``, ``score`` (its text),
    ``nodes``, ``nps``, ``time`` and ``pv`` (the cells' words); None for any other message."""
    if not words or words[0].lower() != "depth" or "pv" not in words or "score" not in words:
        return None
    i_score, i_pv = words.index("score"), words.index("pv")
    ends = [i for i, w in enumerate(words) if w in ("nodes", "nps", "time", "pv") and i > i_score]
    d = words[1].split("/") if len(words) > 1 else ["0"]
    vals = {w: words[i + 1] for i, w in enumerate(words[:-1]) if w in ("nodes", "nps", "time")}
    depth = parse_count(d[0])
    return {"depth": depth, "seldepth": max(depth, parse_count(d[1]) if len(d) > 1 else 0),
            "score": " ".join(words[i_score + 1:min(ends) if ends else len(words)]),
            "nodes": parse_count(vals.get("nodes", "0")), "nps": parse_count(vals.get("nps", "0")),
            "time": parse_count(vals.get("time", "0")), "pv": words[i_pv + 1:]}
