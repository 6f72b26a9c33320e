"""Getting engines ready (gamesuite.warmup): compile traces, compile plans, the compile pool, prepare,
the typing memo (gamesuite.numba_typing), and every front end loading before it searches."""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit

from gamesuite import numba_typing, warmup
from gamesuite.core.limits import Limits
from gamesuite.search.timeman import SAFETY_MS, allocate


def _fresh(code: str, cache_dir, timeout: float = 900) -> dict:
    """Run ``code`` in a new process with numba's cache in ``cache_dir``; it prints one JSON line last."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir)}
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                       timeout=timeout)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


# -- traces and plans (no processes) -----------------------------------------------------------------


def test_trace_records_each_compile_with_its_callees():
    @njit
    def leaf(x):
        return x + 1

    @njit
    def top(a):
        s = 0
        for v in a:
            s += leaf(v)
        return s

    with warmup.CompileTrace() as trace:
        assert top(np.arange(4)) == 10
    names = [e.name.rsplit(".", 1)[-1] for e in trace.events]
    assert "leaf" in names and "top" in names
    t = trace.events[names.index("top")]
    assert names.index("leaf") in t.deps  # top links leaf's compiled library
    assert t.total >= t.seconds >= 0 and t.sig.startswith("Array(int64, 1, 'C'")
    with warmup.CompileTrace() as again:
        top(np.arange(4))
    assert again.events == []  # nothing compiles twice


@pytest.mark.parametrize("types", [
    "Array(int8, 1, 'C', False, aligned=True), Array(int64, 2, 'C', False, aligned=True), int64, uint64",
    "Array(float64, 3, 'A', True, aligned=True), bool, float64, UniTuple(int64, 2)",
    "Tuple((int64, float64)), int32, none",
    "",
])
def test_signatures_survive_text(types):
    sig = warmup.parse_sig(types)
    assert sig is not None and warmup.sig_text(sig) == types


def test_literal_and_unknown_signatures_are_not_rebuilt():
    assert warmup.parse_sig("int64, Literal[int](2)") is None
    assert warmup.parse_sig("__import__('os')") is None
    assert warmup.parse_sig("Array(nosuchtype, 1, 'C')") is None


def test_plan_from_a_trace_keeps_dependencies_through_left_out_entries_and_round_trips():
    E = warmup.Compiled
    sig = "Array(int64, 1, 'C', False, aligned=True)"
    events = [
        E("gamesuite.search.tt", "tt_probe", sig + ", uint64", 0.1, 0.1, []),  # 0
        E("gamesuite.search.tt", "tt_store", sig + ", Literal[int](2)", 0.1, 0.1, [0]),  # 1: left out
        E("numba.cpython.unicode", "impl", "unicode_type", 0.1, 0.1, []),  # 2: left out
        E("gamesuite.search.tt", "tt_prefetch", sig + ", uint64", 0.3, 0.6, [1, 2]),  # 3: depends on 0 through 1
    ]
    plan = warmup.CompilePlan.from_trace("x.y", events)
    assert [e.name for e in plan.entries] == ["tt_probe", "tt_prefetch"]
    assert plan.entries[1].deps == [0]
    back = warmup.CompilePlan.from_json(plan.to_json())
    assert back == plan
    with pytest.raises(ValueError):
        warmup.CompilePlan.from_json(json.dumps({"version": 0, "key": "x", "entries": []}))


def test_shipped_plans_name_kernels_that_exist():
    shipped = sorted(warmup.SHIPPED_PLANS.glob("*.json"))
    assert shipped, "no compile plan is shipped"
    for path in shipped:
        plan = warmup.CompilePlan.from_json(path.read_text())
        assert plan.entries and plan.seconds > 0, path
        found = [warmup._kernel(e.module, e.name) is not None for e in plan.entries]
        assert sum(found) >= len(found) // 2, f"{path.name}: most kernels are gone; re-record it"
        for i, e in enumerate(plan.entries):
            assert all(d < i for d in e.deps), f"{path.name}: {e.name} needs a later entry"
            assert warmup.parse_sig(e.sig) is not None


def test_each_engine_has_a_plan_of_its_own():
    from gamesuite.core.registry import load_game, make_engine

    g = load_game("gomoku")
    keys = {warmup.plan_key(g, make_engine(g, spec)) for spec in ("", "mtdf,top=5", "negamax", "pvs")}
    assert keys == {"gomoku.mtdf", "gomoku.negamax", "gomoku.pvs"}  # (options do not change the kernels)
    assert warmup.plan_key(load_game("hare(players=3)"), make_engine(load_game("hare(players=3)"), "")) \
        == "hare.maxn.3p"
    for game in ("gomoku", "shogi", "hare"):  # the default engines' plans are shipped under their keys
        g = load_game(game)
        key = warmup.plan_key(g, make_engine(g, ""))
        assert (warmup.SHIPPED_PLANS / f"{key}.json").exists(), f"{key}: gamesuite bench startup --record"


def test_gomoku_warm_up_builds_only_the_engine_it_is_given(monkeypatch):
    from gamesuite.core.registry import load_game, make_engine
    from gamesuite.games.gomoku import engine as E

    built = []
    monkeypatch.setattr(E.GomokuEngine, "search", lambda self, *a, **k: built.append(self.algo))
    g = load_game("gomoku")
    E.warm_up(make_engine(g, ""))
    assert set(built) == {"mtdf"}  # not every algorithm's (the alphabeta engine's absearch) for the default
    built.clear()
    E.warm_up(make_engine(load_game("gomoku(rule=renju)"), "pvs"))
    assert set(built) == {"pvs"}
    built.clear()
    E.warm_up()
    assert set(built) == set(E.ALGORITHMS)  # no engine given: every one


def test_plan_status_names_what_changed_since_recording():
    from gamesuite.search import tt

    disp = tt.tt_probe
    sig = "Array(int64, 2, 'C', False, aligned=True), uint64"
    good = warmup.PlanEntry("gamesuite.search.tt", "tt_probe", sig, 1.0, [], warmup.params_hash(disp.py_func),
                            warmup.source_hash(disp.py_func))
    plan = warmup.CompilePlan("t.t", [good,
                                      warmup.PlanEntry(good.module, "tt_store", sig, 1.0, [], "x", ""),
                                      warmup.PlanEntry(good.module, "tt_gone", sig, 1.0, [], "x", ""),
                                      warmup.PlanEntry(good.module, "tt_probe", sig, 1.0, [], good.params, "old")])
    assert warmup.plan_status(plan) == {"gone": ["tt.tt_gone"], "params": ["tt.tt_store"], "source": ["tt.tt_probe"]}
    assert warmup.plan_status(warmup.CompilePlan("t.t", [good])) == {"gone": [], "params": [], "source": []}
    assert plan.critical_path()[0] == 1.0
    chain = warmup.CompilePlan("t.t", [good, warmup.PlanEntry(good.module, "tt_probe", sig, 2.0, [0], "", ""),
                                       warmup.PlanEntry(good.module, "tt_probe", sig, 0.5, [], "", "")])
    assert chain.critical_path() == (3.0, [0, 1])


def test_the_pool_says_when_the_rules_kernels_are_compiled():
    from gamesuite.search import tt

    probe = tt.tt_probe
    probe(tt.new_table(0.01), np.uint64(1))
    sig = warmup.sig_text(next(iter(probe.overloads)))  # cached: nothing to compile
    params = warmup.params_hash(probe.py_func)
    plan = warmup.CompilePlan("t.t", [warmup.PlanEntry("gamesuite.search.tt", "tt_probe", sig, 1.0, [], params,
                                                       "", True)])
    fired = []
    report = warmup.compile_in_pool(plan, workers=1, on_rules=lambda: fired.append(1))
    assert fired == [1] and report.cached == 1
    shogi = warmup.CompilePlan.from_json((warmup.SHIPPED_PLANS / "shogi.alphabeta.json").read_text())
    rules = [e for e in shogi.entries if e.rules]
    assert rules and len(rules) < len(shogi.entries)  # the board's kernels (the move generator), not the search's
    assert all(shogi.entries[d].rules for e in rules for d in e.deps)  # (compiled during the rules' warm-up)


def test_a_merged_plan_keeps_only_what_this_process_loaded():
    from gamesuite.search import tt

    probe = tt.tt_probe
    probe(tt.new_table(0.01), np.uint64(12345))  # loaded (or compiled) in this process
    used = next(iter(probe.overloads))
    params = warmup.params_hash(probe.py_func)
    unused = "Array(int64, 2, 'A', False, aligned=True), uint64"  # a layout nobody calls it with
    old = warmup.CompilePlan("t.t", [warmup.PlanEntry("gamesuite.search.tt", "tt_probe", warmup.sig_text(used),
                                                      1.0, [], params),
                                     warmup.PlanEntry("gamesuite.search.tt", "tt_probe", unused, 1.0, [], params)])
    with warmup.CompileTrace() as trace:
        pass
    merged = warmup._merge_plans("t.t", old, trace)
    assert [e.sig for e in merged.entries] == [warmup.sig_text(used)]


# -- the time manager (one for every front end) -------------------------------------------------------


def test_movetime_with_a_clock_caps_the_clock_budget():
    clock = Limits(time_left=(60_000, 60_000), moves_to_go=20)
    free = allocate(clock, 0)
    capped = allocate(Limits(time_left=(60_000, 60_000), moves_to_go=20, movetime=1000), 0)
    assert free.soft_ms == 3000 and capped.hard_ms == 1000 - SAFETY_MS and capped.soft_ms <= capped.hard_ms
    roomy = allocate(Limits(time_left=(60_000, 60_000), moves_to_go=20, movetime=100_000), 0)
    assert roomy == free  # a cap above the clock's budget changes nothing
    assert allocate(Limits(movetime=1000), 0).soft_ms == 1000 - SAFETY_MS  # movetime alone: as before
    assert allocate(Limits(time_left=(-50, 0)), 0).hard_ms == 1.0  # a flag already fallen: the least


# -- processes: cold caches ---------------------------------------------------------------------------

RECORD = """
import json
from gamesuite import warmup
from gamesuite.core.registry import load_game
g = load_game("tictactoe")
plan, trace = warmup.record_plan(g)
warmup.save_plan(plan)
print(json.dumps({"entries": len(plan.entries), "kernels": len(trace.kernels()), "key": plan.key}))
"""

POOL = """
import json
from gamesuite import warmup
from gamesuite.core.registry import load_game, make_engine
g = load_game("tictactoe")
plan = warmup.CompilePlan.from_json(open(%r).read())
plan.entries[-1].params = "stale"  # a kernel whose parameters changed since: left to the warm-up
warmup.save_plan(plan)  # as a plan learned by an earlier version
warmup.MIN_POOL_SECONDS = 0.0
warmup.available_cores = lambda: 2
calls = []
warmup.start_early("tictactoe")  # what the window does at launch: compiles before the engine exists
warmup.wait_early("tictactoe", progress=lambda d, t, w: calls.append((d, t)))
with warmup.CompileTrace() as trace:
    engine = make_engine(g, "")  # (the tictactoe engine loads its kernels as it is built)
    report = warmup.prepare(g, engine)  # takes over the early compile's report
