"""What an engine says while and after it thinks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .limits import Limits
from .score import Score


@dataclass(frozen=True)
class SearchInfo:
    """One report of a search: usually one completed iteration of one PV line."""

    search_id: int
    depth: int
    seldepth: int
    score: Score
    pv: tuple[int, ...]
    nodes: int
    nps: int
    time_ms: int
    multipv: int = 1
    hashfull: int = 0  # per mille
    text: str = ""  # free-form remark (e.g. "mate found", "book")

    def to_json(self, format_move: Callable[[int], str] | None = None) -> dict:
        d = {
            "search_id": self.search_id,
            "depth": self.depth,
            "seldepth": self.seldepth,
            "score": self.score.to_json(),
            "pv": [format_move(m) for m in self.pv] if format_move else list(self.pv),
            "nodes": self.nodes,
            "nps": self.nps,
            "time_ms": self.time_ms,
            "multipv": self.multipv,
            "hashfull": self.hashfull,
        }
        if self.text:
            d["text"] = self.text
        return d


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search: the move to play and what was seen."""

    best_move: int | None
    score: Score
    pv: tuple[int, ...] = ()
    depth: int = 0
    nodes: int = 0
    time_ms: int = 0
    ponder: int | None = None
    lines: tuple[SearchInfo, ...] = field(default=())  # last info of each multi-PV line


InfoCallback = Callable[[SearchInfo], None]


def new_stop_flag() -> np.ndarray:
    """A stop flag: a one-element ``uint8`` array; set element 0 to 1 to stop."""
    return np.zeros(1, dtype=np.uint8)


@runtime_checkable
class Engine(Protocol):
    """Anything that can search a position of one game: ours (``core.make_engine``) or an external program.

    The contract (``tests/test_engines.py`` checks it for every registered game and engine):

    - ``search`` returns a legal ``best_move`` for a position with moves, whatever stopped it, also
      when ``stop[0]`` is already set on entry; the caller's flag is read, never written;
    - it ends by itself under any one of ``depth``, ``nodes`` or ``movetime`` (or a clock);
    - it chooses only among ``limits.searchmoves`` when given, in its answer and in every report;
    - it gives ``min(multipv, moves)`` lines in ``SearchResult.lines`` with distinct first moves,
      numbered 1..k in order, line 1 starting with ``best_move``;
    - its reports carry one search id, and their time and node counts never go back;
    - it leaves ``state`` as it found it.
    """

    name: str

    def search(
        self,
        state: Any,  # a ``State`` of the engine's game (engines name their own state class)
        limits: Limits,
        stop: np.ndarray | None = None,
        on_info: InfoCallback | None = None,
    ) -> SearchResult:
        """Search ``state`` (left unchanged) within ``limits``; poll ``stop``; report to ``on_info``."""
        ...

    def new_game(self) -> None:
        """Forget what was learnt about the previous game (hash tables, trees)."""
        ...
