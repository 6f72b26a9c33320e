"""How long or how deep an engine may think."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import InvalidOptionError


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
        for name in ("depth", "nodes", "movetime", "byoyomi", "moves_to_go", "mate"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or v < 0):
                raise InvalidOptionError(f"limit {name} must be a non-negative integer, got {v!r}")
        if not isinstance(self.multipv, int) or self.multipv < 1:
            raise InvalidOptionError(f"multipv must be a positive integer, got {self.multipv!r}")
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
    def parse_clock(cls, text: str, players: int = 2) -> "Limits":
        """Parse ``BASE+INC`` in seconds (``"60+0.5"``) into a clock for every player."""
        try:
            base_s, _, inc_s = text.partition("+")
            base = int(round(float(base_s) * 1000))
            inc = int(round(float(inc_s) * 1000)) if inc_s else 0
        except ValueError:
            raise InvalidOptionError(f"clock must look like BASE+INC in seconds, got {text!r}") from None
        if base <= 0 or inc < 0:
            raise InvalidOptionError(f"clock must have a positive base and no negative increment: {text!r}")
        return cls(time_left=(base,) * players, increment=(inc,) * players)


def default_limits() -> Limits:
    """A short search suitable for a quick hint."""
    return Limits(movetime=1000)


__all__ = ["Limits", "default_limits", "field"]
