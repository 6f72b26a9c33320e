"""Tuning the evaluation weights: on studies, and by self-play through the arena.

The original method: try every (Ks, Kc, Kp) on a grid (0.5..2.0 by 0.1, 4,096
triples) and count the studies whose judged winner the evaluation picks
(``read_studies``, ``tune_on_studies``). Ours: the shipped move studies
(``studies.toml``), scored by how many the engine plays right (``solved``), any
weights tuned one at a time (``coordinate_search``); then self-play through the
arena (``selfplay``, or ``gamesuite tune hare --spsa`` for SPSA over the weights,
which are numeric engine options).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ...core.errors import InvalidOptionError, InvalidPositionError, quote
from ...core.limits import Limits
from ...core.registry import load_game
from . import kernels as K
from .config import Weights
from .engine import search_root, tables_for
from .rules import HareGame, HareState
from .studies import MoveStudy


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
            loaded = load_game(f"hare(players={n},pieces=1)")
            assert isinstance(loaded, HareGame)
            g = games[n] = loaded
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


# -- move studies (studies.toml): how many the engine solves -------------------------------------

def weights_spec(base: str, weights: Weights) -> str:
    """``base`` (an engine spec of ours, e.g. ``maxn,chance=worst``) with every weight of ``weights``
    that differs from the defaults appended as an option."""
    d = Weights()
    extra = [f"{f}={getattr(weights, f):g}" for f in Weights.names() if getattr(weights, f) != getattr(d, f)]
    return ",".join([base] + extra) if extra else base


def solved(studies: Sequence[MoveStudy], spec: str, limits: Limits) -> list[bool]:
    """Whether the engine ``spec`` (``maxn,ks=1.2``...) plays one of the good moves of each study."""
    from ...core.registry import make_engine

    out = []
    engines: dict[str, object] = {}
    for st in studies:
        g = st.state.game
        e = engines.get(g.spec)
        if e is None:
            e = engines[g.spec] = make_engine(g, spec)
        r = e.search(st.state, limits)  # type: ignore[attr-defined]
        out.append(st.solved_by(r.best_move))
    return out


#: Multipliers tried for one weight at a time by ``coordinate_search`` (0 switches a term off).
STEPS = (0.0, 0.5, 0.75, 1.25, 1.5, 2.0)


def coordinate_search(studies: Sequence[MoveStudy], names: Sequence[str], base: str = "maxn",
                      start: Weights | None = None, limits: Limits | None = None, rounds: int = 2,
                      steps: Sequence[float] = STEPS,
                      progress: Callable[[str, float, int], None] | None = None) -> tuple[Weights, int]:
    """Tune the weights ``names`` one at a time on ``studies``: each value ``current * step`` is tried
    and the one solving most studies kept (ties keep the current value), for ``rounds`` rounds.
    Returns the weights and the studies they solve."""
    unknown = [n for n in names if n not in Weights.names()]
    if unknown:
        raise InvalidOptionError(f"unknown weight {quote(unknown[0])}; known: {', '.join(Weights.names())}")
    limits = limits or Limits(depth=2)
    w = start or Weights()
    best = sum(solved(studies, weights_spec(base, w), limits))
    for _ in range(rounds):
        changed = False
        for name in names:
            cur = getattr(w, name)
            tried = sorted({round(cur * k, 6) for k in steps} | ({1.0} if cur == 0 else set()))
            for v in tried:
                if v == cur:
                    continue
                cand = w.replace(**{name: v})
                hits = sum(solved(studies, weights_spec(base, cand), limits))
                if progress is not None:
                    progress(name, v, hits)
                if hits > best:
                    best, w, changed = hits, cand, True
        if not changed:
            break
    return w, best


# -- self-play through the arena --------------------------------------------------------------

@dataclass(frozen=True)
class MatchResult:
    """Results of engine A against B: wins, draws, losses from A's side (pairwise encounters in games of
    more players), with the arena's statistics."""

    wins: int
    losses: int
    draws: int
    first: int = 0  # games A won outright (finished first)
    games_played: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """The arena's normal-approximation interval of the score."""
        from ...arena.stats import score_interval

        e = score_interval(self.wins, self.draws, self.losses, confidence)
        return (e.lo, e.hi)

    def elo(self) -> float:
        """The Elo difference the score suggests (capped at +-800)."""
        s = min(max(self.score, 1e-3), 1 - 1e-3)
        return max(-800.0, min(800.0, -400.0 * math.log10(1 / s - 1)))


