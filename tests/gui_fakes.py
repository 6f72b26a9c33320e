"""A scripted engine for the GUI tests: reports on a schedule, can misbehave on purpose."""

from __future__ import annotations

import threading
import time

from gamesuite.core.info import SearchInfo, SearchResult
from gamesuite.core.limits import Limits
from gamesuite.core.score import Score


class ScriptedEngine:
    """Reports one depth every ``step_s`` until stopped or a limit, then plays its first legal move.

    ``late_infos``: reports sent *after* the stop flag was seen, as a slow engine
    might (the window must drop them). ``stop_lag_s``: how long it keeps going
    after the flag is set. ``fail``: raise instead of searching. ``max_depth``: stop there
    whatever the limits say (a quick engine under a clock, which the fake does not read).
    ``sign``: -1 makes every score bad for the side to move (a swap chooser then takes black).
    """

    name = "scripted"

    def __init__(self, game, step_s: float = 0.01, late_infos: int = 0, stop_lag_s: float = 0.0,
                 fail: bool = False, pick: int = 0, max_depth: int | None = None, sign: int = 1) -> None:
        self.sign = sign
        self.game = game
        self.step_s = step_s
        self.late_infos = late_infos
        self.stop_lag_s = stop_lag_s
        self.fail = fail
        self.pick = pick
        self.max_depth = max_depth
        self.searches: list[tuple[str, Limits]] = []
        self.threads: set[str] = set()
        self.new_games = 0
        self.stopped_searches = 0

    def new_game(self) -> None:
        self.new_games += 1

    def search(self, state, limits: Limits, stop=None, on_info=None) -> SearchResult:  # type: ignore[no-untyped-def]
        self.threads.add("gui" if threading.current_thread() is threading.main_thread() else "worker")
        self.searches.append((state.to_text(), limits))
        if self.fail:
            raise RuntimeError("scripted failure")
        legal = state.legal_moves()
        move = legal[min(self.pick, len(legal) - 1)]
        t0 = time.perf_counter()
        depth = 0
        stopped = False
        while True:
            if stop is not None and stop[0]:
                stopped = True
                break
            if limits.depth is not None and depth >= limits.depth:
                break
            if self.max_depth is not None and depth >= self.max_depth:
                break
            ms = (time.perf_counter() - t0) * 1000
            if limits.movetime is not None and ms >= limits.movetime:
                break
            time.sleep(self.step_s)
            depth += 1
            if on_info is not None:
                for k in range(1, limits.multipv + 1):
                    on_info(SearchInfo(0, depth, depth, Score.eval(10 * depth - k, state.current_player),
                                       (legal[min(k - 1, len(legal) - 1)],), 100 * depth, 10_000,
                                       int(ms), k))
        if stopped:
            self.stopped_searches += 1
            time.sleep(self.stop_lag_s)
            for k in range(self.late_infos):
                if on_info is not None:
                    on_info(SearchInfo(0, 1000 + k, 1000 + k, Score.eval(0), (move,), 0, 0, 0, 1))
        return SearchResult(move, Score.eval(self.sign * 10 * depth, state.current_player), (move,), depth)


class Factory:
    """An engine factory for ``MainWindow(engine_factory=...)`` that keeps the engines it made."""

    def __init__(self, **options) -> None:  # type: ignore[no-untyped-def]
        self.options = options
        self.engines: list[ScriptedEngine] = []

    def __call__(self, game, spec: str) -> ScriptedEngine:  # type: ignore[no-untyped-def]
        e = ScriptedEngine(game, **self.options)
        self.engines.append(e)
        return e


class FakeTime:
    """A time source for the clocks: ``ms`` moves only when a test says so."""

    def __init__(self) -> None:
        self.ms = 1_000_000

    def __call__(self) -> int:
        return self.ms

    def advance(self, ms: int) -> None:
        self.ms += ms
