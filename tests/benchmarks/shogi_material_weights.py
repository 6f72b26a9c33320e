"""Write an evaluation weights file with material alone, as YaneuraOu-material counts it (run by hand).

    python tests/benchmarks/shogi_material_weights.py OUT.npz

The board values of ``evaluation.PIECE_VALUES``, a piece in hand worth its board value (no hand bonus), and
every other weight zero (no piece-square tables, king safety or mobility). ``shogi:alphabeta,weights=OUT.npz``
then searches with YaneuraOu-material's kind of evaluation, which separates what our search does from what our
evaluation knows (docs/shogi.md, thirteenth session).
"""

import sys

import numpy as np

from gamesuite.games.shogi import evaluation as E


def material_weights() -> np.ndarray:
    """The weight array of a material-only evaluation."""
    ew = np.zeros(E.E_SIZE, dtype=np.int32)
    for t, x in E.PIECE_VALUES.items():
        ew[E.E_VAL + t] = x
    return E.with_hand_bonus(ew, 0)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    w = material_weights()
    np.savez(sys.argv[1], standard=w, mini=w)
    print(f"material-only weights written to {sys.argv[1]}")
