"""The brain's side of swap openings: ``SWAP2BOARD`` (the Gomocup extension for swap1/swap2).

The manager sends ``SWAP2BOARD``, the stones so far (``x,y`` or ``x,y,f`` lines, in
the order they were placed: black, white, black ...; a field, if any, is
ignored) and ``DONE``. With no stones the brain answers three stones
``x,y x,y x,y``; with three (or five) it answers ``SWAP`` (it takes black) or one
stone (it takes white and places it) — decided by ``arena.swap``'s search with
the brain's engine. The manager then goes on with ``BOARD``.
"""

from __future__ import annotations

import random
from typing import Any

from ..arena.swap import decide
from ..core.errors import ProtocolError
from ..core.limits import Limits


def swap_reply(brain: Any, cells: list[int]) -> str:
    """The answer to a ``SWAP2BOARD`` with ``cells`` placed in order; raises ``ProtocolError`` on a bad board."""
    if len(cells) not in (0, 3, 5):
        raise ProtocolError(f"SWAP2BOARD with {len(cells)} stones: expected 0, 3 or 5")
    if len(set(cells)) != len(cells):
        raise ProtocolError("SWAP2BOARD repeats a cell")
    game = brain._game()
    state = game.new_state()
    for c in cells:
        state.play(c)
    rule = "swap1" if brain.rule == 5 else "swap2"
    if len(cells) == 5:
        rule = "swap2"
    budget = brain._budget_ms()
    brain.ready.wait(timeout=max(0.0, budget / 2000.0))
    engine = brain._get_engine(game)
    answer = decide(engine, state, rule, Limits(movetime=budget), random.Random())
    # what the brain knows of the board afterwards (the manager sends BOARD next anyway): after SWAP
    # we are black, after one stone white, after proposing three we do not know yet
    brain.stones.clear()
    brain.order.clear()
    if isinstance(answer, str):  # SWAP, the only text answer: we are black
        for i, c in enumerate(cells):
            brain._put(c, 1 if i % 2 == 0 else 2)
        return "SWAP"
    placed = cells + answer
    ours = 1 if len(answer) == 1 else None
    if ours is not None:
        for i, c in enumerate(placed):
            brain._put(c, 1 if i % 2 == ours else 2)
    return " ".join(brain._xy(c) for c in answer)