print(json.dumps({"pool": vars(report.pool), "after": [e.name for e in trace.kernels()], "calls": calls}))
"""

WARM = """
import json
from gamesuite import warmup
from gamesuite.core.registry import load_game, make_engine
g = load_game("tictactoe")
calls = []
with warmup.CompileTrace() as trace:
    report = warmup.prepare(g, make_engine(g, ""), progress=lambda d, t, w: calls.append((d, t)))
print(json.dumps({"compiled": [e.name for e in trace.kernels()], "calls": calls, "pool": report.pool is not None}))
"""


def test_a_pool_of_processes_fills_the_cache_and_prepare_then_only_loads(tmp_path):
    rec = _fresh(RECORD, tmp_path / "a")
    assert rec["entries"] >= 2 and rec["key"] == "tictactoe.solver"
    plan_file = tmp_path / "a" / "gamesuite-plans" / "tictactoe.solver.json"
    assert plan_file.exists()  # a compile in the process records what it learned beside the cache
    out = _fresh(POOL % str(plan_file), tmp_path / "b")
    pool = out["pool"]
    assert pool["processes"] == 1 and pool["failed"] == 0 and pool["skipped"] == 1
    assert pool["compiled"] == rec["entries"] - 1 and pool["cached"] == 0
    # only the stale entry (and what depends on nothing else) is left to compile in the process
    assert 1 <= len(out["after"]) < rec["entries"]
    n = pool["compiled"]
    calls = out["calls"]  # "k of n" ... "n of n" (from when the window started listening)
    assert calls and calls[-1] == [n, n] and all(t == n for _, t in calls) and calls == sorted(calls)
    warm = _fresh(WARM, tmp_path / "b")
    assert warm == {"compiled": [], "calls": [], "pool": False}  # warm: nothing compiled, no progress, no pool


IR = """
import json, hashlib
from gamesuite import numba_typing, warmup
from gamesuite.games.tictactoe import kernels as K
from gamesuite.core.registry import load_game, make_engine
g = load_game("tictactoe")
with warmup.CompileTrace() as trace:
    warmup.warm_up_engine(g, make_engine(g, ""))