def selfplay(a: str, b: str, games: int, spec: str = "hare(players=2,pieces=1)", depth: int | None = 2,
             nodes: int | None = None, movetime: int | None = None, seed: int = 0, concurrency: int = 1,
             cluster: str | None = None, progress: Callable[[int, int], None] | None = None) -> MatchResult:
    """Engine ``a`` against ``b`` (our engine specs, e.g. ``maxn,ks=1.2``) through the arena: seats rotate,
    each deal of the cards played once per rotation; with more than two players, ``b`` fills the other
    seats. Locally, in ``concurrency`` worker processes, or on the Dask ``cluster``."""
    from ...arena.game import TimeControl
    from ...arena.session import Session, run_session

    game = load_game(spec)
    engines = [f"hare:{a},label=A"] + [f"hare:{b},label=B{k}" for k in range(game.num_players - 1)]
    if game.num_players == 2:
        engines = [f"hare:{a},label=A", f"hare:{b},label=B"]
    tc = TimeControl(movetime=movetime, depth=depth if nodes is None and movetime is None else None, nodes=nodes)
    session = Session.from_texts(spec, engines, games=games, tc=tc, seed=seed, concurrency=concurrency,
                                 cluster=cluster, max_plies=600)

    def on_progress(tally, rec, done, total):  # type: ignore[no-untyped-def]
        if progress is not None:
            progress(done, total)

    out = run_session(session, on_progress)
    w, d, l = out.tally.total(0)
    first = sum(1 for r in out.records if r.returns and max(r.returns) == r.returns[r.engine_index.index(0)]
                and list(r.returns).count(max(r.returns)) == 1)
    return MatchResult(w, l, d, first, len(out.records))


# -- openings for matches -----------------------------------------------------------------------

def random_openings(spec: str, count: int, rounds: int = 2, top: int = 4, seed: int = 0) -> list[str]:
    """``count`` openings for ``gamesuite match --openings``: from the start, every player makes ``rounds``
    moves, each drawn at random among its ``top`` moves by the evaluation of the position they lead to
    (hare cards drawn at random as the deck says), as ``startpos moves ...`` lines.

    From the start alone, games between two engines that draw no hare card are the same every time; these
    openings make the games of a match differ."""
    if count < 1 or rounds < 0 or top < 1:
        raise InvalidOptionError("count and top must be positive, rounds not negative")
    game = load_game(spec)
    if game.name != "hare":
        raise InvalidOptionError(f"hare openings need a hare game, not {quote(spec)}")
    rng = random.Random(seed)
    t = tables_for(game)  # type: ignore[arg-type]
    w = Weights().array()
    out: list[str] = []
    seen: set[str] = set()
    tries = 0
    while len(out) < count and tries < 50 * count:
        tries += 1
        s = game.new_state()
        moves: list[str] = []
        made = 0
        while made < rounds * game.num_players and not s.is_terminal():
            if s.is_chance_node():
                cards, probs = zip(*s.chance_outcomes())
                c = rng.choices(cards, probs)[0]
                moves.append(s.format_move(c))
                s.play(c)
                continue
            me = s.current_player
            scored = []
            for m in s.legal_moves():
                v = K.evaluate(K.apply(K.pack(s), t, m), t, w)[me]
                scored.append((v, m))
            scored.sort(key=lambda x: -x[0])
            m = rng.choice(scored[:top])[1]
            moves.append(s.format_move(m))
            s.play(m)
            made += 1
        line = "startpos moves " + " ".join(moves)
        if not s.is_terminal() and line not in seen:
            seen.add(line)
            out.append(line)
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m gamesuite.games.hare.tuning openings SPEC COUNT [ROUNDS [TOP [SEED]]]``: print openings."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if len(args) < 3 or args[0] != "openings":
        print("usage: python -m gamesuite.games.hare.tuning openings SPEC COUNT [ROUNDS [TOP [SEED]]]", file=sys.stderr)
        return 2
    try:
        nums = [int(x) for x in args[2:6]]
    except ValueError:
        print(f"COUNT, ROUNDS, TOP and SEED are numbers, got {' '.join(args[2:])}", file=sys.stderr)
        return 2
    count, rounds, top, seed = nums + [2, 4, 0][len(nums) - 1:]
    print(f"# {count} openings of {args[1]}: every player {rounds} moves among its {top} best by the evaluation, "
          f"seed {seed}")
    for line in random_openings(args[1], count, rounds, top, seed):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
