"""Matches and tournaments: which games to play, where to play them, and the tally.

A *pairing* is a tuple of engines (indices into the match's engine list) that
meet at one board: two engines in a two-player game; for a game of ``N``
players, up to ``N`` engines, repeated around the table when there are fewer.
Each opening is played once per rotation of the seats (``k`` rotations for
``k`` engines: in a two-player game, once with each colour), so every engine
sits in every seat equally often. ``schedule`` lists the games, ``run_games``
plays them serially, in local worker processes or on a cluster, and
``Tally`` counts pairwise wins, draws and losses from the records.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import random
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import InvalidOptionError, quote
from ..core.registry import Game
from .game import GameTask, MatchLimits, run_task
from .openings import Opening
from .record import GameRecord
from .spec import EngineSpec


def pairings_for(num_engines: int, num_players: int, mode: str = "match") -> list[tuple[int, ...]]:
    """The pairings of a ``match`` (all engines together) or a round robin (``tournament``)."""
    if num_engines < 2:
        raise InvalidOptionError(f"a match needs at least two engines, got {num_engines}")
    if mode == "match":
        if num_engines > num_players:
            raise InvalidOptionError(
                f"{num_engines} engines cannot share a board of {num_players} players; "
                "use `gamesuite tournament` for a round robin")
        return [tuple(range(num_engines))]
    size = min(num_players, num_engines)
    return list(itertools.combinations(range(num_engines), size))


def seats_of(pairing: Sequence[int], num_players: int, rotation: int) -> tuple[int, ...]:
    """The engine of every seat at ``rotation`` (seat ``s`` gets ``pairing[(s + rotation) % k]``)."""
    k = len(pairing)
    return tuple(pairing[(s + rotation) % k] for s in range(num_players))


def schedule(game: Game, engines: Sequence[EngineSpec], games: int, openings: Sequence[Opening],
             tc: MatchLimits, pairings: Sequence[tuple[int, ...]] | None = None, seed: int = 0,
             max_plies: int = 0) -> list[GameTask]:
    """``games`` games per pairing: each opening once per seat rotation, openings in turn.

    Games come out opening by opening (all pairings, all rotations), so a match
    stopped early has played whole pairs.
    """
    if games < 1:
        raise InvalidOptionError(f"the number of games must be positive, got {games}")
    if not openings:
        raise InvalidOptionError("no openings to play")
    n = game.num_players
    pairings = list(pairings) if pairings is not None else pairings_for(len(engines), n)
    rng = random.Random(seed)
    tasks: list[GameTask] = []
    counts = {p: 0 for p in pairings}
    i = 0
    rnd = 0
    while any(c < games for c in counts.values()):
        opening = openings[i % len(openings)]
        game_seed = rng.getrandbits(63)  # shared by the rotations of one opening: same dice
        for p in pairings:
            for r in range(len(p)):
                if counts[p] >= games:
                    break
                seats = seats_of(p, n, r)
                tasks.append(GameTask(
                    game=game.spec, specs=tuple(engines[e] for e in seats), engine_index=seats,
                    opening=opening, tc=tc, round=rnd + 1, opening_index=i % len(openings), rotation=r,
                    seed=game_seed, max_plies=max_plies))
                counts[p] += 1
                rnd += 1
        i += 1
    return tasks


# -- where games run -----------------------------------------------------


def default_concurrency() -> int:
    """One game per core, but at least one."""
    return max(1, os.cpu_count() or 1)


class Executor:
    """Runs ``run_task`` over tasks and hands each record back as it finishes."""

    def run(self, tasks: Sequence[GameTask], on_record: Callable[[GameRecord], None],
            should_stop: Callable[[], bool]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass


class SerialExecutor(Executor):
    """Every game in this process, one after another."""

    def run(self, tasks: Sequence[GameTask], on_record: Callable[[GameRecord], None],
            should_stop: Callable[[], bool]) -> None:
        for t in tasks:
            if should_stop():
                return
            on_record(run_task(t))


def _window(submit: Callable[[GameTask], Any], wait_first: Callable[[set], tuple[set, set]],
            tasks: Sequence[GameTask], width: int, on_record: Callable[[GameRecord], None],
            should_stop: Callable[[], bool], result_of: Callable[[Any], GameRecord],
            cancel: Callable[[Any], None]) -> None:
    """Keep ``width`` games in flight; stop submitting (and cancel the rest) when asked."""
    todo = iter(tasks)
    pending: set = set()
    for t in itertools.islice(todo, width):
        pending.add(submit(t))
    while pending:
        done, pending = wait_first(pending)
        for f in done:
            on_record(result_of(f))
        if should_stop():
            for f in pending:
                cancel(f)
            return
        for t in itertools.islice(todo, len(done)):
            pending.add(submit(t))


class ProcessExecutor(Executor):
    """Games in ``workers`` local processes started with ``spawn`` (safe with threads and numba)."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise InvalidOptionError(f"--concurrency must be positive, got {workers}")
        self.workers = workers
        self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))

    def run(self, tasks: Sequence[GameTask], on_record: Callable[[GameRecord], None],
            should_stop: Callable[[], bool]) -> None:
        def wait_first(fs: set) -> tuple[set, set]:
            done, rest = wait(fs, return_when=FIRST_COMPLETED)
            return set(done), set(rest)

        def result_of(f: Future) -> GameRecord:
            try:
                return f.result()
            except Exception as e:  # noqa: BLE001 - a dead worker process loses the game for nobody
                return lost_record(e)

        _window(lambda t: self.pool.submit(run_task, t), wait_first, tasks, 2 * self.workers, on_record,
                should_stop, result_of, lambda f: f.cancel())

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def lost_record(e: BaseException) -> GameRecord:
    """The record of a game whose worker died (it counts for nobody)."""
    return GameRecord(game="", start="", moves=[], opening_plies=0, engines=[], returns=[], result="*",
                      reason=f"worker error: {type(e).__name__}: {e}", error=repr(e))


