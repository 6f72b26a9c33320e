"""Start-up: what each engine compiles, and how long each front end takes to its first full-strength move.

Every figure comes from the real program in a fresh process. *Cold*: numba's
cache is a new empty folder (``NUMBA_CACHE_DIR``), as on a first launch after
an install or an update: everything is compiled (with the shipped compile plans
in the package, as a new user has them). *Warm*: the same folder again, as that
first run left it. Wall times are from the launch of the process; CPU is the
seconds of CPU of the process and its helper processes (the compile pool), which
a loaded machine does not inflate as it does the wall times. ``depth`` is that
of the first search (``depth2``: the same search again in the same process, after
a new game), so a first search crippled by loading shows.

Front ends:

- ``compile``: ``warmup.prepare`` of the game's default engine, serial (one
  process) and with the compile pool, listing the kernels compiled (seconds
  each) and kernels compiled for more than one signature;
- ``analyse``: ``gamesuite analyse GAME --movetime MS`` to its ``bestmove``;
- ``json``: ``gamesuite engine json``: ``new`` to its answer, then the first
  ``think``;
- ``usi`` (shogi): ``usi`` and ``isready`` sent at launch, to ``readyok``, then
  ``go byoyomi MS``;
- ``gomocup`` (gomoku): ``START 15`` to ``OK``, a ``BOARD`` position to the
  move, then ``BEGIN`` on an empty board;
- ``window``: the window (offscreen) with the computer moving first, from the
  launch to its first move (its depth, with the engine's remark: gomoku's first
  move on an empty board is the centre, without a search); then a click to the
  computer's answer (a real search: its depth).

``--record`` writes the shipped compile plans (``gamesuite/warmup_plans/``) from
a cold serial compile of each game's default engine: run it after changing
kernels (a stale plan still works, only slower). ``--check`` says, without
compiling, whether they are current, with each plan's critical path.

    gamesuite bench startup                         # every game and front end, cold and warm
    gamesuite bench startup --games gomoku --fronts compile,window --cache cold
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any

GAMES = {
    # game: (spec, a middle-game position for the searches, Gomocup BOARD lines of it)
    "gomoku": ("gomoku", "h8 h9 i9 g7 j10 i8"),
    "shogi": ("shogi", None),
    "hare": ("hare", None),
}
FRONTS = ("compile", "analyse", "json", "usi", "gomocup", "window")
ONLY = {"usi": ("shogi",), "gomocup": ("gomoku",)}
TIMEOUT_S = 900.0


def _load() -> str:
    try:
        a, b, c = os.getloadavg()
        return f"load average {a:.2f} {b:.2f} {c:.2f} on {os.cpu_count()} cores"
    except OSError:
        return "load average unknown"


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


@dataclass
class Result:
    """One measurement: seconds since launch of named events, CPU seconds, depths, notes."""

    front: str
    game: str
    cache: str
    events: dict[str, float] = field(default_factory=dict)
    cpu: float = 0.0
    depth: int | None = None
    depth2: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    error: str = ""


class Proc:
    """A program under test, talked to line by line; times are seconds since its launch."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.cpu0 = _children_cpu()
        self.t0 = time.perf_counter()
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, bufsize=1, env=env)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def _read_err(self) -> None:
        assert self.p.stderr is not None
        for line in self.p.stderr:
            self.stderr.append(line.rstrip("\n"))

    def now(self) -> float:
        return time.perf_counter() - self.t0

    def send(self, *lines: str) -> None:
        assert self.p.stdin is not None
        for line in lines:
            self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def expect(self, pred: Any, timeout: float = TIMEOUT_S) -> tuple[str, list[str]]:
        """Read until a line satisfies ``pred``: that line and the lines before it."""
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise TimeoutError(f"no answer after {timeout:.0f} s; last lines {seen[-3:]}") from None
            if line is None:
                raise EOFError(f"the program ended; stderr: {' | '.join(self.stderr[-5:])}")
            if pred(line):
                return line, seen
            seen.append(line)

    def close(self, timeout: float = 60.0) -> float:
        """Wait for the end; the CPU seconds of the program and its helpers."""
        try:
            if self.p.stdin is not None:
                self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        return _children_cpu() - self.cpu0