out = {}
for e in trace.kernels():
    disp = warmup._kernel(e.module, e.name)
    sig = warmup.parse_sig(e.sig)
    if sig is not None:
        out[e.name + "(" + e.sig + ")"] = hashlib.sha256(disp.inspect_asm(sig).encode()).hexdigest()
print(json.dumps({"asm": out, "memo": numba_typing.installed(), "hits": numba_typing.stats["hits"]}))
"""


def test_the_typing_memo_compiles_the_same_machine_code(tmp_path, monkeypatch):
    with_memo = _fresh(IR, tmp_path / "a")
    monkeypatch.setenv("GAMESUITE_NUMBA_TYPING_MEMO", "0")
    without = _fresh(IR, tmp_path / "b")
    assert with_memo["memo"] and not without["memo"]
    assert with_memo["hits"] > 0 and without["hits"] == 0
    assert len(with_memo["asm"]) >= 2
    assert with_memo["asm"] == without["asm"]


RECURSIVE = """
import json, hashlib
import numpy as np
from numba import njit
from gamesuite import numba_typing

@njit
def walk(n, a):
    if n < 2:
        return n + a[0]
    x = walk(n - 1, a)
    y = walk(n - 2, a)
    z = walk(n - 3, a) if n > 3 else 0
    return x + y + z

