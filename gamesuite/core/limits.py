"""How long or how deep an engine may think."""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Integral

from .errors import InvalidOptionError, quote
from .options import parse_float

#: The largest limits accepted: far beyond any search (a year at 30 M nodes/s does not reach ``MAX_NODES``),
#: yet small enough for every kernel's 64-bit counters and every timer.
MAX_NODES = 10**15
MAX_DEPTH = 10_000
MAX_TIME_MS = 10**10  # 115 days
MAX_MULTIPV = 1000
#: The bound of each integer limit, by name.
LIMIT_MAX = {"depth": MAX_DEPTH, "nodes": MAX_NODES, "movetime": MAX_TIME_MS, "byoyomi": MAX_TIME_MS,
             "moves_to_go": 10_000, "mate": MAX_DEPTH}


@dataclass(frozen=True)
class Limits:
    """Search limits; ``None`` means "no limit of this kind".

    Times are in milliseconds. ``time_left`` and ``increment`` are indexed by
    player (``time_left[p]`` is player ``p``'s clock). With no limit at all the
    search runs until stopped (``infinite``).
    """

    depth: int | None = None
    nodes: int | None = None
    movetime: int | None = None
    time_left: tuple[int, ...] | None = None
    increment: tuple[int, ...] | None = None
    byoyomi: int | None = None
    moves_to_go: int | None = None
    infinite: bool = False
    multipv: int = 1
    mate: int | None = None  # search for a mate in at most this many moves
    #: The root moves to choose among (``None``: every legal move). Engines on the shared
    #: iterative-deepening driver honour it; callers that rely on it check the answer.
    searchmoves: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        for name, hi in LIMIT_MAX.items():
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= hi):
                raise InvalidOptionError(f"limit {name} must be an integer in 0..{hi}, got {quote(v)}")
        for name in ("time_left", "increment"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, tuple) or not all(
                    isinstance(t, Integral) and not isinstance(t, bool) and -MAX_TIME_MS <= int(t) <= MAX_TIME_MS
                    for t in v)):
                raise InvalidOptionError(f"limit {name} must be a tuple of times in ms (|t| <= {MAX_TIME_MS}), "
                                         f"got {quote(v)}")
        if not isinstance(self.multipv, int) or isinstance(self.multipv, bool) or not 1 <= self.multipv <= MAX_MULTIPV:
            raise InvalidOptionError(f"multipv must be an integer in 1..{MAX_MULTIPV}, got {quote(self.multipv)}")
        if self.searchmoves is not None and (
                not isinstance(self.searchmoves, tuple) or not self.searchmoves
                or not all(isinstance(m, int) for m in self.searchmoves)):
            raise InvalidOptionError(f"searchmoves must be a non-empty tuple of moves, got {self.searchmoves!r}")

    @property
    def is_unlimited(self) -> bool:
        """True when nothing but a stop request ends the search."""
        return self.infinite or (
            self.depth is None
            and self.nodes is None
            and self.movetime is None
            and self.time_left is None
            and self.byoyomi is None
            and self.mate is None
        )

    @classmethod
    def parse_clock(cls, text: str, players: int = 2) -> Limits:
        """Parse ``BASE+INC`` in seconds (``"60+0.5"``) into a clock for every player."""
        base_s, _, inc_s = text.partition("+")
        hi = MAX_TIME_MS / 1000
        what = f"clock {quote(text)} (BASE+INC in seconds):"
        base = int(round(parse_float(base_s, f"{what} the base", 0, hi) * 1000))
        inc = int(round(parse_float(inc_s, f"{what} the increment", 0, hi) * 1000)) if inc_s else 0
        if base <= 0 or inc < 0:
            raise InvalidOptionError(f"clock must have a positive base and no negative increment: {text!r}")
        return cls(time_left=(base,) * players, increment=(inc,) * players)


def default_limits() -> Limits:
    """A short search suitable for a quick hint."""
    return Limits(movetime=1000)


__all__ = ["Limits", "default_limits", "field"]
