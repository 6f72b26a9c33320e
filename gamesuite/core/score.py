"""Scores that know whose point of view they are from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ScoreKind = Literal["eval", "mate", "draw", "winrate", "vector"]

#: Integer score of a win at the root in the kernels' convention: a win found
#: ``n`` plies from the root scores ``WIN - n``, a loss ``-(WIN - n)``.
WIN = 1_000_000
#: Scores with an absolute value above this are wins or losses, not evaluations.
WIN_THRESHOLD = WIN - 10_000


@dataclass(frozen=True)
class Score:
    """A search score from the point of view of player ``pov``.

    ``kind`` says what ``value`` means:

    - ``"eval"``: evaluation units (centi-units: 100 is about one unit of material);
    - ``"mate"``: a forced result in ``value`` plies, positive when ``pov`` wins;
    - ``"draw"``: a proven draw (``value`` is 0);
    - ``"winrate"``: expected result for ``pov`` in [0, 1];
    - ``"vector"``: one value per player in ``values`` (``pov`` is ignored).

    >>> Score.mate(3, pov=0).text()
    'win in 2'
    >>> Score.eval(-35, pov=1).flipped().text()
    '+0.35'
    """

    kind: ScoreKind
    value: float
    pov: int = 0
    values: tuple[float, ...] = ()

    @classmethod
    def eval(cls, units: float, pov: int = 0) -> Score:
        return cls("eval", units, pov)

    @classmethod
    def mate(cls, plies: int, pov: int = 0) -> Score:
        """A forced win (``plies`` > 0) or loss (``plies`` < 0) for ``pov``."""
        return cls("mate", int(plies), pov)

    @classmethod
    def draw(cls, pov: int = 0) -> Score:
        return cls("draw", 0, pov)

    @classmethod
    def winrate(cls, rate: float, pov: int = 0) -> Score:
        return cls("winrate", float(rate), pov)

    @classmethod
    def vector(cls, values: tuple[float, ...] | list[float]) -> Score:
        return cls("vector", 0.0, 0, tuple(float(v) for v in values))

    @classmethod
    def from_int(cls, value: int, pov: int, exact: bool = False) -> Score:
        """Convert a kernel's integer score (see ``WIN``) from ``pov``'s view.

        ``exact`` marks a score of a search that saw every line to its end, so that
        0 means a proven draw.
        """
        value = int(value)
        if value > WIN_THRESHOLD:
            return cls.mate(WIN - value, pov)
        if value < -WIN_THRESHOLD:
            return cls.mate(-(WIN + value), pov)
        if exact and value == 0:
            return cls.draw(pov)
        return cls.eval(value, pov)

    def flipped(self) -> Score:
        """The same score from the other player's view (two-player zero-sum games)."""
        other = 1 - self.pov
        if self.kind in ("eval", "mate"):
            return Score(self.kind, -self.value, other)
        if self.kind == "winrate":
            return Score(self.kind, 1.0 - self.value, other)
        return Score(self.kind, self.value, other, self.values)

    def for_player(self, player: int) -> Score:
        """The score from ``player``'s view (two-player games)."""
        return self if player == self.pov or self.kind == "vector" else self.flipped()

    @property
    def is_mate(self) -> bool:
        return self.kind == "mate"

    def mate_moves(self) -> int:
        """Moves of the winning side to the end (signed like ``value``): 'win in N'."""
        plies = int(self.value)
        n = (abs(plies) + 1) // 2
        return n if plies > 0 else -n

    def text(self) -> str:
        """Short human text, e.g. ``+1.25``, ``win in 3``, ``loss in 2``, ``draw``, ``55.0%``."""
        if self.kind == "eval":
            return f"{self.value / 100:+.2f}"
        if self.kind == "mate":
            n = self.mate_moves()
            return f"win in {n}" if n > 0 else f"loss in {-n}"
        if self.kind == "draw":
            return "draw"
        if self.kind == "winrate":
            return f"{100 * self.value:.1f}%"
        return "(" + ", ".join(f"{v:.2f}" for v in self.values) + ")"

    def sort_key(self) -> float:
        """A number that orders scores from ``pov``'s view (wins above evaluations)."""
        if self.kind == "mate":
            return (WIN - abs(self.value)) * (1 if self.value > 0 else -1)
        if self.kind == "winrate":
            return (self.value - 0.5) * 2000
        if self.kind == "vector":
            return self.values[self.pov] if self.values else 0.0
        return float(self.value)

    def to_json(self) -> dict:
        d: dict = {"kind": self.kind, "pov": self.pov}
        if self.kind == "vector":
            d["values"] = list(self.values)
        else:
            d["value"] = self.value
        if self.kind == "mate":
            d["moves"] = self.mate_moves()
        d["text"] = self.text()
        return d

    def __str__(self) -> str:
        return self.text()
