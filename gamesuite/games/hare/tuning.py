"""Tuning the evaluation weights (Ks, Kc, Kp): against judged studies, and by self-play.

The original method: try every triple on a grid (0.5..2.0 by 0.1, 4,096 triples)
and count the studies whose judged winner the evaluation picks. The better one:
play matches between two weight sets and report the score with its confidence.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

import numpy as np

from ...core.errors import InvalidOptionError, InvalidPositionError, quote
from ...core.limits import Limits
from ...core.registry import load_game
from . import kernels as K
from .config import Weights
from .engine import HareEngine, search_root, tables_for
from .rules import HareGame, HareState


@dataclass(frozen=True)
class Study:
    """A judged position: the state and the judged winner (0-based)."""

    state: HareState
    winner: int
    line: str


def read_studies(lines: Iterable[str]) -> list[Study]:
    """Study lines (``45;26;2;f;29;19;0;f;2``); blank lines and ``#`` comments are skipped."""
    out = []
    games: dict[int, HareGame] = {}
    for number, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        n = (len(line.split(";")) - 1) // 4
        if not 2 <= n <= 6:
            raise InvalidPositionError(f"line {number}: study {quote(line)} must hold 2 to 6 players")
        g = games.get(n)
        if g is None:
            g = games[n] = load_game(f"hare(players={n},pieces=1)")  # type: ignore[assignment]
        try:
            state, winner = g.state_from_study(line)
        except InvalidPositionError as e:
            raise InvalidPositionError(f"line {number}: {e}") from None
        out.append(Study(state, winner, line))
    if not out:
        raise InvalidPositionError("no study lines found")
    return out


def grid(start: float = 0.5, stop: float = 2.0, step: float = 0.1) -> list[float]:
    """The values ``start, start+step, ..., stop`` (rounded to avoid drift)."""
    if step <= 0 or stop < start:
        raise InvalidOptionError(f"grid {start}..{stop} by {step} is empty")
    n = int(round((stop - start) / step))
    return [round(start + i * step, 6) for i in range(n + 1)]


def predicted_winner(study: Study, weights: Weights, depth: int = 0) -> int:
    """The player the evaluation (or a search to ``depth``) expects to win the study."""
    s = study.state
    if depth <= 0:
        v = K.evaluate(K.pack(s), tables_for(s.game), weights.array())
        return int(np.argmax(v))
    if s.game.n == 2:
        r = search_root(s, depth, algorithm="alphabeta", weights=weights)
        me = s.current_player
        return me if r.values[0] > 0 else 1 - me
    r = search_root(s, depth, algorithm="maxn", weights=weights)
    return int(np.argmax(r.values))


def tune_on_studies(studies: Sequence[Study], values: Sequence[float], depth: int = 0,
                    progress: Callable[[int, int], None] | None = None) -> list[tuple[int, Weights]]:
    """Every (Ks, Kc, Kp) in ``values``³ with its number of correctly judged studies, best first
    (ties: the triple nearest (1, 1, 1) first)."""
    results = []
    total = len(values) ** 3
    done = 0
    base = Weights()
    for ks in values:
        for kc in values:
            for kp in values:
                w = base.replace(ks=ks, kc=kc, kp=kp)
                hits = sum(1 for st in studies if predicted_winner(st, w, depth) == st.winner)
                results.append((hits, w))
                done += 1
                if progress is not None:
                    progress(done, total)
    results.sort(key=lambda hw: (-hw[0], (hw[1].ks - 1) ** 2 + (hw[1].kc - 1) ** 2 + (hw[1].kp - 1) ** 2))
    return results


@dataclass(frozen=True)
class MatchResult:
    """Results of weight set A against B: wins, losses, draws (unfinished games) from A's side."""

    wins: int
    losses: int
    draws: int

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """A normal-approximation confidence interval of the score (95% by default)."""
        n = self.games
        if n == 0:
            return (0.0, 1.0)
        per = [1.0] * self.wins + [0.0] * self.losses + [0.5] * self.draws
        mean = self.score
        var = sum((x - mean) ** 2 for x in per) / max(1, n - 1)
        half = z * math.sqrt(var / n)
        return (max(0.0, mean - half), min(1.0, mean + half))

    def elo(self) -> float:
        """The Elo difference the score suggests (capped at +-800)."""
        s = min(max(self.score, 1e-3), 1 - 1e-3)
        return max(-800.0, min(800.0, -400.0 * math.log10(1 / s - 1)))


def play_match(a: Weights, b: Weights, games: int, depth: int = 2, seed: int = 0, max_plies: int = 600,
               spec: str = "hare(players=2,pieces=1)", progress: Callable[[int, MatchResult], None] | None = None
               ) -> MatchResult:
    """Self-play: weights ``a`` against ``b``, taking seats in turn, cards drawn with ``seed``."""
    game = load_game(spec)
    if game.num_players != 2:
        raise InvalidOptionError(f"self-play matches are between two weight sets: {spec} has {game.num_players} players")
    rng = random.Random(seed)
    wins = losses = draws = 0
    for k in range(games):
        engines = [HareEngine(game, ks=a.ks, kc=a.kc, kp=a.kp), HareEngine(game, ks=b.ks, kc=b.kc, kp=b.kp)]
        seat_a = k % 2
        order = engines if seat_a == 0 else engines[::-1]
        s = game.new_state()
        for _ in range(max_plies):
            if s.is_terminal():
                break
            if s.is_chance_node():
                o = s.chance_outcomes()
                s.play(rng.choices([m for m, _ in o], [p for _, p in o])[0])
                continue
            r = order[s.current_player].search(s, Limits(depth=depth))
            s.play(r.best_move if r.best_move is not None else s.legal_moves()[0])
        if not s.is_terminal():
            draws += 1
        elif s.returns()[seat_a] > 0:
            wins += 1
        else:
            losses += 1
        if progress is not None:
            progress(k + 1, MatchResult(wins, losses, draws))
    return MatchResult(wins, losses, draws)
