"""The engine worker: searches run on a long-lived QThread, never on the GUI thread.

``EngineWorker`` lives in the worker thread; ``EngineHost`` lives in the GUI
thread and is the only object the window talks to. Requests go to the worker
by queued signals; reports come back by queued signals into the host's
``@Slot`` methods. Every report carries the search id the host gave the
request; the host forwards only the reports of the search it still wants, so
the late output of a stopped search is dropped. Stopping writes the search's
stop flag directly (the worker's event loop is busy while it searches).
"""

from __future__ import annotations

import random
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PySide6.QtCore import QObject, QThread, Signal, Slot

from .. import warmup
from ..core.info import SearchInfo, SearchResult, new_stop_flag
from ..core.limits import Limits
from ..core.registry import Game
from ..core.state import State
from ..warmup import warm_up_engine, warm_up_rules  # noqa: F401 - re-exported for the window and tests

EngineFactory = Callable[[Game, str], Any]

#: The worker sends reports at most this often (ms); reports in between are batched, not lost.
INFO_BATCH_MS = 50


@dataclass
class SearchRequest:
    """What the worker is asked to search."""

    sid: int
    purpose: str  # "move", "analysis", "hint", ...
    game: Game
    state: State
    engine_spec: str
    limits: Limits
    stop: np.ndarray = field(default_factory=new_stop_flag)
    new_game: bool = False
    node_id: int | None = None  # the record node the position belongs to (for the window)
    cancelled: bool = False  # dropped by the host: skip it if it has not started yet
    #: A swap opening's decision instead of a search: ``(rule, seed)``; the result is the engine's
    #: answer (``arena.swap.decide``: three stones on the empty board, else ``"swap"`` or stones).
    swap: tuple[str, int] | None = None


class EngineWorker(QObject):
    """Builds engines and runs their searches, one at a time, in its own thread."""

    infos = Signal(int, object)  # search id, list[SearchInfo]
    finished = Signal(int, object, float)  # search id, SearchResult, perf_counter when the worker went idle
    failed = Signal(int, str)  # search id, message
    rulesReady = Signal(int)  # token: the games' own kernels are loaded; the board may be used
    progress = Signal(int, int, int, str)  # token, kernels compiled, kernels expected (0: not known), what
    prepared = Signal(int, str)  # token, error message ("" when all went well)

    def __init__(self, factory: EngineFactory | None = None) -> None:
        super().__init__()
        self._factory = factory or _default_factory
        self._engines: dict[tuple[str, str], Any] = {}
        self._lock = threading.Lock()
        self._current: SearchRequest | None = None
        self.closing = threading.Event()  # set by the host on close: a compile in progress gives up

    def engine(self, game: Game, spec: str) -> Any:
        """The engine for ``(game, spec)``, built on first use (in the worker thread)."""
        key = (game.spec, spec)
        if key not in self._engines:
            self._engines[key] = self._factory(game, spec)
        return self._engines[key]

    def close_programs_but(self, keep: set[tuple[str, str]]) -> None:
        """End the external programs not in ``keep`` (a new game: those of the last one's players and
        analyses, started again when asked for)."""
        for key, engine in list(self._engines.items()):
            if key not in keep and getattr(engine, "external", False):
                self.close_engine(key)

    def close_engine(self, key: tuple[str, str]) -> None:
        engine = self._engines.pop(key, None)
        close = getattr(engine, "close", None)
        if callable(close):
            try:
                close()
            except Exception as e:  # noqa: BLE001 - a program that fails to end is no reason to fail
                print(f"gamesuite: closing {key[1]!r}: {e}", file=sys.stderr)

    def close_all(self) -> None:
        """End the external programs (the window is closing)."""
        for key in list(self._engines):
            self.close_engine(key)

    def request_stop(self, sid: int | None = None) -> None:
        """Thread-safe: set the stop flag of the running search (of ``sid`` only, if given)."""
        with self._lock:
            cur = self._current
        if cur is not None and (sid is None or cur.sid == sid):
            cur.stop[0] = 1

    @Slot(int, object)
    def prepare(self, token: int, items: object) -> None:
        """Build the engines ``items`` lists (``(game, spec)`` pairs) and load or compile their kernels
        (``warmup.prepare``: in a pool of processes on a cold cache), reporting ``progress``."""
        errors = []
        self.close_programs_but({(game.spec, spec) for game, spec in items})  # type: ignore[attr-defined]

        def progress(done: int, total: int, what: str) -> None:
            self.progress.emit(token, done, total, what)

        # on a cold cache, the engines' compile plans (which include the rules' kernels) go first, in a pool,
        # longest path first (started at launch for the last game); the rules' warm-up waits for the rules'
        # kernels (at the bottom of the plan: compiled first) and only loads them
        for game, spec in items:  # type: ignore[attr-defined]
            if self._factory is _default_factory:  # (an external program's spec starts nothing)
                warmup.start_early(game.spec, spec)
        for game in {game.spec: game for game, _ in items}.values():  # type: ignore[attr-defined]
            warmup.wait_early(game.spec, progress, self.closing, rules_only=True)
            try:
                warm_up_rules(game)
            except Exception as e:  # noqa: BLE001 - reported to the window, never raised into Qt
                errors.append(f"{game.spec} rules: {e}")
        self.rulesReady.emit(token)

        for game, spec in items:  # type: ignore[attr-defined]
            if self.closing.is_set():
                break
            try:
                engine = self.engine(game, spec)
                if getattr(engine, "external", False):  # a program: started and told a new game, no search
                    engine.new_game()
                else:
                    warmup.prepare(game, engine, progress, stop=self.closing)
            except Exception as e:  # noqa: BLE001 - any loading failure is reported to the window
                traceback.print_exc(file=sys.stderr)
                errors.append(f"{game.spec} engine {spec or 'default'}: {e}")
        self.prepared.emit(token, "; ".join(errors))

    @Slot(object)
    def search(self, req: SearchRequest) -> None:
        """Run one search and report; a request cancelled before it starts is skipped."""
        if req.cancelled:  # e.g. the user stepped through many positions while one search ran
            self.finished.emit(req.sid, None, time.perf_counter())
            return
        batch: list[SearchInfo] = []
        last = [0.0]

        def on_info(info: SearchInfo) -> None:
            batch.append(info)
            now = time.perf_counter()
            if (now - last[0]) * 1000 >= INFO_BATCH_MS:
                last[0] = now
                self.infos.emit(req.sid, list(batch))
                batch.clear()

        with self._lock:
            self._current = req
        try:
            engine = self.engine(req.game, req.engine_spec)
            if req.new_game and hasattr(engine, "new_game"):
                engine.new_game()
            if req.swap is not None:
                from ..arena.swap import decide

                rule, seed = req.swap
                result = decide(engine, req.state, rule, req.limits, random.Random(seed), stop=req.stop)
            else:
                result = engine.search(req.state, req.limits, req.stop, on_info)
        except Exception as e:  # noqa: BLE001 - an engine's failure is reported to the window, never raised
            with self._lock:
                self._current = None
            traceback.print_exc(file=sys.stderr)
            self.failed.emit(req.sid, f"{type(e).__name__}: {e}")
            return
        with self._lock:
            self._current = None
        if batch:
            self.infos.emit(req.sid, list(batch))
        self.finished.emit(req.sid, result, time.perf_counter())


