"""A synthetic game for MCTS tests: 1 to 6 players, a chance node after every move.

Players move in turn; after each move a die with uneven faces is thrown; after
``depth`` moves the game ends with pseudo-random returns (one per player) drawn
from the path.
"""

from __future__ import annotations

import random

from gamesuite.core.registry import Game, Param
from gamesuite.core.state import CHANCE, TERMINAL, State

FACES = ((0, 0.5), (1, 0.3), (2, 0.2))


class ChanceTreeGame(Game):
    name = "testchance"
    long_name = "random tree with chance (tests only)"
    params = (Param("players", 3, min=1, max=6), Param("branching", 2, min=1, max=6),
              Param("depth", 3, min=1, max=8), Param("seed", 0))
    chance = True
    zero_sum = False

    @property
    def num_players(self) -> int:
        return self["players"]

    def new_state(self) -> ChanceTreeState:
        return ChanceTreeState(self)

    def state_from_text(self, text: str) -> ChanceTreeState:
        s = ChanceTreeState(self)
        for t in text.split():
            s.play(int(t))
        return s


class ChanceTreeState(State):
    def __init__(self, game: ChanceTreeGame) -> None:
        self.game = game
        self.path: list[int] = []

    @property
    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if len(self.path) % 2 == 1:
            return CHANCE
        return (len(self.path) // 2) % self.game["players"]

    def legal_moves(self) -> list[int]:
        if self.is_terminal() or len(self.path) % 2 == 1:
            return []
        return list(range(self.game["branching"]))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(FACES) if self.current_player == CHANCE else []

    def play(self, move: int) -> None:
        self.path.append(move)

    def undo(self) -> None:
        self.path.pop()

    def is_terminal(self) -> bool:
        return len(self.path) >= 2 * self.game["depth"]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game["players"]
        rng = random.Random(repr((self.game["seed"], self.path)))
        return [rng.choice((-1.0, -0.5, 0.0, 0.5, 1.0)) for _ in range(self.game["players"])]

    @property
    def key(self) -> int:
        return hash(repr((self.game["seed"], self.path))) & (2**64 - 1)

    @property
    def history(self) -> list[int]:
        return list(self.path)

    def copy(self) -> ChanceTreeState:
        s = ChanceTreeState(self.game)
        s.path = list(self.path)
        return s

    def parse_move(self, text: str) -> int:
        return int(text)

    def format_move(self, move: int) -> str:
        return str(move)

    def to_text(self) -> str:
        return " ".join(map(str, self.path))