def _gamesuite(*args: str) -> list[str]:
    """The command line of ``gamesuite ARGS`` (the program itself in a frozen build)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, *args]
    return [sys.executable, "-m", "gamesuite", *args]


def _cold_env(folder: str) -> dict[str, str]:
    """The environment of a run with an empty cache: numba's folder, or for a frozen build (which keeps its
    kernels in the user's cache folder, and copies its shipped ones there on a first launch) a fresh user
    cache folder."""
    env = {**os.environ, "NUMBA_CACHE_DIR": folder}
    if getattr(sys, "frozen", False):
        env["XDG_CACHE_HOME"] = os.path.join(folder, "user-cache")
    return env


# -- the front ends --------------------------------------------------------------------------------


def run_compile(game: str, cache: str, env: dict[str, str], serial: bool) -> Result:
    argv = _gamesuite("bench", "startup", "--probe", "compile", "--games", game) + (["--serial"] if serial else [])
    p = Proc(argv, env)
    line, _ = p.expect(lambda ln: ln.startswith("{"))
    cpu = p.close()
    d = json.loads(line)
    r = Result("compile" + (" serial" if serial else " pool"), game, cache, {"ready": d["wall"]}, cpu)
    r.extra = d
    return r


def run_analyse(game: str, cache: str, env: dict[str, str], ms: int) -> Result:
    spec, pos = GAMES[game][:2]
    argv = _gamesuite("analyse", spec, "--movetime", str(ms), "--json") + (["--position", pos] if pos else [])
    p = Proc(argv, env)
    line, before = p.expect(lambda ln: '"bestmove"' in ln and '"type": "bestmove"' in ln)
    t = p.now()
    cpu = p.close()
    r = Result("analyse", game, cache, {"bestmove": t}, cpu)
    r.depth = json.loads(line).get("depth")
    infos = [json.loads(x) for x in before if x.startswith("{")]
    if infos:
        r.events["first info"] = t - (infos[-1].get("time_ms", 0) or 0) / 1000.0  # when the search started
    return r


def run_json(game: str, cache: str, env: dict[str, str], ms: int) -> Result:
    spec, pos = GAMES[game][:2]
    p = Proc(_gamesuite("engine", "json"), env)
    new = {"cmd": "new", "game": spec, "id": 1}
    if pos:
        new["position"] = pos
    r = Result("json", game, cache)
    p.send(json.dumps(new))
    _, before = p.expect(lambda ln: '"type": "position"' in ln or '"type": "error"' in ln)
    r.events["new answered"] = p.now()
    r.extra["loading lines"] = sum('"loading"' in x for x in before)
    p.send(json.dumps({"cmd": "think", "movetime": ms, "wait": True, "id": 2}))
    line, _ = p.expect(lambda ln: '"type": "bestmove"' in ln)
    r.events["bestmove"] = p.now()
    r.depth = json.loads(line).get("depth")
    p.send(json.dumps(new), json.dumps({"cmd": "think", "movetime": ms, "wait": True, "id": 3}))
    line, _ = p.expect(lambda ln: '"type": "bestmove"' in ln and '"id": 3' in ln)
    r.depth2 = json.loads(line).get("depth")
    p.send(json.dumps({"cmd": "quit"}))
    r.cpu = p.close()
    return r


def _usi_depth(lines: list[str]) -> int | None:
    depths = [int(x.split()[2]) for x in lines if x.startswith("info depth ")]
    return max(depths) if depths else None


def run_usi(game: str, cache: str, env: dict[str, str], ms: int) -> Result:
    p = Proc(_gamesuite("engine", "usi"), env)
    r = Result("usi", game, cache)
    p.send("usi", "isready")
    p.expect(lambda ln: ln == "usiok")
    r.events["usiok"] = p.now()
    p.expect(lambda ln: ln == "readyok")
    r.events["readyok"] = p.now()
    p.send("usinewgame", "position startpos", f"go byoyomi {ms}")
    t = p.now()
    _, before = p.expect(lambda ln: ln.startswith("bestmove"))
    r.events["bestmove"] = p.now()
    r.extra["go to bestmove"] = p.now() - t
    r.depth = _usi_depth(before)
    p.send("usinewgame", "position startpos", f"go byoyomi {ms}")
    _, before = p.expect(lambda ln: ln.startswith("bestmove"))
    r.depth2 = _usi_depth(before)
    p.send("quit")
    r.cpu = p.close()
    return r


def _board_lines(game_spec: str, pos: str) -> list[str]:
    """The Gomocup ``BOARD`` lines of a gomoku position (our stones 1: the side to move)."""
    from ..core.registry import load_game

    g = load_game(game_spec)
    s = g.state_from_text(pos)
    n = len(s.history)
    out = ["BOARD"]
    for i, m in enumerate(s.history):
        y, x = divmod(m, int(getattr(g, "width")))  # noqa: B009 - a gomoku's (Game does not declare it)
        own = (n - i) % 2 == 0  # the side to move played the moves an even distance back
        out.append(f"{x},{y},{1 if own else 2}")
    return out + ["DONE"]


def _gomocup_depth(lines: list[str]) -> int | None:
    for x in lines:
        if x.startswith("MESSAGE result depth "):
            return int(x.split()[3])
    return None


def run_gomocup(game: str, cache: str, env: dict[str, str], ms: int) -> Result:
    spec, pos = GAMES[game][:2]
    assert pos is not None, f"{game}: no position for the Gomocup front end"
    board = _board_lines(spec, pos)
    p = Proc(_gamesuite("engine", "gomocup"), env)
    r = Result("gomocup", game, cache)
    p.send("START 15")
    p.expect(lambda ln: ln == "OK")
    r.events["OK"] = p.now()
    p.send(f"INFO timeout_turn {ms}", "INFO timeout_match 0", *board)
    t = p.now()
    _, before = p.expect(lambda ln: "," in ln and not ln.startswith(("MESSAGE", "ERROR", "UNKNOWN")))
    r.events["BOARD move"] = p.now()
    r.extra["BOARD to move"] = p.now() - t
    r.depth = _gomocup_depth(before)
    p.send("RESTART")
    p.expect(lambda ln: ln == "OK")
    t = p.now()
    p.send("BEGIN")
    p.expect(lambda ln: "," in ln and not ln.startswith(("MESSAGE", "ERROR", "UNKNOWN")))
    r.extra["BEGIN to move"] = p.now() - t
    p.send("RESTART")
    p.expect(lambda ln: ln == "OK")
    p.send(*board)
    _, before = p.expect(lambda ln: "," in ln and not ln.startswith(("MESSAGE", "ERROR", "UNKNOWN")))
    r.depth2 = _gomocup_depth(before)
    p.send("END")
    r.cpu = p.close()
    return r


def run_window(game: str, cache: str, env: dict[str, str], ms: int) -> Result:
    argv = _gamesuite("bench", "startup", "--probe", "window", "--games", game, "--movetime", str(ms))
    e = dict(env)
    e.setdefault("QT_QPA_PLATFORM", "offscreen")
    p = Proc(argv, e)
    line, _ = p.expect(lambda ln: ln.startswith("{"))
    cpu = p.close()
    d = json.loads(line)
    r = Result("window", game, cache, d.pop("events"), cpu)
    r.depth = d.pop("depth", None)
    r.depth2 = d.pop("depth2", None)
    r.extra = d
    return r


# -- probes: run inside the measured process -----------------------------------------------------------


def probe_compile(game: str, serial: bool) -> int:
    """Prepare the game's default engine in this (fresh) process; print what was compiled as JSON."""
    t0 = time.perf_counter()
    from .. import numba_typing, warmup
    from ..core.registry import load_game, make_engine

    g = load_game(GAMES[game][0])
    t1 = time.perf_counter()
    with warmup.CompileTrace() as trace:
        engine = make_engine(g, "")
        report = warmup.prepare(g, engine, parallel=not serial)
    t2 = time.perf_counter()
    kernels = sorted(trace.kernels(), key=lambda e: -e.seconds)
    helpers = sum(e.seconds for e in trace.events if not e.module.startswith("gamesuite"))
    out = {
        "wall": t2 - t0, "import": t1 - t0, "prepare": t2 - t1, "cpu_self": time.process_time(),
        "kernels": [[f"{e.module.rsplit('.', 1)[-1]}.{e.name}", round(e.seconds, 3), e.sig[:60]] for e in kernels],
        "compile_seconds": round(trace.seconds, 3), "helper_seconds": round(helpers, 3),
        "duplicates": trace.duplicates(), "duplicate_seconds": round(trace.duplicate_seconds(), 3),
        "typing_memo": dict(numba_typing.stats),
        "pool": None if report.pool is None else {k: v for k, v in vars(report.pool).items() if k != "errors"},
        "pool_errors": [] if report.pool is None else report.pool.errors[:5],
    }
    print(json.dumps(out), flush=True)
    return 0