v = walk(20, np.zeros(1, dtype=np.int64))
asm = hashlib.sha256(walk.inspect_asm(walk.signatures[0]).encode()).hexdigest()
print(json.dumps({"v": int(v), "asm": asm, "on": numba_typing.partial_memo_installed(),
                  "hits": numba_typing.partial_stats["hits"]}))
"""


def test_a_recursive_kernel_is_typed_once_per_state_to_the_same_machine_code(tmp_path, monkeypatch):
    memo = _fresh(RECURSIVE, tmp_path / "a")
    monkeypatch.setenv("GAMESUITE_NUMBA_PARTIAL_MEMO", "0")
    plain = _fresh(RECURSIVE, tmp_path / "b")
    if not memo["on"]:  # a numba the memo was not checked against: it leaves numba alone
        assert memo["hits"] == 0
        pytest.skip("the partial-typing memo is off for this numba version")
    assert not plain["on"] and plain["hits"] == 0
    assert memo["hits"] > 0  # three recursive calls: numba asks again with the same types
    assert (memo["v"], memo["asm"]) == (plain["v"], plain["asm"])


def test_the_typing_memo_is_installed_in_this_process():
    assert numba_typing.installed() or os.environ.get("GAMESUITE_NUMBA_TYPING_MEMO") == "0"


# -- every front end: a fresh process's first search is a full search --------------------------------
# (limited by nodes, never by time: what is checked is that loading is not charged to the search)


def _talk(argv, lines, until, timeout=900):
    """Start ``gamesuite argv``, send ``lines`` and read its output until a line starts with ``until``."""
    p = subprocess.Popen([sys.executable, "-m", "gamesuite", *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        p.stdin.write("".join(line + "\n" for line in lines))
        p.stdin.flush()
        out = []
        for line in p.stdout:
            out.append(line.rstrip("\n"))
            if line.startswith(until):
                break
        return out
    finally:
        p.kill()
        p.wait(timeout=timeout)


def test_usi_first_search_of_a_fresh_engine():
    out = _talk(["engine", "usi"], ["usi", "isready", "position startpos", "go nodes 30000"], "bestmove")
    assert "readyok" in out and out[-1].startswith("bestmove ")
    depths = [int(x.split()[2]) for x in out if x.startswith("info depth")]
    assert depths and max(depths) >= 2, out[-5:]


def test_json_first_think_of_a_fresh_server():
    lines = [json.dumps({"cmd": "new", "game": "hare", "id": 1}),
             json.dumps({"cmd": "think", "nodes": 20000, "wait": True, "id": 2})]
    out = [json.loads(x) for x in _talk(["engine", "json"], lines, '{"type": "bestmove"')]
    assert out[-1]["type"] == "bestmove" and out[-1]["depth"] >= 2, out[-1]
    kinds = [x["type"] for x in out]
    assert "position" in kinds and "loading" not in kinds[kinds.index("position"):]  # loaded before answering


def test_analyse_first_search_of_a_fresh_process():
    r = subprocess.run([sys.executable, "-m", "gamesuite", "analyse", "hare", "--nodes", "20000", "--json"],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    last = json.loads(r.stdout.strip().splitlines()[-1])
    assert last["type"] == "bestmove" and last["depth"] >= 2, last


def test_front_ends_load_the_engine_before_searching(monkeypatch):
    """In process: each front end has prepared the engine when its first search starts."""
    import io

    from gamesuite.core.registry import load_game, make_engine
    from gamesuite.protocols import json as jsonproto
    from gamesuite.protocols import usi

    order = []
    real = warmup.prepare
    inside = []  # the warm-up's own searches do not count

    def spy_prepare(game, engine, *a, **k):
        order.append(("prepare", id(engine)))
        if not hasattr(type(engine), "_spied"):
            search = type(engine).search

            def spied(self, *sa, **sk):
                if not inside:
                    order.append(("search", id(self)))
                return search(self, *sa, **sk)

            monkeypatch.setattr(type(engine), "search", spied)
            monkeypatch.setattr(type(engine), "_spied", True, raising=False)
        inside.append(1)
        try:
            return real(game, engine, *a, **k)
        finally:
            inside.pop()

    monkeypatch.setattr(warmup, "prepare", spy_prepare)

    def first_search_prepared():
        searches = [i for i, (kind, _) in enumerate(order) if kind == "search"]
        assert searches, order
        eid = order[searches[0]][1]
        assert ("prepare", eid) in order[:searches[0]], order
        order.clear()

    out = io.StringIO()
    s = jsonproto.Session(out)
    s.handle_line(json.dumps({"cmd": "new", "game": "tictactoe", "id": 1}))
    s.handle_line(json.dumps({"cmd": "think", "depth": 3, "wait": True, "id": 2}))
    first_search_prepared()

    lines = []
    u = usi.UsiSession(lines.append)
    for line in ("usi", "setoption name Variant value mini", "isready", "position startpos", "go depth 2"):
        u.handle(line)
    u._wait()
    assert any(x.startswith("bestmove") for x in lines)
    first_search_prepared()

    from gamesuite.cli import main as cli_main

    assert cli_main(["analyse", "tictactoe", "--depth", "3", "--json"]) == 0
    first_search_prepared()
    g = load_game("gomoku(size=9)")
    assert make_engine(g, "")  # (the gomocup brain is checked in tests/test_gomocup.py)


def test_a_stopped_pool_compiles_nothing_more():
    import threading

    sig = "Array(int64, 2, 'A', False, aligned=True), uint64"  # a layout nobody calls it with
    disp = warmup._kernel("gamesuite.search.tt", "tt_probe")
    plan = warmup.CompilePlan("t.t", [warmup.PlanEntry("gamesuite.search.tt", "tt_probe", sig, 1.0, [],
                                                       warmup.params_hash(disp.py_func))])
    stop = threading.Event()
    stop.set()
    report = warmup.compile_in_pool(plan, workers=2, stop=stop)
    assert report.total == 1 and report.compiled == 0 and report.failed == 0


LITERALS = """
import json
from gamesuite import numba_typing, warmup
from gamesuite.core.registry import load_game
from gamesuite.core.limits import Limits
g = load_game("tictactoe")
plan, trace = warmup.record_plan(g, "mcts")
from gamesuite.core.registry import make_engine
r = make_engine(g, "mcts,seed=1").search(g.new_state(), Limits(nodes=3000))
print(json.dumps({"literal": [e.name for e in trace.kernels() if "Literal[" in e.sig],
                  "kernels": len(trace.kernels()), "on": numba_typing.unliteral_installed(), "move": r.best_move,
                  "nodes": r.nodes}))
