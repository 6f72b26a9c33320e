"""Two runs of one match schedule compared game by game (``gamesuite compare``).

A candidate engine and a baseline play the same opponents on the same
schedule: the same openings, seats and seed, each run saved with ``--save``.
Game ``N`` of one run then differs from game ``N`` of the other only by the
engine under test (with node limits and ``--fresh-engines`` an unchanged engine
replays every game exactly), so the difference of the two scores game by game
measures the change with far less noise than two separate intervals: most
games come out the same and only the games that changed carry information.

The summary gives the mean score of each run, the mean paired difference with
its normal 95% interval, how many games the candidate did better and worse in,
and the exact two-sided sign test over those discordant games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist

from ..core.errors import InvalidOptionError, InvalidRecordError, quote
from ..core.files import parse_json_text, read_text_file
from .record import GameRecord
from .spsa import SCORE_RULES, game_score
from .stats import Estimate


@dataclass(frozen=True)
class PairedGame:
    """One game number played in both runs: the engine's score in each, and whether the moves were the same."""

    round: int
    opening_index: int
    rotation: int
    base: float
    cand: float
    same_moves: bool


@dataclass
class Comparison:
    """A candidate run against a baseline run, game by game."""

    games: list[PairedGame]
    engine: int
    score: str
    only_base: list[int] = field(default_factory=list)  # game numbers found in one run only
    only_cand: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)  # games the arena itself failed in either run (left out)

    @property
    def better(self) -> int:
        return sum(1 for g in self.games if g.cand > g.base)

    @property
    def worse(self) -> int:
        return sum(1 for g in self.games if g.cand < g.base)

    @property
    def identical(self) -> int:
        return sum(1 for g in self.games if g.same_moves)

    def mean(self, which: str) -> float:
        """The mean score of ``base`` or ``cand`` over the paired games."""
        xs = [getattr(g, which) for g in self.games]
        return sum(xs) / len(xs) if xs else math.nan

    def difference(self, confidence: float = 0.95) -> Estimate:
        """The mean of ``cand - base`` over the paired games with its normal interval."""
        d = [g.cand - g.base for g in self.games]
        n = len(d)
        if n == 0:
            return Estimate(math.nan, -math.inf, math.inf)
        m = sum(d) / n
        if n < 2:
            return Estimate(m, -math.inf, math.inf)
        var = sum((x - m) ** 2 for x in d) / (n - 1)
        half = NormalDist().inv_cdf(0.5 + confidence / 2.0) * math.sqrt(var / n)
        return Estimate(m, m - half, m + half)

    def sign_p(self) -> float:
        """The exact two-sided sign test over the games that differ (1.0 when none does)."""
        return sign_test(self.better, self.worse)

    def text(self) -> str:
        """The summary in a few lines, scores and differences in points of 100."""
        n = len(self.games)
        unit = "first places" if self.score == "first" else "score"
        lines = [f"{n} games paired (engine {self.engine + 1} of the match, {unit}); "
                 f"{self.identical} of them the same moves in both runs"]
        if n:
            d = self.difference()
            lines.append(f"baseline {100 * self.mean('base'):.1f}%, candidate {100 * self.mean('cand'):.1f}%")
            lines.append(f"difference {100 * d.value:+.1f} ± {100 * d.error:.1f} points (95%)"
                         if math.isfinite(d.error) else f"difference {100 * d.value:+.1f} points")
            lines.append(f"candidate better in {self.better}, worse in {self.worse} "
                         f"(sign test p = {self.sign_p():.3g})")
        for what, ids in (("only in the baseline", self.only_base), ("only in the candidate", self.only_cand),
                          ("left out, the arena failed", self.failed)):
            if ids:
                lines.append(f"{len(ids)} games {what}: {_ids(ids)}")
        return "\n".join(lines)


def _ids(ids: list[int]) -> str:
    shown = ", ".join(str(i) for i in ids[:10])
    return shown + (f" and {len(ids) - 10} more" if len(ids) > 10 else "")


def sign_test(better: int, worse: int) -> float:
    """Two-sided exact binomial test of ``better`` against ``worse`` with p = 1/2."""
    n = better + worse
    if n == 0:
        return 1.0
    k = min(better, worse)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2.0**n
    return min(1.0, 2.0 * tail)


def load_run(directory: str | Path) -> dict[int, GameRecord]:
    """The records of a saved run (``game-*.json`` in ``directory``) by game number."""
    d = Path(directory)
    if not d.is_dir():
        raise InvalidRecordError(f"{quote(str(d))} is not a folder of saved games")
    out: dict[int, GameRecord] = {}
    for p in sorted(d.glob("game-*.json")):
        rec = GameRecord.from_json(parse_json_text(read_text_file(p), what=quote(str(p))))
        out[rec.round] = rec
    if not out:
        raise InvalidRecordError(f"no game records (game-*.json) in {quote(str(d))}")
    return out


def engine_score(rec: GameRecord, engine: int, score: str = "place") -> float:
    """The score in ``rec`` of the match's engine number ``engine`` (0-based), by ``tune``'s rules (``game_score``).

    ``place``: a win 1, a draw 1/2, a loss 0 (with more players, linear in the
    place); ``first``: 1 for first place (a tie for first shared), else 0. An
    engine in several seats scores their mean.
    """
    if score not in SCORE_RULES:
        raise InvalidOptionError(f"score must be one of {', '.join(SCORE_RULES)}, got {quote(score)}")
    seats = [s for s, e in enumerate(rec.engine_index) if e == engine]
    if not seats or len(rec.returns) != len(rec.engine_index):
        raise InvalidRecordError(f"game {rec.round} has no seat for engine {engine + 1} "
                                 f"(engines by seat: {quote(rec.engine_index)})")
    return sum(game_score(rec.returns, s, score) for s in seats) / len(seats)


def compare_runs(base: dict[int, GameRecord], cand: dict[int, GameRecord], engine: int = 0,
                 score: str = "place") -> Comparison:
    """Pair the games of two runs by number; refuse runs whose schedules differ (game, opening or seats)."""
    out = Comparison(games=[], engine=engine, score=score)
    out.only_base = sorted(set(base) - set(cand))
    out.only_cand = sorted(set(cand) - set(base))
    for n in sorted(set(base) & set(cand)):
        b, c = base[n], cand[n]
        if (b.game, b.start, b.opening_index, b.rotation, b.engine_index) != \
                (c.game, c.start, c.opening_index, c.rotation, c.engine_index):
            raise InvalidRecordError(
                f"game {n} is not the same game in both runs (game, opening {b.opening_index + 1} against "
                f"{c.opening_index + 1}, seats {quote(b.engine_index)} against {quote(c.engine_index)}): "
                "play both runs with the same --games, --openings, --seed and engine order")
        if b.error or c.error:
            out.failed.append(n)
            continue
        opening = b.moves[:b.opening_plies] == c.moves[:c.opening_plies]
        if not opening:
            raise InvalidRecordError(f"game {n} starts from different openings in the two runs: "
                                     "play both runs with the same --openings and --seed")
        out.games.append(PairedGame(n, b.opening_index, b.rotation, engine_score(b, engine, score),
                                    engine_score(c, engine, score), b.moves == c.moves))
    return out
