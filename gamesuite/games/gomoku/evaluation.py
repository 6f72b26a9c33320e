"""The ``alphabeta`` engine's evaluation and search weights: data, not code.

The weights are kept in ``eval_weights.json`` beside this module (tuned by
``tests/benchmarks/gomoku_tune.py`` from game outcomes and arena matches);
``load_weights`` reads that file or another of the same shape, and
``classic_weights`` gives the evaluation of the ``mtdf`` engine (the side to
move's cell values against the opponent's, 5:4) for comparison (``eval=classic``).

A cell's *value* for a colour is the sum of the values of the patterns a stone
there would make in the four directions, plus a bonus for a double four, a 4-3
or a 3-3 (``kernels.combo_table``); the kernels keep each colour's total of its
empty cells' values and the count of its empty cells by class. The evaluation
(``absearch._evaluate``) is, for the side to move ``me`` and the opponent ``op``::

    ((tot_me * T_me - tot_op * T_op) / 16 + sum_c (me_c * N_me[c] - op_c * N_op[c]) + threats) * scale / 16

with ``threats``: ``+ win43`` when the side to move has a 4-3 point and the
opponent no open three, else ``+ win33`` for a 3-3 point against an opponent
without four points; ``- def3`` when the opponent has an open three and the
side to move no four; ``- op43`` when the opponent has a 4-3 or 3-3 point.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...core.errors import InvalidOptionError, quote
from ...core.files import write_atomic
from . import absearch as A
from . import kernels as K

DEFAULT_PATH = Path(__file__).with_name("eval_weights.json")
COMBO_NAMES = ("none", "B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4", "DF4", "five", "overline",
               "bonus_double_four", "bonus_four_three", "bonus_three_three")


@dataclass(frozen=True)
class Weights:
    """The combination weights (``kernels.WEIGHTS``' shape), the evaluation and the search parameters."""

    combo: np.ndarray
    eval: np.ndarray
    search: np.ndarray

    def slots(self) -> np.ndarray:
        """The values of ``g[absearch.X0:X0 + NX]`` (the parameters, then the search's own state)."""
        out = np.zeros(A.NX, dtype=np.int64)
        out[:A.NPARAM] = np.concatenate([self.eval, self.search])
        out[A.S_LASTNULL] = -10
        return out


def _read(section: dict, names: tuple[str, ...], where: str) -> np.ndarray:
    unknown = sorted(set(section) - set(names))
    if unknown:
        raise InvalidOptionError(f"{where}: unknown weights {', '.join(unknown)} (known: {', '.join(names)})")
    out = []
    for n in names:
        v = section.get(n)
        if not isinstance(v, int) or isinstance(v, bool):
            raise InvalidOptionError(f"{where}: weight {n} must be an integer, got {v!r}")
        out.append(v)
    return np.array(out, dtype=np.int64)


def load_weights(path: str | Path | None = None) -> Weights:
    """The weights in ``path`` (default ``eval_weights.json``); a clear error for a bad file."""
    p = DEFAULT_PATH if path in (None, "") else Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise InvalidOptionError(f"cannot read weights file {quote(str(p))}: {e.strerror or e}") from None
    except ValueError as e:
        raise InvalidOptionError(f"weights file {quote(str(p))} is not JSON: {e}") from None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), dict) for k in ("patterns", "eval", "search")):
        raise InvalidOptionError(f"weights file {quote(str(p))} needs the objects patterns, eval and search")
    where = f"weights file {quote(str(p))}"
    combo = _read(data["patterns"], COMBO_NAMES, where)
    try:
        K.combo_table(combo)
    except ValueError as e:
        raise InvalidOptionError(f"{where}: {e}") from None
    return Weights(combo, _read(data["eval"], A.EVAL_NAMES, where), _read(data["search"], A.SEARCH_NAMES, where))


def classic_weights(search: np.ndarray | None = None) -> Weights:
    """The ``mtdf`` engine's evaluation, ``(5 * mine - 4 * theirs) // 4``, with ``search`` parameters
    (default: those of ``eval_weights.json``)."""
    ev = np.zeros(A.NEVAL, dtype=np.int64)
    ev[A.E_TOTME] = 20
    ev[A.E_TOTOP] = 16
    ev[A.E_SCALE] = 16
    s = load_weights().search if search is None else search
    return Weights(K.WEIGHTS.copy(), ev, s)


def save_weights(w: Weights, path: str | Path, about: str = "") -> None:
    """Write ``w`` in ``eval_weights.json``'s shape."""
    data = {"about": about or json.loads(DEFAULT_PATH.read_text(encoding="utf-8")).get("about", ""),
            "patterns": {n: int(v) for n, v in zip(COMBO_NAMES, w.combo)},
            "eval": {n: int(v) for n, v in zip(A.EVAL_NAMES, w.eval)},
            "search": {n: int(v) for n, v in zip(A.SEARCH_NAMES, w.search)}}
    write_atomic(path, json.dumps(data, indent=1) + "\n")
