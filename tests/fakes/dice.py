"""A tiny race game with dice and 2-6 players, for the arena's tests of chance and seats.

Each turn a die (1-3) is rolled (a chance node), then the player to move either
advances by the roll (``adv``) or by one (``one``). The first to reach the goal
wins (return 1, everybody else -1). Position text: ``pos,pos,...;turn;roll``
(roll 0 before the die is cast).
"""

from __future__ import annotations

from gamesuite.core.errors import InvalidMoveError, InvalidPositionError, quote
from gamesuite.core.registry import Game, Param
from gamesuite.core.state import CHANCE, TERMINAL, State

ADV, ONE = 0, 1
ROLL0 = 10  # chance outcome ROLL0 + k means a roll of k


class DiceRace(Game):
    name = "dicerace"
    long_name = "dice race (tests only)"
    params = (Param("players", 3, min=2, max=6), Param("goal", 8, min=2, max=50))
    chance = True

    @property
    def num_players(self) -> int:
        return self["players"]

    def new_state(self) -> DiceState:
        return DiceState(self)

    def state_from_text(self, text: str) -> DiceState:
        try:
            pos, turn, roll = text.split(";")
            s = DiceState(self)
            s.pos = [int(p) for p in pos.split(",")]
            s.turn, s.roll = int(turn), int(roll)
            assert len(s.pos) == self.num_players and 0 <= s.turn < self.num_players and 0 <= s.roll <= 3
        except (ValueError, AssertionError):
            raise InvalidPositionError(f"bad dice race position {quote(text)}") from None
        return s


class DiceState(State):
    def __init__(self, game: DiceRace) -> None:
        self.game = game
        self.pos = [0] * game.num_players
        self.turn = 0
        self.roll = 0
        self._hist: list[int] = []
        self._undo: list[tuple] = []

    @property
    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.roll == 0 else self.turn

    def legal_moves(self) -> list[int]:
        return [] if self.is_terminal() or self.roll == 0 else [ADV, ONE]

    def chance_outcomes(self):
        return [(ROLL0 + k, 1 / 3) for k in (1, 2, 3)] if self.roll == 0 and not self.is_terminal() else []

    def play(self, move: int) -> None:
        self._undo.append((list(self.pos), self.turn, self.roll))
        self._hist.append(move)
        if self.roll == 0:
            self.roll = move - ROLL0
        else:
            self.pos[self.turn] += self.roll if move == ADV else 1
            self.turn = (self.turn + 1) % self.game.num_players
            self.roll = 0

    def undo(self) -> None:
        self.pos, self.turn, self.roll = self._undo.pop()
        self._hist.pop()

    def is_terminal(self) -> bool:
        return max(self.pos) >= self.game["goal"]

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        return [1.0 if p >= self.game["goal"] else -1.0 for p in self.pos]

    @property
    def key(self) -> int:
        return hash((tuple(self.pos), self.turn, self.roll)) & (2**64 - 1)

    def copy(self) -> DiceState:
        s = DiceState(self.game)
        s.pos, s.turn, s.roll = list(self.pos), self.turn, self.roll
        s._hist, s._undo = list(self._hist), list(self._undo)
        return s

    @property
    def history(self):
        return list(self._hist)

    def parse_move(self, text: str) -> int:
        t = text.strip()
        if t in ("adv", "one"):
            return ADV if t == "adv" else ONE
        if t in ("r1", "r2", "r3"):
            return ROLL0 + int(t[1])
        raise InvalidMoveError(f"bad dice race move {quote(text)}")

    def format_move(self, move: int) -> str:
        if move in (ADV, ONE):
            return "adv" if move == ADV else "one"
        if move - ROLL0 in (1, 2, 3):
            return f"r{move - ROLL0}"
        raise InvalidMoveError(f"bad dice race move {move}")

    def to_text(self) -> str:
        return ",".join(map(str, self.pos)) + f";{self.turn};{self.roll}"
