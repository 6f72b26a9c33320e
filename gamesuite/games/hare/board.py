"""The tracks, the hare cards and the constants shared by the rules and the engine.

Squares are numbered 0 (start) to 64 (finish). The kinds are small integers so
that the numba kernels can use the same tables as the plain-Python rules.
"""

from __future__ import annotations

import numpy as np

START, HARE, CARROT, HEDGEHOG, LETTUCE, POS156, POS2, POS3, POS4, FINISH = range(10)
KIND_CODES = {"S": START, "H": HARE, "C": CARROT, "E": HEDGEHOG, "L": LETTUCE, "1": POS156, "2": POS2,
              "3": POS3, "4": POS4, "F": FINISH}
KIND_NAMES = {START: "start", HARE: "hare", CARROT: "carrot", HEDGEHOG: "hedgehog", LETTUCE: "lettuce",
              POS156: "position 1/5/6", POS2: "position 2", POS3: "position 3", POS4: "position 4",
              FINISH: "finish"}

BOARDS = {
    "2008": "SHCH3CH124LE3CHE124E3CL2EHC432EH1CH23ECHC2LE34H21CEH324CELHC1CHCF",
    "1978": "SHCH3CHLE42E3CHE124E3CL2EHC432EH1CH23ECHC2LE34H21CEH324CELHC2HLHF",
}
LAST = 64  # the finish square

# -- hare cards -------------------------------------------------------------
(GIVE10, MISS_OR_AGAIN, SET65, LETTUCE10, HALVE, FREE_RIDE, SHOW, SHUFFLE,
 TAKE_GIVE, FALL_BACK, MOVE_UP, MISS, EAT, AGAIN, NEXT_CARROT, PREV_CARROT) = range(16)
N_CARDS = 16
CARD_NAMES = ("give10", "missoragain", "set65", "lettuce10", "halve", "freeride", "show", "shuffle",
              "takegive", "fallback", "moveup", "miss", "eat", "again", "nextcarrot", "prevcarrot")
#: One letter per card, used in position text for the cards drawn since the last shuffle.
CARD_LETTERS = "gmxlhfsztbuneacp"
CARD_TEXT = (
    "Give 10 carrots to each player behind you",
    "More players behind you than ahead: miss a turn; otherwise move again",
    "Set your carrots to exactly 65",
    "Draw 10 carrots per lettuce you hold; none held: miss a turn",
    "Lose half your carrots",
    "Free ride: the move that brought you here is refunded",
    "Show your carrots",
    "Shuffle the hare cards; receive 1 carrot from each other player",
    "Take 10 carrots, give 10, or neither",
    "Fall back one position",
    "Move up one position",
    "Miss a turn",
    "Eat a lettuce now",
    "Move again",
    "Forward to the next carrot square",
    "Back to the previous carrot square",
)


def deck_counts(edition: str) -> np.ndarray:
    """How many of each card (by id) the deck of ``edition`` holds ("2008" or "1979")."""
    c = np.zeros(N_CARDS, dtype=np.int64)
    if edition == "2008":
        for card in (GIVE10, MISS_OR_AGAIN, SET65, LETTUCE10, HALVE, FREE_RIDE, SHOW):
            c[card] = 2
        c[SHUFFLE] = 1
    elif edition == "1979":
        for card in (FREE_RIDE, TAKE_GIVE, FALL_BACK):
            c[card] = 2
        for card in (MOVE_UP, MISS, EAT, AGAIN, NEXT_CARROT, PREV_CARROT):
            c[card] = 1
    return c


def board_kinds(board: str) -> np.ndarray:
    """Kind of every square 0..64 of the named board."""
    return np.array([KIND_CODES[ch] for ch in BOARDS[board]], dtype=np.int64)


def previous_hedgehog(kinds: np.ndarray) -> np.ndarray:
    """For each square, the nearest hedgehog square strictly behind it (-1 if none)."""
    out = np.full(len(kinds), -1, dtype=np.int64)
    last = -1
    for s in range(len(kinds)):
        out[s] = last
        if kinds[s] == HEDGEHOG:
            last = s
    return out


def position_bonus(kind: int, race_position: int) -> int:
    """Carrots paid by a position square of ``kind`` to a piece in ``race_position``."""
    if kind == POS156:
        return 10 * race_position if race_position in (1, 5, 6) else 0
    if kind in (POS2, POS3, POS4) and race_position == kind - POS2 + 2:
        return 10 * race_position
    return 0


def cost(n: int) -> int:
    """Carrots needed to move ``n`` squares forward: n(n+1)/2."""
    return n * (n + 1) // 2


def reach(carrots: int) -> int:
    """How many squares ``carrots`` can pay for: floor((sqrt(8C+1) - 1) / 2)."""
    import math

    return (math.isqrt(8 * carrots + 1) - 1) // 2