def _default_factory(game: Game, spec: str) -> Any:
    """Ours, or an external USI / Gomocup program (``arena.external.open_engine``)."""
    from ..arena.external import open_engine

    return open_engine(game, spec)


class EngineHost(QObject):
    """The GUI thread's handle on the worker: starts, stops and filters searches.

    Signals carry only reports of the search the host still wants:
    ``info(sid, purpose, infos)``, ``result(sid, purpose, result)``,
    ``error(sid, purpose, message)``. ``busyChanged`` follows the worker
    (busy from a request until its last search returned).
    """

    info = Signal(int, str, object)
    result = Signal(int, str, object)
    error = Signal(int, str, str)
    busyChanged = Signal(bool)
    rulesReady = Signal(int)  # token
    progress = Signal(int, int, int, str)  # token, kernels compiled, kernels expected (0: not known), what
    ready = Signal(int, str)  # token, error text

    _to_search = Signal(object)
    _to_prepare = Signal(int, object)

    def __init__(self, factory: EngineFactory | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread = QThread()
        self._thread.setObjectName("engine-worker")
        self.worker = EngineWorker(factory)
        self.worker.moveToThread(self._thread)
        self._to_search.connect(self.worker.search)
        self._to_prepare.connect(self.worker.prepare)
        self.worker.infos.connect(self._on_infos)
        self.worker.finished.connect(self._on_finished)
        self.worker.failed.connect(self._on_failed)
        self.worker.prepared.connect(self._on_prepared)
        self.worker.rulesReady.connect(self._on_rules_ready)
        self.worker.progress.connect(self._on_progress)
        self._thread.start()
        self._next_sid = 1
        self._next_token = 1
        self._requests: dict[int, SearchRequest] = {}  # sent, not yet returned
        self._wanted: SearchRequest | None = None
        self.finished_request: SearchRequest | None = None  # the request of the last result forwarded
        self.dropped = 0  # reports dropped because their search was no longer wanted
        self.last_idle_at = 0.0  # perf_counter when the worker last went idle
        self._closed = False

    # -- state --------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """True while the worker has a search to run or running."""
        return bool(self._requests)

    @property
    def current(self) -> SearchRequest | None:
        """The search whose reports are forwarded (None when none is wanted)."""
        return self._wanted

    @property
    def purpose(self) -> str | None:
        return self._wanted.purpose if self._wanted else None

    # -- requests -----------------------------------------------------------
    def prepare(self, items: list[tuple[Game, str]]) -> int:
        """Warm up these games and engines in the worker: ``rulesReady(token)`` then
        ``ready(token, errors)`` follow. Searches asked for meanwhile wait behind it."""
        token = self._next_token
        self._next_token += 1
        self._to_prepare.emit(token, list(items))
        return token

    def start(self, purpose: str, game: Game, state: State, engine_spec: str, limits: Limits,
              new_game: bool = False, node_id: int | None = None, swap: tuple[str, int] | None = None) -> int:
        """Stop the current search (dropping its output) and start a new one; returns its id.

        ``swap``: ``(rule, seed)`` asks for a swap opening's decision instead (its result is the answer)."""
        if self._closed:
            return 0
        self.stop()
        sid = self._next_sid
        self._next_sid += 1
        req = SearchRequest(sid, purpose, game, state.copy(), engine_spec, limits, new_game=new_game,
                            node_id=node_id, swap=swap)
        was_busy = self.busy
        self._requests[sid] = req
        self._wanted = req
        self._to_search.emit(req)
        if not was_busy:
            self.busyChanged.emit(True)
        return sid

    def stop(self) -> None:
        """Stop every search now; their later reports and results are dropped."""
        self._wanted = None
        for req in self._requests.values():
            req.cancelled = True
            req.stop[0] = 1

    def move_now(self) -> None:
        """Ask the wanted search to finish now; its result is still delivered."""
        if self._wanted is not None:
            self._wanted.stop[0] = 1

    def shutdown(self, timeout_ms: int = 1000) -> bool:
        """Stop searching and end the worker thread; True if it ended within ``timeout_ms``.

        A search stops within milliseconds; a first-time numba compilation cannot be
        interrupted, so if the thread is still busy after ``timeout_ms`` this waits for
        it (a thread destroyed while running would crash the process instead).
        """
        if self._closed:
            return self._thread.isFinished()
        self._closed = True
        self.stop()
        self.worker.closing.set()  # a compile pool stops after the kernels it is compiling
        warmup.stop_early()  # (and one started at launch that no one waits for)
        self._thread.quit()
        ok = bool(self._thread.wait(timeout_ms))
        if not ok:
            print("gamesuite: waiting for the engine worker to finish compiling…", file=sys.stderr)
            self._thread.wait()
        self.worker.close_all()  # the external programs (the worker's thread has ended)
        return ok

    # -- reports from the worker ------------------------------------------------
    @Slot(int, object)
    def _on_infos(self, sid: int, infos: list) -> None:
        w = self._wanted
        if w is None or w.sid != sid:
            self.dropped += len(infos)
            return
        self.info.emit(sid, w.purpose, infos)

    @Slot(int, object, float)
    def _on_finished(self, sid: int, result: SearchResult, idle_at: float) -> None:
        req = self._requests.pop(sid, None)
        self.last_idle_at = idle_at
        w = self._wanted
        if w is not None and w.sid == sid:
            self._wanted = None
            self.finished_request = w
            if not self.busy:
                self.busyChanged.emit(False)
            self.result.emit(sid, w.purpose, result)
        else:
            self.dropped += 1
            if not self.busy:
                self.busyChanged.emit(False)
        del req

    @Slot(int, str)
    def _on_failed(self, sid: int, message: str) -> None:
        self._requests.pop(sid, None)
        w = self._wanted
        if not self.busy:
            self.busyChanged.emit(False)
        if w is not None and w.sid == sid:
            self._wanted = None
            self.error.emit(sid, w.purpose, message)

    @Slot(int)
    def _on_rules_ready(self, token: int) -> None:
        self.rulesReady.emit(token)

    @Slot(int, int, int, str)
    def _on_progress(self, token: int, done: int, total: int, what: str) -> None:
        self.progress.emit(token, done, total, what)

    @Slot(int, str)
    def _on_prepared(self, token: int, errors: str) -> None:
        self.ready.emit(token, errors)
