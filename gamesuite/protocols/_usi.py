"""The USI codec: ``Limits`` to a ``go`` line, and a program's ``info`` lines to ``SearchInfo``.

The arena's and the command line's external USI engines (``arena.external``) speak
through these; our own USI front end (``protocols.usi``) reads ``go`` lines and
writes ``info`` lines the other way round.
"""

from __future__ import annotations

import re

from ..core.info import SearchInfo
from ..core.limits import Limits
from ..core.score import Score
from ..core.state import State, legal_line

#: The ``info`` words followed by one integer, and the ``SearchInfo`` field each fills.
_INT_FIELDS = {"depth": "depth", "seldepth": "seldepth", "time": "time_ms", "nodes": "nodes", "nps": "nps",
               "hashfull": "hashfull", "multipv": "multipv"}
_INT = re.compile(r"^[+-]?\d+$")


def go_command(limits: Limits) -> str:
    """The ``go`` line for ``limits`` (a movetime is sent as byoyomi, as USI has it).

    A work limit (``depth``/``nodes``) alone is ``go depth N``/``go nodes N``; with a time
    limit it is appended to the time's ``go`` line. No limit at all is ``go infinite``.
    """
    parts = []
    if limits.infinite:
        parts.append("infinite")
    elif limits.movetime is not None:
        parts.append(f"btime 0 wtime 0 byoyomi {limits.movetime}")
    elif limits.time_left is not None:
        b, w = (list(limits.time_left) + [0, 0])[:2]
        parts.append(f"btime {b} wtime {w}")
        inc = limits.increment or (0, 0)
        if any(inc):
            parts.append(f"binc {inc[0]} winc {inc[1] if len(inc) > 1 else inc[0]}")
        elif limits.byoyomi:
            parts.append(f"byoyomi {limits.byoyomi}")
    elif limits.byoyomi:
        parts.append(f"btime 0 wtime 0 byoyomi {limits.byoyomi}")
    if not limits.infinite:
        if limits.depth is not None:
            parts.append(f"depth {limits.depth}")
        if limits.nodes is not None:
            parts.append(f"nodes {limits.nodes}")
    return "go " + " ".join(parts) if parts else "go infinite"


def parse_info(line: str, state: State, search_id: int = 0) -> SearchInfo | None:
    """The report of an ``info`` line about ``state`` (the position searched), or ``None`` when it carries
    no search report (``info string ...``, ``info currmove ...``, a malformed line).

    The score is for the side to move (``cp N``, ``mate N`` in plies, ``mate +``/``mate -``); the
    principal variation is read in the game's notation up to the first move that is not legal.
    """
    words = line.split()
    if not words or words[0] != "info" or "string" in words[:2]:
        return None
    pov = max(state.current_player, 0)
    values: dict[str, int] = {}
    score: Score | None = None
    pv: list[int] = []
    i = 1
    while i < len(words):
        w = words[i]
        if w in _INT_FIELDS and i + 1 < len(words) and _INT.match(words[i + 1]):
            values[_INT_FIELDS[w]] = int(words[i + 1])
            i += 2
        elif w == "score" and i + 2 < len(words):
            score = _score(words[i + 1], words[i + 2], pov)
            i += 3
            while i < len(words) and words[i] in ("lowerbound", "upperbound"):
                i += 1
        elif w == "pv":
            pv = legal_line(state, words[i + 1:])
            break
        elif w == "string":
            break
        else:
            i += 1
    if score is None and not pv:
        return None
    depth = values.get("depth", len(pv))
    return SearchInfo(search_id=search_id, depth=depth, seldepth=values.get("seldepth", depth),
                      score=score if score is not None else Score.eval(0, pov), pv=tuple(pv),
                      nodes=values.get("nodes", 0), nps=values.get("nps", 0), time_ms=values.get("time_ms", 0),
                      multipv=max(1, values.get("multipv", 1)), hashfull=values.get("hashfull", 0))


def _score(kind: str, value: str, pov: int) -> Score | None:
    if kind == "cp" and _INT.match(value):
        return Score.eval(int(value), pov)
    if kind == "mate":
        if value in ("+", "-"):
            return Score.mate(1 if value == "+" else -1, pov)
        if _INT.match(value):
            return Score.mate(int(value), pov)  # "mate -0": the side to move is mated (protocols.usi)
    return None
