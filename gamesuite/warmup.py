"""Getting an engine ready before it is asked to move: one way for every front end.

The window, USI, the Gomocup brain, the JSON protocol and the CLI all call
``prepare(game, engine)`` before they say they are ready or start a clock, so
that no move is ever charged with compiling or loading kernels.

``prepare`` runs the game's rule kernels, the engine module's ``warm_up()``
(given the engine, so it compiles what this engine needs) and a tiny search of
a position of the real game. With a warm numba cache that only loads machine
code (well under a second). With a cold one it compiles, and that is where the
rest of this module comes in:

- ``CompileTrace`` records what numba compiles while a block runs: each kernel
  and signature, the seconds it took on its own, and which compiled kernels it
  links (its callees). ``gamesuite bench startup`` prints it.
- A *compile plan* is such a record kept as data (``warmup_plans/<game>.<engine>.json``
  in the package, refreshed in the cache folder by every compile that ran in the
  process): the kernels an engine needs, with their signatures as numba
  types, the seconds each took and which ones each depends on.
- ``compile_in_pool`` compiles a plan's kernels in parallel: the calling process
  and helper processes (as many as there are cores) each compile kernels whose
  callees are done, critical path first. numba's cache is on disk, so what one
  process compiles, the others load; the engine then loads everything.

A plan is only a guide. An entry whose kernel has gone, whose parameters
changed since the plan was recorded or whose signature no longer types is
skipped, and the warm-up that follows compiles whatever is still missing in the
process itself, so a stale plan costs time, never correctness; the next compile
records a fresh one.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import os
import re
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from . import numba_cache
from .core.files import write_atomic

#: ``progress(done, total, text)``: kernels compiled so far, kernels expected (0: not known), what is
#: being prepared. Called only while something compiles (never for a warm cache), last with done == total.
Progress = Callable[[int, int, str], None]

PLAN_VERSION = 1
#: Shipped plans: recorded from a cold compile (``gamesuite bench startup --record``).
SHIPPED_PLANS = Path(__file__).with_name("warmup_plans")
#: Below this many seconds of recorded compilation the pool is not worth starting processes for.
MIN_POOL_SECONDS = 3.0


# -- what numba compiles -------------------------------------------------------------------------


@dataclass
class Compiled:
    """One kernel compiled while a ``CompileTrace`` was active."""

    module: str
    name: str
    sig: str  # the argument types, as numba writes them
    seconds: float  # on its own (the kernels it compiled meanwhile not counted)
    total: float  # with the kernels it compiled meanwhile
    deps: list[int] = field(default_factory=list)  # indexes of the compiled kernels it links


class CompileTrace:
    """Records every numba compilation while active (``with CompileTrace() as t: ...``).

    ``on_compiled(event)`` is called after each kernel compiled (for progress reports).
    numba compiles under one global lock, so the events of one process nest properly.
    """

    def __init__(self, on_compiled: Callable[[Compiled], None] | None = None) -> None:
        self.events: list[Compiled] = []
        self.on_compiled = on_compiled
        self._stack: list[list[float]] = []
        self._libs: list[Any] = []
        self._listener: Any = None

    def __enter__(self) -> CompileTrace:
        from numba.core import event as ev

        trace = self

        class _Listener(ev.Listener):
            def on_start(self, event: Any) -> None:
                trace._stack.append([time.perf_counter(), 0.0])

            def on_end(self, event: Any) -> None:
                trace._end(event)

        self._listener = _Listener()
        ev.register("numba:compile", self._listener)
        return self

    def __exit__(self, *exc: object) -> None:
        from numba.core import event as ev

        ev.unregister("numba:compile", self._listener)

    def _end(self, event: Any) -> None:
        if not self._stack:
            return
        t0, inner = self._stack.pop()
        total = time.perf_counter() - t0
        if self._stack:
            self._stack[-1][1] += total
        data = event.data or {}
        disp = data.get("dispatcher")
        args = tuple(data.get("args") or ())
        if disp is None:
            return
        cres = disp.overloads.get(args)
        lib = getattr(cres, "library", None)
        deps = []
        if lib is not None:
            linked = {id(x) for x in getattr(lib, "_linking_libraries", ())}
            deps = [i for i, other in enumerate(self._libs) if other is not None and id(other) in linked]
        func = disp.py_func
        ev = Compiled(func.__module__, func.__qualname__, sig_text(args), round(total - inner, 4),
                      round(total, 4), deps)
        self.events.append(ev)
        self._libs.append(lib)
        if self.on_compiled is not None:
            try:
                self.on_compiled(ev)
            except Exception:  # noqa: BLE001 - a progress report never breaks a compile
                pass

    # -- summaries ----------------------------------------------------------------------------
    @property
    def seconds(self) -> float:
        """Seconds spent compiling (outermost compilations only)."""
        return sum(e.seconds for e in self.events)

    def kernels(self) -> list[Compiled]:
        """The events of gamesuite's own kernels (not numba's internal helpers)."""
        return [e for e in self.events if e.module.startswith("gamesuite")]

    def duplicate_seconds(self) -> float:
        """Seconds spent compiling kernels again for another signature (all but each kernel's first)."""
        seen: set[str] = set()
        total = 0.0
        for e in self.kernels():
            key = f"{e.module}.{e.name}"
            if key in seen:
                total += e.seconds
            seen.add(key)
        return total

    def duplicates(self) -> dict[str, list[str]]:
        """Kernels compiled for more than one signature: ``{module.name: [sig, ...]}``."""
        out: dict[str, list[str]] = {}
        for e in self.kernels():
            out.setdefault(f"{e.module}.{e.name}", []).append(e.sig)
        return {k: v for k, v in out.items() if len(v) > 1}


def sig_text(args: Iterable[Any]) -> str:
    """A signature as text that ``parse_sig`` reads back (numba's ``repr`` of each type)."""
    return ", ".join(repr(a) for a in args)


def _type_namespace() -> dict[str, Any]:
    from numba.core import types

    ns: dict[str, Any] = {name: getattr(types, name) for name in dir(types) if not name.startswith("_")}
    ns["bool"] = types.boolean
    ns["none"] = types.none
    return ns


def parse_sig(text: str) -> tuple[Any, ...] | None:
    """The numba argument types written by ``sig_text``, or None if they cannot be rebuilt
    (literal values and other types a plan does not need to name)."""
    if "Literal[" in text or "<" in text:
        return None
    try:
        value = eval(f"({text},)" if text else "()", {"__builtins__": {}}, _type_namespace())
    except Exception:  # noqa: BLE001 - not a type we can rebuild
        return None
    return tuple(value)


def params_hash(func: Callable[..., Any]) -> str:
    """A short hash of a kernel's parameters (names and defaults). A plan entry is kept while they
    stay the same: a kernel whose body changed is still called with the same types, so compiling it
    for the recorded signature is still right; one whose parameters changed is left to the warm-up."""
    try:
        text = str(inspect.signature(func))
    except (TypeError, ValueError):
        text = repr(getattr(getattr(func, "__code__", None), "co_varnames", ()))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def source_hash(func: Callable[..., Any]) -> str:
    """A short hash of a kernel's source ("" where it cannot be read, as in a frozen build). An entry
    whose source changed since its plan was recorded may call kernels the plan does not name: the pool
    compiles it in this process only, so that what it compiles on the way is compiled once."""
    try:
        text = inspect.getsource(func)
    except (OSError, TypeError):
        return ""
    return hashlib.sha256(text.encode()).hexdigest()[:12]


# -- compile plans ----------------------------------------------------------------------------------


@dataclass
class PlanEntry:
    """A kernel to compile: where it is, its argument types, what it costs and what it needs first."""

    module: str
    name: str
    sig: str
    seconds: float
    deps: list[int]
    params: str  # ``params_hash`` of the kernel when the plan was recorded
    source: str = ""  # ``source_hash`` of the kernel then ("": not known)
    rules: bool = False  # the game's rules use it (the window takes moves once these are compiled)


@dataclass
class CompilePlan:
    """The kernels an engine needs, in an order where every entry's dependencies come first."""

    key: str
    entries: list[PlanEntry]
    recorded: str = ""  # where and how the plan was recorded (for people)

    @property
    def seconds(self) -> float:
        return sum(e.seconds for e in self.entries)

    def critical_path(self) -> tuple[float, list[int]]:
        """The longest chain of dependencies (the seconds and the entries, callees first): the least
        time a pool of any size compiles the plan in."""
        best: list[tuple[float, int]] = []  # per entry: longest chain ending there, and its predecessor
        for e in self.entries:
            prev = max(((best[d][0], d) for d in e.deps if 0 <= d < len(best)), default=(0.0, -1))
            best.append((prev[0] + e.seconds, prev[1]))
        if not best:
            return 0.0, []
        i = max(range(len(best)), key=lambda k: best[k][0])
        total, chain = best[i][0], []
        while i >= 0:
            chain.append(i)
            i = best[i][1]
        return total, chain[::-1]

    def to_json(self) -> str:
        return json.dumps({"version": PLAN_VERSION, "key": self.key, "recorded": self.recorded,
                           "entries": [asdict(e) for e in self.entries]}, indent=1)

    @classmethod
    def from_json(cls, text: str) -> CompilePlan:
        d = json.loads(text)
        if d.get("version") != PLAN_VERSION:
            raise ValueError(f"compile plan version {d.get('version')!r}, expected {PLAN_VERSION}")
        return cls(d["key"], [PlanEntry(**e) for e in d["entries"]], d.get("recorded", ""))

    @classmethod
    def from_trace(cls, key: str, events: list[Compiled], recorded: str = "", rules_events: int = 0) -> CompilePlan:
        """The plan of a trace: gamesuite's kernels whose signatures can be rebuilt, each with the
        dependencies among them (through any kernel left out). The first ``rules_events`` events were
        compiled by the rules' warm-up (``warm_up_rules``)."""
        keep: dict[int, int] = {}
        entries: list[PlanEntry] = []

        def kept_deps(i: int, seen: set[int]) -> set[int]:
            out: set[int] = set()
            for d in events[i].deps:
                if d in seen:
                    continue
                seen.add(d)
                out |= {keep[d]} if d in keep else kept_deps(d, seen)
            return out

        for i, e in enumerate(events):
            if not e.module.startswith("gamesuite") or parse_sig(e.sig) is None:
                continue
            func = _kernel(e.module, e.name)
            if func is None:
                continue
            keep[i] = len(entries)
            entries.append(PlanEntry(e.module, e.name, e.sig, e.seconds, sorted(kept_deps(i, set())),
                                     params_hash(func.py_func), source_hash(func.py_func), i < rules_events))
        # the cost of a kernel left out (a literal specialisation, a numba helper) is paid by its caller
        return cls(key, entries, recorded)


def plan_status(plan: CompilePlan) -> dict[str, list[str]]:
    """What is stale in ``plan`` against the kernels as they are now: entries whose kernel is ``gone``,
    whose parameters changed (``params``: the pool skips them) or whose source changed (``source``:
    the pool compiles them in its own process only). All empty: the plan is current."""
    out: dict[str, list[str]] = {"gone": [], "params": [], "source": []}
    for e in plan.entries:
        disp = _kernel(e.module, e.name)
        name = f"{e.module.rsplit('.', 1)[-1]}.{e.name}"
        if disp is None:
            out["gone"].append(name)
        elif parse_sig(e.sig) is None or params_hash(disp.py_func) != e.params:
            out["params"].append(name)
        elif e.source and e.source != source_hash(disp.py_func):
            out["source"].append(name)
    return out


def plan_key(game: Any, engine: Any) -> str:
    """The name of an engine's plan: ``<game>.<engine>``, the engine's registered name (its ``name``
    up to the first option), e.g. ``gomoku.mtdf``, ``shogi.alphabeta``; ``.<n>p`` added for a game of
    more than two players (its engines search another way). Engines of one module that compile
    different kernels (gomoku's ``mtdf`` and ``alphabeta``) so keep plans of their own."""
    name = str(getattr(engine, "name", "") or "").split(",", 1)[0]
    return _plan_key_of(game, name or type(engine).__module__.rsplit(".", 1)[-1])


def _plan_key_of(game: Any, engine_name: str) -> str:
    name = re.sub(r"[^a-z0-9_-]+", "-", engine_name.strip().lower()).strip("-") or "engine"
    key = f"{getattr(game, 'name', 'game')}.{name}"
    players = getattr(game, "num_players", 2)
    return key + (f".{players}p" if isinstance(players, int) and players > 2 else "")


def learned_plan_dir() -> Path:
    """Where compiles record the plans they learn: beside the compiled kernels, so that an empty
    cache folder also means no learned plan."""
    if numba_cache.is_frozen():
        return Path(numba_cache.cache_root()) / "plans"
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        return Path(env) / "gamesuite-plans"
    if os.access(numba_cache.PACKAGE_DIR, os.W_OK):  # numba caches beside the sources
        return Path(numba_cache.PACKAGE_DIR) / "__pycache__" / "warmup-plans"
    from platformdirs import user_cache_dir  # numba uses its user-wide folder then

    return Path(user_cache_dir("gamesuite", appauthor=False)) / "warmup-plans"


def load_plan(key: str) -> CompilePlan | None:
    """The learned plan for ``key`` if there is one, else the shipped one, else None."""
    for folder in (learned_plan_dir(), SHIPPED_PLANS):
        path = folder / f"{key}.json"
        try:
            return CompilePlan.from_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return None


def save_plan(plan: CompilePlan, folder: Path | None = None) -> Path | None:
    """Write ``plan`` (atomically) to ``folder`` (default: ``learned_plan_dir()``); None if it cannot."""
    folder = folder or learned_plan_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return write_atomic(folder / f"{plan.key}.json", plan.to_json() + "\n")
    except OSError:
        return None


def _kernel(module: str, name: str) -> Any:
    """The numba dispatcher ``module.name``, or None."""
    try:
        obj = importlib.import_module(module)
        for part in name.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        return None
    return obj if hasattr(obj, "py_func") and hasattr(obj, "compile") else None


def is_cached(disp: Any, sig: tuple[Any, ...]) -> bool:
    """Whether numba's on-disk cache has ``disp`` compiled for ``sig`` (read from its index only)."""
    if tuple(sig) in disp.overloads:
        return True
    try:
        cache = disp._cache
        key = cache._index_key(tuple(sig), disp.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:  # noqa: BLE001 - numba internals changed: say no, the pool compiles it
        return False


@dataclass
class PoolReport:
    """What ``compile_in_pool`` did."""

    planned: int = 0  # plan entries
    total: int = 0  # entries to compile (not cached, not skipped)
    cached: int = 0  # already in the cache
    skipped: int = 0  # stale or unknown entries left to the warm-up
    changed: int = 0  # entries whose kernel's source changed since the plan was recorded (compiled here)
    compiled: int = 0
    failed: int = 0
    processes: int = 0  # helper processes started
    seconds: float = 0.0  # wall time
    errors: list[str] = field(default_factory=list)


def _compile_one(module: str, name: str, sig: str) -> float:
    """Compile ``module.name`` for ``sig`` (into numba's cache); the seconds it took. Runs in any process."""
    import gamesuite  # noqa: F401 - installs the cache locators in a fresh helper process

    disp = _kernel(module, name)
    types = parse_sig(sig)
    if disp is None or types is None:
        raise LookupError(f"{module}.{name}({sig}) cannot be compiled here")
    t0 = time.perf_counter()
    disp.compile(types)
    return time.perf_counter() - t0


def _helper_init(modules: list[str]) -> None:
    """Start-up of a helper process: import the kernels' modules while the first task is on its way."""
    import gamesuite  # noqa: F401 - installs the cache locators

    for m in modules:
        try:
            importlib.import_module(m)
        except ImportError:
            pass


def _noop() -> None:
    """A first task: makes the pool start its helpers now (it starts them at the first task)."""


def _os_threads() -> int:
    """The threads of this process as the system counts them (Qt's and the BLAS's too), or a large number
    where it cannot be read."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1 << 30


_THREADS_AT_IMPORT = _os_threads()  # (numpy's BLAS threads, idle; they are fork-safe)


def _helper_start_method(fork_ok: bool = False) -> str:
    """How helper processes start: ``fork`` when the caller allows it (``start_early`` at a cold launch,
    before the window exists) and nothing can hold a lock the helper needs: Linux, called from the main
    thread, no other Python thread, no thread of any kind started since this module was imported (a Qt
    thread running Python code is invisible to ``threading``). The helper then has numba and gamesuite
    imported at once (about half a second of CPU and of waiting less). ``spawn`` otherwise (forking while
    another thread holds numba's compiler lock would hang the helper; macOS's system libraries do not
    support fork). ``GAMESUITE_HELPER_START=spawn`` always spawns."""
    import multiprocessing

    if not fork_ok or os.environ.get("GAMESUITE_HELPER_START", "") == "spawn" or \
            not sys.platform.startswith("linux") or "fork" not in multiprocessing.get_all_start_methods():
        return "spawn"
    if threading.current_thread() is not threading.main_thread() or threading.active_count() != 1 or \
            _os_threads() > _THREADS_AT_IMPORT:
        return "spawn"
    return "fork"


def _start_helpers(modules: Iterable[str], count: int, fork_ok: bool = False) -> Any:
    """A pool of ``count`` helper processes, started now (each importing ``modules``), or None; ``fork_ok``:
    they may be forked (``_helper_start_method``)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    try:
        modules = sorted(set(modules))
        # (with fork, the executor starts its processes at the first submit, before its own thread)
        pool = ProcessPoolExecutor(count, mp_context=multiprocessing.get_context(_helper_start_method(fork_ok)),
                                   initializer=_helper_init, initargs=(modules,))
        for _ in range(count):
            pool.submit(_noop)
        return pool
    except (OSError, ValueError, RuntimeError):
        return None


def _stop_helpers(pool: Any) -> None:
    """End the helper processes now, whatever they are doing."""
    for proc in list(getattr(pool, "_processes", {}).values()):
        try:
            proc.terminate()
        except (OSError, AttributeError):
            pass
    pool.shutdown(wait=True, cancel_futures=True)


def available_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def compile_in_pool(plan: CompilePlan, workers: int | None = None, progress: Progress | None = None,
                    label: str = "", stop: threading.Event | None = None, helpers: Any = None,
                    on_rules: Callable[[], None] | None = None) -> PoolReport:
    """Compile ``plan``'s missing kernels into numba's cache, ``workers`` at a time (default: the
    cores), this process being one of them (``helpers``: a pool of ``workers - 1`` helper processes
    already started by ``_start_helpers``; it is shut down here). ``on_rules()`` is called once the
    entries the game's rules use are compiled (at the latest at the end). Returns what was done; never
    raises for a kernel that fails (the warm-up after it compiles what is still missing)."""
    t_start = time.perf_counter()
    report = PoolReport(planned=len(plan.entries))
    n = len(plan.entries)
    workers = max(1, workers or available_cores())
    # the helpers start now, importing the plan's modules while this process looks for what is missing
    pool = helpers
    if pool is None and workers > 1 and n > 1:
        pool = _start_helpers((e.module for e in plan.entries), workers - 1)
    todo: set[int] = set()
    done: set[int] = set()
    # A stale plan must not cost more than no plan: what is compiled on the way by an entry whose source
    # changed (kernels the plan does not name) or by the callers of a skipped entry (its new signature)
    # is compiled once, in this process, so those entries go to this process's lane only.
    local_only: set[int] = set()
    for i, e in enumerate(plan.entries):
        disp = _kernel(e.module, e.name)
        types = parse_sig(e.sig)
        if disp is None or types is None or params_hash(disp.py_func) != e.params:
            report.skipped += 1
            done.add(i)  # nothing to wait for: its callers compile it themselves if need be
            local_only.update(j for j, other in enumerate(plan.entries) if i in other.deps)
        elif is_cached(disp, types):
            report.cached += 1
            done.add(i)
        else:
            todo.add(i)
            if e.source and e.source != source_hash(disp.py_func):
                report.changed += 1
                local_only.add(i)
    total = report.total = len(todo)
    what = label or plan.key
    rules_todo = {i for i in todo if plan.entries[i].rules}
    if on_rules is not None and not rules_todo:
        on_rules()
        on_rules = None
    if progress is not None and total:
        progress(0, total, what)
    if len(todo) < 2 and pool is not None:  # nothing for a helper to do
        _stop_helpers(pool)
        pool = None
    if not todo:
        report.seconds = time.perf_counter() - t_start
        return report
    dependents: dict[int, list[int]] = {i: [] for i in range(n)}
    for i, e in enumerate(plan.entries):
        for d in e.deps:
            if 0 <= d < n:
                dependents[d].append(i)
    rank: dict[int, float] = {}
    for i in reversed(range(n)):  # dependencies come first, so dependents are already ranked
        rank[i] = plan.entries[i].seconds + max((rank[j] for j in dependents[i] if j in rank), default=0.0)

    local = ThreadPoolExecutor(1, thread_name_prefix="compile")
    if pool is not None:
        report.processes = workers - 1
    # Helpers started just now take a second to be ready: this process goes first. Helpers started earlier
    # (``start_early``) are ready, and do not share this process's interpreter lock with the window.
    order = ("pool", "local") if helpers is not None else ("local", "pool")
    running: dict[Future, tuple[int, str]] = {}
    busy_names: set[tuple[str, str]] = set()
    failed_pool = False

    def ready() -> list[int]:
        out = [i for i in todo if all(d in done or d not in range(n) for d in plan.entries[i].deps)
               and (plan.entries[i].module, plan.entries[i].name) not in busy_names]
        return sorted(out, key=lambda i: -rank[i])

    try:
        while todo or running:
            if stop is not None and stop.is_set():
                break
            lanes = {"local": 1 - sum(1 for _, lane in running.values() if lane == "local")}
            if pool is not None and not failed_pool:
                lanes["pool"] = (workers - 1) - sum(1 for _, lane in running.values() if lane == "pool")
            for i in ready():  # the longest path first: to the helpers when they were up already, else here
                free = [lane for lane in order if lanes.get(lane, 0) > 0]
                lane = free[0] if free else None
                if lane is None:
                    break
                if lane == "pool" and i in local_only:
                    continue
                e = plan.entries[i]
                try:
                    fut = (pool if lane == "pool" and pool is not None else local).submit(
                        _compile_one, e.module, e.name, e.sig)
                except RuntimeError:  # a broken or shut-down pool: this process carries on alone
                    failed_pool = True
                    lanes["pool"] = 0
                    if lanes["local"] <= 0:
                        break
                    lane = "local"
                    fut = local.submit(_compile_one, e.module, e.name, e.sig)
                running[fut] = (i, lane)
                lanes[lane] -= 1
                todo.discard(i)
                busy_names.add((e.module, e.name))
            if not running:  # only possible if the plan's dependencies are inconsistent
                break
            finished, _ = wait(list(running), timeout=0.5, return_when=FIRST_COMPLETED)
            for fut in finished:
                i, lane = running.pop(fut)
                e = plan.entries[i]
                busy_names.discard((e.module, e.name))
                done.add(i)
                rules_todo.discard(i)
                if on_rules is not None and not rules_todo:
                    on_rules()
                    on_rules = None
                try:
                    fut.result()
                    report.compiled += 1
                except Exception as exc:  # noqa: BLE001 - left to the warm-up
                    report.failed += 1
                    report.errors.append(f"{e.module}.{e.name}: {type(exc).__name__}: {exc}"[:300])
                    if lane == "pool" and type(exc).__name__ == "BrokenProcessPool":
                        failed_pool = True  # (a helper died: its kernel is left to the warm-up)
                if progress is not None:
                    progress(report.compiled + report.failed, total, what)
    finally:
        if pool is not None:
            if stop is not None and stop.is_set():  # closing: do not wait for the helper's kernel
                _stop_helpers(pool)
            else:
                pool.shutdown(wait=True, cancel_futures=True)
        local.shutdown(wait=True)
        if on_rules is not None:
            on_rules()
    report.seconds = time.perf_counter() - t_start
    return report


# -- getting an engine ready -------------------------------------------------------------------------


def _sample_state(game: Any) -> Any:
    s = game.new_state()
    for _ in range(3):
        moves = s.legal_moves()
        if not moves or s.is_terminal():
            break
        s.play(moves[len(moves) // 2])
    return s


def warm_up_rules(game: Any) -> None:
    """Call the state methods the board, the controller and the protocols use, so that a game whose
    rules are numba kernels (gomoku's renju points) compiles or loads them here."""
    s = _sample_state(game)
    for name in ("forbidden_moves", "winning_line"):
        fn = getattr(s, name, None)
        if callable(fn):
            fn()
    if s.history:
        s.is_legal(s.history[-1])
        s.undo()
    game.state_from_text(s.to_text())


def warm_up_engine(game: Any, engine: Any) -> None:
    """Compile (or load) what ``engine`` needs: its module's ``warm_up(engine)`` (``warm_up()`` for a
    hook that takes no argument), then a tiny search of a position of ``game``."""
    from .core.info import new_stop_flag
    from .core.limits import Limits

    mod = sys.modules.get(type(engine).__module__)
    hook = getattr(mod, "warm_up", None)
    if callable(hook):
        try:
            takes_engine = bool(inspect.signature(hook).parameters)
        except (TypeError, ValueError):
            takes_engine = False
        hook(engine) if takes_engine else hook()
    s = _sample_state(game)
    while s.is_chance_node():
        s.play(s.chance_outcomes()[0][0])
    if not s.is_terminal():
        engine.search(s, Limits(depth=1), new_stop_flag(), None)


@dataclass
class PrepareReport:
    """What ``prepare`` did and how long it took."""

    key: str = ""
    seconds: float = 0.0  # wall time
    pool: PoolReport | None = None
    compiled: int = 0  # kernels compiled in this process by the warm-up (after any pool)
    compile_seconds: float = 0.0
    plan_saved: str = ""
    cancelled: bool = False  # ``stop`` was set: not ready

    def summary(self) -> str:
        parts = [f"{self.key}: ready in {self.seconds:.2f} s"]
        if self.pool is not None and (self.pool.compiled or self.pool.failed):
            p = self.pool
            parts.append(f"pool compiled {p.compiled} kernels ({p.failed} failed, {p.processes} helper "
                         f"processes) in {p.seconds:.2f} s")
        if self.compiled:
            parts.append(f"compiled {self.compiled} kernels in-process ({self.compile_seconds:.2f} s)")
        return "; ".join(parts)


_prepared: weakref.WeakSet[Any] = weakref.WeakSet()  # engines already prepared in this process
_prepare_lock = threading.Lock()


def engine_label(game: Any) -> str:
    """"the gomoku engine", for messages."""
    return f"the {getattr(game, 'name', 'game')} engine"


def parallel_default() -> bool:
    """Whether ``prepare`` uses a pool: two or more cores and ``GAMESUITE_PARALLEL_COMPILE`` not ``0``."""
    return os.environ.get("GAMESUITE_PARALLEL_COMPILE", "1") != "0" and available_cores() > 1


class _EarlyCompile:
    """A compile plan being compiled in the background before its engine exists (``start_early``)."""

    def __init__(self, key: str, label: str, spec: str, helpers: Any = None) -> None:
        self.key = key
        self.helpers = helpers  # helper processes started at once (a cold cache), or None
        self.label = label
        self.specs = {spec}  # the (game, engine) specs that asked for it
        self.done = threading.Event()
        self.rules_done = threading.Event()  # the kernels of the game's rules are compiled
        self.stop = threading.Event()
        self.report: PoolReport | None = None
        self.last: tuple[int, int, str] | None = None  # the last progress report
        self.listener: Progress | None = None
        self.lock = threading.Lock()
        self.times: dict[str, float] = {"started": time.perf_counter()}  # (perf_counter) for the bench

    def progress(self, done: int, total: int, what: str) -> None:
        with self.lock:
            self.last = (done, total, what)
            listener = self.listener
        if listener is not None:
            listener(done, total, what)

    def wait(self, progress: Progress | None, stop: threading.Event | None, rules_only: bool = False) -> None:
        """Wait until done (``rules_only``: until the rules' kernels are), sending the progress (the last
        report at once) to ``progress``; ``stop`` set: stop compiling (those being compiled are finished)."""
        until = self.rules_done if rules_only else self.done
        with self.lock:
            self.listener = progress
            last = self.last
        if progress is not None and last is not None:
            progress(*last)
        while not until.wait(0.1):
            if stop is not None and stop.is_set():
                self.stop.set()
        with self.lock:
            self.listener = None

    def run(self) -> None:
        try:
            plan = None if _marker_ok(self.key) else load_plan(self.key)
            if plan is not None and plan.seconds >= MIN_POOL_SECONDS:
                self.times["pool started"] = time.perf_counter()
                helpers, self.helpers = self.helpers, None
                self.report = compile_in_pool(plan, progress=self.progress, label=self.label, stop=self.stop,
                                              helpers=helpers, on_rules=self.rules_done.set)
                self.times["pool done"] = time.perf_counter()
        except Exception:  # noqa: BLE001 - only a head start: ``prepare`` does all of it anyway
            self.report = None
        finally:
            if self.helpers is not None:  # not needed after all (a warm cache)
                _stop_helpers(self.helpers)
                self.helpers = None
            self.rules_done.set()
            self.done.set()


_early: list[_EarlyCompile] = []
_early_lock = threading.Lock()


def start_early(game_spec: str, engine_spec: str = "") -> None:
    """Start compiling the kernels of ``game_spec``'s engine ``engine_spec`` (default: the game's default
    engine) now, in the background, before the program has built it: on a cold cache its compile plan
    is compiled in a pool (``compile_in_pool``) while the program starts (the window calls this before
    importing Qt). ``prepare`` of that engine then waits for it and takes over its progress. With a warm
    cache, no plan, parallel compilation off or a spec that is not one of our engines, it does nothing.
    Never raises. (The game is loaded here, in the calling thread: importing the game's package in a
    thread while the caller imports the program would race.)"""
    if not parallel_default():
        return
    helpers = None
    name = str(game_spec).split("(", 1)[0].strip().lower()
    if re.fullmatch(r"[a-z0-9_]+", name) and not _early and available_cores() > 1 and _surely_cold(name):
        # no engine of this game was ever prepared with this cache: surely cold. The helpers start now,
        # importing numba and the game while this thread loads the game (a second).
        helpers = _start_helpers([f"gamesuite.games.{name}"], available_cores() - 1, fork_ok=True)
    try:
        from .core.registry import check_engine_spec, load_game

        game = load_game(str(game_spec))
        entry, _ = check_engine_spec(game, str(engine_spec or ""))
        key = _plan_key_of(game, entry.name)
    except Exception:  # noqa: BLE001 - an external program's spec, a bad spec: ``prepare`` reports it
        if helpers is not None:
            _stop_helpers(helpers)
        return
    spec = f"{game_spec}|{engine_spec or ''}"
    with _early_lock:
        same = next((j for j in _early if j.key == key), None)
        if same is not None:
            same.specs.add(spec)
        else:
            job = _EarlyCompile(key, engine_label(game), spec, helpers)
            _early.append(job)
    if same is not None:
        if helpers is not None:
            _stop_helpers(helpers)
        return
    threading.Thread(target=job.run, name="early-compile", daemon=True).start()


def stop_early() -> None:
    """Stop the background compiles ``start_early`` began (the program is closing)."""
    with _early_lock:
        jobs = list(_early)
    for job in jobs:
        job.stop.set()


def wait_early(game_spec: str, progress: Progress | None = None, stop: threading.Event | None = None,
               rules_only: bool = False) -> None:
    """Wait for the background compiles asked for ``game_spec``'s engines (``start_early``), following
    their progress (``rules_only``: only until the kernels of the game's rules are compiled); ``stop``
    set: stop them."""
    with _early_lock:
        jobs = [j for j in _early if any(s.split("|", 1)[0] == str(game_spec) for s in j.specs)]
    for job in jobs:
        job.wait(progress, stop, rules_only)


def early_times() -> dict[str, float]:
    """When the background compiles started and ended (``time.perf_counter``; for the start-up bench)."""
    out: dict[str, float] = {}
    with _early_lock:
        for job in _early:
            out.update({f"early compile {k}": v for k, v in job.times.items()})
    return out


def _take_early(key: str) -> _EarlyCompile | None:
    """The background compile of ``key``, if one was started."""
    with _early_lock:
        return next((j for j in _early if j.key == key), None)


def prepare(game: Any, engine: Any, progress: Progress | None = None, parallel: bool | None = None,
            force: bool = False, stop: threading.Event | None = None) -> PrepareReport:
    """Make ``engine`` ready to search ``game`` at full speed: every kernel it needs compiled or loaded.

    ``progress(done, total, text)`` follows the compilation (``total`` 0: not known). ``parallel``:
    compile a cold cache in a pool of processes following the engine's compile plan (default:
    ``parallel_default()``). Returns at once for an engine already prepared (unless ``force``).
    ``stop`` set (the program is closing): the pool ends after the kernels it is compiling and
    ``prepare`` returns without the rest (``report.cancelled``).
    """
    t0 = time.perf_counter()
    key = plan_key(game, engine)
    report = PrepareReport(key=key)
    with _prepare_lock:
        try:
            if engine in _prepared and not force:
                report.seconds = time.perf_counter() - t0
                return report
        except TypeError:  # not weakly referable: prepare it every time (cheap once loaded)
            pass
        if parallel is None:
            parallel = parallel_default()
        label = engine_label(game)
        plan = load_plan(key)
        base = total = 0
        warm = _marker_ok(key)  # this key was prepared with the cache as it is: nothing to compile
        early = _take_early(key) if not warm else None
        if early is not None:  # started before the engine existed: wait for it, following its progress
            early.wait(progress, stop)
            report.pool = early.report
        elif plan is not None and parallel and not warm and plan.seconds >= MIN_POOL_SECONDS:
            report.pool = compile_in_pool(plan, progress=progress, label=label, stop=stop)
        if report.pool is not None:
            base = report.pool.compiled + report.pool.failed
            total = report.pool.total
        if stop is not None and stop.is_set():
            report.cancelled = True
            report.seconds = time.perf_counter() - t0
            return report
        elif plan is not None and progress is not None and not warm:
            total = sum(1 for e in plan.entries if not _entry_cached(e))

        def on_compiled(ev: Compiled) -> None:
            if progress is not None and ev.module.startswith("gamesuite"):
                n = base + len(trace.kernels())
                progress(n, max(total, n), label)

        with CompileTrace(on_compiled) as trace:
            warm_up_rules(game)
            rules = len(trace.events)
            warm_up_engine(game, engine)
        report.compiled = len(trace.kernels())
        report.compile_seconds = trace.seconds
        if report.compiled:
            saved = save_plan(_merge_plans(key, plan, trace, rules))
            report.plan_saved = str(saved or "")
        if not warm:
            _write_marker(key)
        try:
            _prepared.add(engine)
        except TypeError:
            pass
        done = base + report.compiled
        if progress is not None and done:
            progress(done, done, label)
    report.seconds = time.perf_counter() - t0
    return report


def cache_stamp() -> str:
    """What the compiled kernels depend on: gamesuite's kernel files, numba's version and the target CPU."""
    import numba
    from numba.core.registry import cpu_target

    magic = cpu_target.target_context.codegen().magic_tuple()
    text = f"{numba_cache.package_stamp()}|{numba.__version__}|{magic}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _marker_path(key: str) -> Path:
    return learned_plan_dir() / f"{key}.ready"


def _surely_cold(game_name: str) -> bool:
    """Whether no engine of ``game_name`` was ever prepared with this cache folder, and it has a compile
    plan (cheap: no numba, no game loaded)."""
    try:
        if any(learned_plan_dir().glob(f"{game_name}.*.ready")):
            return False
        return any(any(folder.glob(f"{game_name}.*.json")) for folder in (learned_plan_dir(), SHIPPED_PLANS))
    except OSError:
        return False


def _marker_ok(key: str) -> bool:
    """Whether ``key`` was prepared before with the same ``cache_stamp()`` (then the pool is not needed:
    the kernels are in the cache, or the warm-up compiles the few that are not)."""
    try:
        return _marker_path(key).read_text(encoding="utf-8").strip() == cache_stamp()
    except OSError:
        return False


def _write_marker(key: str) -> None:
    path = _marker_path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, cache_stamp() + "\n")
    except OSError:
        pass


def _entry_cached(e: PlanEntry) -> bool:
    disp = _kernel(e.module, e.name)
    types = parse_sig(e.sig)
    return disp is not None and types is not None and is_cached(disp, types)


def _merge_plans(key: str, old: CompilePlan | None, trace: CompileTrace, rules_events: int = 0) -> CompilePlan:
    """A plan from this process's trace, with the old plan's entries that the trace did not compile
    itself but this process loaded (from the cache or the pool) put first. An old entry this process
    never loaded (a kernel the engine no longer calls, or calls with other types; one of another
    engine) is dropped, so a plan does not grow with what was once compiled."""
    new = CompilePlan.from_trace(key, trace.events, recorded=_recorded_note(), rules_events=rules_events)
    if old is None:
        return new
    have = {(e.module, e.name, e.sig) for e in new.entries}
    keep: list[PlanEntry] = []
    index: dict[int, int] = {}
    for i, e in enumerate(old.entries):
        disp = _kernel(e.module, e.name)
        if disp is None or (e.module, e.name, e.sig) in have or params_hash(disp.py_func) != e.params:
            continue
        types = parse_sig(e.sig)
        if types is None or tuple(types) not in disp.overloads:
            continue
        index[i] = len(keep)
        keep.append(PlanEntry(e.module, e.name, e.sig, e.seconds, [], e.params, source_hash(disp.py_func), e.rules))
    for i, j in index.items():
        keep[j].deps = [index[d] for d in old.entries[i].deps if d in index]
    shift = len(keep)
    pos = {(e.module, e.name, e.sig): k for k, e in enumerate(keep)}
    for e in new.entries:
        e.deps = [d + shift for d in e.deps]
        keep.append(e)
    # a new entry that calls an old one it found in the cache depends on it, though the trace did not see
    # it compiled: numba links the loaded library; read such links from the old plan by name
    for e in keep[shift:]:
        for old_e in old.entries:
            if (old_e.module, old_e.name) == (e.module, e.name):
                for d in old_e.deps:
                    dk = (old.entries[d].module, old.entries[d].name, old.entries[d].sig)
                    if dk in pos and pos[dk] not in e.deps:
                        e.deps.append(pos[dk])
    return CompilePlan(key, keep, new.recorded)


def _recorded_note() -> str:
    import platform

    try:
        import numba

        nb = numba.__version__
    except ImportError:  # pragma: no cover
        nb = "?"
    try:
        load = f", load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    except OSError:
        load = ""
    return f"python {platform.python_version()}, numba {nb}, {time.strftime('%Y-%m-%d')}{load}"


def record_plan(game: Any, spec: str = "") -> tuple[CompilePlan, CompileTrace]:
    """Build the engine ``spec`` names and compile everything it needs in this process (the cache should
    be cold), tracing it from the start (some engines compile as they are built); the plan and the
    trace. Used by ``gamesuite bench startup --record``."""
    from .core.registry import make_engine

    with CompileTrace() as trace:
        warm_up_rules(game)  # first, as in the window (it takes moves once they are loaded)
        rules = len(trace.events)
        engine = make_engine(game, spec)
        warm_up_engine(game, engine)
    return CompilePlan.from_trace(plan_key(game, engine), trace.events, recorded=_recorded_note(),
                                  rules_events=rules), trace