"""


def test_kernels_are_compiled_for_plain_types_not_for_each_constant(tmp_path, monkeypatch):
    plain = _fresh(LITERALS, tmp_path / "a")
    monkeypatch.setenv("GAMESUITE_NUMBA_UNLITERAL", "0")
    literal = _fresh(LITERALS, tmp_path / "b")
    assert plain["on"] and not literal["on"]
    assert literal["literal"] and not plain["literal"]  # the MCTS calls _below(..., 0)
    assert plain["kernels"] < literal["kernels"]
    assert (plain["move"], plain["nodes"]) == (literal["move"], literal["nodes"])  # the same search


def test_a_slice_of_the_wrong_shape_still_raises():
    @njit
    def copy(a, b):
        a[1:] = b

    a = np.zeros(4, dtype=np.int64)
    copy(a, np.arange(3))
    assert list(a) == [0, 0, 1, 2]
    with pytest.raises(ValueError, match="cannot assign slice"):
        copy(a, np.arange(2))
    assert numba_typing.plain_shape_message_installed() or os.environ.get("GAMESUITE_NUMBA_SHAPE_MESSAGE") == "1"


def test_helpers_are_forked_only_where_no_other_thread_can_hold_a_lock(monkeypatch):
    import threading

    monkeypatch.delenv("GAMESUITE_HELPER_START", raising=False)
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    monkeypatch.setattr(warmup, "_os_threads", lambda: warmup._THREADS_AT_IMPORT)
    expected = "fork" if sys.platform.startswith("linux") else "spawn"
    assert warmup._helper_start_method(fork_ok=True) == expected
    assert warmup._helper_start_method() == "spawn"  # only where the caller allows it (start_early)
    monkeypatch.setattr(warmup, "_os_threads", lambda: warmup._THREADS_AT_IMPORT + 1)  # e.g. a Qt thread
    assert warmup._helper_start_method(fork_ok=True) == "spawn"
    monkeypatch.setattr(warmup, "_os_threads", lambda: warmup._THREADS_AT_IMPORT)
    monkeypatch.setattr(threading, "active_count", lambda: 2)  # another Python thread
    assert warmup._helper_start_method(fork_ok=True) == "spawn"
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    monkeypatch.setenv("GAMESUITE_HELPER_START", "spawn")
    assert warmup._helper_start_method(fork_ok=True) == "spawn"
    out: list[str] = []
    monkeypatch.delenv("GAMESUITE_HELPER_START")
    th = threading.Thread(target=lambda: out.append(warmup._helper_start_method(fork_ok=True)))
    th.start()
    th.join()
    assert out == ["spawn"]  # not from another thread than the main one
