"""Scripted fake engines for the arena's tests (used through ``py:tests.fakes.engines:NAME`` specs)."""

from __future__ import annotations

import random
import threading
import time

from gamesuite.core.info import SearchResult
from gamesuite.core.score import Score

#: Set by the tests to let hanging fakes go.
RELEASE = threading.Event()


class Scripted:
    """Plays the first legal move (or a random one); misbehaves on its ``at``-th search of a game.

    ``mode``: ``first``, ``random``, ``illegal`` (plays an occupied or impossible move),
    ``crash`` (raises), ``hang`` (ignores the stop flag until released), ``slow``
    (sleeps ``sleep_ms`` and ignores the stop flag), ``none`` (returns no move), ``stoppable``
    (thinks ``sleep_ms`` unless told to stop; stopped, it plays its last legal move instead of its first).
    Depth-1 searches (the arena's warm-up) never misbehave and do not count.
    """

    name = "scripted"

    def __init__(self, game, mode: str = "first", at: int = 1, sleep_ms: int = 0, seed: int = 0) -> None:
        self.game = game
        self.mode = mode
        self.at = at
        self.sleep_ms = sleep_ms
        self.seed = seed
        self.rng = random.Random(seed)
        self.calls = 0
        self.limits_seen = []

    def new_game(self) -> None:
        self.calls = 0
        self.rng = random.Random(self.seed)

    def search(self, state, limits, stop=None, on_info=None):
        legal = state.legal_moves()
        if limits.depth == 1:
            return SearchResult(legal[0], Score.eval(0, state.current_player))
        self.calls += 1
        self.limits_seen.append(limits)
        move = self.rng.choice(legal) if self.mode == "random" else legal[0]
        if self.calls >= self.at:
            if self.mode == "illegal":
                taken = [m for m in state.history if m not in legal]
                move = taken[0] if taken else 10**6
            elif self.mode == "crash":
                raise RuntimeError("scripted crash")
            elif self.mode == "hang":
                while not RELEASE.wait(0.05):
                    pass
            elif self.mode == "slow":
                time.sleep(self.sleep_ms / 1000)
            elif self.mode == "stoppable":
                t_end = time.monotonic() + self.sleep_ms / 1000
                while time.monotonic() < t_end and not (stop is not None and stop[0]):
                    time.sleep(0.01)
                if stop is not None and stop[0]:
                    move = legal[-1]
            elif self.mode == "none":
                return SearchResult(None, Score.eval(0, state.current_player))
        return SearchResult(move, Score.eval(0, max(state.current_player, 0)))


class SwapScripted(Scripted):
    """``Scripted`` with its own swap-opening answers (``swap="two/swap"``: at 3 stones, at 5).

    With no stones it places the first three empty cells; ``one``/``two`` place the first
    empty cells, ``swap`` swaps, ``bad`` places a stone on a taken cell.
    """

    seen: list = []  # (stones, limits) of every swap decision asked of any instance

    def __init__(self, game, swap: str = "one/swap", **kw) -> None:
        super().__init__(game, **kw)
        self.swap = swap

    def swap_answer(self, state, rule, limits):
        SwapScripted.seen.append((len(state.history), limits))
        legal = state.legal_moves()
        n = len(state.history)
        if n == 0:
            return legal[:3]
        how = dict(zip((3, 5), self.swap.split("/"))).get(n, "one")
        if how == "swap":
            return "swap"
        if how == "bad":
            return [state.history[0]]
        return legal[: 2 if how == "two" else 1]


def Crasher(game, **kw):
    """Raises while being built."""
    raise RuntimeError("cannot even start")
