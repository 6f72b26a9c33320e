"""A one-shot duel with a known optimum, for tuning tests (SPSA).

Two players each name a number in ``0..top``; whoever names the number nearer
``target`` wins (equal distance: a draw). The engine ``Noisy`` names
``target ± (|x - 7| + |y - 3|) + noise``: options ``x`` and ``y`` decide its
strength, best at ``x = 7, y = 3``. The noise is drawn from the options, the
position and a count of searches, so games are reproducible.
"""

from __future__ import annotations

import random

from gamesuite.core.errors import InvalidMoveError, InvalidPositionError, quote
from gamesuite.core.info import SearchResult
from gamesuite.core.registry import Game, Param
from gamesuite.core.score import Score
from gamesuite.core.state import TERMINAL, State


class Duel(Game):
    name = "duel"
    long_name = "number duel (tests only)"
    params = (Param("target", 10, min=0, max=100), Param("top", 20, min=1, max=200))

    @property
    def num_players(self) -> int:
        return 2

    def new_state(self) -> DuelState:
        return DuelState(self)

    def state_from_text(self, text: str) -> DuelState:
        s = DuelState(self)
        for part in [p for p in text.split(",") if p.strip()]:
            try:
                m = int(part)
            except ValueError:
                raise InvalidPositionError(f"bad duel position {quote(text)}") from None
            if s.is_terminal() or not 0 <= m <= self["top"]:
                raise InvalidPositionError(f"bad duel position {quote(text)}")
            s.play(m)
        return s


class DuelState(State):
    def __init__(self, game: Duel) -> None:
        self.game = game
        self.moves: list[int] = []

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else len(self.moves)

    def legal_moves(self) -> list[int]:
        return [] if self.is_terminal() else list(range(self.game["top"] + 1))

    def play(self, move: int) -> None:
        self.moves.append(move)

    def undo(self) -> None:
        self.moves.pop()

    def is_terminal(self) -> bool:
        return len(self.moves) == 2

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        a, b = (abs(m - self.game["target"]) for m in self.moves)
        return [0.0, 0.0] if a == b else [1.0, -1.0] if a < b else [-1.0, 1.0]

    @property
    def key(self) -> int:
        return hash(tuple(self.moves)) & (2**64 - 1)

    def copy(self) -> DuelState:
        s = DuelState(self.game)
        s.moves = list(self.moves)
        return s

    @property
    def history(self) -> list[int]:
        return list(self.moves)

    def parse_move(self, text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise InvalidMoveError(f"bad duel move {quote(text)}") from None

    def format_move(self, move: int) -> str:
        return str(move)

    def to_text(self) -> str:
        return ",".join(map(str, self.moves))


class Noisy:
    """Names ``target ± (|x - 7| + |y - 3|) · spread + noise``: best at ``x = 7, y = 3``."""

    name = "noisy"

    def __init__(self, game, x: float = 0.0, y: float = 3.0, noise: float = 1.0, spread: float = 1.0) -> None:
        self.game, self.x, self.y, self.noise, self.spread = game, float(x), float(y), float(noise), float(spread)
        self.searches = 0

    def new_game(self) -> None:
        pass

    def search(self, state, limits, stop=None, on_info=None):
        self.searches += 1
        rng = random.Random(f"{self.x}:{self.y}:{state.to_text()}:{self.searches}")
        err = (abs(self.x - 7) + abs(self.y - 3)) * self.spread
        m = self.game["target"] + rng.choice((-1, 1)) * err + rng.gauss(0, self.noise)
        m = int(round(min(max(m, 0), self.game["top"])))
        return SearchResult(m, Score.eval(0, max(state.current_player, 0)))
