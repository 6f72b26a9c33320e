"""Every tunable of the Hare and Hedgehog engine in one place.

The evaluation of a player still racing is ``E = Ks*S + Kc*C + Kp*P - SKIP*skip``
(after the original write-up), clamped to ``[-RACING_CAP, RACING_CAP]``:

- ``P`` progress: ``3 * square`` (summed over the player's pieces);
- ``c``, the carrots counted: those held plus ``DUE`` times the carrots due at the
  start of the player's next turn (the payout of a lettuce about to be eaten,
  10 x race position, and of a position square reached on the last turn when
  the race position matches it);
- ``C`` carrots, a curve chosen by the stage of the race:
  ``K * sqrt(min(c, need)) - EXCESS * max(0, c - need - limit)`` with ``K = C0``
  while every piece is in the first half of the track and ``C1`` after,
  ``need = NEED_PER_SQUARE * squares still to go`` and ``limit`` the carrots
  finishing allows (10 x the place being taken; 20 for two pieces). In the last
  stage (no lettuce left and the finish within reach, ``c >= cost``) two terms
  apply: ``FINISHABLE`` more when finishing is allowed at once (the flat bonus),
  and ``PERCARROT`` less per carrot beyond what finishing allows
  (``c - cost - limit``);
- ``S`` lettuces, one curve per number of lettuces held ``h`` (the write-up's four
  curves for 0..3 lettuces, more in the two-pieces variant) as a function of the
  lettuce squares still ahead ``a``:
  ``-LETTUCE*h - BEHIND*max(0, h - a) - TIGHT*h / (1 + max(0, a - h))``
  (``TIGHT = 0`` makes it linear; a lettuce about to be eaten counts as eaten);
- ``TURNS`` per turn the player would need to finish alone (``kernels._solo_fill``: the fewest turns for a
  lone piece, keeping its race position, without hare cards or other pieces; counted up to 16), for a
  player with one piece on the track.
- ``RACE`` (the race for the best open place): ``RACE * (tanh(d / RACESCALE) - 2 * finished)``, where ``d`` is
  how far the player is ahead of the best other racer in solo turns, the order of play breaking ties
  (each player's turns plus its place in the order from the player to move, over the number of players),
  and ``finished`` the players already placed (each takes a place the player could have had).

``RISK`` (max^n with expectimax): a
hare card's value is ``(1 - RISK)`` times the expectation plus ``RISK`` times the outcome worst for the
drawer.

A finished player is worth far more than any racing value (``FINISHED`` and the
constants beside it): a better place always more, and, in the search,
finishing earlier more. The last runner, placed last, is worth less than any
racing value. These are fixed, not weights: finishing when one can is never
wrong (waiting can only lose places).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

from ...core.errors import InvalidOptionError, quote
from ...core.options import parse_int

# indices into the weight array the kernels read (the order of the Weights fields)
(KS, KC, KP, C0, C1, NEED_PER_SQUARE, EXCESS, FINISHABLE, PERCARROT, LETTUCE, BEHIND, TIGHT, DUE,
 SKIP, TURNS, RACE, RACESCALE, RISK) = range(18)
N_WEIGHTS = 18

# Values: a racing player's evaluation is clamped to +-RACING_CAP; a finished player (place k of n,
# k < n) is worth FINISHED + PLACE_STEP * (n - k), plus EARLY per ply left to the search horizon when
# the search saw it finish; the last place is worth -FINISHED. The scales nest: 2 * 6 players *
# RACING_CAP < EARLY, EARLY * (deepest search, 40 plies) < PLACE_STEP, 6 * PLACE_STEP < FINISHED, so
# under every decision rule and any number of players a finish (an earlier finish, a better place)
# outweighs whatever racing on can change.
RACING_CAP = 1e4
EARLY = 2e5
PLACE_STEP = 1e7
FINISHED = 1e9

#: Default width limits per ply (0 = every move), the last entry repeating: the original's [0, 0, 8, 8, 4].
DEFAULT_WIDTHS = (0, 0, 8, 8, 4)

#: Decision rules of max^n: how a player turns a value vector into a choice.
RULES = ("absolute", "relative", "sum")


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights and curve constants (see the module docstring)."""

    # the defaults: tuned by SPSA through the arena (800 game pairs, two players, 20,000 nodes a move)
    # from the write-up's terms, then ``turns`` (the solo table) chosen by matches against the
    # ``writeup`` preset; see docs/hare.md for the runs
    ks: float = 0.97
    kc: float = 1.03
    kp: float = 1.0
    c0: float = 6.67
    c1: float = 8.54
    need_per_square: float = 4.16
    excess: float = 1.49
    finishable: float = 17.2
    percarrot: float = 2.15
    lettuce: float = 32.9
    behind: float = 60.4
    tight: float = 54.1
    due: float = 0.97
    skip: float = 22.1
    turns: float = 25.0
    # three-player candidates (issue 22), off by default until a match says they pay (docs/hare.md)
    race: float = 0.0
    racescale: float = 1.0
    risk: float = 0.0

    def array(self) -> np.ndarray:
        """The weights as the float64 array the kernels read."""
        return np.array([getattr(self, f.name) for f in fields(self)], dtype=np.float64)

    def replace(self, **changes: float) -> Weights:
        d = asdict(self)
        for k, v in changes.items():
            if k not in d:
                raise InvalidOptionError(f"unknown weight {k!r}; known: {', '.join(d)}")
            try:
                x = float(v)
            except (TypeError, ValueError):
                raise InvalidOptionError(f"weight {k} must be a number, got {v!r}") from None
            if not np.isfinite(x):
                raise InvalidOptionError(f"weight {k} must be a finite number, got {v!r}")
            d[k] = x
        return Weights(**d)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


