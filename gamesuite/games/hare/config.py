"""Every tunable of the Hare and Hedgehog engine in one place.

The evaluation of a player still racing is ``E = Ks*S + Kc*C + Kp*P`` (after the
original write-up):

- ``P`` progress: ``3 * square`` (summed over the player's pieces);
- ``C`` carrots, a curve chosen by the stage of the race:
  ``K * sqrt(min(c, need)) - EXCESS * max(0, c - need - limit)`` with
  ``K = C0`` while every piece is in the first half of the track and ``C1``
  after, ``need = NEED_PER_SQUARE * squares still to go`` and ``limit`` the
  carrots finishing allows (10 x the place being taken; 20 for two pieces);
  when the player could enter the finish at once, ``FINISHABLE`` more. Each
  carrot is worth less the more one holds, and carrots beyond what finishing
  allows cost;
- ``S`` lettuces, one curve per number of lettuces held, as a function of the
  lettuce squares still ahead: ``-LETTUCE * held - BEHIND * max(0, held - ahead)``.

A player who has finished is worth ``FINISHED + PLACE_STEP * (players - place)``;
a player who misses the next turn loses ``SKIP``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

from ...core.errors import InvalidOptionError, quote
from ...core.options import parse_int

# indices into the weight array the kernels read
KS, KC, KP, C0, C1, NEED_PER_SQUARE, EXCESS, FINISHABLE, LETTUCE, BEHIND, FINISHED, PLACE_STEP, SKIP = range(13)
N_WEIGHTS = 13

#: Default width limits per ply (0 = every move), the last entry repeating: the original's [0, 0, 8, 8, 4].
DEFAULT_WIDTHS = (0, 0, 8, 8, 4)

#: Decision rules of max^n: how a player turns a value vector into a choice.
RULES = ("absolute", "relative", "sum")


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights and curve constants (see the module docstring)."""

    ks: float = 1.0
    kc: float = 1.0
    kp: float = 1.0
    c0: float = 6.0
    c1: float = 8.0
    need_per_square: float = 5.0
    excess: float = 1.5
    finishable: float = 60.0
    lettuce: float = 40.0
    behind: float = 60.0
    finished: float = 1000.0
    place_step: float = 200.0
    skip: float = 25.0

    def array(self) -> np.ndarray:
        """The weights as the float64 array the kernels read."""
        return np.array([getattr(self, f.name) for f in fields(self)], dtype=np.float64)

    def replace(self, **changes: float) -> "Weights":
        d = asdict(self)
        for k, v in changes.items():
            if k not in d:
                raise InvalidOptionError(f"unknown weight {k!r}; known: {', '.join(d)}")
            d[k] = float(v)
        return Weights(**d)


def parse_widths(text: str | tuple | list) -> tuple[int, ...]:
    """Width limits from ``"0/0/8/8/4"`` (or a sequence); 0 means every move."""
    items = text.replace(",", "/").replace(" ", "/").split("/") if isinstance(text, str) else list(text)
    what = f"widths {quote(text)} (numbers 0..1000 like 0/0/8/8/4)"
    parts = [parse_int(t, what, 0, 1000) for t in items if t != ""]
    if not parts or len(parts) > 100:
        raise InvalidOptionError(f"{what}: give 1 to 100 of them")
    return tuple(parts)