def probe_record(game: str, folder: str) -> int:
    """Record the compile plan of the game's default engine (the cache should be cold) into ``folder``."""
    from .. import warmup
    from ..core.registry import load_game

    g = load_game(GAMES[game][0])
    plan, trace = warmup.record_plan(g)
    path = warmup.save_plan(plan, __import__("pathlib").Path(folder))
    print(json.dumps({"plan": str(path), "entries": len(plan.entries), "seconds": round(plan.seconds, 2),
                      "cpu": time.process_time()}), flush=True)
    return 0


def _launched_s_ago() -> float:
    """Seconds since this process was started (Linux; 0 where it cannot be read)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            up = float(f.read().split()[0])
        return max(0.0, up - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


def probe_window(game: str, ms: int) -> int:
    """Open the window with the computer moving first; print the times (since the process was launched)
    of its first move and of its answer to a click, as JSON (``gui.startup_probe``: Qt stays in ``gui``)."""
    t0 = time.perf_counter() - _launched_s_ago()
    from .. import warmup

    warmup.start_early(GAMES[game][0], "")  # what ``gui.app.start`` does for the last game played
    from ..gui.startup_probe import probe_window as probe

    print(json.dumps(probe(GAMES[game][0], ms, t0, TIMEOUT_S)), flush=True)
    return 0


def check_plans(games: list[str]) -> int:
    """Print, for each game's default engine, whether its shipped compile plan is current; 1 if one is
    stale or missing (then ``gamesuite bench startup --record``)."""
    from .. import warmup
    from ..core.registry import load_game, make_engine

    stale = 0
    for game in games:
        g = load_game(GAMES[game][0])
        key = warmup.plan_key(g, make_engine(g, ""))
        path = warmup.SHIPPED_PLANS / f"{key}.json"
        if not path.exists():
            print(f"{game}: no shipped plan {path.name}")
            stale += 1
            continue
        plan = warmup.CompilePlan.from_json(path.read_text(encoding="utf-8"))
        status = warmup.plan_status(plan)
        crit, chain = plan.critical_path()
        what = "; ".join(f"{k} {len(v)}: {', '.join(v[:6])}" + (" …" if len(v) > 6 else "")
                         for k, v in status.items() if v)
        print(f"{game}: {path.name}: {len(plan.entries)} kernels, {plan.seconds:.1f} s recorded "
              f"({plan.recorded}), critical path {crit:.1f} s ({' > '.join(plan.entries[i].name for i in chain)}); "
              + (f"STALE: {what}" if what else "current"))
        stale += bool(what)
    return 1 if stale else 0


# -- the report ------------------------------------------------------------------------------------------


def _fmt(r: Result) -> str:
    ev = ", ".join(f"{k} {v:.2f} s" for k, v in r.events.items())
    d = "" if r.depth is None else f"; depth {r.depth}" + ("" if r.depth2 is None else f" (again: {r.depth2})")
    if r.front == "window" and r.depth is not None:  # the answer to the click is always a real search
        note = r.extra.get("first move note") or ""
        d = f"; first move depth {r.depth}" + (f" ({note})" if note else "") + (
            "" if r.depth2 is None else f", answer to the click depth {r.depth2}")
    extra = {k: v for k, v in r.extra.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    ex = "".join(f"; {k} {v:.2f} s" if isinstance(v, float) else f"; {k} {v}" for k, v in extra.items()
                 if k not in ("wall", "import", "prepare", "cpu_self", "compile_seconds", "helper_seconds"))
    return f"  {r.front:<15} {r.game:<7} {r.cache:<5} {ev}; CPU {r.cpu:.1f} s{d}{ex}" + (
        f"  ERROR {r.error}" if r.error else "")


def _compile_details(r: Result, top: int) -> list[str]:
    d = r.extra
    out = [f"    {len(d['kernels'])} kernels compiled in this process in {d['compile_seconds']:.1f} s "
           f"(numba's own helpers {d['helper_seconds']:.1f} s), import {d['import']:.2f} s; typing memo "
           f"{d['typing_memo']}"]
    if d.get("pool"):
        p = d["pool"]
        out.append(f"    pool: {p['compiled']} compiled, {p['cached']} cached, {p['skipped']} skipped (stale plan), "
                   f"{p['failed']} failed, {p['processes']} helper processes, {p['seconds']:.1f} s")
        out += [f"      error: {e}" for e in d.get("pool_errors", [])]
    for name, secs, sig in d["kernels"][:top]:
        out.append(f"    {secs:7.2f} s  {name}({sig}…)")
    if d["duplicates"]:
        out.append(f"    {sum(len(v) - 1 for v in d['duplicates'].values())} more signatures of "
                   f"{len(d['duplicates'])} kernels: {d.get('duplicate_seconds', 0):.2f} s")
    for name, sigs in d["duplicates"].items():
        out.append(f"    compiled {len(sigs)} times: {name}: " + " | ".join(s[-60:] for s in sigs))
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="gamesuite bench startup", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", default=",".join(GAMES), help="games, comma-separated (default: all)")
    p.add_argument("--fronts", default=",".join(FRONTS), help=f"front ends (default: {','.join(FRONTS)})")
    p.add_argument("--cache", default="cold,warm", help="cold, warm or both (default)")
    p.add_argument("--movetime", type=int, default=1000, metavar="MS", help="search time of the moves (default 1000)")
    p.add_argument("--top", type=int, default=12, help="kernels listed per compile (default 12)")
    p.add_argument("--record", action="store_true",
                   help="record the shipped compile plans from a cold compile of each game and exit")
    p.add_argument("--check", action="store_true",
                   help="say whether the shipped compile plans are current (no compiling) and exit")
    p.add_argument("--json", action="store_true", help="print the results as JSON lines")
    p.add_argument("--probe", choices=("compile", "window", "record"), help=argparse.SUPPRESS)
    p.add_argument("--serial", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--out", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    for g in games:
        if g not in GAMES:
            p.error(f"unknown game {g!r}; known: {', '.join(GAMES)}")
    if args.probe == "compile":
        return probe_compile(games[0], args.serial)
    if args.probe == "window":
        return probe_window(games[0], args.movetime)
    if args.probe == "record":
        return probe_record(games[0], args.out)
    fronts = [f.strip() for f in args.fronts.split(",") if f.strip()]
    for f in fronts:
        if f not in FRONTS:
            p.error(f"unknown front end {f!r}; known: {', '.join(FRONTS)}")
    caches = [c.strip() for c in args.cache.split(",") if c.strip()]
    if any(c not in ("cold", "warm") for c in caches):
        p.error("--cache takes cold, warm or cold,warm")

    if args.check:
        return check_plans(games)
    if args.record:
        from ..warmup import SHIPPED_PLANS

        for g in games:
            with tempfile.TemporaryDirectory(prefix="gamesuite-cold-") as cold:
                env = _cold_env(cold)
                rec = Proc(_gamesuite("bench", "startup", "--probe", "record", "--games", g, "--out",
                                      str(SHIPPED_PLANS)), env)
                line, _ = rec.expect(lambda ln: ln.startswith("{"))
                rec.close()
                print(f"{g}: {line}")
        return 0

    print(f"gamesuite bench startup: {_load()}; movetime {args.movetime} ms; Python {sys.version.split()[0]}")
    runners = {
        "analyse": run_analyse, "json": run_json, "usi": run_usi, "gomocup": run_gomocup, "window": run_window,
    }
    results: list[Result] = []
    for game in games:
        for front in fronts:
            if front in ONLY and game not in ONLY[front]:
                continue
            variants = [True, False] if front == "compile" else [None]
            for serial in variants:
                with tempfile.TemporaryDirectory(prefix="gamesuite-cold-") as cold:
                    env = _cold_env(cold)
                    for cache in ("cold", "warm"):
                        if cache == "warm" and "cold" not in caches:
                            pass  # the warm run still needs the cold one before it, unreported
                        if front == "compile" and serial is False and cache == "warm":
                            continue  # the same as the serial warm run
                        try:
                            if front == "compile":
                                r = run_compile(game, cache, env, bool(serial))
                            else:
                                r = runners[front](game, cache, env, args.movetime)
                        except (TimeoutError, EOFError, ValueError, KeyError) as e:
                            r = Result(front, game, cache, error=f"{type(e).__name__}: {e}")
                        if cache in caches:
                            results.append(r)
                            if args.json:
                                print(json.dumps(vars(r)), flush=True)
                            else:
                                print(_fmt(r), flush=True)
                                if front == "compile" and cache == "cold" and "kernels" in r.extra:
                                    print("\n".join(_compile_details(r, args.top)), flush=True)
                        if r.error:
                            break
    print(f"done: {_load()}")
    return 1 if any(r.error for r in results) else 0