def make_executor(concurrency: int = 1, cluster: str | None = None) -> Executor:
    """Serial for 1, local processes for more, or a Dask cluster at ``cluster``."""
    if cluster:
        from .cluster import DaskExecutor

        return DaskExecutor(cluster)
    if concurrency < 1:
        raise InvalidOptionError(f"--concurrency must be positive, got {concurrency}")
    return SerialExecutor() if concurrency == 1 else ProcessExecutor(concurrency)


def run_games(tasks: Sequence[GameTask], executor: Executor | None = None,
              on_record: Callable[[GameRecord], None] | None = None,
              should_stop: Callable[[], bool] | None = None) -> list[GameRecord]:
    """Play ``tasks``; records in the order they finished."""
    out: list[GameRecord] = []
    own = executor is None
    ex = executor or SerialExecutor()

    def take(r: GameRecord) -> None:
        out.append(r)
        if on_record is not None:
            on_record(r)

    try:
        ex.run(tasks, take, should_stop or (lambda: False))
    finally:
        if own:
            ex.close()
    return out


# -- the tally -----------------------------------------------------------


@dataclass
class Tally:
    """Pairwise wins/draws/losses: ``wdl[a][b]`` is ``[wins, draws, losses]`` of ``a`` against ``b``.

    In a game of more than two players every two seats held by different
    engines count as one encounter, won by the higher return.
    """

    labels: list[str]
    wdl: list[list[list[int]]] = field(default_factory=list)
    games: int = 0
    errors: int = 0
    adjudications: dict[str, int] = field(default_factory=dict)
    places: list[list[int]] = field(default_factory=list)  # places[e] = every place engine e took
    #: pentanomial[a][b][k]: pairs (one opening, colours swapped) in which a scored k/2 of 2 against b
    pentanomial: list[list[list[int]]] = field(default_factory=list)
    _half_pairs: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        k = len(self.labels)
        if not self.wdl:
            self.wdl = [[[0, 0, 0] for _ in range(k)] for _ in range(k)]
        if not self.places:
            self.places = [[] for _ in range(k)]
        if not self.pentanomial:
            self.pentanomial = [[[0] * 5 for _ in range(k)] for _ in range(k)]

    def add(self, rec: GameRecord) -> None:
        if rec.error or not rec.returns:
            self.errors += 1
            return
        self.games += 1
        if rec.adjudication:
            kind = rec.adjudication.get("kind", "?")
            self.adjudications[kind] = self.adjudications.get(kind, 0) + 1
        r, idx = rec.returns, rec.engine_index
        for s, e in enumerate(idx):
            self.places[e].append(1 + sum(1 for o in r if o > r[s]))
        if len(idx) == 2 and idx[0] != idx[1]:
            self._pair(rec)
        for i, j in itertools.combinations(range(len(idx)), 2):
            a, b = idx[i], idx[j]
            if a == b:
                continue
            if r[i] > r[j]:
                self.wdl[a][b][0] += 1
                self.wdl[b][a][2] += 1
            elif r[i] < r[j]:
                self.wdl[a][b][2] += 1
                self.wdl[b][a][0] += 1
            else:
                self.wdl[a][b][1] += 1
                self.wdl[b][a][1] += 1

    def _pair(self, rec: GameRecord) -> None:
        """Match the two colours of one opening (same seed, same engines) into a pentanomial pair."""
        a, b = rec.engine_index
        r = rec.returns
        points_a = 2 if r[0] > r[1] else 1 if r[0] == r[1] else 0  # half-points of engine a
        key = (rec.seed, rec.opening_index, min(a, b), max(a, b))
        other = self._half_pairs.pop(key, None)
        if other is None:
            self._half_pairs[key] = (a, points_a)
            return
        oa, opts = other
        lo = min(a, b)
        total = (points_a if a == lo else 2 - points_a) + (opts if oa == lo else 2 - opts)
        hi = max(a, b)
        self.pentanomial[lo][hi][total] += 1
        self.pentanomial[hi][lo][4 - total] += 1

    def add_all(self, records: Iterable[GameRecord]) -> Tally:
        for r in records:
            self.add(r)
        return self

    def total(self, a: int) -> list[int]:
        """``[wins, draws, losses]`` of engine ``a`` against everybody."""
        return [sum(self.wdl[a][b][k] for b in range(len(self.labels))) for k in range(3)]


def check_specs(game: Game, engines: Sequence[EngineSpec]) -> None:
    """Fail early, with a clear error, on specs that cannot play ``game``."""
    import shutil

    from .boards import require_board
    from .players import build_local_engine

    for sp in engines:
        if sp.kind in ("ours", "py"):
            try:
                build_local_engine(game, sp)  # InvalidOptionError on a bad name or option
            except InvalidOptionError:
                raise
            except Exception as e:  # noqa: BLE001 - e.g. an engine that refuses this game
                raise InvalidOptionError(
                    f"engine {quote(sp.text)} cannot play {game.spec}: {type(e).__name__}: {e}") from None
        else:
            prog = sp.command[0]
            if shutil.which(prog) is None and not os.path.isfile(prog):
                raise InvalidOptionError(f"engine spec {quote(sp.text)}: no program {quote(prog)}")
            if sp.kind == "gomocup":
                require_board(game, f"engine {sp.label} (Gomocup)")