#: Our first evaluation (before issue 22): no carrots due, a flat "can finish" bonus, linear lettuces.
CLASSIC_WEIGHTS = Weights(ks=1.0, kc=1.0, kp=1.0, c0=6.0, c1=8.0, need_per_square=5.0, excess=1.5, finishable=60.0,
                          percarrot=0.0, lettuce=40.0, behind=60.0, tight=0.0, due=0.0, skip=25.0, turns=0.0)

#: The write-up's evaluation: carrots due next turn counted, a per-carrot penalty beyond what
#: finishing allows instead of a flat "can finish" bonus, and four non-linear lettuce curves (on our
#: classic curve constants).
WRITEUP_WEIGHTS = CLASSIC_WEIGHTS.replace(finishable=0.0, percarrot=2.0, tight=60.0, due=1.0)

#: The default's weights with three players: tuned by SPSA in three-player games against two ``writeup``
#: bots (first places, 608 pairs at 90,000 against 150,000 nodes; docs/hare.md "Three players"), the
#: race for first (``race``) and the card risk (``risk``) switched on.
THREE_WEIGHTS = Weights().replace(ks=1.0373, kc=0.9494, c0=7.75, c1=7.966, need_per_square=4.565, excess=1.74,
                                  finishable=13.16, percarrot=1.889, lettuce=39.65, behind=56.4, tight=46.38,
                                  due=0.9094, skip=23.1, turns=22.04, race=9.318, risk=0.1619)


def model_array(own: Weights, others: Weights, me: int, worst_cards: bool = False) -> np.ndarray:
    """The kernels' weights with an opponent model: player ``me`` valued with ``own``, every other player
    with ``others`` (what max^n then expects the others to choose by); ``worst_cards``: another player
    judges its own hare card by the outcome worst for it (as the write-up's engine does), in its component
    of a chance node's value."""
    return np.concatenate([own.array(), others.array(), [float(me), 1.0 if worst_cards else 0.0]])


def parse_widths(text: str | tuple | list) -> tuple[int, ...]:
    """Width limits from ``"0/0/8/8/4"`` (or a sequence); 0 means every move."""
    if isinstance(text, int):
        text = str(text)
    items = text.replace(",", "/").replace(" ", "/").split("/") if isinstance(text, str) else list(text)
    what = f"widths {quote(text)} (numbers 0..1000 like 0/0/8/8/4)"
    parts = [parse_int(t, what, 0, 1000) for t in items if t != ""]
    if not parts or len(parts) > 100:
        raise InvalidOptionError(f"{what}: give 1 to 100 of them")
    return tuple(parts)
