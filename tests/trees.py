"""A synthetic game for testing searches: a uniform random tree with valued leaves.

Each node has ``branching`` children; at ``depth`` the game ends with a result
drawn from the node's key, or (with ``evaluate``) leaves are cut earlier and
valued by a pseudo-random function of the key.
"""

from __future__ import annotations

import random

from gamesuite.core.registry import Game, Param
from gamesuite.core.state import TERMINAL, State


class TreeGame(Game):
    name = "testtree"
    long_name = "random tree (tests only)"
    params = (Param("branching", 3, min=1, max=8), Param("depth", 4, min=1, max=10), Param("seed", 0))

    @property
    def num_players(self) -> int:
        return 2

    def new_state(self) -> TreeState:
        return TreeState(self)

    def state_from_text(self, text: str) -> TreeState:
        s = TreeState(self)
        for t in text.split():
            s.play(int(t))
        return s


class TreeState(State):
    def __init__(self, game: TreeGame) -> None:
        self.game = game
        self.path: list[int] = []

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else len(self.path) % 2

    def legal_moves(self) -> list[int]:
        # some nodes end early, so trees are not uniform
        return [] if self.is_terminal() else list(range(self.game["branching"]))

    def play(self, move: int) -> None:
        self.path.append(move)

    def undo(self) -> None:
        self.path.pop()

    def _rng(self) -> random.Random:
        return random.Random(hash((self.game["seed"], tuple(self.path))))

    def is_terminal(self) -> bool:
        if len(self.path) >= self.game["depth"]:
            return True
        return len(self.path) >= 2 and self._rng().random() < 0.1

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        r = self._rng().choice([-1.0, 0.0, 1.0])
        return [r, -r]

    @property
    def key(self) -> int:
        return hash((self.game["seed"], tuple(self.path))) & (2**64 - 1)

    @property
    def history(self) -> list[int]:
        return list(self.path)

    def copy(self) -> TreeState:
        s = TreeState(self.game)
        s.path = list(self.path)
        return s

    def parse_move(self, text: str) -> int:
        return int(text)

    def format_move(self, move: int) -> str:
        return str(move)

    def to_text(self) -> str:
        return " ".join(map(str, self.path))


def leaf_eval(state: State, pov: int) -> int:
    """A pseudo-random evaluation of a cut-off leaf, from ``pov``'s view."""
    v = random.Random(state.key).randint(-500, 500)
    return v if pov == 0 else -v
